"""Tests on either backend: the `backend` and `db_target` fixtures, and looking into a
database of either kind beside the store.

`backend` is "sqlite" or "postgresql" (each test using it runs twice); `db_target` is what
CARCA_DB would say for it: a new SQLite file, or a new PostgreSQL database on the test
server (tests/store/pg_server.py), dropped after the test. Another test folder offers
them by importing them into its conftest.py:

    from tests.store.backends import backend, db_target
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from carca_bot.store.driver import Database, is_postgres_url
from carca_bot.store.sqlite_db import SqliteDatabase
from tests.store.pg_server import fresh_database, server_or_skip

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_target(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    if backend == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    async with fresh_database(server_or_skip()) as url:
        yield url


@asynccontextmanager
async def opened(target: str) -> AsyncIterator[Database]:
    """The database at `target` through its driver, not migrated."""
    db: Database
    if is_postgres_url(target):
        from carca_bot.store.postgres_db import PostgresDatabase

        db = await PostgresDatabase.open(target)
    else:
        db = await SqliteDatabase.open(Path(target))
    try:
        yield db
    finally:
        await db.close()


async def tables(target: str) -> set[str]:
    async with opened(target) as db:
        if db.kind == "sqlite":
            rows = await db.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            rows = await db.execute_fetchall(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()")
    return {str(r[0]) for r in rows}


async def columns(target: str, table: str) -> set[str]:
    async with opened(target) as db:
        if db.kind == "sqlite":
            rows = await db.execute_fetchall(f"SELECT name FROM pragma_table_info('{table}')")
        else:
            rows = await db.execute_fetchall(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = ?", (table,))
    return {str(r[0]) for r in rows}


async def schema_version(target: str) -> int:
    async with opened(target) as db:
        return await db.schema_version()


async def set_schema_version(target: str, version: int) -> None:
    async with opened(target) as db, db.migrating() as locked:
        await db.set_schema_version(locked, version)
