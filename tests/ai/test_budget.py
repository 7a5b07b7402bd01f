"""An iteration budget makes the strong level's choice independent of the clock."""

from __future__ import annotations

import random
from itertools import count

import pytest

from carca_bot.ai import mcts
from carca_bot.ai.arena import play_game
from carca_bot.ai.players import Budget, plan_turn
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.setup import Setup
from tests.ai.helpers import play_by_steps


def _position() -> tuple[Game, str]:
    game, _ = play_by_steps(Setup(("A", "B"), frozenset(), seed=12), ("easy", "easy"),
                            seed=12, stop_after=30)
    while game.phase is not Phase.TILE:
        game.push(plan_turn("easy", game, None, random.Random(0))[0])
    return game, game.draw()


def _slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine so loaded that every look at the clock finds a second gone."""
    ticks = count()
    monkeypatch.setattr("carca_bot.ai.mcts.time.perf_counter", lambda: float(next(ticks)))


def test_iterations_alone_ignore_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    game, tile = _position()
    budget = Budget(seconds=None, iterations=40)
    calm = plan_turn("strong", game, tile, random.Random(4), budget)
    _slow_clock(monkeypatch)
    assert plan_turn("strong", game, tile, random.Random(4), budget) == calm


def test_seconds_do_depend_on_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above could fail: under a time budget the slow clock cuts the search."""
    game, tile = _position()
    search = mcts.Search(game.copy(), tile, random.Random(4))
    search.run(None, 40)
    assert search.iterations == 40
    _slow_clock(monkeypatch)
    hurried = mcts.Search(game.copy(), tile, random.Random(4))
    hurried.run(2.0, 40)
    assert hurried.iterations < 40


def test_a_seeded_game_under_an_iteration_budget_is_the_same_game() -> None:
    setup = Setup(("A", "B"), frozenset(), seed=21)
    budget = Budget(seconds=None, iterations=3)
    first = play_game(setup, ("strong", "easy"), 21, budget)
    again = play_game(setup, ("strong", "easy"), 21, budget)
    assert (first.scores, first.moves) == (again.scores, again.moves)


def test_an_iteration_that_would_end_past_the_budget_is_not_begun(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves 0.3 s at every look: the search looks at 0.6, 0.9, 1.2, 1.5 and
    1.8 s. At 1.8 s an iteration at the pace so far (0.375 s) would end past the 2 s
    budget, so four are made, not a fifth ending at 2.1 s."""
    game, tile = _position()
    ticks = count()
    monkeypatch.setattr("carca_bot.ai.mcts.time.perf_counter",
                        lambda: 0.3 * next(ticks))
    search = mcts.Search(game.copy(), tile, random.Random(4))
    search.run(2.0, None)
    assert search.iterations == 4
