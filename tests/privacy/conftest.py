"""Every test here that opens a database runs on SQLite and on PostgreSQL (the store
tests' `backend` and `db_target` fixtures, tests/store/backends.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from carca_bot.service import GameService
from tests.service.helpers import Clock
from tests.store.backends import backend, db_target

__all__ = ["backend", "db_target"]  # offered here as fixtures


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(db_target: str, clock: Clock) -> AsyncIterator[GameService]:
    opened = await GameService.open(db_target, clock=clock)
    yield opened
    await opened.close()
