"""The service, on a fresh SQLite file with a clock the tests move, for the events tests
that go through it (as tests/service/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from carca_bot.service import GameService
from tests.service.helpers import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path: Path, clock: Clock) -> AsyncIterator[GameService]:
    svc = await GameService.open(tmp_path / "games.sqlite3", clock=clock)
    yield svc
    await svc.close()
