"""The SQLite backend (aiosqlite): one connection per process, one file.

An asyncio lock keeps one coroutine's transaction from interleaving with another's
statements on the shared connection. Write transactions are BEGIN IMMEDIATE: SQLite
lets one writer in at a time, across processes too, so a transaction body runs as if
alone. The schema version is `PRAGMA user_version`, as files have always had it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from carca_bot.store.driver import Connection, Params, PoolStats, Result, Row
from carca_bot.store.errors import IntegrityError, Unavailable

# What makes the database unusable for now rather than a statement wrong.
_PASSING = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY")


@contextlib.contextmanager
def unavailable_on_sqlite_trouble() -> Iterator[None]:
    """A locked, full or failing database as `Unavailable`; a refused constraint as the
    store's `IntegrityError`."""
    try:
        yield
    except IntegrityError:
        raise
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(str(exc)) from exc
    except sqlite3.OperationalError as exc:
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith(_PASSING):
            raise Unavailable(str(exc)) from exc
        raise


WAL_TRIES = 500  # times 0.02 s at most: as long as the busy timeout


async def _wal_mode(db: aiosqlite.Connection) -> None:
    """Switch to write-ahead logging. Switching takes a lock SQLite does not wait for
    (busy_timeout does not apply): when processes open a new file at the same moment,
    all but one are told "database is locked", so wait and try again."""
    for attempt in range(WAL_TRIES):
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == WAL_TRIES - 1:
                raise
            await asyncio.sleep(0.02)


class _InTransaction:
    """The connection as a transaction body sees it (the lock is already held)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Params = ()) -> Result:
        with unavailable_on_sqlite_trouble():
            cursor = await self._db.execute(sql, _params(params))
            return Result(cursor.rowcount)

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with unavailable_on_sqlite_trouble():
            return [tuple(r) for r in await self._db.execute_fetchall(sql, _params(params))]

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        with unavailable_on_sqlite_trouble():
            await self._db.executemany(sql, [_params(p) for p in params])


def _params(params: Params) -> Params:
    return params if isinstance(params, dict) else tuple(params)


class SqliteDatabase:
    """A SQLite file opened for the store."""

    kind = "sqlite"
    operation_timeout: float | None = None  # SQLite's busy timeout is the limit

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.connection = db  # for tests that set SQLite's own limits (PRAGMAs)
        self._io = asyncio.Lock()
        self._in = _InTransaction(db)
        self._waiting = 0

    def pool_stats(self) -> PoolStats:
        """The one connection: in use while a statement or transaction holds it."""
        return PoolStats(1, int(self._io.locked()), self._waiting)

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """The connection to oneself (statements and transactions take turns on it)."""
        self._waiting += 1
        try:
            await self._io.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._io.release()

    @classmethod
    async def open(cls, path: str | Path, synchronous: str = "FULL") -> SqliteDatabase:
        """`synchronous` FULL makes every commit survive a power cut; NORMAL keeps
        commits through a process crash only, for speed where that is enough."""
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute("PRAGMA busy_timeout = 10000")
            await _wal_mode(db)
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        async with self._io:
            await self.connection.close()

    # -- statements on their own --------------------------------------------------

    async def execute(self, sql: str, params: Params = ()) -> Result:
        async with self._turn():
            return await self._in.execute(sql, params)

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._turn():
            return await self._in.execute_fetchall(sql, params)

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        async with self._turn():
            await self._in.executemany(sql, params)

    # -- transactions -------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self, write: bool = True, serializable: bool = True
                          ) -> AsyncIterator[Connection]:
        # Every SQLite write transaction is serializable: one writer at a time.
        async with self._turn():
            with unavailable_on_sqlite_trouble():
                await self.connection.execute("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")
                try:
                    yield self._in
                    await self.connection.execute("COMMIT")
                except BaseException:
                    # SQLite may have rolled back already (a full disk does): roll back only
                    # what is still open, so the real cause is what the caller sees.
                    if self.connection.in_transaction:
                        await self.connection.execute("ROLLBACK")
                    raise

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[Connection]:
        """BEGIN IMMEDIATE is the lock: errors come out as SQLite raised them."""
        async with self._io:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield _Raw(self.connection)
            except BaseException:
                if self.connection.in_transaction:
                    await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    async def schema_version(self, db: Connection | None = None) -> int:
        if db is None:
            rows = await self.execute_fetchall("PRAGMA user_version")
        else:
            rows = await db.execute_fetchall("PRAGMA user_version")
        return int(rows[0][0])

    async def set_schema_version(self, db: Connection, version: int) -> None:
        await db.execute(f"PRAGMA user_version = {int(version)}")


class _Raw(_InTransaction):
    """Statements of a migration: SQLite's errors as they are, for the admin to read."""

    async def execute(self, sql: str, params: Params = ()) -> Result:
        cursor = await self._db.execute(sql, _params(params))
        return Result(cursor.rowcount)

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return [tuple(r) for r in await self._db.execute_fetchall(sql, _params(params))]
