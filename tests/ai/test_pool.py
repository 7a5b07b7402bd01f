"""The AI on the worker pool: a legal plan within its budget, from a seedless position;
a second search on an idle worker that gives way to any other job."""

from __future__ import annotations

import asyncio
import os
import random
import time

import pytest

from carca_bot.ai import pool
from carca_bot.ai.mcts import RootStats
from carca_bot.ai.players import Budget, plan_turn
from carca_bot.ai.pool import GRACE, Position, Thought, decide, think_job
from carca_bot.ai.turns import Plan
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw, EndTurn
from carca_bot.engine.setup import Setup
from carca_bot.workers import Pool, Thinker
from tests.ai import pool_jobs
from tests.ai.helpers import ALL, play_by_steps


def test_a_position_rebuilds_the_game_without_its_seed() -> None:
    game, _ = play_by_steps(Setup(("A", "B", "C"), ALL, seed=9), ("easy",) * 3, seed=9,
                            stop_after=60)
    while game.phase is not Phase.PLACED:
        plan = plan_turn("easy", game, game.draw() if game.phase is Phase.TILE else None,
                         random.Random(0))
        if not isinstance(plan[0], Draw):
            game.push(plan[0])
    position = Position.of(game)
    assert position.setup.seed is None
    again = position.game()
    assert again.phase is Phase.PLACED and again.turn == game.turn
    assert again.legal_moves() == game.legal_moves()
    assert again.scores == game.scores and again.history == game.history
    game.push(EndTurn())
    again.push(EndTurn())
    assert again.history == game.history


def drawn_at(setup: Setup, seed: int, stop_after: int) -> tuple[Game, str]:
    """A game played by easy players, brought to a turn's start, and its tile drawn."""
    game, _ = play_by_steps(setup, ("easy", "easy"), seed=seed, stop_after=stop_after)
    while game.phase is not Phase.TILE:
        game.push(plan_turn("easy", game, None, random.Random(0))[0])
    return game, game.draw()


def _legal(game: Game, tile: str, plan: Plan) -> None:
    for step in plan:
        assert step in game.legal_moves(tile if game.phase is Phase.TILE else None)
        game.push(step)


async def test_think_returns_a_legal_plan_within_the_budget() -> None:
    game, tile = drawn_at(Setup(("A", "B"), ALL, seed=6), seed=6, stop_after=50)
    thinker = Thinker(processes=1)
    try:
        await thinker.warm_up()
        started = time.perf_counter()
        plan = await thinker.think(game, "strong", tile, seed=1, budget=Budget(seconds=0.5))
        took = time.perf_counter() - started
        assert thinker.pool.stats().spare == 0  # its one worker is the main search's
    finally:
        await thinker.close()
    assert took < 0.5 + GRACE
    _legal(game, tile, plan)


async def test_a_strong_decision_searches_on_both_workers_when_they_are_idle() -> None:
    game, tile = drawn_at(Setup(("A", "B"), frozenset(), seed=7), seed=7, stop_after=30)
    thinker = Thinker(processes=2)
    try:
        await thinker.warm_up()
        plan = await thinker.think(game, "strong", tile, seed=3, budget=Budget(seconds=0.3))
        assert thinker.pool.stats().spare == 1
        await thinker.think(game, "medium", tile, seed=3, budget=Budget(seconds=0.3))
        assert thinker.pool.stats().spare == 1  # only the strong level searches twice
    finally:
        await thinker.close()
    _legal(game, tile, plan)


def test_the_spare_search_adds_its_visits() -> None:
    a, b, c = (EndTurn(),), (Draw(),), (EndTurn(), EndTurn())
    main = Thought(a, RootStats((a, b, c), (5, 4, 1), (5.0, 8.0, 1.0), (0.0, -1.0, -2.0)))
    spare = Thought(b, RootStats((b, c, a), (3, 0, 1), (6.0, 0.0, 1.0), (0.0, -1.0, -2.0)))
    assert decide(main, None) == a
    assert decide(main, spare) == b  # 7 visits against 6
    assert main.stats is not None and spare.stats is not None
    assert main.stats.merged(spare.stats).visits == (6, 7, 1)


async def test_a_spare_job_gives_way_to_any_other_job() -> None:
    workers = Pool("processes", size=1, queue=2)
    try:
        await workers.start()
        spare = workers.submit_spare(pool_jobs.until_asked, 30.0)
        assert spare is not None
        assert workers.submit_spare(pool_jobs.until_asked, 30.0) is None  # none idle
        assert await workers.submit(pool_jobs.echo, "a player's picture") == \
            "a player's picture"
        assert await spare == "gave way"
        assert workers.stats().gave_way == 1
    finally:
        await workers.close()


async def test_a_spare_job_never_makes_the_pool_refuse_a_job() -> None:
    workers = Pool("processes", size=1, queue=0)  # no job may wait
    try:
        await workers.start()
        spare = workers.submit_spare(pool_jobs.until_asked, 30.0)
        assert spare is not None
        assert await workers.submit(pool_jobs.echo, "taken") == "taken"
        assert await spare == "gave way" and workers.stats().refused == 0
    finally:
        await workers.close()


async def test_no_spare_job_while_a_job_waits_or_on_threads() -> None:
    threads = Pool("threads", size=2)
    assert threads.submit_spare(pool_jobs.until_asked, 1.0) is None
    await threads.close()
    workers = Pool("processes", size=1, queue=2)
    try:
        await workers.start()
        running = asyncio.create_task(workers.submit(pool_jobs.echo, "first"))
        waiting = asyncio.create_task(workers.submit(pool_jobs.echo, "second"))
        await asyncio.sleep(0)
        assert workers.submit_spare(pool_jobs.until_asked, 1.0) is None
        assert (await running, await waiting) == ("first", "second")
    finally:
        await workers.close()


async def test_a_decision_kept_waiting_for_a_worker_gets_a_legal_fallback() -> None:
    game, tile = drawn_at(Setup(("A", "B"), seed=8), seed=8, stop_after=20)
    thinker = Thinker(processes=1)
    try:
        await thinker.warm_up()
        busy = asyncio.create_task(thinker.pool.submit(time.sleep, 2 * GRACE + 1))
        await asyncio.sleep(0.05)
        plan = await asyncio.wait_for(
            thinker.think(game, "strong", tile, seed=1, budget=Budget(seconds=0.2)), 30)
        assert not busy.done()  # so the answer came from the fallback
        assert thinker.pool.stats().waiting == 0  # the decision left the queue
    finally:
        await thinker.close()
    assert plan[0] in game.legal_moves(tile)


async def test_a_search_past_its_time_is_stopped_with_its_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget of iterations alone: the caller holds it to CEILING (made short here,
    in this process only), and the worker still searching is killed and replaced."""
    monkeypatch.setattr(pool, "CEILING", 0.2)
    game, tile = drawn_at(Setup(("A", "B"), seed=8), seed=8, stop_after=20)
    thinker = Thinker(processes=1)
    try:
        await thinker.warm_up()
        before = await thinker.pool.submit(os.getpid)
        plan = await thinker.think(game, "strong", tile, seed=1,
                                   budget=Budget(seconds=None, iterations=10**7))
        assert await thinker.pool.submit(os.getpid) != before
    finally:
        await thinker.close()
    assert plan[0] in game.legal_moves(tile)


def test_a_budget_of_iterations_alone_stops_at_the_ceiling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "CEILING", 0.3)
    game, tile = drawn_at(Setup(("A", "B"), seed=8), seed=8, stop_after=20)
    started = time.perf_counter()
    thought = think_job(Position.of(game), "strong", tile, 1,
                        Budget(seconds=None, iterations=3000), time.time())  # ~30 s
    assert time.perf_counter() - started < 0.3 + GRACE
    assert thought.plan[0] in game.legal_moves(tile)
    assert thought.stats is not None and thought.iterations < 3000
