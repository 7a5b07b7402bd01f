"""Plans: every one is legal step by step and closes its action; levels are known."""

from __future__ import annotations

import random

import pytest

from carca_bot.ai.evaluate import rewards, values
from carca_bot.ai.players import LEVELS, check_level, plan_turn
from carca_bot.ai.sampling import public_copy, sample_tile
from carca_bot.ai.turns import plans
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import CLOSING, Draw, EndTurn, PlaceToken
from carca_bot.engine.setup import Setup
from tests.ai.helpers import ALL, MIXES, play_by_steps


@pytest.mark.parametrize("mix", ["base", "tunnel", "all"])
def test_every_plan_is_legal_and_closes_its_action(mix: str) -> None:
    game, _ = play_by_steps(Setup(("A", "B"), MIXES[mix], seed=2), ("easy", "greedy"),
                            seed=2, stop_after=50)
    work = public_copy(game)
    rng = random.Random(0)
    for _ in range(5):
        tile = sample_tile(work, rng) if work.phase is Phase.TILE else None
        options = plans(work, tile)
        assert options and len(set(options)) == len(options)
        for plan in options:
            for step in plan:
                assert step in work.legal_moves(tile if work.phase is Phase.TILE else None)
                work.push(step)
            assert isinstance(plan[-1], (Draw, *CLOSING))
            for _ in plan:
                work.pop()
        # move on with some plan, so later positions are checked too
        for step in options[len(options) // 2]:
            work.push(step)
        if work.finished:
            break


def test_tokens_of_a_whole_pair_are_offered_once() -> None:
    game, _ = play_by_steps(Setup(("A", "B"), frozenset({"tunnel"}), seed=11),
                            ("greedy", "greedy"), seed=3, stop_after=80)
    seen = False
    work = public_copy(game)
    rng = random.Random(2)
    for _ in range(60):
        if work.finished:
            break
        tile = sample_tile(work, rng) if work.phase is Phase.TILE else None
        for plan in plans(work, tile):
            tokens = [m for m in plan if isinstance(m, PlaceToken)]
            if tokens:
                seen = True
                player = work.current
                assert work.tokens[player][tokens[0].pair] in (1, 2)
                whole = [p for p, n in enumerate(work.tokens[player]) if n == 2]
                if work.tokens[player][tokens[0].pair] == 2:
                    assert tokens[0].pair == whole[0]
        plan = plan_turn("greedy", work, tile, rng)
        for step in plan:
            work.push(step)
    assert seen


def test_a_finished_game_is_worth_its_scores() -> None:
    game, _ = play_by_steps(Setup(("A", "B", "C"), ALL, seed=1), ("greedy",) * 3, seed=1)
    assert values(game) == [float(s) for s in game.scores]
    assert rewards([10.0, 4.0, 7.0]) == [3.0, -6.0, -3.0]


def test_the_evaluation_counts_a_city_held() -> None:
    game = Game(Setup(("A", "B"), seed=0))
    before = values(game)
    game.push(next(m for m in game.legal_moves("E") if m.pos == (0, -1)))  # type: ignore[union-attr]
    game.push(next(m for m in game.legal_moves() if not isinstance(m, EndTurn)))
    game.push(EndTurn())
    after = values(game)
    assert after[0] > before[0] and after[1] == before[1]


def test_unknown_levels_and_finished_games_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        check_level("grandmaster")
    assert check_level("strong") == "strong" and "random" in LEVELS
    game, _ = play_by_steps(Setup(("A", "B"), seed=4), ("greedy", "greedy"), seed=4)
    with pytest.raises(ValueError, match="over"):
        plan_turn("easy", game, None, random.Random(0))
