"""Pictures drawn in worker processes (CARCA_WORKERS=processes): when the workers are
overloaded the reply goes out without its picture and says so; nothing else changes.
The AI thinks on the same processes (one pool)."""

from __future__ import annotations

from pathlib import Path

import pytest

from carca_bot.engine.game import Game
from carca_bot.workers import Busy, Thinker
from tests.bot.conftest import BotHarness, offline_bot
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


@pytest.mark.parametrize("kind", ["processes", "threads"])
async def test_the_ai_thinks_on_the_pictures_worker_processes(tmp_path: Path,
                                                               kind: str) -> None:
    """With worker processes the service's AI is a `Thinker` on the pictures' pool (its
    spare search then gives way to a picture); with render threads the service starts
    the AI's own processes when it first needs them."""
    async with offline_bot(tmp_path / "bot.db", env={"CARCA_WORKERS": kind}) as h:
        thinker = h.bot.service.thinker
        if kind == "threads":
            assert thinker is None and h.bot.pictures.pool is None
        else:
            assert isinstance(thinker, Thinker)
            assert h.bot.pictures.pool is not None and thinker.pool is h.bot.pictures.pool
