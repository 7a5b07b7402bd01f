"""A turn step by step or at once, undo, and the refusals of each step."""

from __future__ import annotations

import pytest

from carca_bot.service import (
    BadInput,
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
    ANA,
    BEN,
    DEE,
    HERE,
    other,
    prompt,
    raises_saying,
    rig,
    said,
    started,
    steps,
    turn,
    who,
    words,
)


async def test_the_drawn_tile_is_shown_only_to_its_player(service: GameService) -> None:
    view = await started(service)
    player, waiting = who(view), other(view)
    mine = await service.begin_turn(HERE, player)
    theirs = await service.status(HERE, waiting.id)
    assert mine.must == theirs.must == "place"
    assert mine.tile is not None and theirs.tile is None
    assert prompt(mine) == f"your turn: place tile {mine.tile}"
    assert prompt(theirs) == f"waiting for {player.name} to place a tile"
    assert (await service.status(HERE)).tile is None  # nobody in particular


async def test_a_turn_step_by_step(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U"])
    view = await started(service)
    player = who(view)
    view = await service.place_tile(HERE, player, 1, 0, 0)
    assert view.must == "finish" and steps(view) == ("U at 1,0 turned 0",)
    assert view.moves == 0
    choices = await service.legal_moves(HERE, player)
    assert ("follower", "E") in choices.deployments and choices.can_confirm
    view = await service.deploy(HERE, player, "follower", "E")
    assert steps(view)[-1] == "follower on E"
    view = await service.confirm(HERE, player)
    assert view.moves == 1 and who(view) != player
    record = await service.export(HERE)
    assert record["actions"] == [{"by": player.name, "tile": "U", "at": [1, 0], "rot": 0,
                                  "deploy": {"figure": "follower", "on": "E"}}]
    seat = next(s for s in view.seats if s.user_id == player.id)
    assert seat.in_hand["follower"] == 6


async def test_not_your_turn_and_not_in_game(service: GameService) -> None:
    view = await started(service)
    with pytest.raises(NotYourTurn) as refused:
        await service.place_tile(HERE, other(view), 0, 1, 0)
    assert words(refused.value) == f"not your turn: waiting for {who(view).name} to place a tile"
    with raises_saying(NotInGame, "not playing in this game"):
        await service.place_tile(HERE, DEE, 0, 1, 0)
    with pytest.raises(NotYourTurn):
        await service.legal_moves(HERE, other(view))


async def test_steps_out_of_order_are_refused(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    with raises_saying(NotNow, "first place your tile"):
        await service.deploy(HERE, player, "follower", "N")
    with raises_saying(NotNow, "first place your tile"):
        await service.confirm(HERE, player)
    with raises_saying(NotNow, "first place your tile"):
        await service.recall(HERE, player)
    with raises_saying(NotNow, "first place your tile"):
        await service.place_token(HERE, player, 0, 0, "E", 0)
    with raises_saying(NotNow, "nothing to undo"):
        await service.undo(HERE, player)
    with raises_saying(NotNow, "abbey round"):
        await service.skip_abbey(HERE, player)
    with raises_saying(NotNow, "first place your tile"):
        await service.return_wagon(HERE, player)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place_tile(HERE, player, *spot)
    with raises_saying(NotNow, "your tile is down"):
        await service.place_tile(HERE, player, *spot)
    with raises_saying(NotNow, "your tile is down"):
        await service.move_wagon(HERE, player, 0, 0, "N")


async def test_rule_refusals_carry_the_engines_words(service: GameService,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U"])
    view = await started(service)
    player = who(view)
    with pytest.raises(IllegalMoveError) as far:
        await service.place_tile(HERE, player, 5, 5, 0)
    assert "does not touch any placed tile" in words(far.value)
    with pytest.raises(IllegalMoveError) as edge:
        await service.place_tile(HERE, player, 0, -1, 0)  # U's field against D's city
    assert "south edge is field but the tile at 0,0 shows city" in words(edge.value)
    with raises_saying(BadInput, "0, 90, 180 or 270"):
        await service.place_tile(HERE, player, 1, 0, 45)
    await service.place_tile(HERE, player, 1, 0, 0)
    with raises_saying(IllegalMoveError, "no mayor"):
        await service.deploy(HERE, player, "mayor", "N")
    with raises_saying(IllegalMoveError, "names nothing"):
        await service.deploy(HERE, player, "follower", "C")
    with raises_saying(IllegalMoveError, "no abbot on the board"):
        await service.recall(HERE, player)
    with raises_saying(IllegalMoveError, "no tunnels"):
        await service.place_token(HERE, player, 1, 0, "E", 0)
    view = await service.status(HERE, player.id)
    assert steps(view) == ("U at 1,0 turned 0",)  # refusals changed nothing


async def test_undo_takes_back_one_step_at_a_time(service: GameService,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U"])
    view = await started(service)
    player = who(view)
    await service.place_tile(HERE, player, 1, 0, 0)
    await service.deploy(HERE, player, "follower", "E")
    view = await service.undo(HERE, player)
    assert steps(view) == ("U at 1,0 turned 0",) and view.must == "finish"
    view = await service.undo(HERE, player)
    assert view.steps == () and view.must == "place" and view.tile == "U"
    with pytest.raises(NotNow):
        await service.undo(HERE, player)
    view = await service.place_tile(HERE, player, -1, 0, 0)  # somewhere else this time
    view = await service.confirm(HERE, player)
    assert view.moves == 1
    assert (await service.export(HERE))["actions"][0]["at"] == [-1, 0]


async def test_a_whole_turn_in_one_command(service: GameService,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U", "U"])
    view = await started(service)
    player = who(view)
    view = await service.play_turn(HERE, player, TurnOrder(at=(1, 0), rot=0,
                                                           figure="follower", on="E"))
    assert view.moves == 1
    second = who(view)
    # A refused whole turn changes nothing, not even the steps already taken.
    await service.place_tile(HERE, second, -1, 0, 0)
    with raises_saying(IllegalMoveError, "already occupied"):
        await service.play_turn(HERE, second, TurnOrder(at=(2, 0), rot=0,
                                                        figure="follower", on="W"))
    view = await service.status(HERE, second.id)
    assert steps(view) == ("U at -1,0 turned 0",) and view.moves == 1
    with raises_saying(BadInput, "not both"):
        await service.play_turn(HERE, second, TurnOrder(at=(2, 0), rot=0,
                                                        figure="follower", on="S", recall=True))
    # A whole turn replaces the unconfirmed steps.
    view = await service.play_turn(HERE, second, TurnOrder(at=(2, 0), rot=0))
    assert view.moves == 2
    assert (await service.export(HERE))["actions"][1] == {"by": second.name, "tile": "U",
                                                          "at": [2, 0], "rot": 0}


async def test_a_tile_that_fits_nowhere_is_discarded_and_another_drawn(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    # After U and I, the all-city C has no open city edge to go to.
    rig(monkeypatch, ["U", "I", "C", "V"])
    view = await started(service)
    view = await turn(service, who(view), -1, 0, 180)
    third = other(view)
    view = await turn(service, who(view), 0, -1, 270)
    assert f"{third.name}: C fits nowhere and is removed from the game" in said(view)
    assert (await service.begin_turn(HERE, third)).tile == "V"
    record = await service.export(HERE)
    assert record["actions"][-1] == {"by": third.name, "discard": "C"}


async def test_recall_the_abbot(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["B", "U", "U"])
    view = await started(service, options=GameOptions(expansions=frozenset({"abbot"}), seed=3))
    abbot = who(view)
    await service.place_tile(HERE, abbot, 0, 1, 0)
    await service.deploy(HERE, abbot, "abbot", "C")
    view = await turn(service, who(await service.confirm(HERE, abbot)), 1, 0, 0)
    await service.place_tile(HERE, abbot, -1, 0, 0)
    assert (await service.legal_moves(HERE, abbot)).can_recall
    view = await service.recall(HERE, abbot)
    assert steps(view)[-1] == "abbot recalled"
    assert len(view.events) == 1
    assert said(view)[0].startswith(f"{abbot.name} +4 for recalled abbot")
    view = await service.confirm(HERE, abbot)
    assert (await service.export(HERE))["actions"][-1]["recall"] is True


async def test_tunnel_token(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["TU1"])
    view = await started(service, options=GameOptions(expansions=frozenset({"tunnel"}), seed=3))
    player = who(view)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place_tile(HERE, player, *spot)
    tokens = (await service.legal_moves(HERE, player)).tokens
    assert tokens
    x, y, side, pair = tokens[0]
    view = await service.place_token(HERE, player, x, y, side, pair)
    assert steps(view)[-1].startswith("tunnel token")
    view = await service.confirm(HERE, player)
    action = (await service.export(HERE))["actions"][0]
    assert action["token"] == {"at": [x, y], "on": side, "pair": pair}


async def test_more_refusals(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    await service.create(HERE, ANA, GameOptions())
    await service.join(HERE, BEN)
    with raises_saying(NotAllowed, "has not started"):
        await service.place_tile(HERE, ANA, 1, 0, 0)
    rig(monkeypatch, ["U"])
    view = await service.start(HERE, ANA)
    player = who(view)
    with raises_saying(BadInput, "say where the follower goes"):
        await service.play_turn(HERE, player, TurnOrder(at=(1, 0), figure="follower"))
    with raises_saying(IllegalMoveError, "no abbey"):
        await service.place_abbey(HERE, player, 1, 1)
    await service.place_tile(HERE, player, 1, 0, 0)
    with raises_saying(NotNow, "your tile is down"):
        await service.draw(HERE, player)
