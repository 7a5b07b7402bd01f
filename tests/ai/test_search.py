"""The strong level's search: at the root, one-decision values order the plans only."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from carca_bot.ai import mcts, oneply, sampling
from carca_bot.ai.players import Budget, plan_turn
from carca_bot.ai.turns import Plan, plans
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, PlaceTile
from carca_bot.engine.setup import Setup
from tests.ai.helpers import value_after_answers

BUDGET = Budget(seconds=None, iterations=20)


def _fifth_turn() -> tuple[Game, str]:
    """Base game, seed 3: four easy turns, then the first player holds a U (a road)."""
    game = Game(Setup(("A", "B"), frozenset(), seed=3))
    rng = random.Random(3)
    for _ in range(4):
        for move in plan_turn("easy", game, game.draw(), rng):
            game.push(move)
    tile = game.draw()
    assert tile == "U"
    return game, tile


def _after_answers(game: Game, plan: Plan, tiles: int) -> float:
    seeds = [random.Random(99).getrandbits(32) + k for k in range(tiles)]
    return value_after_answers(sampling.public_copy(game), plan, seeds)


def test_priors_kept_as_visits_make_the_search_play_one_ply() -> None:
    """Counted as visits, the priors outweigh 20 iterations and the search plays the
    one-ply favourite; forgotten, it plays the plan that fares better after the
    next player's answers (fails if `_forget_priors` is removed)."""
    game, tile = _fifth_turn()
    work = sampling.public_copy(game)
    one_ply = oneply.best(work, plans(work, tile), light=False, rng=random.Random(0))
    assert one_ply == (PlaceTile("U", (0, -2), 0), Deploy("follower", "E"), one_ply[-1])
    chosen = plan_turn("strong", game, tile, random.Random(0), BUDGET)
    assert chosen != one_ply
    assert _after_answers(game, chosen, 24) > _after_answers(game, one_ply, 24)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mcts.Search, "_forget_priors", staticmethod(lambda root: None))
        assert plan_turn("strong", game, tile, random.Random(0), BUDGET) == one_ply


def test_a_search_without_iterations_plays_the_best_prior() -> None:
    game, tile = _fifth_turn()
    work = sampling.public_copy(game)
    search = mcts.Search(work, tile, random.Random(0))
    assert search.run(None, 0) == search.root.plans[0]
    assert search.root.plans[0] == oneply.best(sampling.public_copy(game),
                                               plans(work, tile), light=False,
                                               rng=random.Random(0))


def test_progressive_bias_spends_the_iterations_on_the_plans_the_evaluation_likes() -> None:
    """With the bias, the plans behind the best by their prior get fewer of the same 60
    iterations (fails if `Config.bias` is not used in the selection)."""
    game, tile = _fifth_turn()

    def far_visits(bias: float) -> int:
        search = mcts.Search(sampling.public_copy(game), tile, random.Random(0),
                             mcts.Config(bias=bias))
        search.run(None, 60)
        root = search.root
        return sum(n for n, prior in zip(root.visits, root.priors, strict=True)
                   if prior < -0.5)

    assert far_visits(5.0) < far_visits(0.0)


def test_paranoid_backups_make_every_other_player_the_root_players_opponent() -> None:
    game, tile = _fifth_turn()
    work = sampling.public_copy(game)
    search = mcts.Search(work, tile, random.Random(0), mcts.Config(paranoid=True))
    plain = mcts.Search(sampling.public_copy(game), tile, random.Random(0))
    mine = search.root.player
    rewards = search._leaf()
    assert rewards[mine] == plain._leaf()[mine]
    assert all(r == -rewards[mine] for p, r in enumerate(rewards) if p != mine)


def test_two_searches_of_one_position_add_their_visits_up() -> None:
    game, tile = _fifth_turn()
    one = mcts.Search(sampling.public_copy(game), tile, random.Random(0))
    two = mcts.Search(sampling.public_copy(game), tile, random.Random(1))
    one.run(None, 15)
    two.run(None, 15)
    both = one.stats().merged(two.stats())
    assert sum(both.visits) == 30
    assert both.best() in one.root.plans


class _Horizons(mcts.Search):
    """A search that notes how many tiles were placed past the root position in each
    position it evaluates (the root's tile is the first)."""

    def __init__(self, game: Game, tile: str, config: mcts.Config) -> None:
        self.seen: set[int] = set()
        self.first = game.drawn
        super().__init__(game, tile, random.Random(5), config)

    def _leaf(self) -> list[float]:
        self.seen.add(self.game.drawn - self.first)
        return super()._leaf()


def _two_rounds(players: int) -> Game:
    """Base game, seed 11: two rounds of easy turns at a table of `players`."""
    game = Game(Setup(tuple("ABCD"[:players]), frozenset(), seed=11))
    rng = random.Random(11)
    for _ in range(2 * players):
        for move in plan_turn("easy", game, game.draw(), rng):
            game.push(move)
    return game


def _horizons(players: int, config: mcts.Config) -> set[int]:
    game = _two_rounds(players)
    search = _Horizons(sampling.public_copy(game), game.draw(), config)
    search.run(None, 300)
    return search.seen


def test_at_four_players_every_sample_is_taken_after_the_next_players_answer() -> None:
    # 1: the root's own plans (their priors); 2: after the next player's answer. Deeper
    # samples (after two or three opponents' answers) would lower a plan's mean the more
    # it is visited (see `mcts.Config.depth_at`).
    assert _horizons(4, mcts.Config()) == {1, 2}
    assert max(_horizons(4, mcts.Config(depth_many=4))) > 2  # what the test would catch
    assert max(_horizons(2, mcts.Config())) > 2  # two players: the root moves again


def _backed_up_horizons(config: mcts.Config) -> set[float]:
    """The mean horizon (tiles drawn since the root's turn began, its own the first) of
    each root plan's samples at a table of four, a leaf worth its horizon to everyone."""
    game = _two_rounds(4)
    first = game.drawn

    def horizon(position: Game) -> list[float]:
        return [float(position.drawn - first)] * 4

    search = mcts.Search(sampling.public_copy(game), game.draw(), random.Random(5),
                         replace(config, leaf=horizon))
    search.run(None, 60)
    root = search.root
    return {root.sums[i][0] / n for i, n in enumerate(root.visits) if n}


def test_a_rollout_takes_every_sample_after_every_opponents_answer() -> None:
    # depth 4 at four players: the root's tile, then three opponents' answers (four
    # tiles drawn); without the rollout a sample ends at the first node it expands, so the
    # early ones end after one or two answers and a plan's mean mixes horizons
    assert _backed_up_horizons(mcts.Config(depth_many=4, rollout=True)) == {4.0}
    assert _backed_up_horizons(mcts.Config(depth_many=4)) != {4.0}
