"""The service on typed moves: pending turns as moves, undo by pop, previews by copy."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, Move, PlaceAbbey, PlaceTile, PlaceToken, Recall
from carca_bot.service import GameService
from carca_bot.service.live import Pending, move_json, move_of
from tests.service.helpers import HERE, Clock, started, steps, who


def test_pending_moves_round_trip_through_json() -> None:
    moves: list[Move] = [PlaceTile("U", (1, 0), 1), Deploy("follower", "E"), Recall(),
             PlaceToken((2, 3), "S", 1), PlaceAbbey((1, 1))]
    pending = Pending(1, 4, True, moves)
    again = Pending.from_json(json.loads(json.dumps(pending.to_json())))
    assert again == pending
    assert [move_of(move_json(m)) for m in moves] == moves


def test_the_old_stored_steps_still_read() -> None:
    old = {"seat": 0, "seq": 2, "drew": False, "steps": [
        {"tile": "U", "at": [1, 0], "rot": 90}, {"deploy": {"figure": "follower", "on": "E"}},
        {"recall": True}, {"token": {"at": [2, 3], "on": "S", "pair": 0}},
        {"abbey": [1, 1]}]}
    assert Pending.from_json(old).moves == [
        PlaceTile("U", (1, 0), 1), Deploy("follower", "E"), Recall(),
        PlaceToken((2, 3), "S", 0), PlaceAbbey((1, 1))]
    with pytest.raises(ValueError):
        move_of({"move": "fly"})


async def test_a_database_with_an_old_pending_turn_loads(service: GameService, db: Path,
                                                         clock: Clock) -> None:
    view = await started(service)
    player = who(view)
    choices = await service.legal_moves(HERE, player)
    x, y, rot = choices.placements[0]
    before = await service.place_tile(HERE, player, x, y, rot)
    await service.close()
    with sqlite3.connect(db) as conn:  # write the turn as versions before typed moves did
        (raw,) = conn.execute("SELECT pending FROM games").fetchone()
        stored = json.loads(raw)
        assert stored["moves"] == [{"move": "tile", "tile": choices.tile, "at": [x, y],
                                    "rot": rot // 90}]
        old = {"seat": stored["seat"], "seq": stored["seq"], "drew": stored["drew"],
               "steps": [{"tile": choices.tile, "at": [x, y], "rot": rot}]}
        conn.execute("UPDATE games SET pending = ?", (json.dumps(old),))
    again = await GameService.open(db, clock=clock)
    try:
        view = await again.status(HERE, player.id)
        assert view.steps == before.steps and view.must == "finish"
        assert (await again.confirm(HERE, player)).moves == 1
    finally:
        await again.close()


async def test_undo_and_previews_never_replay_the_log(service: GameService,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    view = await started(service)
    player = who(view)
    await service.status(HERE, player.id)  # loaded (and replayed) once

    def no_replay(*args: object) -> Game:
        raise AssertionError("the log was replayed")

    monkeypatch.setattr(Game, "replay", classmethod(no_replay))
    choices = await service.legal_moves(HERE, player)
    x, y, rot = choices.placements[0]
    await service.place_tile(HERE, player, x, y, rot)
    figure, on = (await service.legal_moves(HERE, player)).deployments[0]
    await service.deploy(HERE, player, figure, on)
    board = await service.game(HERE)
    assert board is not None and board.turn is not None and board.turn.pos == (x, y)
    view = await service.undo(HERE, player)
    assert view.must == "finish" and len(steps(view)) == 1
    view = await service.undo(HERE, player)
    assert view.must == "place" and view.steps == ()
    copy = await service.game(HERE)
    assert copy is not None and copy.turn is None
