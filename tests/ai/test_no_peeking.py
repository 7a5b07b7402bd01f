"""The AI decides from public information: never the seed, never the order of the pile."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from carca_bot.ai.players import LEVELS, plan_turn
from carca_bot.engine import supply
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw
from carca_bot.engine.setup import Setup
from tests.ai.helpers import ALL, MIXES, QUICK, play_by_steps


def _midgame(expansions: frozenset[str], seed: int, steps: int) -> Game:
    setup = Setup(("A", "B", "C"), expansions, seed=seed)
    game, _ = play_by_steps(setup, ("medium", "greedy", "easy"), seed=seed, stop_after=steps)
    while game.phase is not Phase.TILE:  # finish the step under way
        game.push(plan_turn("greedy", game, None, random.Random(0))[0])
    return game


@pytest.mark.parametrize("mix", ["base", "all"])
@pytest.mark.parametrize("level", LEVELS)
def test_the_choice_does_not_depend_on_the_order_of_the_pile(mix: str, level: str) -> None:
    """Same moves so far, different seeds (so a different pile order): same choice."""
    game = _midgame(MIXES[mix], seed=3, steps=40)
    other = Game.replay(replace(game.setup, seed=999_999), list(game.history))
    assert game.tiles_left == other.tiles_left and game.setup.seed != other.setup.seed
    tile = game.draw()
    a = plan_turn(level, game, tile, random.Random(5), QUICK)
    b = plan_turn(level, other, tile, random.Random(5), QUICK)
    assert a == b


def test_the_orders_really_differ() -> None:
    """The test above means something only if the two seeds deal different piles."""
    game = _midgame(ALL, seed=3, steps=40)
    other = Game.replay(replace(game.setup, seed=999_999), list(game.history))
    assert game.draw() != other.draw() or game.tiles_left < 2 or any(
        _next(game, k) != _next(other, k) for k in range(1, 6))


def _next(game: Game, k: int) -> str:
    copy = game.copy()
    copy.drawn += k
    return copy.draw()


@pytest.mark.parametrize("level", LEVELS)
def test_the_ai_never_draws_nor_reads_the_seed(level: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = _midgame(ALL, seed=4, steps=30)
    tile = game.draw()

    def refuse(*_: object) -> str:
        raise AssertionError("the AI drew a tile")

    monkeypatch.setattr(supply, "draw", refuse)
    monkeypatch.setattr(Game, "draw", refuse)
    plan = plan_turn(level, game, tile, random.Random(1), QUICK)
    assert plan and not isinstance(plan[0], Draw)


def test_the_search_sees_no_seed() -> None:
    from carca_bot.ai.sampling import public_copy
    game = _midgame(MIXES["base"], seed=5, steps=10)
    assert game.setup.seed == 5 and public_copy(game).setup.seed is None
