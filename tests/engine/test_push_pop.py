"""push/pop/copy: taking a move back restores exactly the state before it.

Seeded random games over every expansion mix and 1 to 6 players choose among
`legal_moves()`; after every push the move is popped and pushed again, and the
complete state must equal the one before (and, between actions, a fresh replay
of the history). Random wrong moves must be refused without a trace.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import (
    Deploy,
    Discard,
    Draw,
    Move,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
)
from carca_bot.engine.setup import Setup

MIXES = [frozenset(c) for n in range(len(EXPANSIONS) + 1)
         for c in itertools.combinations(EXPANSIONS, n)]


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Everything a game is, as one comparable value."""
    board = game.board
    return (
        sorted((pos, t.tile, t.rot, t.nodes) for pos, t in board.tiles.items()),
        list(board.parent), list(board.features), list(board.location),
        sorted(board.frontier.items()), sorted(board.buildings.items()), sorted(board.gardens),
        list(game.scores), [sorted(h.items()) for h in game.hand],
        [list(t) for t in game.tokens], sorted(game.entrances.items()), list(game.figures),
        sorted((t, n) for t, n in game.supply.items() if n), game.drawn,
        game.king, game.robber, game.best_city, game.best_road,
        sorted((k.value, n) for k, n in game.completed.items() if n),
        game.current, game.phase, game.turn, list(game.wagons), game.ending,
        list(game.round_queue), list(game.events), [dict(a) for a in game.history],
        game.river.open_end, list(game.river.turns), game.last_placed,
    )


def wrong_move(game: Game, rng: random.Random) -> Move:
    square = rng.choice([*game.board.tiles, *game.board.frontier, (50, 50)])
    tile = rng.choice(sorted(game.catalogue.tiles))
    options: list[Move] = [
        PlaceTile(tile, square, rng.randrange(4)), PlaceAbbey(square), Discard(tile),
        Deploy(rng.choice(["follower", "abbot", "mayor", "wagon", "barn"]),
               rng.choice(["N", "E", "S", "W", "C", "G", "NW", "NL", "Q"])),
        PlaceToken(square, rng.choice(["N", "E", "S", "W"]), rng.randrange(-1, 3)),
        MoveWagon(square, rng.choice(["N", "E", "C", "NL"])),
    ]
    return rng.choice(options)


def check_push(game: Game, move: Move) -> None:
    before = fingerprint(game)
    game.push(move)
    after = fingerprint(game)
    assert game.pop() == move
    assert fingerprint(game) == before, move
    game.push(move)
    assert fingerprint(game) == after, move
    assert fingerprint(game.copy()) == after
    assert fingerprint(game.copy(stack=False)) == after


def play_checked(setup: Setup, rng: random.Random) -> int:
    """Play a whole game with checks; returns how many moves were pushed."""
    game = Game(setup)
    pushed = 0
    while not game.finished:
        if rng.random() < 0.2:
            before = fingerprint(game)
            try:
                game.push(wrong_move(game, rng))
            except IllegalMove:
                assert fingerprint(game) == before
            else:
                game.pop()
                assert fingerprint(game) == before
        moves = game.legal_moves()
        assert moves, game.phase
        move = rng.choice(moves)
        check_push(game, move)
        pushed += 1
        if isinstance(move, Draw):
            tile = game.draw()
            move = rng.choice(game.legal_moves(tile))
            check_push(game, move)
            pushed += 1
        if game.phase is not Phase.PLACED:
            assert fingerprint(Game.replay(setup, game.history)) == fingerprint(game)
    while game.frames:  # all the way back to the start
        game.pop()
    assert fingerprint(game) == fingerprint(Game(setup))
    return pushed


@pytest.mark.parametrize("index", range(24))
def test_pop_restores_exactly_and_matches_a_replay(index: int) -> None:
    rng = random.Random(index)
    mix = MIXES[(index * 17) % len(MIXES)] if index else frozenset(EXPANSIONS)
    players = 1 + index % 6
    setup = Setup(tuple(f"P{i}" for i in range(players)), mix, seed=index,
                  wagon_rule=rng.choice(["c1", "c2"]))
    assert play_checked(setup, rng) > 70


def test_restore_takes_back_an_unfinished_turn() -> None:
    game = Game(Setup(("A", "B"), frozenset({"abbot"}), seed=3))
    before = fingerprint(game)
    tile = game.draw()
    spot = game.legal_placements(tile)[0]
    game.place_tile(0, tile, spot.pos, spot.rot)
    first = game.legal_deployments()[0]
    game.deploy(0, first.figure, first.on)
    copy = game.copy(stack=False)
    game.restore()
    assert fingerprint(game) == before
    copy.restore()  # no frames to pop: rebuilt from the history instead
    assert fingerprint(copy)[7:] == before[7:]  # the board's node numbers may differ


def test_apply_is_atomic() -> None:
    game = Game(Setup(("Ana", "Ben"), seed=1))
    tile = game.draw()
    spot = game.legal_placements(tile)[0]
    before = fingerprint(game)
    with pytest.raises(IllegalMove) as err:
        game.apply({"by": "Ana", "tile": tile, "at": list(spot.pos), "rot": spot.rot * 90,
                    "deploy": {"figure": "follower", "on": "Q"}})
    assert err.value.code == "deploy_nothing_named"
    assert err.value.params["on"] == "Q"
    assert fingerprint(game) == before and not game.frames
