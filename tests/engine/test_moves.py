"""The typed moves: record actions split into steps and built back, legal moves, codes."""

from __future__ import annotations

import pathlib
import random
import re
from typing import Any

import pytest

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import (
    DeclareEnd,
    Deploy,
    Discard,
    Draw,
    EndTurn,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
    action_moves,
    turn_action,
)
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.words import refusal
from carca_bot.words.english import REFUSALS

ACTIONS: list[tuple[dict[str, Any], list[Any]]] = [
    ({"end": True}, [DeclareEnd()]),
    ({"by": "A", "discard": "U"}, [Discard("U")]),
    ({"by": "A", "wagon": "return"}, [ReturnWagon()]),
    ({"by": "A", "wagon": {"at": [1, 2], "on": "N"}}, [MoveWagon((1, 2), "N")]),
    ({"by": "A", "abbey": "skip"}, [SkipAbbey()]),
    ({"by": "A", "abbey": [3, 4], "deploy": {"figure": "follower", "on": "C"}},
     [PlaceAbbey((3, 4)), Deploy("follower", "C"), EndTurn()]),
    ({"by": "A", "tile": "U", "at": [1, 0], "rot": 270, "recall": True},
     [PlaceTile("U", (1, 0), 3), Recall(), EndTurn()]),
    ({"by": "A", "tile": "TU1", "at": [0, 1], "rot": 90,
      "deploy": {"figure": "wagon", "on": "E"}, "token": {"at": [0, 1], "on": "W", "pair": 1},
      "token_first": True},
     [PlaceTile("TU1", (0, 1), 1), PlaceToken((0, 1), "W", 1), Deploy("wagon", "E"),
      EndTurn()]),
    ({"by": "A", "tile": "TU1", "at": [0, 1], "rot": 0,
      "deploy": {"figure": "follower", "on": "E"}, "token": {"at": [0, 1], "on": "W", "pair": 0}},
     [PlaceTile("TU1", (0, 1), 0), Deploy("follower", "E"), PlaceToken((0, 1), "W", 0),
      EndTurn()]),
]


@pytest.mark.parametrize(("action", "moves"), ACTIONS)
def test_actions_split_into_steps_and_back(action: dict[str, Any], moves: list[Any]) -> None:
    by, steps = action_moves(action)
    assert steps == moves
    assert by == action.get("by")
    built = turn_action(by, steps)
    assert built == action
    assert list(built) == list(action)  # the same key order: records read the same


def test_the_history_is_built_from_the_steps_in_record_order() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        setup = Setup(("A", "B", "C"), frozenset({"river", "abbot", "abbey_mayor", "tunnel"}),
                      seed=seed)
        game = Game(setup)
        while not game.finished:
            play_random_turn(game, rng)
        for action in game.history:
            assert turn_action(*action_moves(action)) == action


def test_legal_moves_at_each_decision_are_accepted() -> None:
    rng = random.Random(5)
    game = Game(Setup(("A", "B"), frozenset({"abbey_mayor", "abbot", "tunnel"}), seed=5))
    seen: set[type] = set()
    while not game.finished:
        moves = game.legal_moves()
        seen.update(type(m) for m in moves)
        if game.phase is Phase.TILE:
            assert Draw() in moves
        move = rng.choice(moves)
        if isinstance(move, Draw):
            game.push(move)
            moves = game.legal_moves(game.draw())
            seen.update(type(m) for m in moves)
            move = rng.choice(moves)
        game.push(move)
    assert {Draw, PlaceTile, Deploy, EndTurn, PlaceToken, PlaceAbbey} <= seen
    assert game.legal_moves() == []


def test_a_tile_that_cannot_be_drawn_has_no_moves() -> None:
    game = Game(Setup(("A", "B"), frozenset({"river"}), seed=1))
    assert game.legal_moves("U") == []  # river tiles come first
    assert game.legal_moves("RV-lake") == []  # the lake comes last


def test_refusals_carry_a_code_and_parameters() -> None:
    game = Game(Setup(("Ana", "Ben"), seed=2))
    with pytest.raises(IllegalMove) as err:
        game.place_tile(1, "U", (1, 0), 0)
    assert err.value.code == "not_your_turn"
    assert err.value.params == {"who": 1, "waiting": "tile", "player": 0}
    assert refusal(err.value, ["Ana", "Ben"]) == (
        "it is not Ben's turn: waiting for Ana to place a tile")
    with pytest.raises(IllegalMove) as err:
        game.push(EndTurn())
    assert err.value.code == "wrong_phase"


def test_every_refusal_code_has_words() -> None:
    codes: set[str] = set()
    engine = pathlib.Path(__file__).resolve().parents[2] / "carca_bot" / "engine"
    for source in engine.rglob("*.py"):
        codes.update(re.findall(r'IllegalMove\(\s*"([a-z0-9_]+)"', source.read_text()))
    codes.update({"lake_last", "river_first"})  # chosen by a conditional expression
    assert len(codes) > 50
    assert codes <= set(REFUSALS), codes - set(REFUSALS)


def test_figure_refusals_use_the_right_article() -> None:
    # The engine before v2 said "a mayor cannot stand on a abbey".
    err = IllegalMove("figure_not_allowed", where="abbey", figure="mayor", on="C")
    assert refusal(err, ["Ana"]) == "cannot place the mayor on C: a mayor cannot stand on an abbey"
    err = IllegalMove("figure_not_allowed", where="road", figure="abbot", on="E")
    assert refusal(err, ["Ana"]) == "cannot place the abbot on E: an abbot cannot stand on a road"
