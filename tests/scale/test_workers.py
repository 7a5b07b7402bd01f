"""The worker pool: results and errors come back, a full queue is refused at once, a job
over budget is abandoned and its worker replaced, a dying worker fails only its job,
and a board drawn in a worker from a compact Position is the one drawn here."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import pytest

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.setup import Setup
from carca_bot.render.board import render_board, render_your_tile
from carca_bot.render.focus import render_focus
from carca_bot.workers import (
    Busy,
    Overtime,
    Pool,
    Position,
    WorkerLost,
    render_board_job,
    render_card_job,
    render_tile_job,
)
from tests.scale import jobs


@pytest.fixture(params=("threads", "processes"))
async def pool(request: pytest.FixtureRequest) -> AsyncIterator[Pool]:
    made = Pool(str(request.param), size=1, queue=1)
    await made.start()
    yield made
    await made.close()


async def test_results_and_errors_come_back(pool: Pool) -> None:
    assert await pool.submit(jobs.add, 2, 3) == 5
    with pytest.raises(ValueError, match="no such tile"):
        await pool.submit(jobs.refuse, "no such tile")
    assert await pool.submit(jobs.add, 1, 1) == 2  # the worker is still there
    assert pool.stats().done == 2


async def test_a_full_queue_is_refused_at_once(pool: Pool) -> None:
    running = asyncio.create_task(pool.submit(jobs.nap, 0.6))
    await asyncio.sleep(0.05)
    waiting = asyncio.create_task(pool.submit(jobs.nap, 0.0))
    await asyncio.sleep(0.05)
    began = time.perf_counter()
    with pytest.raises(Busy):
        await pool.submit(jobs.add, 1, 2)
    assert time.perf_counter() - began < 0.05
    assert await running == 0.6 and await waiting == 0.0
    assert pool.stats().refused == 1
    assert await pool.submit(jobs.add, 1, 2) == 3  # room again


async def test_a_job_over_budget_is_abandoned(pool: Pool) -> None:
    began = time.perf_counter()
    with pytest.raises(Overtime):
        await pool.submit(jobs.nap, 5.0, budget_seconds=0.3)
    assert time.perf_counter() - began < 2.0
    assert pool.stats().overtime == 1
    if pool.kind == "threads":
        return  # a thread cannot be killed: it sleeps on, holding the only thread
    assert await pool.submit(jobs.add, 4, 4) == 8  # a new worker took over


async def test_a_dying_worker_fails_only_its_job() -> None:
    pool = Pool("processes", size=1, queue=2)
    try:
        first = await pool.submit(jobs.pid)
        with pytest.raises(WorkerLost):
            await pool.submit(jobs.die)
        assert await pool.submit(jobs.pid) != first  # replaced
        assert pool.stats().lost == 1
    finally:
        await pool.close()


async def test_only_module_level_functions_go_to_a_worker(pool: Pool) -> None:
    with pytest.raises(TypeError):
        await pool.submit(lambda: 1)


def _games() -> list[Game]:
    done = random_game(Setup(("A", "B", "C"), frozenset(EXPANSIONS), seed=5),
                       random.Random(5))
    middle = Game.replay(done.setup, list(done.history[:40]))
    placed = Game.replay(done.setup, list(done.history[:40]))
    tile = placed.draw() if placed.phase is Phase.TILE else None
    assert tile is not None
    spots = placed.legal_placements(tile)
    assert spots
    from carca_bot.engine.moves import PlaceTile

    placed.push(PlaceTile(tile, spots[0].pos, spots[0].rot))
    return [middle, placed, done]


async def test_a_board_drawn_in_a_worker_is_the_same() -> None:
    pool = Pool("processes", size=1, queue=4)
    try:
        for game in _games():
            position = Position.of(game)
            here = render_board(game, max_bytes=None, language="es")
            there = await pool.submit(render_board_job, position, None, "es")
            assert there == here
        for game in _games()[:2]:
            assert await pool.submit(render_card_job, Position.of(game), "D", "es") == \
                render_focus(game, "D", language="es")
        game = _games()[0]
        tile = "D"
        assert await pool.submit(render_tile_job, Position.of(game), tile, "en") == \
            render_your_tile(game, tile, language="en")
    finally:
        await pool.close()
