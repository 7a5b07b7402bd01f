"""Every store test runs on both backends: `backend` is "sqlite" or "postgresql", and
`db_target` is what CARCA_DB would say for it (a file path or a postgresql:// URL, a new
empty database each test); both from tests/store/backends.py. `store` is that database
opened. `pg_server` and `pg_url` (tests/store/pg_server.py) are the PostgreSQL test server
and a new database on it, for tests of PostgreSQL alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from carca_bot.store import Store
from tests.store.backends import backend, db_target
from tests.store.pg_server import pg_server, pg_url

__all__ = ["backend", "db_target", "pg_server", "pg_url"]  # offered here as fixtures


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()
