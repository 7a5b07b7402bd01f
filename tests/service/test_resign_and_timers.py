"""Resigning, kicking out of a running game, and turn timers."""

from __future__ import annotations

import pytest

from carca_bot.engine.game import Game, Phase
from carca_bot.engine.record import parse_record
from carca_bot.service import (
    GameOptions,
    GameService,
    NoGameHere,
    NotAllowed,
    NotInGame,
    TurnOrder,
)
from carca_bot.service.play_auto import auto_move
from tests.engine.expansion_helpers import game_of
from tests.engine.test_traders_builders import _west_arm_and_hole
from tests.service.helpers import (
    ANA,
    BEN,
    CY,
    DEE,
    HERE,
    RING,
    Clock,
    other,
    prompt,
    raises_saying,
    rig,
    said,
    started,
    who,
)


async def test_resigning_a_two_player_game_ends_it(service: GameService) -> None:
    view = await started(service)
    quitter, stayer = other(view), who(view)
    view = await service.resign(HERE, quitter)
    assert view.status == "finished" and view.outcome == "resigned" and view.finished
    assert [s.name for s in view.standings] == [stayer.name, quitter.name]
    assert view.standings[1].resigned
    assert prompt(view).startswith("game over by resignation")
    assert f"{quitter.name} resigned" in said(view)
    with pytest.raises(NoGameHere):
        await service.confirm(HERE, stayer)
    await service.create(HERE, stayer, GameOptions())  # the channel is free


async def test_after_a_resignation_the_others_play_on(service: GameService,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U", "U", "U", "U"])
    view = await started(service, (ANA, BEN, CY))
    quitter = who(view)
    await service.place_tile(HERE, quitter, 1, 0, 0)
    await service.deploy(HERE, quitter, "follower", "E")
    view = await service.resign(HERE, quitter)
    # Their unconfirmed turn is dropped and played plainly for them: no figure.
    assert view.status == "active" and view.moves == 1
    assert f"{quitter.name} has resigned: their move was played for them" in said(view)
    assert who(view) != quitter
    action = (await service.export(HERE))["actions"][0]
    assert action["by"] == quitter.name and "deploy" not in action
    with raises_saying(NotAllowed, "you resigned"):
        await service.place_tile(HERE, quitter, 2, 0, 0)
    with raises_saying(NotAllowed, "already resigned"):
        await service.resign(HERE, quitter)
    # Two rounds later their turns are still played for them.
    for _ in range(2):
        view = await service.play_turn(HERE, who(view), TurnOrder(
            at=(await service.legal_moves(HERE, who(view))).placements[0][:2],
            rot=(await service.legal_moves(HERE, who(view))).placements[0][2]))
    assert view.moves == 4 and who(view) != quitter
    view = await service.resign(HERE, who(view))
    assert view.status == "finished" and view.outcome == "resigned"
    assert sum(not s.resigned for s in view.seats) == 1


async def test_resign_refusals(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions())
    await service.join(HERE, BEN)
    with raises_saying(NotAllowed, "use leave"):
        await service.resign(HERE, BEN)
    await service.start(HERE, ANA)
    with pytest.raises(NotInGame):
        await service.resign(HERE, DEE)


def _game(actions: list[dict[str, object]], expansions: list[str]) -> Game:
    record = parse_record({"format": "carca-record/1", "players": ["Ana", "Ben"],
                           "expansions": expansions, "actions": actions})
    return Game.replay(record.setup, record.actions)


def test_moves_played_for_a_player_are_the_plainest() -> None:
    wagon = _game([{"by": "Ana", "tile": "W", "at": [1, 0], "rot": 0,
                    "deploy": {"figure": "wagon", "on": "W"}},
                   {"by": "Ben", "tile": "W", "at": [-1, 0], "rot": 0}], ["abbey_mayor"])
    assert wagon.phase is Phase.WAGON
    auto_move(wagon, 0)
    assert wagon.history[-1] == {"by": "Ana", "wagon": "return"}
    ring: list[dict[str, object]] = [
        {"by": ("Ana", "Ben")[i % 2], "tile": t, "at": list(at), "rot": rot}
        for i, (t, at, rot) in enumerate(RING)]
    ending = _game([*ring, {"end": True}], ["abbey_mayor"])
    assert ending.phase is Phase.ABBEY_ROUND
    asked = ending.current
    auto_move(ending, asked)
    assert ending.history[-1] == {"by": ending.players[asked], "abbey": "skip"}
    tile = _game([], [])
    drawn = tile.draw()
    first = tile.legal_placements(drawn)[0]
    auto_move(tile, 0)
    assert tile.history == [{"by": "Ana", "tile": drawn, "at": list(first.pos),
                             "rot": first.rot * 90}]
    assert tile.phase is Phase.TILE and tile.current == 1


def test_a_second_part_with_no_tile_left_is_played_as_the_abbey() -> None:
    """The engine's position: Ana's builder's road grows with the last tile; the move
    made for her is the abbey, the only one (docs/rules/RULES-inns-traders.md 4.18)."""
    game = game_of(_west_arm_and_hole(trigger_tile=False),
                   expansions=("traders_builders", "abbey_mayor"))
    for tile in list(game.supply):
        game.supply[tile] = 1 if tile == "U" else 0
    game.apply({"by": "Ana", "tile": "U", "at": [-3, 0], "rot": 0})
    assert (game.part, game.tiles_left, game.phase) == (2, 0, Phase.TILE)
    auto_move(game, 0)
    assert game.history[-1] == {"by": "Ana", "abbey": [1, 1]} and game.finished


async def test_a_late_player_is_reminded_once_per_period(service: GameService,
                                                         clock: Clock) -> None:
    view = await started(service, options=GameOptions(turn_timer=60, seed=4))
    late = who(view)
    assert view.deadline == clock.now + 60
    assert await service.check_timers(clock.now + 59) == []
    reports = await service.check_timers(clock.now + 61)
    assert [(r.user_id, r.name, r.auto_played) for r in reports] == [(late.id, late.name, False)]
    assert f"{late.name}, your time for this turn is up" in said(reports[0].view)
    assert reports[0].view.moves == 0
    assert await service.check_timers(clock.now + 61) == []  # reminded already
    assert len(await service.check_timers(clock.now + 122)) == 1


async def test_a_move_restarts_the_clock(service: GameService, clock: Clock) -> None:
    view = await started(service, options=GameOptions(turn_timer=60, seed=4))
    clock.now += 50
    player = who(view)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    view = await service.play_turn(HERE, player, TurnOrder(at=spot[:2], rot=spot[2]))
    assert view.deadline == clock.now + 60
    assert await service.check_timers(clock.now + 30) == []


async def test_auto_play_moves_for_a_late_player(service: GameService, clock: Clock) -> None:
    view = await started(service, options=GameOptions(turn_timer=60, auto_play=True, seed=4))
    late = who(view)
    reports = await service.check_timers(clock.now + 61)
    assert [(r.name, r.auto_played) for r in reports] == [(late.name, True)]
    view = reports[0].view
    assert view.moves == 1 and who(view) != late
    assert f"{late.name} ran out of time: their move was played for them" in said(view)
    action = (await service.export(HERE))["actions"][0]
    assert action["by"] == late.name and "deploy" not in action


async def test_auto_play_keeps_the_steps_already_taken(service: GameService, clock: Clock,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U"])
    view = await started(service, options=GameOptions(turn_timer=60, auto_play=True, seed=4))
    late = who(view)
    await service.place_tile(HERE, late, 1, 0, 0)
    await service.deploy(HERE, late, "follower", "E")
    await service.check_timers(clock.now + 61)
    assert (await service.export(HERE))["actions"] == [{
        "by": late.name, "tile": "U", "at": [1, 0], "rot": 0,
        "deploy": {"figure": "follower", "on": "E"}}]


async def test_an_auto_played_report_says_what_was_played_and_who_is_next(
        service: GameService, clock: Clock) -> None:
    view = await started(service, options=GameOptions(turn_timer=60, auto_play=True, seed=4))
    late = who(view)
    clock.now += 61
    (report,) = await service.check_timers()
    assert report.reason == "auto_played" and report.auto_played
    assert report.actions and report.actions[0]["by"] == late.name
    assert report.actions == report.view.played
    assert {"tile", "at", "rot"} <= set(report.actions[0])
    nxt = report.view.deciding
    assert nxt is not None and nxt.user_id != late.id
    assert report.view.deadline == clock.now + 60  # the next player's new deadline
    summary = next(g for g in await service.my_games(late.id) if g.where == HERE)
    assert summary.deadline == report.view.deadline


async def test_a_reminder_report_says_so(service: GameService, clock: Clock) -> None:
    await started(service, options=GameOptions(turn_timer=60, seed=4))
    clock.now += 61
    (report,) = await service.check_timers()
    assert (report.reason, report.actions, report.view.deadline) == (
        "reminder", (), clock.now + 60)


async def test_kicking_the_player_to_act_says_what_was_played(service: GameService,
                                                               clock: Clock) -> None:
    view = await started(service, (ANA, BEN, CY), GameOptions(turn_timer=120, seed=4))
    late = who(view)
    kicked = await service.kick(HERE, ANA, late.id, is_admin=True)  # an admin may kick anyone
    assert kicked.played and kicked.played[0]["by"] == late.name
    assert any("removed from the game" in e for e in said(kicked))
    assert kicked.deciding is not None and kicked.deciding.user_id != late.id
    assert kicked.deadline == clock.now + 120
