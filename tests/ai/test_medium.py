"""Medium looks at the next player's answer: where the answer matters, it beats one ply."""

from __future__ import annotations

import random

from carca_bot.ai import oneply, reply, sampling
from carca_bot.ai.players import plan_turn
from carca_bot.ai.turns import Plan, plans
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, PlaceTile
from carca_bot.engine.setup import Setup
from tests.ai.helpers import value_after_answers


def _second_turn() -> tuple[Game, list[Plan]]:
    """Base game, seed 1: after one easy turn, the second player holds a V (a curve)."""
    game = Game(Setup(("A", "B"), frozenset(), seed=1))
    rng = random.Random(1)
    tile = game.draw()
    for move in plan_turn("easy", game, tile, rng):
        game.push(move)
    tile = game.draw()
    assert tile == "V"
    work = sampling.public_copy(game)
    return work, plans(work, tile)


def test_the_answer_changes_the_choice_and_the_choice_is_better_after_it() -> None:
    """One ply puts the V below the start with a follower on the road; with the
    answer looked at, medium plays it elsewhere (fails if `reply` is bypassed)."""
    game, options = _second_turn()
    one_ply = oneply.best(game, options, light=False, rng=random.Random(0))
    chosen = reply.medium(game, options, random.Random(0))
    assert one_ply == (PlaceTile("V", (0, 1), 0), Deploy("follower", "S"), one_ply[-1])
    assert chosen != one_ply
    rng = random.Random(0)
    oneply.scored(game, options, False, rng, draws=3)  # the same draws medium made
    seeds = [rng.getrandbits(32) for _ in range(reply.TILES)]
    assert value_after_answers(game, chosen, seeds) > value_after_answers(game, one_ply, seeds)
    assert plan_turn("medium", game, "V", random.Random(0)) == chosen


def test_with_no_answer_looked_at_medium_is_one_ply() -> None:
    game, options = _second_turn()
    one_ply = oneply.best(game, options, light=False, rng=random.Random(0))
    assert reply.medium(game, options, random.Random(0), width=1) == one_ply
    assert reply.medium(game, options, random.Random(0), slack=-1.0) == one_ply


def test_medium_leaves_the_game_as_it_found_it_and_repeats_itself() -> None:
    game, options = _second_turn()
    before = (list(game.history), len(game.frames), list(game.scores), game.drawn,
              dict(game.supply))
    first = reply.medium(game, options, random.Random(3))
    after = (list(game.history), len(game.frames), list(game.scores), game.drawn,
             dict(game.supply))
    assert after == before
    assert reply.medium(game, options, random.Random(3)) == first


def test_a_crowded_position_looks_at_fewer_answers() -> None:
    """The cost stays bounded: plans looked at x tiles x plans stays near `WORK`."""
    assert reply.shape(80) == (reply.WIDTH, reply.TILES)
    for options in (150, 300, 600, 2000, 10_000):
        width, tiles = reply.shape(options)
        assert width >= 1 and tiles >= 1
        assert width * tiles * options <= max(reply.WORK, options)
    assert reply.shape(300) == (4, 1) and reply.shape(600) == (2, 1)
