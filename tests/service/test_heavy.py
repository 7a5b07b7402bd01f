"""Replays and rebuilds run off the event loop; imports are bounded in size and time."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.record import play_action, write_record
from carca_bot.engine.setup import Setup
from carca_bot.service import BadInput, GameService, Limits, NoGameHere
from carca_bot.service import core as core_module
from carca_bot.service import heavy as heavy_module
from carca_bot.service import live as live_module
from tests.service.helpers import CY, HERE, THERE, Clock, raises_saying, started


def _whole_game() -> dict[str, Any]:
    players = tuple(f"P{i}" for i in range(6))
    return write_record(random_game(Setup(players, frozenset(EXPANSIONS), seed=1),
                                    random.Random(1)))


Play = Callable[[Game, dict[str, Any]], None]


def _slow_actions(monkeypatch: pytest.MonkeyPatch, seconds: float) -> Play:
    """Every replayed action costs `seconds` of CPU: a record that takes long to replay."""
    play = play_action

    def slow(game: Game, action: dict[str, Any]) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            pass
        play(game, action)

    monkeypatch.setattr(heavy_module, "play_action", slow)
    return slow


async def _ticks_during(work: Any) -> tuple[Any, int]:
    """Run `work` while a ticker on the loop counts its 10 ms sleeps: work done on the
    loop itself lets no tick through until it ends. A count, not a time, so a loaded
    machine slows the test but cannot fail it."""
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.015)  # the ticker is asleep, and due, when the work begins
    ticks = 0
    try:
        result = await work
    finally:
        done.set()
        await task
    return result, ticks


def _on_the_loop(monkeypatch: pytest.MonkeyPatch, play: Play) -> list[bool]:
    """Whether each replayed action (played by `play`) ran on a thread with a running
    event loop."""
    seen: list[bool] = []

    def watched(game: Game, action: dict[str, Any]) -> None:
        try:
            asyncio.get_running_loop()
            seen.append(True)
        except RuntimeError:
            seen.append(False)
        play(game, action)

    monkeypatch.setattr(heavy_module, "play_action", watched)
    return seen


async def test_the_loop_keeps_running_while_a_large_import_replays(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    record = _whole_game()
    slow = _slow_actions(monkeypatch, 0.005)  # about 0.6 s of replay in all
    on_loop = _on_the_loop(monkeypatch, slow)
    view, ticks = await _ticks_during(service.import_record(HERE, CY, record))
    assert view.moves == len(record["actions"])
    assert on_loop and not any(on_loop), "a replayed action ran on the event loop"
    # 0.6 s of replay in a worker leaves the loop free to tick many times; on the loop,
    # the ticker would wake once at the very end.
    assert ticks >= 5, f"the loop ticked {ticks} times while the replay ran"


async def test_an_import_over_its_time_budget_is_refused(
        db: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    service = await GameService.open(db, clock=clock, limits=Limits(import_seconds=0.2))
    try:
        _slow_actions(monkeypatch, 0.005)
        with raises_saying(BadInput, r"takes too long to replay \(over 0.2 s\)"):
            await service.import_record(HERE, CY, _whole_game())
        with pytest.raises(NoGameHere):
            await service.status(HERE)
    finally:
        await service.close()


async def test_an_import_over_its_size_is_refused_before_parsing(
        db: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    service = await GameService.open(db, clock=clock, limits=Limits(record_bytes=4096))
    try:
        parsed: list[object] = []
        loads = json.loads

        def counted(*args: Any, **kwargs: Any) -> Any:
            parsed.append(args)
            return loads(*args, **kwargs)

        monkeypatch.setattr(json, "loads", counted)
        raw = json.dumps(_whole_game()).encode()
        with raises_saying(BadInput, r"a game record may be at most 4 KiB"):
            await service.import_record(HERE, CY, raw)
        assert parsed == []  # refused before parsing
        with raises_saying(BadInput, "at most 4 KiB"):
            await service.import_record(HERE, CY, _whole_game())  # already parsed: measured
        small = {"format": "carca-record/1", "players": ["A", "B"], "actions": []}
        assert (await service.import_record(HERE, CY, json.dumps(small).encode())).moves == 0
        with raises_saying(BadInput, "nested too deeply"):  # as `carca-bot replay` says
            await service.import_record(THERE, CY, b"{" * 3000)
        with raises_saying(BadInput, "goes wrong at line 1, column 2"):
            await service.import_record(THERE, CY, b"{]")
    finally:
        await service.close()


async def test_rebuilding_a_game_runs_in_a_worker_thread(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    await started(service)
    threads: list[str] = []
    rebuild = live_module.rebuild

    def watched(data: Any) -> Any:
        threads.append(threading.current_thread().name)
        return rebuild(data)

    monkeypatch.setattr(core_module, "rebuild", watched)
    service._cache.clear()  # as after a restart
    await service.status(HERE)
    assert threads and all(name.startswith("carca-rebuild") for name in threads)
