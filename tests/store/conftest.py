"""Every store test runs on both backends: `backend` is "sqlite" or "postgresql", and
`db_target` is what CARCA_DB would say for it (a file path or a postgresql:// URL, a new
empty database each test). `store` is that database opened."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from carca_bot.store import Store
from tests.store.pg_server import fresh_database, pg_server, pg_url, server_or_skip

__all__ = ["pg_server", "pg_url"]  # offered to the tests here as fixtures

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


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()
