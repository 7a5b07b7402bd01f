"""The few things the store asks of a database, so one `Store` runs on SQLite or PostgreSQL.

`Connection` is what a transaction body talks to; its three calls are named and behave
as aiosqlite's (`execute` returns something with `rowcount`, `execute_fetchall` returns
the rows as tuples, also for `INSERT ... RETURNING`), so store code reads the same on
both. `Database` is the whole database: statements outside a transaction, transactions,
the migration lock and the schema version. The SQL is the portable subset described at
the top of `schema.py`; each backend translates it if it must (`postgres_sql.py`).

Both backends raise the store's own errors: `IntegrityError` for a refused constraint,
`Unavailable` when the database cannot be used now, `Retry` (PostgreSQL only) when a
serializable transaction lost to a concurrent one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

# `?` placeholders take a sequence; `:name` placeholders a mapping.
Params = Sequence[Any] | Mapping[str, Any]
Row = tuple[Any, ...]


def is_postgres_url(target: object) -> bool:
    """Whether CARCA_DB (or --db) names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


@dataclass(frozen=True, slots=True)
class PoolStats:
    """A process's connections to the database, for its metrics and health check."""

    size: int  # the most it may have (SQLite: its one connection)
    in_use: int  # held by a statement or transaction now
    waiting: int  # callers waiting for one: the pool's queue


@dataclass(frozen=True, slots=True)
class Result:
    """What a statement did: how many rows it changed (-1 when the database does not say)."""

    rowcount: int


class Connection(Protocol):
    """Statements, inside a transaction or (on `Database`) each on its own."""

    async def execute(self, sql: str, params: Params = ()) -> Result: ...

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def executemany(self, sql: str, params: Iterable[Params]) -> None: ...


class Database(Connection, Protocol):
    """One database, as the store opened it."""

    kind: str  # "sqlite" or "postgresql"
    # Seconds a whole store call may take, its runs again included, before it is given
    # up as `Unavailable` (None: the database enforces its own limits, as SQLite's busy
    # timeout does; a statement in SQLite's thread cannot be stopped half way anyway).
    operation_timeout: float | None

    def pool_stats(self) -> PoolStats: ...

    def transaction(self, write: bool = True, serializable: bool = True
                    ) -> AbstractAsyncContextManager[Connection]:
        """A transaction: committed when the block ends, rolled back if it raises.

        `write`: the block may write, and runs as if alone (SQLite: BEGIN IMMEDIATE,
        one writer at a time; PostgreSQL: SERIALIZABLE). With `serializable` False, a
        write guarded by the rows it changes (a game's version) runs REPEATABLE READ on
        PostgreSQL: of two transactions changing one row the second is refused with
        `Retry`, and nothing else is checked. Otherwise a read-only snapshot (SQLite:
        BEGIN DEFERRED; PostgreSQL: REPEATABLE READ READ ONLY).
        """
        ...

    def migrating(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction that also holds the migration lock, so that of two
        processes starting at once only one migrates (the other then finds it done)."""
        ...

    async def schema_version(self, db: Connection | None = None) -> int:
        """How many migrations the database has had (0: none, or an empty database)."""
        ...

    async def set_schema_version(self, db: Connection, version: int) -> None: ...

    async def close(self) -> None: ...
