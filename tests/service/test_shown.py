"""What a front end shows of a game, from the service in one call each: the public view
after a change (the next player's public tile and choices, every event, a board to
draw), a player's own view of their turn, a past moment, and the pile's counts."""

from __future__ import annotations

import pytest

from carca_bot.engine.moves import Deploy, EndTurn, MoveWagon, PlaceTile
from carca_bot.service import GameOptions, GameService, Played, TurnOrder, played
from tests.service.helpers import AM, ANA, BEN, HERE, rig, started, who


async def test_the_public_view_after_a_move(service: GameService) -> None:
    view = await started(service)
    mover = who(view)
    tile = (await service.begin_turn(HERE, mover)).tile
    x, y, rot = (await service.legal_moves(HERE, mover)).placements[0]
    await service.place_tile(HERE, mover, x, y, rot)
    figure, on = (await service.legal_moves(HERE, mover)).deployments[0]
    await service.deploy(HERE, mover, figure, on)
    done = await service.confirm(HERE, mover)
    # The move, typed: who made it and what, as the record has it.
    assert tile is not None
    (made,) = done.done
    assert made == Played(mover.name, (PlaceTile(tile, (x, y), rot // 90),
                                       Deploy(figure, on), EndTurn()))
    assert done.done_by(mover.name) == made and done.done_by("Nobody") is None
    assert not made.discard
    shown = await service.public_view(done.game_id)
    nxt = who(shown.view)
    assert shown.view.version == done.version and shown.view.tile is None  # nobody's view
    # The next player's tile is public once drawn (no abbey choice in a base game), and
    # is the one they get.
    assert shown.view.must == "place" and shown.tile is not None
    assert (await service.begin_turn(HERE, nxt)).tile == shown.tile
    assert shown.choices is None  # only a wagon's targets are shown to everyone
    assert shown.board is not None
    assert shown.board.history == (await service.export(HERE))["actions"]
    assert shown.events == tuple(shown.board.events)
    assert shown.last == made  # the newest action, for the pictures' alt text


async def test_a_lobby_has_no_board(service: GameService) -> None:
    view = await service.create(HERE, ANA, GameOptions())
    shown = await service.public_view(view.game_id)
    assert shown.board is None and shown.tile is None and shown.events == ()
    assert shown.last is None


async def test_the_wagon_owners_targets_are_public(service: GameService,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["W", "W"])
    view = await started(service, options=GameOptions(expansions=AM, seed=2))
    owner = who(view)
    view = await service.play_turn(HERE, owner, TurnOrder(at=(1, 0), figure="wagon", on="W"))
    view = await service.play_turn(HERE, who(view), TurnOrder(at=(-1, 0)))
    assert view.must == "wagon"
    shown = await service.public_view(view.game_id)
    assert shown.choices is not None
    assert shown.choices == await service.legal_moves(HERE, owner)  # without asking as them
    done = await service.move_wagon(HERE, owner, 0, 0, "N")
    assert done.done == (Played(owner.name, (MoveWagon((0, 0), "N"),)),)


async def test_a_players_own_view_of_their_turn(service: GameService) -> None:
    view = await started(service)
    mover, waiting = who(view), next(u for u in (ANA, BEN) if u != who(view))
    mine = await service.own_view(HERE, mover)
    assert mine.tile is not None and mine.tile == mine.view.tile
    assert mine.choices is not None and mine.choices.placements
    theirs = await service.own_view(HERE, waiting)
    assert theirs.tile is None and theirs.choices is None
    x, y, rot = mine.choices.placements[0]
    await service.place_tile(HERE, mover, x, y, rot)
    step = await service.own_view(HERE, mover)
    assert step.view.must == "finish" and step.choices is not None
    assert step.choices.can_confirm and step.board is not None
    assert (x, y) in step.board.board.tiles  # the unconfirmed tile, for their preview
    assert mine.last is None and step.last is None  # nothing committed yet
    done = await service.confirm(HERE, mover)
    assert (await service.own_view(HERE, waiting)).last == done.done[-1]


async def test_a_moment_of_the_past_and_the_pile(service: GameService) -> None:
    view = await started(service)
    for _ in range(3):
        mover = who(view)
        x, y, rot = (await service.legal_moves(HERE, mover)).placements[0]
        view = await service.place(HERE, mover, x, y, rot, confirm=True)
    record = await service.export(HERE)
    newest = await service.moment(view.game_id)
    assert (newest.number, newest.total) == (3, 3) and not newest.finished
    assert newest.action == played(record["actions"][2:3])[0]
    assert newest.table.setup.seed is None  # replayed without the seed
    first = await service.moment(view.game_id, 1)
    assert first.action == played(record["actions"][:1])[0] and first.number == 1
    assert (await service.moment(view.game_id, 0)).action is None
    assert (await service.moment(view.game_id, 99)).number == 3  # clamped
    counts = await service.pile(view.game_id)
    assert sum(n for _tile, n in counts) == view.tiles_left
    assert newest.names == tuple(s.name for s in view.seats)
