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
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
async def service(db: Path, clock: Clock) -> AsyncIterator[GameService]:
    svc = await GameService.open(db, clock=clock)
    yield svc
    await svc.close()
