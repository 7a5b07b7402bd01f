"""Properties over many seeded random games with every expansion on.

Every game is played by `play_random_turn` (uniformly random legal choices, wagon
moves, abbeys, tunnel tokens, barns and abbot recalls included). After every
step: figures are conserved, scores never drop, nothing stands on a completed
feature, the titles follow completed features, the score events add up to
the scores. At the end, and at a few points
on the way, the written record replays to the same result.
"""

from __future__ import annotations

import json
import random

import pytest

from carca_bot.engine.board import ABBEY
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.record import replay, result, write_record
from carca_bot.engine.setup import Setup

ALL = frozenset(EXPANSIONS)
STARTING = {f.name: f.per_player for f in FIGURE_TABLE}
GAMES = 80


def _check_conservation(game: Game) -> None:
    pairs = game.setup.pairs
    abbeys_on_board = sum(1 for placed in game.board.tiles.values() if placed.tile == ABBEY)
    abbeys_in_hand = 0
    for p in range(len(game.players)):
        held = game.in_hand(p)
        for kind, total in STARTING.items():
            on_board = sum(1 for f in game.figures if f.player == p and f.kind == kind)
            assert held[kind] + on_board == total, (p, kind, held, on_board)
        assert held["abbey"] in (0, 1)
        abbeys_in_hand += held["abbey"]
        placed_tokens = sum(1 for owner, _ in game.entrances.values() if owner == p)
        assert held["tokens"] + placed_tokens == 2 * pairs
    assert abbeys_in_hand + abbeys_on_board == len(game.players)


def _check_board(game: Game) -> None:
    for fig in game.figures:
        if fig.kind != "barn":
            # Completed features are scored and emptied in the turn they complete.
            assert not game.board.is_complete(fig.node), fig
    completed = {e.feature for e in game.events if e.kind == "score" and e.complete}
    if "city" in completed:
        assert game.king is not None
    if "road" in completed:
        assert game.robber is not None


def _check_events_explain_scores(game: Game) -> None:
    totals = [0] * len(game.players)
    for event in game.events:
        if event.kind == "score":
            for p in event.players:
                totals[p] += event.points
    assert totals == game.scores


def _same_on_replay(game: Game) -> None:
    status, out = replay(json.loads(json.dumps(write_record(game))))
    assert status == 0, out["error"]
    assert out == result(game)


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_with_every_expansion(seed: int) -> None:
    rng = random.Random(seed)
    players = tuple(f"P{i}" for i in range(rng.randint(1, 6)))
    rule = rng.choice(["c2", "c1"])
    game = Game(Setup(players, ALL, wagon_rule=rule, seed=seed))
    checkpoints = {rng.randrange(20, 90) for _ in range(2)}
    before = list(game.scores)
    steps = 0
    while not game.finished:
        play_random_turn(game, rng)
        steps += 1
        assert game.phase is not Phase.PLACED
        assert all(now >= then for now, then in zip(game.scores, before, strict=True))
        before = list(game.scores)
        _check_conservation(game)
        _check_board(game)
        _check_events_explain_scores(game)
        if steps in checkpoints:
            _same_on_replay(game)
    assert game.tiles_left == 0
    out = result(game)
    assert out["finished"] is True and out["next"] is None
    _same_on_replay(game)
