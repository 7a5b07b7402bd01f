"""A new service on the same file carries on every game, unconfirmed turns included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, NotNow, Where
from tests.service.helpers import (
    AM,
    ANA,
    BEN,
    CY,
    HERE,
    RING,
    THERE,
    Clock,
    play_ring,
    raises_saying,
    rig,
    started,
    who,
)


async def test_every_game_carries_on_after_a_restart(service: GameService, db: Path,
                                                     clock: Clock) -> None:
    lobby = Where("g", "lobby")
    await service.create(lobby, CY, GameOptions())
    view = await started(service)
    rng = random.Random(3)
    for _ in range(4):
        view, _ = await play_random_move(service, HERE, who(view), rng)
    player = who(view)
    choices = await service.legal_moves(HERE, player)
    x, y, rot = choices.placements[0]
    await service.place_tile(HERE, player, x, y, rot)
    figure, on = (await service.legal_moves(HERE, player)).deployments[0]
    before = await service.deploy(HERE, player, figure, on)
    finished = await started(service, where=THERE)
    await service.resign(THERE, who(finished))
    await service.close()

    again = await GameService.open(db, clock=clock)
    try:
        assert (await again.status(lobby)).status == "lobby"
        assert (await again.status(THERE)).outcome == "resigned"
        view = await again.status(HERE, player.id)
        assert view.steps == before.steps and view.must == "finish" and view.moves == 4
        view = await again.confirm(HERE, player)
        assert view.moves == 5
        action = (await again.export(HERE))["actions"][-1]
        assert action["tile"] == choices.tile and action["deploy"] == {"figure": figure,
                                                                       "on": on}
    finally:
        await again.close()


async def test_the_choice_to_draw_survives_a_restart(service: GameService, db: Path,
                                                     clock: Clock,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, [*(tile for tile, _, _ in RING), "U"])
    view = await play_ring(service, await started(service, (ANA, BEN), GameOptions(
        expansions=AM, seed=1)))
    player = who(view)
    await service.draw(HERE, player)
    await service.close()
    again = await GameService.open(db, clock=clock)
    try:
        view = await again.begin_turn(HERE, player)
        assert view.must == "place" and view.tile == "U"
        with raises_saying(NotNow, "you drew a tile"):
            await again.place_abbey(HERE, player, 1, 1)
    finally:
        await again.close()
