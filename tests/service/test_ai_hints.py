"""`hint`: the AI's move for the player to act, off unless the game was created with
hints, kept in the game's hints and counted in its view."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from carca_bot.engine.moves import Draw, EndTurn, PlaceAbbey, PlaceTile
from carca_bot.service import (
    GameMovedOn,
    GameOptions,
    GameService,
    NotAllowed,
    NotInGame,
    NotYourTurn,
)
from tests.service.ai_helpers import Recording
from tests.service.helpers import ANA, BEN, CY, HERE, Clock, other, started, who


async def test_hints_are_off_unless_the_game_says_so(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock, thinker=Recording())
    try:
        view = await started(service)
        assert GameOptions().hints is False
        with pytest.raises(NotAllowed) as refused:
            await service.hint(HERE, who(view))
        assert refused.value.code == "hints_off"
        assert await service.hints_of(HERE) == []
    finally:
        await service.close()


async def test_a_hint_is_given_to_the_player_to_act_and_kept(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        view = await started(service, options=GameOptions(seed=7, hints=True))
        player = who(view)
        hint = await service.hint(HERE, player)
        assert [(a.level, a.seconds) for a in thinker.asked] == [("medium", 1.0)]
        assert hint.steps == thinker.answers[0] and hint.used == 1 and hint.must == "place"
        first = hint.steps[0]
        assert isinstance(first, PlaceTile) and first.tile == hint.tile
        assert isinstance(hint.steps[-1], EndTurn)
        # The hint is a suggestion: the game is as it was.
        after = await service.status(HERE, player.id)
        assert after.version == view.version and after.steps == ()
        seat = next(s for s in after.seats if s.user_id == player.id)
        assert seat.hints == 1
        assert all(s.hints == 0 for s in after.seats if s.user_id != player.id)
        again = await service.hint(HERE, player)
        assert again.used == 2
        (one, two) = await service.hints_of(HERE)
        assert (one.number, one.seq, one.seat, one.user_id) == (1, 0, seat.seat, player.id)
        assert two.number == 2 and one.steps[0]["move"] == "PlaceTile"
        # Kept on disk: a fresh service counts them too.
        await service.close()
        service = await GameService.open(db, clock=clock, thinker=thinker)
        view = await service.status(HERE)
        assert next(s for s in view.seats if s.user_id == player.id).hints == 2
    finally:
        await service.close()


async def test_a_hint_gets_only_the_tile_the_player_holds(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        view = await started(service, options=GameOptions(
            seed=7, hints=True, expansions=frozenset({"abbey_mayor"})))
        # At the very start no hole exists, so the tile is given; after some turns a
        # player with an abbey and a hole is asked first. Either way the AI gets only the
        # tile the player holds.
        hint = await service.hint(HERE, who(view))
        assert thinker.asked[0].tile == hint.tile == thinker.asked[0].next_tile
        assert isinstance(hint.steps[0], PlaceTile | PlaceAbbey | Draw)
    finally:
        await service.close()


async def test_hints_are_refused_to_others(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock, thinker=Recording())
    try:
        view = await started(service, options=GameOptions(seed=7, hints=True))
        with pytest.raises(NotYourTurn):
            await service.hint(HERE, other(view))
        with pytest.raises(NotInGame):
            await service.hint(HERE, CY)
        assert await service.hints_of(HERE) == []
    finally:
        await service.close()


async def test_a_hint_for_a_game_that_moved_on_is_not_kept(db: Path, clock: Clock) -> None:
    thinker = Recording(gate=asyncio.Event())
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        view = await started(service, (ANA, BEN, CY), GameOptions(seed=7, hints=True))
        asking = asyncio.create_task(service.hint(HERE, who(view)))
        while not thinker.asked:
            await asyncio.sleep(0.01)
        await service.resign(HERE, other(view))  # the game changes while the AI thinks
        thinker.gate.set()  # type: ignore[union-attr]
        with pytest.raises(GameMovedOn):
            await asking
        assert await service.hints_of(HERE) == []
    finally:
        await service.close()
