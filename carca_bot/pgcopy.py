"""`carca-bot migrate SQLITE_FILE postgresql://...`: every game moved to PostgreSQL.

The source is read from a consistent snapshot (`ops.backup`, so the bot may even be
running on it), which is brought to this program's schema version in the temporary
copy: the source file itself is never written. The target gets the same schema
(`Store.open`), then, in ONE transaction, every table of the source, generically
(whatever tables the migrations made, parents before the tables that refer to them),
with its ids; identity sequences are moved past the copied ids. Before that transaction
commits, every game is read back from PostgreSQL with the store's own statements,
rebuilt (its log replayed by the engine, as the service does when it loads a game)
and compared with the same from SQLite; any difference rolls the whole copy back.
A target that already holds data is refused before anything is written.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from carca_bot.engine.record import write_record
from carca_bot.ops import CANNOT, MAX_LISTED, OK, PROBLEMS, OpsError, backup, shown
from carca_bot.service.live import Unreplayable, rebuild
from carca_bot.store import GameData, Store
from carca_bot.store.driver import Connection, is_postgres_url
from carca_bot.store.postgres_db import statements
from carca_bot.store.store import ACTIONS_OF_GAME, GAME_COLUMNS, SEATS_OF_GAME, game_data

BATCH = 5000  # rows read from SQLite and sent with COPY at a time


class CopyMismatch(Exception):
    """The copy read back from PostgreSQL differs from the source: rolled back."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{len(problems)} differences")
        self.problems = problems


@dataclass(frozen=True)
class CopyReport:
    source: Path
    target: str  # the URL without its password
    rows: dict[str, int]  # rows copied, per table, in copying order
    games_checked: int
    unreplayable: list[str] = field(default_factory=list)  # games that did not rebuild
    seconds: float = 0.0                                     # in the source either

    def lines(self) -> list[str]:
        counts = ", ".join(f"{table} {n}" for table, n in self.rows.items())
        out = [f"copied {self.source} -> {self.target} in {self.seconds:.1f} s",
               f"rows: {counts}",
               f"checked: all {self.games_checked} games rebuilt from PostgreSQL match the "
               "SQLite file"]
        if self.unreplayable:
            out.append(f"{len(self.unreplayable)} games do not rebuild in the SQLite file "
                       "either (copied as they are; `carca-bot check` tells more):")
            out += [f"  {line}" for line in self.unreplayable[:MAX_LISTED]]
        return out


async def copy_to_postgres(source: str | Path, url: str) -> CopyReport:
    """Copy every table of the SQLite database `source` into the PostgreSQL database at
    `url`, check it and commit; raises OpsError (nothing changed) or CopyMismatch
    (rolled back, nothing changed)."""
    began = time.perf_counter()
    if not is_postgres_url(url):
        raise OpsError(f"the target must be a postgresql:// URL, not {shown(url)!r}")
    with tempfile.TemporaryDirectory(prefix="carca-migrate-") as folder:
        snapshot = Path(folder) / "snapshot.sqlite3"
        backup(source, snapshot)
        try:
            await (await Store.open(snapshot)).close()  # the snapshot to this schema version
            await (await Store.open(url)).close()  # the target's schema
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise OpsError(f"cannot use {shown(url)}: {exc}") from None
        with sqlite3.connect(snapshot) as db:
            rows, checked, unreplayable = await _copy(db, url)
    return CopyReport(Path(source), shown(url), rows, checked, unreplayable,
                      time.perf_counter() - began)


async def _copy(db: sqlite3.Connection, url: str) -> tuple[dict[str, int], int, list[str]]:
    tables = tables_in_order(db)
    try:
        conn = await asyncpg.connect(url)
    except (OSError, asyncpg.PostgresError) as exc:
        raise OpsError(f"cannot connect to {shown(url)}: {exc}") from None
    try:
        async with conn.transaction():
            await conn.execute(f"LOCK TABLE {', '.join(tables)} IN EXCLUSIVE MODE")
            held = [t for t in tables if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]
            if held:
                raise OpsError(f"{shown(url)} already holds data (in {', '.join(held)}): "
                               "migrate only into a new, empty database; nothing was changed")
            rows: dict[str, int] = {}
            for table in tables:
                rows[table] = await _copy_table(db, conn, table)
            await _move_identities(conn)
            checked, unreplayable, problems = await _check(db, statements(conn), rows)
            if problems:
                raise CopyMismatch(problems)
    finally:
        await conn.close()
    return rows, checked, unreplayable


def tables_in_order(db: sqlite3.Connection) -> list[str]:
    """Every table of ours, each after the tables its foreign keys refer to."""
    names = sorted(str(r[0]) for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    parents = {t: {str(r[2]) for r in db.execute(f"PRAGMA foreign_key_list('{t}')")} - {t}
               for t in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [t for t in names if t not in ordered and parents[t] <= set(ordered)]
        if not ready:
            raise OpsError(f"the tables refer to each other in a circle: {names}")
        ordered += ready
    return ordered


# What each PostgreSQL column type wants from the Python value SQLite gave.
_KINDS: dict[str, Callable[[Any], Any]] = {
    "bigint": int, "integer": int, "smallint": int, "double precision": float,
    "real": float, "text": str, "boolean": bool}


async def _copy_table(db: sqlite3.Connection, conn: asyncpg.Connection[asyncpg.Record],
                      table: str) -> int:
    source_columns = [str(r[1]) for r in db.execute(f"PRAGMA table_info('{table}')")]
    types = {str(r[0]): str(r[1]) for r in await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1", table)}
    missing = [c for c in source_columns if c not in types]
    if missing:
        raise OpsError(f"PostgreSQL's {table} has no column {', '.join(missing)}: the two "
                       "schemas differ (is the target's carca-bot older?)")
    kinds = [_KINDS.get(types[c], _same) for c in source_columns]
    count = 0
    for batch in _batches(db.execute(f"SELECT {', '.join(_quoted(source_columns))} "
                                     f"FROM {table} ORDER BY rowid")):
        records = [tuple(None if v is None else kind(v) for kind, v in zip(kinds, row,
                                                                          strict=True))
                   for row in batch]
        await conn.copy_records_to_table(table, records=records, columns=source_columns)
        count += len(records)
    return count


def _same(value: Any) -> Any:
    return value


def _quoted(columns: list[str]) -> list[str]:
    return ['"' + c.replace('"', '""') + '"' for c in columns]


def _batches(cursor: sqlite3.Cursor) -> Iterator[list[tuple[Any, ...]]]:
    while batch := cursor.fetchmany(BATCH):
        yield batch


async def _move_identities(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """Each identity column's sequence past the largest copied id, so the next game
    the bot makes gets a new one."""
    for table, column in await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"):
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
            f"coalesce(max({column}), 1), max({column}) IS NOT NULL) FROM {table}")


async def _check(db: sqlite3.Connection, target: Connection, rows: dict[str, int]
                 ) -> tuple[int, list[str], list[str]]:
    """Every game read back with the store's statements and rebuilt, against the same
    from SQLite; the row counts too. Returns (games, unreplayable, problems)."""
    problems: list[str] = []
    for table, copied in rows.items():
        there = int((await target.execute_fetchall(f"SELECT count(*) FROM {table}"))[0][0])
        if there != copied:
            problems.append(f"{table}: {copied} rows copied, {there} in PostgreSQL")
    unreplayable: list[str] = []
    ids = [int(r[0]) for r in db.execute("SELECT id FROM games ORDER BY id")]
    for game_id in ids:
        row = db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        mine = game_data(row, db.execute(SEATS_OF_GAME, (game_id,)),
                         db.execute(ACTIONS_OF_GAME, (game_id,)))
        got = await target.execute_fetchall(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?",
                                            (game_id,))
        if not got:
            problems.append(f"game {game_id}: missing in PostgreSQL")
            continue
        theirs = game_data(got[0], await target.execute_fetchall(SEATS_OF_GAME, (game_id,)),
                           await target.execute_fetchall(ACTIONS_OF_GAME, (game_id,)))
        if theirs != mine:
            problems.append(f"game {game_id}: its rows differ")
            continue
        from_sqlite, from_postgres = _rebuilt(mine), _rebuilt(theirs)
        if from_postgres != from_sqlite:
            problems.append(f"game {game_id}: rebuilt from PostgreSQL it differs")
        elif from_sqlite.startswith("!"):
            unreplayable.append(f"game {game_id}: {from_sqlite[1:]}")
    return len(ids), unreplayable, problems


def _rebuilt(data: GameData) -> str:
    """What the service would have in memory after loading the game, as text to compare
    (or "!" and why it would not load)."""
    try:
        live = rebuild(data)
    except Unreplayable as exc:
        return f"!{exc}"
    game = live.game
    state: dict[str, Any] = {"seq": live.seq, "pending": None if live.pending is None
                             else repr(live.pending)}
    if game is not None:
        state |= {"record": write_record(game), "scores": list(game.scores),
                  "turn": game.turn, "finished": game.finished, "deciding": game.deciding}
    return json.dumps(state, sort_keys=True, default=repr)


# -- command line ----------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """`carca-bot migrate`: 0 copied and checked, 1 the check failed (rolled back), 2 not
    done (nothing changed)."""
    try:
        report = asyncio.run(copy_to_postgres(args.source, args.target))
    except OpsError as exc:
        print(f"carca-bot migrate: {exc}", file=sys.stderr)
        return CANNOT
    except CopyMismatch as exc:
        print("carca-bot migrate: the copy read back from PostgreSQL differs from the "
              "SQLite file, so it was rolled back (nothing changed):", file=sys.stderr)
        for line in exc.problems[:MAX_LISTED]:
            print(f"  {line}", file=sys.stderr)
        if len(exc.problems) > MAX_LISTED:
            print(f"  ... and {len(exc.problems) - MAX_LISTED} more", file=sys.stderr)
        return PROBLEMS
    print("\n".join(report.lines()))
    return OK
