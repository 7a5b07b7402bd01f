"""The arena's referee: a seat may be played by a planner instead of a level."""

from __future__ import annotations

import random

from carca_bot.ai.arena import play_game
from carca_bot.ai.players import plan_turn
from carca_bot.ai.turns import Plan
from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup


def test_a_planner_seat_plays_under_the_same_referee_as_a_level() -> None:
    """A planner that asks the easy level plays seat 1 exactly as the easy level does
    (same generator, same draws), is asked before and after each draw, and its seat is
    timed under the name it was given (which is no level: only the planner plays it)."""
    setup = Setup(("A", "B"), frozenset(), seed=5)
    asked: list[str | None] = []

    def planner(game: Game, tile: str | None, rng: random.Random) -> Plan:
        assert game.deciding == 1
        asked.append(tile)
        return plan_turn("easy", game, tile, rng)

    by_planner = play_game(setup, ("greedy", "mine"), 5, planners={1: planner})
    by_level = play_game(setup, ("greedy", "easy"), 5)
    assert (by_planner.scores, by_planner.moves) == (by_level.scores, by_level.moves)
    assert asked[0] is None and isinstance(asked[1], str)
    assert asked.count(None) == len(asked) - asked.count(None) > 30
    assert len(by_planner.decisions["mine"]) == len(by_level.decisions["easy"])
