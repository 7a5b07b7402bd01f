"""Commands that race: one game's commands are serialised, different games run in parallel."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from carca_bot.service import GameMovedOn, GameService, TurnOrder, TurnView
from tests.service.helpers import ANA, BEN, HERE, THERE, Clock, started, who, words


def _split(results: Sequence[object]) -> tuple[list[TurnView], list[BaseException]]:
    views = [r for r in results if isinstance(r, TurnView)]
    errors = [r for r in results if isinstance(r, BaseException)]
    return views, errors


async def test_the_same_step_twice_at_once(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    results = await asyncio.gather(service.place_tile(HERE, player, *spot),
                                   service.place_tile(HERE, player, *spot),
                                   return_exceptions=True)
    views, errors = _split(results)
    assert len(views) == 1 and len(errors) == 1 and isinstance(errors[0], GameMovedOn)
    assert "moved on" in words(errors[0])
    assert errors[0].view.steps == views[0].steps and errors[0].view.must == "finish"


async def test_the_same_whole_turn_twice_at_once(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    order = TurnOrder(at=(x, y), rot=rot)
    results = await asyncio.gather(service.play_turn(HERE, player, order),
                                   service.play_turn(HERE, player, order),
                                   return_exceptions=True)
    views, errors = _split(results)
    assert len(views) == 1 and [type(e) for e in errors] == [GameMovedOn]
    assert len((await service.export(HERE))["actions"]) == 1  # no double move


async def test_a_stale_version_is_refused(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    seen = view.version
    await service.place_tile(HERE, player, *spot, expect=seen)
    with pytest.raises(GameMovedOn) as moved:
        await service.confirm(HERE, player, expect=seen)
    assert moved.value.view.version == seen + 1
    view = await service.confirm(HERE, player, expect=moved.value.view.version)
    assert view.moves == 1


async def test_different_games_do_not_wait_for_each_other(service: GameService) -> None:
    busy = await started(service)
    free = await started(service, (BEN, ANA), where=THERE)
    lock = service._locks[busy.game_id]
    await lock.acquire()
    try:
        slow = asyncio.ensure_future(service.begin_turn(HERE, who(busy)))
        view = await asyncio.wait_for(service.begin_turn(THERE, who(free)), timeout=5)
        assert view.game_id == free.game_id and not slow.done()
    finally:
        lock.release()
    assert (await slow).game_id == busy.game_id


async def test_two_processes_cannot_both_move(service: GameService, db: Path,
                                              clock: Clock) -> None:
    """Another service on the same file wins the race between our read and our write."""
    view = await started(service)
    player = who(view)
    spot = (await service.legal_moves(HERE, player)).placements[0]
    rival = await GameService.open(db, clock=clock)
    try:
        await rival.status(HERE)  # the rival has the game cached too
        write = service.store.write

        async def rival_first(*args: Any, **kwargs: Any) -> int:
            await rival.place_tile(HERE, player, *spot)
            return await write(*args, **kwargs)

        service.store.write = rival_first  # type: ignore[method-assign]
        with pytest.raises(GameMovedOn) as moved:
            await service.place_tile(HERE, player, *spot)
        service.store.write = write  # type: ignore[method-assign]
        assert moved.value.view.steps == (await rival.status(HERE)).steps
        # Neither side trusts its cache over the file: both see one placed tile.
        view = await service.confirm(HERE, player)
        assert view.moves == 1
        assert (await rival.status(HERE)).moves == 1
    finally:
        await rival.close()
