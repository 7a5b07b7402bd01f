"""Running the bot for real: online backups and health checks of the games database.

Both work on a live database: the bot keeps it in WAL mode, so a reader here sees
one consistent snapshot while the bot goes on writing, and never blocks it. Both
open the file without creating it (a typo in a path must not make a new, empty
database that looks healthy), read it without writing it or leaving files beside it,
and so work in a folder they may not write. The one write is the health check's
(`check --quick`): a test write that changes nothing, to find out whether the bot
could store a move. `database_problem` is the start-up check of `carca-bot run`.

Exit statuses of the command-line front ends: 0 all is well, 1 problems found,
2 the database (or the backup's destination) could not be used at all.

With a PostgreSQL CARCA_DB (or --db), `run_check` and `run_backup` hand over to
`pgops` (the same report, and `pg_dump`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from carca_bot.ops_report import (  # the names as ops has always had them
    CANNOT,
    MAX_LISTED,
    OK,
    PROBLEMS,
    CheckReport,
    GameProblem,
    OpsError,
    _integrity_lines,
    _publish,
    game_error,
    shown,
)
from carca_bot.ops_startup import database_problem

__all__ = [  # ops_report's names too, as this module has always offered them
    "CANNOT", "MAX_LISTED", "OK", "PROBLEMS", "BackupReport", "CheckReport", "GameProblem",
    "OpsError", "backup", "check", "database_problem", "default_db", "game_error", "run_backup",
    "run_check", "shown", "write_problem"]

DEFAULT_DB = "carca.sqlite3"
T = TypeVar("T")
WRITE_TIMEOUT = 5.0  # seconds the quick check waits for the write lock (the bot's are short)
MIN_FREE = 8 * 1024 * 1024  # bytes of free disk the quick check wants beside the database


def default_db() -> str:
    """Where the bot keeps its games: CARCA_DB, as `carca-bot run` reads it."""
    return os.environ.get("CARCA_DB", "").strip() or DEFAULT_DB


def _wal_mode(path: Path) -> bool:
    """Whether the file's header says write-ahead logging (bytes 18 and 19 are 2)."""
    with open(path, "rb") as handle:
        head = handle.read(20)
    return len(head) == 20 and head.startswith(b"SQLite format 3\x00") and head[18:20] == b"\2\2"


def _stamp(path: Path) -> tuple[int, int, int, int]:
    info = os.stat(path)
    return info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


class _Changed(Exception):
    """The file changed during a read that trusted it not to: read it again."""


@contextlib.contextmanager
def _open(path: Path, trust_quiet: bool = True) -> Iterator[sqlite3.Connection]:
    """An existing database, read-only, never created (`sqlite3.connect` would make an
    empty one at a mistyped path), and leaving no file behind.

    A read-only connection to a database in WAL mode creates the `-wal` and `-shm`
    files when they are missing and leaves them there (owned by whoever ran the check,
    which can lock the bot out), and cannot open at all in a folder it may not write.
    Missing `-wal` means no program has the database open, so everything is in the main
    file: it is then read as immutable (no lock, no side files), and if the file
    changed meanwhile (the bot started and wrote it back), `_Changed` asks for a
    second reading. `trust_quiet=False` always reads the normal way.
    """
    if not path.is_file():
        raise OpsError(f"no database at {path}")
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    try:
        wal_mode = _wal_mode(path)
        quiet = wal_mode and not wal.exists() and trust_quiet
        before = _stamp(path)
    except OSError as exc:
        raise OpsError(f"cannot read {path}: {exc.strerror or exc}") from None
    if wal_mode and wal.exists() and not shm.exists():
        raise OpsError(f"{wal} holds writes that are not in the database yet, and its index "
                       f"{shm} is missing: start the bot once (it recovers them), then check "
                       "again")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if quiet else "")
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise OpsError(f"cannot open {path}: {exc}") from None
    try:
        db.execute("PRAGMA busy_timeout = 5000")
        try:  # the first read of the header: where a file that is not a database shows
            db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except sqlite3.DatabaseError as exc:
            raise OpsError(f"cannot read {path}: {exc}") from None
        yield db
    finally:
        db.close()
    if quiet:
        try:
            changed = _stamp(path) != before
        except OSError:
            changed = True
        if changed:
            raise _Changed


READS = 3  # readings of a database that keeps changing under the quiet reading


def _read_steadily(read: Callable[[bool], T]) -> T:
    """`read(trust_quiet)`, again while the file changed under it; the last time the
    normal way, which a writer cannot disturb."""
    for _ in range(READS - 1):
        try:
            return read(True)
        except _Changed:
            continue
    return read(False)


def _integrity(db: sqlite3.Connection, quick: bool) -> list[str]:
    """SQLite's own verdict: ["ok"], or one line per problem (a damaged file may raise)."""
    pragma = "quick_check" if quick else "integrity_check"
    try:
        return [str(row[0]) for row in db.execute(f"PRAGMA {pragma}({MAX_LISTED + 1})")]
    except sqlite3.DatabaseError as exc:
        return [f"{pragma} stopped: {exc}"]


def _tables(db: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


# -- backup --------------------------------------------------------------------------


@dataclass(frozen=True)
class BackupReport:
    """What `backup` wrote, and what SQLite said of the copy."""

    source: Path
    dest: Path
    size: int  # bytes
    games: int
    actions: int
    integrity: list[str]  # ["ok"] when the copy is sound
    seconds: float

    @property
    def ok(self) -> bool:
        return self.integrity == ["ok"]

    def lines(self) -> list[str]:
        head = "backup written" if self.ok else "backup written but it is DAMAGED"
        return [f"{head}: {self.source} -> {self.dest}",
                f"{self.size / 1024:.0f} KiB, {self.games} games, {self.actions} moves, "
                f"{self.seconds:.2f} s",
                *_integrity_lines(self.integrity)]


def backup(db_path: str | Path, dest_path: str | Path, *,
           overwrite: bool = False) -> BackupReport:
    """Copy the database consistently while the bot may be writing to it.

    SQLite's backup API copies one snapshot in a single step (in WAL mode that
    blocks no writer), into a temporary file beside `dest_path`; the copy is
    switched to a plain rollback journal so it is one self-contained file, checked
    with `PRAGMA integrity_check`, and only then moved into place, so `dest_path`
    never holds half a backup. An existing `dest_path` is kept unless `overwrite`.
    """
    began = time.perf_counter()
    source, dest = Path(db_path), Path(dest_path)
    if not overwrite and dest.exists():
        raise OpsError(f"{dest} already exists: choose another name, or allow overwriting")
    if dest.exists() and not dest.is_file():
        raise OpsError(f"{dest} is not a file")
    if not dest.parent.is_dir():
        raise OpsError(f"no folder {dest.parent} to write the backup into")
    if dest.exists() and source.exists() and dest.resolve() == source.resolve():
        raise OpsError("the backup cannot overwrite the database it copies")
    partial = dest.with_name(f".{dest.name}.partial-{os.getpid()}")

    def copied(trust_quiet: bool) -> tuple[list[str], int, int]:
        with _open(source, trust_quiet) as db:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()  # a reading the source changed under
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                db.backup(copy)  # pages=-1: everything in one step, one snapshot
                copy.execute("PRAGMA journal_mode = DELETE")
                integrity = _integrity(copy, quick=False)
                tables = _tables(copy)
                games = _count(copy, "games") if "games" in tables else 0
                actions = _count(copy, "actions") if "actions" in tables else 0
            finally:
                copy.close()
        return integrity, games, actions

    try:
        integrity, games, actions = _read_steadily(copied)
        _publish(partial, dest, overwrite)
    except (sqlite3.Error, OSError) as exc:  # no room, no permission, a damaged source
        raise OpsError(f"the backup failed: {exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return BackupReport(source, dest, dest.stat().st_size, games, actions, integrity,
                        time.perf_counter() - began)


# -- check -----------------------------------------------------------------------------


def check(db_path: str | Path, quick: bool = False,
          write_timeout: float = WRITE_TIMEOUT) -> CheckReport:
    """SQLite's integrity check, then (unless `quick`) every stored game rebuilt.

    A game is rebuilt exactly as the service does after a restart (`rebuild`: the
    log replayed, then the unconfirmed steps), and its record written and replayed
    as `export` and `carca-bot replay` would. The quick form, for a container's
    health check, asks SQLite (`quick_check`), reads the schema version, and then
    makes sure the bot could write: a locked, read-only or full database is a
    problem (`write_problem`). Only the quick form writes, and it changes nothing.
    Raises OpsError when the file is missing or not a database.
    """
    path = Path(db_path)
    report = _read_steadily(lambda trust_quiet: _check_once(path, quick, trust_quiet))
    if not quick:
        return report
    problem = write_problem(path, write_timeout)
    if problem is not None:
        return replace(report, notes=[*report.notes, f"cannot write: {problem}"])
    return replace(report, info=[*report.info, "write test: ok"])


def _check_once(path: Path, quick: bool, trust_quiet: bool) -> CheckReport:
    from carca_bot.store.schema import SCHEMA_VERSION

    with _open(path, trust_quiet) as db:
        integrity = _integrity(db, quick)
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            tables = _tables(db)
        except sqlite3.DatabaseError as exc:
            return CheckReport(path, quick, integrity, -1, notes=[f"cannot read: {exc}"])
        if version == 0 and not tables:
            return CheckReport(path, quick, integrity, 0,
                               info=["an empty database: the bot sets it up when it starts"])
        if version > SCHEMA_VERSION:
            return CheckReport(path, quick, integrity, version, notes=[
                f"schema version {version} is newer than this program knows "
                f"({SCHEMA_VERSION}): check it with a newer carca-bot"])
        if version < SCHEMA_VERSION:
            return CheckReport(path, quick, integrity, version, notes=[
                f"schema version {version} is older than this program's ({SCHEMA_VERSION}): "
                "the bot upgrades it when it starts; games were not replayed"])
        if quick:
            try:  # the table the bot reads first must be readable
                games = _count(db, "games")
            except sqlite3.DatabaseError as exc:
                return CheckReport(path, quick, integrity, version,
                                   notes=[f"cannot read the games: {exc}"])
            return CheckReport(path, quick, integrity, version, games)
        try:
            games, problems = _replay_all(db)
        except sqlite3.DatabaseError as exc:
            return CheckReport(path, quick, integrity, version,
                               notes=[f"reading the games failed: {exc}"])
        return CheckReport(path, quick, integrity, version, games, problems)


def write_problem(path: Path, timeout: float = WRITE_TIMEOUT) -> str | None:
    """Why the bot could not store a move in the database now, or None when it could.

    A real write, as the bot makes them: the write lock within `timeout` seconds
    (a lock held longer is a problem), then the schema version written back with the
    value it has, committed. That rewrites the first page through the journal, so a
    read-only file or file system and a full disk show, and no data changes. Less
    than MIN_FREE bytes free beside the database is a problem too, before the bot
    finds it out in the middle of a game.
    """
    try:
        free = shutil.disk_usage(path.resolve().parent).free
    except OSError as exc:
        return f"cannot see the free space beside {path}: {exc.strerror or exc}"
    if free < MIN_FREE:
        return (f"only {free // 1024} KiB free on the disk holding {path} (the bot needs at "
                f"least {MIN_FREE // (1024 * 1024)} MiB to go on storing moves)")
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=rw", uri=True,
                             isolation_level=None, timeout=timeout)
    except sqlite3.Error as exc:
        return f"cannot open {path} for writing: {exc}"
    try:
        db.execute("BEGIN IMMEDIATE")  # waits `timeout` for the bot's write lock
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if path.stat().st_size > 0:  # an empty file stays empty: the lock is the test
                db.execute(f"PRAGMA user_version = {version}")
                db.execute("COMMIT")
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")
    except sqlite3.Error as exc:
        name = getattr(exc, "sqlite_errorname", "") or ""
        why = {"SQLITE_BUSY": f"locked by another program for more than {timeout:g} s",
               "SQLITE_FULL": "the disk is full",
               "SQLITE_IOERR": "the disk refused the write (full, or failing)",
               "SQLITE_READONLY": "it is read-only (the file, its folder or the disk)",
               "SQLITE_CANTOPEN": "it is read-only (the file, its folder or the disk)"}
        reason = next((text for key, text in why.items() if name.startswith(key)), None)
        return f"{path}: {reason} ({exc})" if reason else f"{path}: {exc}"
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    finally:
        db.close()
    return None


def _replay_all(db: sqlite3.Connection) -> tuple[int, list[GameProblem]]:
    """Every game, read in one snapshot (one read transaction), rebuilt and exported."""
    from carca_bot.store.store import GAME_COLUMNS

    problems: list[GameProblem] = []
    db.execute("BEGIN")
    try:
        rows = db.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id").fetchall()
        for row in rows:
            error = _game_error(db, row)
            if error is not None:
                gid, guild, channel, status = row[:4]
                problems.append(GameProblem(int(gid), str(guild), str(channel), str(status),
                                            error))
    finally:
        db.execute("COMMIT")
    return len(rows), problems


def _game_error(db: sqlite3.Connection, row: tuple[Any, ...]) -> str | None:
    """Why the game with this `games` row would not come back after a restart, if it would not.

    Anything at all may be wrong in a damaged file, so every exception is a finding.
    """
    from carca_bot.store.store import ACTIONS_OF_GAME, SEATS_OF_GAME, game_data

    try:
        data = game_data(row, db.execute(SEATS_OF_GAME, (row[0],)),
                         db.execute(ACTIONS_OF_GAME, (row[0],)))
    except sqlite3.DatabaseError:
        raise  # the file, not the game: reported once for the whole check
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return game_error(data)


def _on_postgres(args: argparse.Namespace) -> bool:
    from carca_bot.store.driver import is_postgres_url

    return is_postgres_url(_db_of(args))


# -- command line ----------------------------------------------------------------------


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, metavar="PATH",
                        help=f"the games database (default: $CARCA_DB, else {DEFAULT_DB})")


def add_backup_arguments(parser: argparse.ArgumentParser) -> None:
    """`carca-bot backup [--db PATH] [--overwrite] DEST`."""
    add_db_argument(parser)
    parser.add_argument("dest", metavar="PATH", help="the backup file to write")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace PATH if it exists (by default an existing file is kept)")


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """`carca-bot check [--db PATH] [--quick]`."""
    add_db_argument(parser)
    parser.add_argument("--quick", action="store_true",
                        help="no replay of games: the database answers and takes a write (a "
                             "health check)")


def _db_of(args: argparse.Namespace) -> str:
    return str(getattr(args, "db", None) or default_db())


def _where_from(args: argparse.Namespace) -> str:
    """Where the path came from, for messages about it."""
    if getattr(args, "db", None):
        return "--db"
    if os.environ.get("CARCA_DB", "").strip():
        return "CARCA_DB"
    return f"the default {DEFAULT_DB}: set CARCA_DB or pass --db PATH"


def run_backup(args: argparse.Namespace) -> int:
    """`carca-bot backup`: 0 written and sound, 1 written but damaged, 2 not written.
    On PostgreSQL, `pg_dump` into one file (`pgops.backup_postgres`)."""
    overwrite = bool(getattr(args, "overwrite", False))
    try:
        if _on_postgres(args):
            from carca_bot.pgops import backup_postgres

            print("\n".join(backup_postgres(_db_of(args), args.dest,
                                            overwrite=overwrite).lines()))
            return OK
        report = backup(_db_of(args), args.dest, overwrite=overwrite)
    except OpsError as exc:
        print(f"carca-bot backup: {exc}", file=sys.stderr)
        return CANNOT
    print("\n".join(report.lines()))
    return OK if report.ok else PROBLEMS


def run_check(args: argparse.Namespace) -> int:
    """`carca-bot check`: 0 healthy, 1 problems found, 2 no database to check (on
    PostgreSQL: `pgops.check_postgres`)."""
    quick = bool(getattr(args, "quick", False))
    try:
        if _on_postgres(args):
            import asyncio

            from carca_bot.pgops import check_postgres

            report = asyncio.run(check_postgres(_db_of(args), quick))
        else:
            report = check(_db_of(args), quick=quick)
    except OpsError as exc:
        print(f"carca-bot check: {exc} ({_where_from(args)})", file=sys.stderr)
        return CANNOT
    print("\n".join(report.lines()))
    return report.status


def add_migrate_arguments(parser: argparse.ArgumentParser) -> None:
    """`carca-bot migrate SQLITE_FILE postgresql://...`."""
    parser.add_argument("source", metavar="SQLITE_FILE", help="the bot's SQLite database")
    parser.add_argument("target", metavar="POSTGRESQL_URL",
                        help="a new, empty PostgreSQL database, as postgresql://user@host/db")
