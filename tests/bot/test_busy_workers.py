"""Pictures drawn in worker processes (CARCA_WORKERS=processes): when the workers are
overloaded the reply goes out without its picture and says so; nothing else changes."""

from __future__ import annotations

import pytest

from carca_bot.engine.game import Game
from carca_bot.workers import Busy
from tests.bot.conftest import BotHarness
from tests.bot.test_lobby import followups
from tests.bot.test_turns import started


async def test_a_busy_worker_pool_leaves_the_picture_out_and_says_so(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = await started(harness)

    async def busy(game: Game, max_bytes: int | None = None, language: str = "en") -> bytes:
        raise Busy("32 pictures waiting")

    monkeypatch.setattr(harness.bot.pictures, "board", busy)
    (board,) = followups(await harness.command(first, "board"))
    assert not board.files
    assert "busy drawing" in board.content and "/carc board" in board.content


async def test_other_render_errors_are_not_hidden(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = await started(harness)

    async def broken(game: Game, max_bytes: int | None = None, language: str = "en") -> bytes:
        raise ValueError("a bug")

    monkeypatch.setattr(harness.bot.pictures, "board", broken)
    logged: list[str] = []  # the harness fails on any error logged: this one is expected
    monkeypatch.setattr(harness.errors, "emit", lambda r: logged.append(r.getMessage()))
    (board,) = followups(await harness.command(first, "board"))
    assert not board.files and "busy drawing" not in board.content
    assert logged == ["command=board failed"]  # logged as the bug it is
