"""The process pool answers with a legal plan within its budget, from a seedless position."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from carca_bot.ai import pool
from carca_bot.ai.players import Budget, plan_turn
from carca_bot.ai.pool import GRACE, Position, Thinker
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw, EndTurn
from carca_bot.engine.setup import Setup
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


async def test_think_returns_a_legal_plan_within_the_budget() -> None:
    game, tile = drawn_at(Setup(("A", "B"), ALL, seed=6), seed=6, stop_after=50)
    thinker = Thinker(processes=1)
    try:
        await thinker.warm_up()
        budget = Budget(seconds=0.5)
        started = time.perf_counter()
        plan = await thinker.think(game, "strong", tile, seed=1, budget=budget)
        took = time.perf_counter() - started
    finally:
        thinker.close()
    assert took < 0.5 + GRACE
    for step in plan:
        assert step in game.legal_moves(tile if game.phase is Phase.TILE else None)
        game.push(step)


@pytest.mark.parametrize("budget", [Budget(seconds=0.2),
                                    Budget(seconds=None, iterations=5)],
                         ids=["seconds", "iterations alone, held to CEILING"])
async def test_a_worker_too_slow_is_replaced_by_a_legal_fallback(
        budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "CEILING", 0.2)
    game, tile = drawn_at(Setup(("A", "B"), seed=8), seed=8, stop_after=20)
    thinker = Thinker(processes=1)
    try:
        await thinker.warm_up()
        busy = thinker.pool.submit(time.sleep, 2 * GRACE + 1)  # the only worker is taken
        started = time.perf_counter()
        plan = await asyncio.wait_for(
            thinker.think(game, "strong", tile, seed=1, budget=budget), 30)
        took = time.perf_counter() - started
        assert not busy.done()  # so the answer came from the fallback
    finally:
        thinker.close()
    assert took < 0.2 + GRACE + 0.5
    assert plan[0] in game.legal_moves(tile)


def test_a_budget_of_iterations_alone_stops_at_the_ceiling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "CEILING", 0.3)
    game, tile = drawn_at(Setup(("A", "B"), seed=8), seed=8, stop_after=20)
    started = time.perf_counter()
    plan = pool.plan_in_worker(Position.of(game), "strong", tile, 1,
                               Budget(seconds=None, iterations=3000))  # ~30 s
    assert time.perf_counter() - started < 0.3 + GRACE
    assert plan[0] in game.legal_moves(tile)
