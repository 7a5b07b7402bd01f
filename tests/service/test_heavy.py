"""Replays and rebuilds run off the event loop; imports are bounded in size and time."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
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


def _slow_actions(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every replayed action costs `seconds` of CPU: a record that takes long to replay."""
    play = play_action

    def slow(game: Game, action: dict[str, Any]) -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            pass
        play(game, action)

    monkeypatch.setattr(heavy_module, "play_action", slow)


async def _worst_lag(work: Any) -> tuple[Any, float]:
    """Run `work` while a ticker on the loop measures how late its 10 ms sleeps wake."""
    worst = 0.0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal worst
        while not done.is_set():
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - began - 0.01)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.015)  # the ticker is asleep, and due, when the work begins
    try:
        result = await work
    finally:
        done.set()
        await task
    return result, worst


async def test_the_loop_keeps_running_while_a_large_import_replays(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    record = _whole_game()
    _slow_actions(monkeypatch, 0.005)  # about 0.6 s of replay in all
    began = time.perf_counter()
    view, lag = await _worst_lag(service.import_record(HERE, CY, record))
    assert time.perf_counter() - began > 0.4, "the replay was not slow: the test proves nothing"
    assert view.moves == len(record["actions"])
    assert lag < 0.1, f"the event loop stalled for {lag * 1000:.0f} ms"


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
