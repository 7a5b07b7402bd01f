"""Looking into a database of either backend from a test, beside the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from carca_bot.store.driver import Database, is_postgres_url
from carca_bot.store.sqlite_db import SqliteDatabase


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
