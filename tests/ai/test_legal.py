"""Every AI move is legal, in every expansion mix, and AIs play whole games to the end.

The whole games (thousands of steps) are marked slow: the quick run plays the start
of a game in each mix.
"""

from __future__ import annotations

import pytest

from carca_bot.engine.setup import Setup
from tests.ai.helpers import MIXES, play_by_steps


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_every_level_moves_legally(mix: str) -> None:
    """The quick run's share: the first 120 steps of a game, every level seated."""
    levels = ("strong", "medium", "easy", "greedy", "random")
    setup = Setup(tuple(f"P{i}" for i in range(5)), MIXES[mix], seed=17)
    _, steps = play_by_steps(setup, levels, seed=2, stop_after=120)
    assert steps == 120


@pytest.mark.slow
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_every_level_plays_a_whole_game_legally(mix: str) -> None:
    """A 5-player game, one seat per level, asked one step at a time."""
    levels = ("random", "greedy", "easy", "medium", "strong")
    setup = Setup(tuple(f"P{i}" for i in range(5)), MIXES[mix], seed=7)
    game, steps = play_by_steps(setup, levels, seed=1)
    assert game.finished
    assert steps > 150  # every tile is a decision, and most have a step after it


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 6])
def test_all_expansions_with_any_number_of_players(players: int) -> None:
    levels = tuple(("strong", "medium", "greedy")[i % 3] for i in range(players))
    setup = Setup(tuple(f"P{i}" for i in range(players)), MIXES["all"], seed=players)
    game, _ = play_by_steps(setup, levels, seed=players)
    assert game.finished
