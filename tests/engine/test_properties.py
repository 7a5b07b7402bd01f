"""Properties over many seeded random games of the base game with River and Abbot."""

from __future__ import annotations

import json
import random

import pytest

from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.record import replay, result, write_record
from carca_bot.engine.setup import Setup

STARTING = {"follower": 7, "abbot": 1}


@pytest.mark.parametrize("seed", range(40))
def test_random_game_invariants(seed: int) -> None:
    rng = random.Random(seed)
    players = tuple(f"P{i}" for i in range(rng.randint(1, 5)))
    game = Game(Setup(players, frozenset({"river", "abbot"}), seed=seed))
    before = list(game.scores)
    while not game.finished:
        play_random_turn(game, rng)
        assert all(now >= then for now, then in zip(game.scores, before, strict=True))
        before = list(game.scores)
        for p in range(len(players)):
            held = game.in_hand(p)
            for kind, total in STARTING.items():
                on_board = sum(1 for f in game.figures if f.player == p and f.kind == kind)
                assert held[kind] + on_board == total
    assert game.tiles_left == 0
    status, out = replay(json.loads(json.dumps(write_record(game))))
    assert status == 0
    assert out == result(game)
    assert out["finished"] is True and out["next"] is None


@pytest.mark.parametrize("seed", range(5))
def test_replaying_any_prefix_gives_the_same_state(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(Setup(("A", "B"), frozenset({"river", "abbot"}), seed=seed))
    states = [result(game)]
    while not game.finished:
        length = len(game.history)
        play_random_turn(game, rng)
        if len(game.history) != length:
            states.append(result(game))
    record = write_record(game)
    for cut in range(0, len(record["actions"]) + 1, 7):
        status, out = replay({**record, "actions": record["actions"][:cut]})
        assert status == 0
        assert out == states[cut]
