"""Status, my games, the board for rendering, export and import."""

from __future__ import annotations

import random

import pytest

from carca_bot.engine.record import replay
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import (
    BadInput,
    ChannelBusy,
    GameOptions,
    GameService,
    NoGameHere,
    NotAllowed,
    User,
    Where,
)
from tests.service.helpers import ANA, BEN, CY, HERE, THERE, raises_saying, started, who


async def _play(service: GameService, moves: int, where: Where = HERE,
                as_user: User | None = None) -> None:
    """Random moves by whoever must act (or by `as_user`, who plays every seat)."""
    rng = random.Random(5)
    view = await service.status(where)
    for _ in range(moves):
        view, _ = await play_random_move(service, where, as_user or who(view), rng)


async def test_status_without_any_game(service: GameService) -> None:
    with raises_saying(NoGameHere, "no game in this channel yet"):
        await service.status(HERE)


async def test_export_replays_to_the_same_state(service: GameService) -> None:
    await started(service, options=GameOptions(expansions=frozenset({"abbot", "king_robber"}),
                                                wagon_rule="c1", seed=9))
    await _play(service, 12)
    view = await service.status(HERE)
    record = await service.export(HERE)
    assert record["format"] == "carca-record/1" and "seed" not in record  # still dealing
    assert record["players"] == [s.name for s in view.seats]
    assert record["rules"] == {"wagon": "c1"}
    status, result = replay(record)
    assert status == 0
    assert result["scores"] == {s.name: s.score for s in view.seats}
    assert len(record["actions"]) == view.moves


async def test_export_needs_a_started_game(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    with raises_saying(NotAllowed, "nothing to export"):
        await service.export(HERE)


async def test_import_continues_where_the_record_stops(service: GameService) -> None:
    await started(service, options=GameOptions(seed=9))
    await _play(service, 10)
    # A running game exports without its seed; this importer knows it and adds it.
    record = {**await service.export(HERE), "seed": 9}
    view = await service.import_record(THERE, CY, record)
    original = await service.status(HERE)
    assert view.options.analysis and view.host_id == CY.id and view.status == "active"
    assert [(s.name, s.score, s.user_id) for s in view.seats] == [
        (s.name, s.score, None) for s in original.seats]
    assert view.moves == original.moves
    # The importer plays every seat, and the deal goes on from the record's seed.
    assert (await service.begin_turn(THERE, CY)).tile == \
        (await service.begin_turn(HERE, who(original))).tile
    await _play(service, 3, THERE, as_user=CY)
    assert (await service.status(THERE)).moves >= original.moves + 3


@pytest.mark.parametrize(("record", "words"), [
    ("not a record", "a record is one JSON object"),
    ({"format": "carca-record/1", "players": ["A"], "actions": [{"by": "A"}]},
     r"exactly one verb.*\(action 0\)"),
    ({"format": "carca-record/1", "players": ["A", "B"],
      "actions": [{"by": "A", "tile": "U", "at": [0, -1], "rot": 0}]},
     "action 0 of the record breaks a rule: U cannot go at"),
    ({"format": "carca-record/1", "players": ["A", "B"],
      "actions": [{"by": "B", "tile": "U", "at": [1, 0], "rot": 0}]},
     "action 0 of the record breaks a rule: it is not B's turn"),
])
async def test_import_refuses_broken_records_and_stores_nothing(
        service: GameService, record: object, words: str) -> None:
    with raises_saying(BadInput, words):
        await service.import_record(HERE, ANA, record)
    with pytest.raises(NoGameHere):
        await service.status(HERE)


async def test_import_into_a_busy_channel(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    with pytest.raises(ChannelBusy):
        await service.import_record(HERE, ANA, {"format": "carca-record/1",
                                                "players": ["A"], "actions": []})


async def test_my_games_lists_every_seat_across_channels(service: GameService) -> None:
    first = await started(service, (ANA, BEN))
    await started(service, (CY, ANA), where=THERE)
    await service.create(Where("guild-2", "x"), BEN, GameOptions())
    games = await service.my_games(ANA.id)
    assert {g.where for g in games} == {HERE, THERE}
    here = next(g for g in games if g.where == HERE)
    assert here.status == "active" and set(here.players) == {"Ana", "Ben"}
    assert here.waiting_for == who(first).name and here.your_turn == (who(first) == ANA)
    assert [g.where for g in await service.my_games(BEN.id)] in (
        [Where("guild-2", "x"), HERE], [HERE, Where("guild-2", "x")])
    assert await service.my_games("nobody") == []
    assert len(await service.my_games(ANA.id, limit=1)) == 1
    await service.resign(HERE, BEN)
    assert [g.where for g in await service.my_games(ANA.id, live_only=True)] == [THERE]


async def test_the_game_for_rendering_is_a_private_copy(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place_tile(HERE, player, *spot)
    game = await service.game(HERE)
    assert game is not None and (spot[0], spot[1]) in game.board.tiles  # unconfirmed included
    game.restore()  # dropping the step in the copy changes nothing in the service
    assert (await service.status(HERE)).steps
    await service.create(THERE, ANA, GameOptions())
    assert await service.game(THERE) is None  # a lobby has no board yet
