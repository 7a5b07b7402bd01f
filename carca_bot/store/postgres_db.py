"""The PostgreSQL backend (asyncpg): a pool of connections to one server, shared by
every bot process that points CARCA_DB at it.

Write transactions run SERIALIZABLE: PostgreSQL then lets each commit only if it could
have run alone, which is what SQLite's one-writer-at-a-time gave the store (a usage
limit checked and a game created in one transaction cannot both slip past a second
process doing the same). A transaction that loses to a concurrent one raises `Retry`,
having written nothing; the store runs the whole method again.

Except the commands' own writes, guarded by the one row they change (`serializable`
False: a move or other change of a game, bumping its version; the post delivered; a
lease; a reminder claimed), which run REPEATABLE READ: of two changing one row the
second gets `Retry`, and when run again finds the version moved (`Conflict`).
SERIALIZABLE tracks what a transaction read by index page, so on a small database the
moves of different games looked like conflicts to it: with every write SERIALIZABLE,
6 games played at once had moves refused as "busy" after every retry
(bench/service.py). Reads that need one snapshot run REPEATABLE READ READ ONLY, which
never has to be retried.

Nothing waits on the server without a limit (`PgSettings`, from the CARCA_DB_*
variables): a connection from the pool within `acquire_timeout`, a statement within
`statement_timeout` and a row lock within `lock_timeout` (both enforced by the server),
and a whole store call, its runs again included, within `operation_timeout` (enforced
here: a paused or unreachable server cannot enforce anything). Each limit is
`Unavailable`, which players hear as "could not be saved, try again", with the cause
in its message for the log. A connection given up on is closed at once, never waited
on: a server that is not answering would not answer its ROLLBACK either.

The schema version lives in a one-row table, `carca_schema`; migrations run under a
transaction-scoped advisory lock (`MIGRATION_LOCK`), so of several processes starting
at once one migrates and the others find the work done.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeAlias

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

from carca_bot.store.driver import Connection, Params, PoolStats, Result, Row
from carca_bot.store.errors import IntegrityError, Lost, Retry, Unavailable
from carca_bot.store.postgres_sql import to_postgres

POOL_SIZE = 10  # connections per process; PostgreSQL's default limit is 100 in all
LOCK_TIMEOUT_MS = 10_000  # as SQLite's busy_timeout: a lock held longer is `Unavailable`
# The advisory lock key of migrations (one 64-bit key space per database, shared with
# any other advisory locks the program takes: pick others far from this one).
MIGRATION_LOCK = 0x6361726361_0001  # "carca", 1
SCHEMA_TABLE = "carca_schema"  # the one-row table holding the schema version

# serialization_failure, deadlock_detected: nothing was written, run it again
RETRY_STATES = frozenset({"40001", "40P01"})
# The server cannot serve now: connection trouble (08), out of resources such as a full
# disk (53), shutting down or starting (57), its own I/O errors (58), a lock not had in
# time (55P03), a read-only standby (25006).
UNAVAILABLE_CLASSES = ("08", "53", "57", "58")
UNAVAILABLE_STATES = frozenset({"55P03", "25006"})
# The connection ended: admin_shutdown, crash_shutdown, cannot_connect_now (and class 08).
LOST_STATES = frozenset({"57P01", "57P02", "57P03"})

if TYPE_CHECKING:
    _Proxy: TypeAlias = PoolConnectionProxy[asyncpg.Record]
    _Any: TypeAlias = asyncpg.Connection[asyncpg.Record] | _Proxy


@dataclass(frozen=True)
class PgSettings:
    """How the backend uses the server: how many connections, how long anything may take.

    Read from the environment (`from_env`) by every program that opens the database:
    the bot, `carca-bot check`, `migrate` and the benches.
    """

    pool_size: int = POOL_SIZE  # CARCA_DB_POOL_SIZE: connections this process keeps
    acquire_timeout: float = 5.0  # CARCA_DB_ACQUIRE_TIMEOUT: seconds to get a connection
    statement_timeout: float = 10.0  # CARCA_DB_STATEMENT_TIMEOUT: seconds per statement
    operation_timeout: float = 15.0  # CARCA_DB_TIMEOUT: a whole store call, runs again included
    pgbouncer: bool = False  # CARCA_DB_PGBOUNCER: behind PgBouncer's transaction pooling

    def __post_init__(self) -> None:
        if not 1 <= self.pool_size <= 1000:
            raise ValueError(f"CARCA_DB_POOL_SIZE must be between 1 and 1000, not "
                             f"{self.pool_size}")
        for name, value in (("CARCA_DB_ACQUIRE_TIMEOUT", self.acquire_timeout),
                            ("CARCA_DB_STATEMENT_TIMEOUT", self.statement_timeout),
                            ("CARCA_DB_TIMEOUT", self.operation_timeout)):
            if not 0 < value <= 3600:
                raise ValueError(f"{name} must be a number of seconds above 0 and at most "
                                 f"3600, not {value:g}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> PgSettings:
        """The settings the CARCA_DB_* variables give (unset or empty: the default).
        ValueError, naming the variable, for a value that is not one."""
        env = os.environ if env is None else env

        def number(name: str, default: float, kind: type[int] | type[float]) -> Any:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                return kind(raw)
            except ValueError:
                what = "a whole number" if kind is int else "a number of seconds"
                raise ValueError(f"{name} must be {what}, not {raw!r}") from None

        flag = env.get("CARCA_DB_PGBOUNCER", "").strip().lower()
        if flag not in ("", "0", "1", "yes", "no", "true", "false"):
            raise ValueError(f"CARCA_DB_PGBOUNCER must be 1 or 0, not {flag!r}")
        default = cls()
        return cls(number("CARCA_DB_POOL_SIZE", default.pool_size, int),
                   number("CARCA_DB_ACQUIRE_TIMEOUT", default.acquire_timeout, float),
                   number("CARCA_DB_STATEMENT_TIMEOUT", default.statement_timeout, float),
                   number("CARCA_DB_TIMEOUT", default.operation_timeout, float),
                   flag in ("1", "yes", "true"))

    def timeouts(self) -> dict[str, str]:
        """The server's own limits, in milliseconds: a statement, a row lock (never
        longer than a statement), and a session idle inside a transaction (its process
        hangs or is paused while holding rows: the server ends it, freeing them)."""
        statement = int(self.statement_timeout * 1000)
        return {"statement_timeout": str(statement),
                "lock_timeout": str(min(LOCK_TIMEOUT_MS, statement)),
                "idle_in_transaction_session_timeout": str(int(self.operation_timeout * 1000))}


@contextlib.contextmanager
def _mapped(raw: bool = False, lost: type[Exception] = Lost) -> Iterator[None]:
    """asyncpg's errors as the store's; `raw` (migrations) leaves statement errors as
    PostgreSQL raised them, for the admin to read.

    A connection lost before COMMIT wrote nothing (PostgreSQL rolls back what it did not
    see committed), so it is `lost` = `Lost`, a `Retry`: the store runs the method again on
    another connection (after a server restart every pooled connection is dead, and only
    finding out tells). Lost during COMMIT, or on a statement of its own, the outcome is
    unknown: `lost` = `Unavailable`.
    """
    try:
        yield
    except asyncpg.PostgresError as exc:
        state = str(getattr(exc, "sqlstate", "") or "")
        if state in RETRY_STATES:
            raise Retry(str(exc)) from exc
        if raw:
            raise
        if state.startswith("23"):
            raise IntegrityError(str(exc)) from exc
        if state.startswith("08") or state in LOST_STATES:
            raise lost(str(exc)) from exc
        if state[:2] in UNAVAILABLE_CLASSES or state in UNAVAILABLE_STATES:
            raise Unavailable(str(exc)) from exc
        raise
    except (asyncpg.InterfaceError, asyncpg.InternalClientError, OSError,
            TimeoutError) as exc:
        # the connection closed, or closing under an operation (asyncpg then reports
        # its own state machine's surprise), or the server unreachable
        if raw:
            raise
        raise lost(str(exc) or type(exc).__name__) from exc


def _values(statement: str, params: Params) -> tuple[str, list[Any]]:
    """The statement as PostgreSQL reads it, and its values in `$n` order."""
    translated = to_postgres(statement)
    if translated.names is not None:
        if not isinstance(params, Mapping):
            raise TypeError("a statement with :name placeholders takes a mapping")
        return translated.sql, [params[n] for n in translated.names]
    if isinstance(params, Mapping):
        raise TypeError("a statement with ? placeholders takes a sequence")
    values = list(params)
    if len(values) != translated.count:
        raise ValueError(f"the statement takes {translated.count} values, not {len(values)}")
    return translated.sql, values


def _plain(value: Any) -> Any:
    """SQLite's kinds of values: a NUMERIC (what PostgreSQL's sum of BIGINTs is) comes
    back as an int when whole, else a float."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _row(record: asyncpg.Record) -> Row:
    return tuple(_plain(v) for v in record.values())


class _On:
    """Statements on one connection taken from the pool."""

    def __init__(self, conn: _Any, raw: bool = False,
                 lost: type[Exception] = Lost) -> None:
        self._conn = conn
        self._raw = raw
        self._lost = lost

    async def execute(self, sql: str, params: Params = ()) -> Result:
        text, values = _values(sql, params)
        with _mapped(self._raw, self._lost):
            return Result(_rowcount(await self._conn.execute(text, *values)))

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        text, values = _values(sql, params)
        with _mapped(self._raw, self._lost):
            return [_row(r) for r in await self._conn.fetch(text, *values)]

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        batch = [_values(sql, p) for p in params]
        if not batch:
            return
        with _mapped(self._raw, self._lost):
            await self._conn.executemany(batch[0][0], [values for _, values in batch])


def statements(conn: _Any) -> Connection:
    """The store's statements (portable SQL, the store's errors) on a connection of one's
    own, e.g. inside a transaction `carca-bot migrate` holds open."""
    return _On(conn)


def _rowcount(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 1", "INSERT 0 3")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PostgresDatabase:
    """A PostgreSQL database opened for the store."""

    kind = "postgresql"

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record],
                 settings: PgSettings | None = None) -> None:
        self.pool = pool
        self.settings = settings or PgSettings()
        self.operation_timeout: float | None = self.settings.operation_timeout
        self._waiting = 0  # callers waiting for a connection (a metric: the pool's queue)

    @classmethod
    async def open(cls, url: str, pool_size: int | None = None,
                   settings: PgSettings | None = None) -> PostgresDatabase:
        """The pool, with one connection made now (so a wrong URL shows at once).
        `settings` default to the environment's (`PgSettings.from_env`)."""
        settings = settings or PgSettings.from_env()
        if pool_size is not None:
            settings = PgSettings(pool_size, settings.acquire_timeout,
                                  settings.statement_timeout, settings.operation_timeout,
                                  settings.pgbouncer)
        extra: dict[str, Any] = {}
        if settings.pgbouncer:
            # PgBouncer refuses startup parameters it does not know, and a connection
            # it hands out may be another server session at each transaction: no named
            # prepared statements, and the limits set in each transaction.
            extra["statement_cache_size"] = 0
        else:
            extra["server_settings"] = settings.timeouts()
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=settings.pool_size,
                                             timeout=settings.acquire_timeout, **extra)
        except TimeoutError as exc:
            raise Unavailable(f"the database server did not answer within "
                              f"{settings.acquire_timeout:g} s") from exc
        return cls(pool, settings)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.pool.close(), self.settings.acquire_timeout)
        except TimeoutError:  # a server not answering: drop the connections unsaid
            self.pool.terminate()

    def pool_stats(self) -> PoolStats:
        size, idle = self.pool.get_size(), self.pool.get_idle_size()
        return PoolStats(self.settings.pool_size, size - idle, self._waiting)

    async def _acquire(self) -> _Proxy:
        """A connection within `acquire_timeout`; `Unavailable` saying why not."""
        self._waiting += 1
        try:
            return await self.pool.acquire(timeout=self.settings.acquire_timeout)
        except TimeoutError as exc:
            raise Unavailable(
                f"no database connection within {self.settings.acquire_timeout:g} s (all "
                f"{self.settings.pool_size} of this process's connections busy, or the "
                "server not answering)") from exc
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise Unavailable(f"cannot connect to the database server: "
                              f"{exc or type(exc).__name__}") from exc
        finally:
            self._waiting -= 1

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[_Proxy]:
        conn = await self._acquire()
        try:
            yield conn
        except asyncio.CancelledError:
            # Given up on (the call's time ran out) in the middle of a statement: the
            # server may be paused or gone, so close the socket rather than wait on it.
            # PostgreSQL rolls back whatever the connection had not committed.
            conn.terminate()
            raise
        finally:
            try:
                await self.pool.release(conn, timeout=self.settings.acquire_timeout)
            except Exception:  # its reset did not answer: close it
                with contextlib.suppress(Exception):
                    conn.terminate()

    # -- statements on their own (each its own transaction) ------------------------

    async def execute(self, sql: str, params: Params = ()) -> Result:
        """A statement on its own: a write whose connection is lost may have landed."""
        async with self._connection() as conn:
            return await _On(conn, lost=Unavailable).execute(sql, params)

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._connection() as conn:
            return await _On(conn).execute_fetchall(sql, params)

    async def executemany(self, sql: str, params: Iterable[Params]) -> None:
        async with self._connection() as conn, conn.transaction():
            await _On(conn, lost=Unavailable).executemany(sql, params)

    # -- transactions -------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self, write: bool = True, serializable: bool = True
                          ) -> AsyncIterator[Connection]:
        async with self._connection() as conn:
            tx = conn.transaction(
                isolation="serializable" if write and serializable else "repeatable_read",
                readonly=not write)
            with _mapped():
                await tx.start()
                if self.settings.pgbouncer:
                    await conn.execute("; ".join(
                        f"SET LOCAL {name} = {value}"
                        for name, value in self.settings.timeouts().items()))
            try:
                yield _On(conn)
            except asyncio.CancelledError:
                raise  # `_connection` closes it: no ROLLBACK sent to a hung server
            except BaseException:
                with contextlib.suppress(Exception):  # the connection may be gone
                    await asyncio.wait_for(tx.rollback(), self.settings.statement_timeout)
                raise
            with _mapped(lost=Unavailable):
                await tx.commit()

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[Connection]:
        async with self._connection() as conn:
            tx = conn.transaction()
            await tx.start()
            try:
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(
                    f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} ("
                    "one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), "
                    "version INTEGER NOT NULL)")
                yield _On(conn, raw=True)
            except BaseException:
                with contextlib.suppress(Exception):
                    await tx.rollback()
                raise
            await tx.commit()

    async def schema_version(self, db: Connection | None = None) -> int:
        reader: Connection = self if db is None else db
        rows = await reader.execute_fetchall(
            f"SELECT CASE WHEN to_regclass('{SCHEMA_TABLE}') IS NULL THEN 0 ELSE 1 END")
        if not rows[0][0]:
            return 0
        rows = await reader.execute_fetchall(f"SELECT version FROM {SCHEMA_TABLE}")
        return int(rows[0][0]) if rows else 0

    async def set_schema_version(self, db: Connection, version: int) -> None:
        await db.execute(
            f"INSERT INTO {SCHEMA_TABLE} (one, version) VALUES (TRUE, ?) "
            "ON CONFLICT (one) DO UPDATE SET version = excluded.version", (version,))
