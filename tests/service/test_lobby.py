"""Creating, joining, leaving, kicking, starting and cancelling, with every refusal."""

from __future__ import annotations

import pytest

from carca_bot.service import (
    BadInput,
    ChannelBusy,
    GameOptions,
    GameService,
    NoGameHere,
    NotAllowed,
    NotInGame,
    User,
    Where,
)
from tests.service.helpers import (
    ANA,
    BEN,
    CY,
    DEE,
    HERE,
    THERE,
    prompt,
    raises_saying,
    said,
    started,
)


async def test_create_opens_a_lobby_with_the_host_seated(service: GameService) -> None:
    view = await service.create(HERE, ANA, GameOptions(expansions=frozenset({"river"})))
    assert view.status == "lobby" and view.must == "join"
    assert [(s.name, s.user_id) for s in view.seats] == [("Ana", ANA.id)]
    assert view.host_id == ANA.id
    assert view.options.expansions == frozenset({"river"})
    assert "lobby" in prompt(view)


async def test_one_live_game_per_channel(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    with raises_saying(ChannelBusy, "already has a game"):
        await service.create(HERE, BEN, GameOptions())
    # Another channel is free, and a cancelled game frees its channel.
    await service.create(THERE, BEN, GameOptions())
    await service.cancel(HERE, ANA)
    assert (await service.create(HERE, CY, GameOptions())).host_id == CY.id


@pytest.mark.parametrize(("options", "words"), [
    ({"expansions": frozenset({"dragons"})}, "unknown expansion 'dragons'"),
    ({"wagon_rule": "c3"}, "unknown wagon rule"),
    ({"turn_timer": 5}, "at least 60 seconds"),
    ({"auto_play": True}, "auto-play needs a turn timer"),
    ({"max_players": 7}, "1 to 6 players"),
    ({"tunnel_pairs": -1}, "tunnel pairs"),
])
def test_bad_options_are_refused(options: dict[str, object], words: str) -> None:
    with raises_saying(BadInput, words):
        GameOptions(**options)  # type: ignore[arg-type]


async def test_join_seats_players_in_order_with_distinct_names(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    await service.join(HERE, BEN)
    view = await service.join(HERE, User("999", "Ana"))  # a second "Ana"
    assert [s.name for s in view.seats] == ["Ana", "Ben", "Ana 2"]
    assert [s.colour for s in view.seats] == [0, 1, 2]
    assert "Ana 2 joined" in said(view)


async def test_join_refusals(service: GameService) -> None:
    with pytest.raises(NoGameHere):
        await service.join(HERE, BEN)
    await service.create(HERE, ANA, GameOptions(max_players=2))
    with raises_saying(NotAllowed, "already in this game"):
        await service.join(HERE, ANA)
    await service.join(HERE, BEN)
    with raises_saying(NotAllowed, "full"):
        await service.join(HERE, CY)
    await service.start(HERE, ANA)
    with raises_saying(NotAllowed, "already started"):
        await service.join(HERE, CY)


async def test_leave_hands_on_the_host_and_the_last_one_closes(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    await service.join(HERE, BEN)
    with pytest.raises(NotInGame):
        await service.leave(HERE, CY)
    view = await service.leave(HERE, ANA)
    assert view.host_id == BEN.id and [s.name for s in view.seats] == ["Ben"]
    assert view.seats[0].seat == 0
    view = await service.leave(HERE, BEN)
    assert view.status == "cancelled"
    with pytest.raises(NoGameHere):
        await service.join(HERE, CY)
    await service.create(HERE, CY, GameOptions())  # the channel is free again


async def test_leave_is_refused_once_the_game_runs(service: GameService) -> None:
    await started(service)
    with raises_saying(NotAllowed, "use resign"):
        await service.leave(HERE, BEN)


async def test_kick_from_the_lobby(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    await service.join(HERE, BEN)
    await service.join(HERE, CY)
    with raises_saying(NotAllowed, "only the host or a server admin"):
        await service.kick(HERE, BEN, CY.id)
    with pytest.raises(NotInGame):
        await service.kick(HERE, ANA, DEE.id)
    with raises_saying(NotAllowed, "host cannot be kicked"):
        await service.kick(HERE, BEN, ANA.id, is_admin=True)
    view = await service.kick(HERE, ANA, CY.id)
    assert [s.name for s in view.seats] == ["Ana", "Ben"]
    view = await service.kick(HERE, DEE, BEN.id, is_admin=True)  # an admin, not seated
    assert [s.name for s in view.seats] == ["Ana"]


async def test_kick_from_a_running_game_resigns_the_player(service: GameService) -> None:
    await started(service, (ANA, BEN, CY))
    view = await service.kick(HERE, ANA, CY.id)
    assert view.status == "active"
    assert [s.name for s in view.seats if s.resigned] == ["Cy"]
    assert "Cy was removed from the game" in said(view)


async def test_start_refusals(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    with raises_saying(NotAllowed, "at least 2 players"):
        await service.start(HERE, ANA)
    await service.join(HERE, BEN)
    with raises_saying(NotAllowed, "only the host"):
        await service.start(HERE, BEN)
    await service.start(HERE, ANA)
    with raises_saying(NotAllowed, "already started"):
        await service.start(HERE, ANA)


async def test_solo_start_when_allowed(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions(allow_solo=True))
    view = await service.start(HERE, ANA)
    assert view.status == "active" and view.deciding is not None
    assert view.deciding.user_id == ANA.id and view.tile is not None


async def test_seat_order_is_drawn_from_the_seed(service: GameService) -> None:
    orders = []
    for channel in ("a", "b", "c"):
        where = Where("g", channel)
        view = await started(service, (ANA, BEN, CY, DEE), GameOptions(seed=11), where)
        orders.append([s.name for s in view.seats])
        assert [s.seat for s in view.seats] == [0, 1, 2, 3]
        assert view.deciding == view.seats[0]
    assert orders[0] == orders[1] == orders[2]
    assert sorted(orders[0]) == ["Ana", "Ben", "Cy", "Dee"]
    others = set()
    for seed in range(12):
        view = await started(service, (ANA, BEN, CY, DEE), GameOptions(seed=seed),
                             Where("h", str(seed)))
        others.add(tuple(s.name for s in view.seats))
    assert len(others) > 1  # not always the join order


async def test_cancel(service: GameService) -> None:
    await started(service)
    with raises_saying(NotAllowed, "only the host or a server admin"):
        await service.cancel(HERE, BEN)
    view = await service.cancel(HERE, DEE, is_admin=True)
    assert view.status == "cancelled" and view.outcome == "cancelled" and view.finished
    with pytest.raises(NoGameHere):
        await service.place_tile(HERE, ANA, 0, 1, 0)
    assert (await service.status(HERE)).status == "cancelled"
