"""Bugs the fault tests found, each kept as the smallest reproduction (all fixed)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from carca_bot.service import GameOptions, GameService, User, Where
from carca_bot.service.live import rebuild
from carca_bot.service.views import build_view

ANA, BEN = User("100000000000000001", "Ana"), User("100000000000000002", "Ben")
HERE = Where("guild", "channel")


async def test_cancel_drops_the_unconfirmed_turn_in_memory(tmp_path: Path) -> None:
    service = await GameService.open(tmp_path / "bug.sqlite3")
    try:
        await service.create(HERE, ANA, GameOptions(seed=1))
        await service.join(HERE, BEN)
        view = await service.start(HERE, ANA)
        assert view.deciding is not None
        player = ANA if view.deciding.user_id == ANA.id else BEN
        x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
        await service.place_tile(HERE, player, x, y, rot)  # not confirmed
        await service.cancel(HERE, ANA)
        in_memory = await service.status(HERE, None, view.game_id)
        data = await service.store.load(view.game_id)
        assert data is not None
        after_restart = build_view(rebuild(data), None, [])
        assert replace(in_memory, events=()) == after_restart
        game = await service.game(HERE, view.game_id)  # what the board picture shows
        assert game is not None and game.turn is None
    finally:
        await service.close()
