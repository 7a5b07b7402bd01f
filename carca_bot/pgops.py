"""`carca-bot check` and `carca-bot backup` on a PostgreSQL database (issue 30).

`check_postgres` reads the database without changing it (no migration: an older schema
is reported, not upgraded) in one REPEATABLE READ READ ONLY snapshot, so the bot may go
on writing: the schema version, every game rebuilt and its record replayed exactly as
the SQLite check does (`ops.game_error`), and the public-post outbox checked against
the games (versions in order, every owed change stored, nothing delivered left
behind). The quick form, a health check, only reads the version and the games' count
and makes a write that changes nothing (a read-only standby, a full disk or a lock
held too long shows).

`backup_postgres` runs PostgreSQL's own `pg_dump` (custom format: one file, restored
with `pg_restore`, see docs/postgresql.md), checks the file lists the tables with
`pg_restore --list`, and only then moves it into place. The password never goes on a
command line (other users can read those): it is handed over in PGPASSWORD.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from carca_bot.ops_report import (
    MAX_LISTED,
    CheckReport,
    GameProblem,
    OpsError,
    _publish,
    game_error,
    shown,
)
from carca_bot.store.driver import Connection
from carca_bot.store.errors import StoreError
from carca_bot.store.postgres_db import PgSettings, PostgresDatabase
from carca_bot.store.schema import SCHEMA_VERSION
from carca_bot.store.store import ACTIONS_OF_GAME, GAME_COLUMNS, SEATS_OF_GAME, game_data

BATCH = 500  # games read at a time
DUMP_TIMEOUT = 6 * 3600  # seconds pg_dump may take
# How long a post may have been under way, unconfirmed, before the check mentions it.
STUCK_POST = 3600.0


async def check_postgres(url: str, quick: bool = False) -> CheckReport:
    """The PostgreSQL `check` (see the module). Raises OpsError when the server or the
    database cannot be used at all."""
    try:
        db = await PostgresDatabase.open(url, settings=_settings())
    except (OSError, TimeoutError, StoreError, ValueError) as exc:
        raise OpsError(f"cannot use {shown(url)}: {exc or type(exc).__name__}") from None
    except Exception as exc:  # asyncpg's own: a missing database, a refused login
        raise OpsError(f"cannot use {shown(url)}: {exc}") from None
    try:
        return await _check(db, shown(url), quick)
    except StoreError as exc:
        return CheckReport(shown(url), quick, [], -1,
                           notes=[f"the database stopped answering: {exc}"])
    finally:
        await db.close()


def _settings() -> PgSettings:
    """The environment's settings, with room for a whole check's reads."""
    base = PgSettings.from_env()
    return PgSettings(2, base.acquire_timeout, max(base.statement_timeout, 60.0), 3600.0,
                      base.pgbouncer)


async def _check(db: PostgresDatabase, path: str, quick: bool) -> CheckReport:
    version = await db.schema_version()
    if version == 0:
        return CheckReport(path, quick, [], 0,
                           info=["an empty database: the bot sets it up when it starts"])
    if version != SCHEMA_VERSION:
        newer = version > SCHEMA_VERSION
        return CheckReport(path, quick, [], version, notes=[
            f"schema version {version} is newer than this program knows ({SCHEMA_VERSION}): "
            "check it with a newer carca-bot" if newer else
            f"schema version {version} is older than this program's ({SCHEMA_VERSION}): "
            "the bot upgrades it when it starts; games were not replayed"])
    if quick:
        rows = await db.execute_fetchall("SELECT count(*) FROM games")
        problem = await _write_problem(db)
        if problem is not None:
            return CheckReport(path, quick, [], version, int(rows[0][0]),
                               notes=[f"cannot write: {problem}"])
        return CheckReport(path, quick, [], version, int(rows[0][0]), info=["write test: ok"])
    async with db.transaction(write=False) as snapshot:
        games, problems = await _replay_all(snapshot)
        notes, info = await _outbox(snapshot)
    return CheckReport(path, quick, [], version, games, problems, notes, info)


async def _write_problem(db: PostgresDatabase) -> str | None:
    """Why the bot could not store a move now, or None: a write that changes nothing."""
    try:
        async with db.transaction() as tx:
            await tx.execute("UPDATE carca_schema SET version = version")
    except StoreError as exc:
        return str(exc)
    except Exception as exc:  # a read-only standby, a permission
        return f"{type(exc).__name__}: {exc}"
    return None


async def _replay_all(db: Connection) -> tuple[int, list[GameProblem]]:
    """Every game rebuilt and its record replayed, a batch of games at a time."""
    ids = [int(r[0]) for r in await db.execute_fetchall("SELECT id FROM games ORDER BY id")]
    problems: list[GameProblem] = []
    for start in range(0, len(ids), BATCH):
        chunk = ids[start:start + BATCH]
        marks = ", ".join("?" * len(chunk))
        rows = await db.execute_fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id IN ({marks}) ORDER BY id", chunk)
        seats = await _grouped(db, SEATS_OF_GAME, marks, chunk)
        actions = await _grouped(db, ACTIONS_OF_GAME, marks, chunk)
        for row in rows:
            gid = int(row[0])
            try:
                data = game_data(row, seats.get(gid, []), actions.get(gid, []))
                error = game_error(data)
            except Exception as exc:  # a row that does not even decode
                error = f"{type(exc).__name__}: {exc}"
            if error is not None:
                problems.append(GameProblem(gid, str(row[1]), str(row[2]), str(row[3]), error))
    return len(ids), problems


async def _grouped(db: Connection, one_game: str, marks: str, ids: list[int]
                   ) -> dict[int, list[tuple[Any, ...]]]:
    """The rows `one_game` (a statement for one game id, ordered) reads, for many games
    at once, by game."""
    columns = one_game.split("SELECT ", 1)[1].split(" FROM ", 1)[0]
    table = one_game.split(" FROM ", 1)[1].split(" ", 1)[0]
    order = one_game.rsplit("ORDER BY ", 1)[1]
    rows = await db.execute_fetchall(
        f"SELECT game_id, {columns} FROM {table} WHERE game_id IN ({marks}) "
        f"ORDER BY game_id, {order}", ids)
    found: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        found.setdefault(int(row[0]), []).append(tuple(row[1:]))
    return found


async def _outbox(db: Connection) -> tuple[list[str], list[str]]:
    """The public-post outbox against the games: problems, and what is said for
    information (posts owed now, posts under way)."""
    notes: list[str] = []
    checks = (
        ("games whose delivered post is past their last public change, or whose public "
         "change is past their version",
         "SELECT id FROM games WHERE posted_version > public_version "
         "OR public_version > version ORDER BY id"),
        ("games owed a post with no stored change to post",
         "SELECT g.id FROM games g WHERE g.public_version > g.posted_version AND NOT EXISTS "
         "(SELECT 1 FROM public_events e WHERE e.game_id = g.id "
         "AND e.version = g.public_version) ORDER BY g.id"),
        ("games with changes kept after their post was delivered, or past their version",
         "SELECT DISTINCT g.id FROM games g JOIN public_events e ON e.game_id = g.id "
         "WHERE e.version <= g.posted_version OR e.version > g.version ORDER BY g.id"),
        ("games with a post recorded for a version they never had",
         "SELECT DISTINCT g.id FROM games g JOIN post_deliveries d ON d.game_id = g.id "
         "WHERE d.kind = 'post' AND d.version > g.version ORDER BY g.id"),
    )
    for what, sql in checks:
        ids = [int(r[0]) for r in await db.execute_fetchall(sql)]
        if ids:
            listed = ", ".join(map(str, ids[:MAX_LISTED])) + (" ..." if len(ids) > MAX_LISTED
                                                              else "")
            notes.append(f"outbox: {len(ids)} {what}: {listed}")
    owed = await db.execute_fetchall(
        "SELECT count(*) FROM games WHERE public_version > posted_version")
    stuck = await db.execute_fetchall(
        "SELECT count(*) FROM post_deliveries WHERE message_id IS NULL AND began_at < ?",
        (time.time() - STUCK_POST,))
    info = [f"outbox: {'ok' if not notes else 'PROBLEMS'}, {int(owed[0][0])} games owed a "
            "post now"]
    if int(stuck[0][0]):
        info.append(f"outbox: {int(stuck[0][0])} posts began over an hour ago and were never "
                    "confirmed (the next catch-up looks for them in their channel)")
    return notes, info


# -- backup ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PgBackupReport:
    source: str  # the URL without its password
    dest: Path
    size: int
    tables: int  # tables listed in the dump
    seconds: float

    def lines(self) -> list[str]:
        return [f"backup written: {self.source} -> {self.dest}",
                f"{self.size / 1024:.0f} KiB, {self.tables} tables (pg_dump custom format), "
                f"{self.seconds:.2f} s",
                f"restore it with: pg_restore --no-owner --dbname=NEW_DATABASE_URL {self.dest}"]


def postgres_tool(name: str) -> str:
    """The path of PostgreSQL's client tool `name`: PG_BIN (when set, only there), the
    PATH, or the newest /usr/lib/postgresql/*/bin (Debian puts them there)."""
    if os.environ.get("PG_BIN"):
        candidate = Path(os.environ["PG_BIN"]) / name
        if candidate.is_file():
            return str(candidate)
        raise OpsError(f"PG_BIN={os.environ['PG_BIN']} has no {name}")
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                      key=lambda p: int(p.parents[1].name) if p.parents[1].name.isdigit() else 0)
    if versions:
        return str(versions[-1])
    raise OpsError(f"no {name} found: install PostgreSQL's client tools (Debian: "
                   "postgresql-client, as new as the server), or set PG_BIN")


def split_password(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that carries it instead."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, {}
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}@{host}" if user else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc)), {"PGPASSWORD": unquote(parts.password)}


def _run(tool: str, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([postgres_tool(tool), *args], capture_output=True, text=True,
                              timeout=DUMP_TIMEOUT, check=False, env={**os.environ, **env})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OpsError(f"{tool} failed: {exc}") from None


def backup_postgres(url: str, dest_path: str | Path, *, overwrite: bool = False
                    ) -> PgBackupReport:
    """`pg_dump` of the database into `dest_path` (see the module); OpsError if not made."""
    began = time.perf_counter()
    dest = Path(dest_path)
    if not overwrite and dest.exists():
        raise OpsError(f"{dest} already exists: choose another name, or allow overwriting")
    if dest.exists() and not dest.is_file():
        raise OpsError(f"{dest} is not a file")
    if not dest.parent.is_dir():
        raise OpsError(f"no folder {dest.parent} to write the backup into")
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")
    target, env = split_password(url)
    try:
        done = _run("pg_dump", ["--format=custom", "--no-owner", f"--file={partial}",
                                f"--dbname={target}"], env)
        if done.returncode != 0:
            raise OpsError(f"pg_dump failed ({done.returncode}): "
                           f"{_said(done.stderr, url)}")
        listed = _run("pg_restore", ["--list", str(partial)], {})
        if listed.returncode != 0:
            raise OpsError(f"the dump does not read back: {_said(listed.stderr, url)}")
        tables = sum(1 for line in listed.stdout.splitlines()
                     if re.search(r"\bTABLE DATA\b", line))
        if tables == 0:
            raise OpsError("the dump holds no table data: is this carca-bot's database?")
        _publish(partial, dest, overwrite)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return PgBackupReport(shown(url), dest, dest.stat().st_size, tables,
                          time.perf_counter() - began)


def _said(stderr: str, url: str) -> str:
    """A tool's complaint, last lines only, never with the password."""
    text = " ".join(stderr.strip().splitlines()[-3:])
    password = urlsplit(url).password
    return text.replace(password, "***") if password else text
