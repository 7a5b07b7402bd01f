"""What goes to the bot's worker processes and back pickles, in either build.

A worker gets a game as `ai.pool.Position` (its setup, its history, the steps of the
turn under way) and sends back a plan of moves. Compiled with mypyc, a frozen
dataclass refused pickle's way of rebuilding it, and every AI answer and picture of
the compiled bot fell back to its stand-in; `engine.pickling` rebuilds them through
their constructors. `CARCA_TEST_COMPILED=1` runs this file against the compiled
build (tests/engine/test_compiled_build.py), where it failed before that fix.
"""

from __future__ import annotations

import copyreg
import pickle
import random
from multiprocessing.reduction import ForkingPickler
from typing import get_args

import pytest

from carca_bot.ai.mcts import RootStats
from carca_bot.ai.players import plan_turn
from carca_bot.ai.pool import Position, Thought
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Deploy, Draw, Move, PlaceTile, PlaceToken
from carca_bot.engine.setup import Setup


def _through_a_pipe(obj: object) -> object:
    """As `multiprocessing` sends it to a worker (its own pickler)."""
    return pickle.loads(bytes(ForkingPickler.dumps(obj)))


def test_a_position_with_a_turn_under_way_reaches_a_worker() -> None:
    setup = Setup(("A", "B", "C"), frozenset({"tunnel", "abbot"}), tunnel_pairs=2, seed=4)
    game = Game(setup)
    rng = random.Random(4)
    while game.tiles_left > 50 or game.phase is not Phase.PLACED:
        tile = game.draw() if game.phase is Phase.TILE else None
        game.push(plan_turn("easy", game, tile, rng)[0])
    position = Position.of(game)
    assert position.pending  # the tile of the turn under way, at least
    sent = _through_a_pipe(position)
    assert isinstance(sent, Position)
    assert sent == position and sent.setup.tunnel_pairs == 2 and sent.setup.seed is None
    assert sent.game().legal_moves() == game.legal_moves()


@pytest.mark.parametrize("move", [Draw(), PlaceTile("D", (1, -2), 3), Deploy("follower", "N"),
                                  PlaceToken((0, 1), "S", 2)], ids=repr)
def test_a_plan_comes_back_from_a_worker(move: Move) -> None:
    plan = (move,)
    answer = Thought(plan, RootStats((plan,), (3,), (1.5,), (0.0,)), 3)
    back = _through_a_pipe(answer)
    assert back == answer and type(back.plan[0]) is type(move)


def test_every_move_and_the_setup_are_rebuilt_through_their_constructor() -> None:
    """Every kind of move is registered, and a setup's checks run as it is unpickled (a
    record naming one player twice is refused there, not taken in as it is)."""
    assert len(get_args(Move)) == 12
    assert all(copyreg.dispatch_table.get(kind) for kind in (*get_args(Move), Setup))
    data = pickle.dumps(Setup(("A", "B")))
    with pytest.raises(ValueError, match="player names must differ"):
        pickle.loads(data.replace(b"\x01B", b"\x01A"))  # the constructor's check runs
