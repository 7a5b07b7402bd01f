"""Decisions outside the plain turn: draw or abbey, wagons, the end-of-game abbey round."""

from __future__ import annotations

from typing import Any

import pytest

from carca_bot.service import (
    GameOptions,
    GameService,
    IllegalMoveError,
    NotAllowed,
    NotInGame,
    NotNow,
    NotYourTurn,
    TurnOrder,
)
from tests.service.helpers import (
    AM,
    ANA,
    BEN,
    HERE,
    HOLE,
    RING,
    play_ring,
    prompt,
    raises_saying,
    rig,
    said,
    started,
    steps,
    who,
)

RING_TILES = [tile for tile, _, _ in RING]


async def test_the_tile_stays_hidden_until_the_player_chooses_to_draw(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, [*RING_TILES, "U"])
    view = await play_ring(service, await started(service, options=GameOptions(
        expansions=AM, seed=1)))
    player = who(view)
    view = await service.begin_turn(HERE, player)
    assert view.must == "choose" and view.tile is None
    assert prompt(view) == "your turn: draw a tile, or place your abbey in a hole"
    choices = await service.legal_moves(HERE, player)
    assert choices.can_draw and choices.abbey_squares == (HOLE,) and choices.tile is None
    with raises_saying(NotNow, "first choose"):
        await service.place_tile(HERE, player, 3, 0, 0)
    with raises_saying(NotNow, "first choose"):
        await service.play_turn(HERE, player, TurnOrder(at=(3, 0)))
    view = await service.draw(HERE, player)
    assert view.must == "place" and view.tile == "U"
    with raises_saying(NotNow, "you drew a tile this turn"):
        await service.place_abbey(HERE, player, *HOLE)
    with raises_saying(NotNow, "you drew a tile this turn"):
        await service.play_turn(HERE, player, TurnOrder(at=HOLE, abbey=True))
    await service.place_tile(HERE, player, *(await service.legal_moves(HERE, player)).placements[0])
    view = await service.undo(HERE, player)  # undo keeps the draw: the tile was seen
    assert view.must == "place" and view.tile == "U"


async def test_placing_the_abbey_instead_of_drawing(service: GameService,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, [*RING_TILES, "U"])
    view = await play_ring(service, await started(service, options=GameOptions(
        expansions=AM, seed=1)))
    player = who(view)
    view = await service.place_abbey(HERE, player, *HOLE)
    assert view.must == "finish" and steps(view) == ("abbey at 1,1",)
    await service.deploy(HERE, player, "follower", "C")
    view = await service.confirm(HERE, player)
    seat = next(s for s in view.seats if s.user_id == player.id)
    assert seat.score == 9 and seat.in_hand["abbey"] == 0  # complete at once: 1 + 8
    # The next player has no hole left: their tile is drawn for them.
    view = await service.begin_turn(HERE, who(view))
    assert view.must == "place" and view.tile == "U"


def _wagon_game(service: GameService, monkeypatch: pytest.MonkeyPatch) -> Any:
    rig(monkeypatch, ["W", "W"])
    return started(service, options=GameOptions(expansions=AM, seed=2))


async def test_the_wagon_owner_decides_where_it_goes(service: GameService,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    view = await _wagon_game(service, monkeypatch)
    owner = who(view)
    view = await service.play_turn(HERE, owner, TurnOrder(at=(1, 0), figure="wagon", on="W"))
    closer = who(view)
    view = await service.play_turn(HERE, closer, TurnOrder(at=(-1, 0)))
    assert view.must == "wagon" and who(view) == owner
    assert any(e.startswith(f"{owner.name} +3") for e in said(view)), view.events
    with raises_saying(NotYourTurn, f"waiting for {owner.name} to move or return"):
        await service.move_wagon(HERE, closer, 1, 0, "E")
    with raises_saying(NotNow, "first move your wagon"):
        await service.place_tile(HERE, owner, 2, 0, 0)
    choices = await service.legal_moves(HERE, owner)
    assert sorted(choices.wagon_moves) == [(0, 0, "N"), (1, 0, "E"), (1, 0, "S")]
    with raises_saying(IllegalMoveError, "complete"):
        await service.move_wagon(HERE, owner, 1, 0, "W")
    view = await service.move_wagon(HERE, owner, 0, 0, "N")
    assert view.must == "place" and who(view) == owner  # the owner's own turn comes next
    assert (await service.export(HERE))["actions"][-1] == {
        "by": owner.name, "wagon": {"at": [0, 0], "on": "N"}}


async def test_the_wagon_can_go_home(service: GameService,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    view = await _wagon_game(service, monkeypatch)
    owner = who(view)
    view = await service.play_turn(HERE, owner, TurnOrder(at=(1, 0), figure="wagon", on="W"))
    view = await service.play_turn(HERE, who(view), TurnOrder(at=(-1, 0)))
    view = await service.return_wagon(HERE, owner)
    seat = next(s for s in view.seats if s.user_id == owner.id)
    assert seat.in_hand["wagon"] == 1 and "the wagon returns to hand" in said(view)[0]


def _ring_then_end() -> dict[str, Any]:
    actions: list[dict[str, Any]] = []
    for i, (tile, at, rot) in enumerate(RING):
        actions.append({"by": ("Ana", "Ben")[i % 2], "tile": tile, "at": list(at), "rot": rot})
    actions.append({"end": True})
    return {"format": "carca-record/1", "players": ["Ana", "Ben"],
            "expansions": ["abbey_mayor"], "actions": actions}


async def test_the_end_of_game_abbey_round(service: GameService) -> None:
    # An imported record that ends with the supply used up: each abbey holder in turn
    # may place their abbey or skip, then final scoring. The importer plays every seat.
    view = await service.import_record(HERE, ANA, _ring_then_end())
    assert view.must == "abbey_round" and view.deciding is not None
    first = view.deciding.name
    assert prompt(view) == "last chance to place your abbey: place it in a hole or skip"
    choices = await service.legal_moves(HERE, ANA)
    assert choices.can_skip_abbey and choices.abbey_squares == (HOLE,)
    with raises_saying(NotNow, "the tiles are used up"):
        await service.place_tile(HERE, ANA, 3, 0, 0)
    view = await service.skip_abbey(HERE, ANA)
    assert view.must == "abbey_round" and view.deciding is not None
    assert view.deciding.name != first
    await service.place_abbey(HERE, ANA, *HOLE)
    await service.deploy(HERE, ANA, "follower", "C")
    view = await service.confirm(HERE, ANA)
    assert view.status == "finished" and view.outcome == "complete" and view.must == "over"
    assert prompt(view).startswith("game over: ")
    actions = (await service.export(HERE))["actions"]
    assert actions[-2] == {"by": first, "abbey": "skip"}
    assert actions[-1]["abbey"] == [1, 1]


async def test_only_the_importer_plays_an_analysis_game(service: GameService) -> None:
    view = await service.import_record(HERE, ANA, _ring_then_end())
    assert view.options.analysis
    with raises_saying(NotInGame, "not playing in this game"):
        await service.skip_abbey(HERE, BEN)
    with raises_saying(NotAllowed, "analysis game"):
        await service.resign(HERE, ANA)
