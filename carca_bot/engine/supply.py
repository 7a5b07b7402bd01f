"""The tiles not yet played: dealing the supply, which tiles may be drawn, and the draw."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from carca_bot.engine.errors import IllegalMove

if TYPE_CHECKING:
    from carca_bot.engine.game import Game


def deal(game: Game) -> None:
    """Fill the supply for the game's expansions and lay the start tile (or the spring)."""
    setup = game.setup
    supply: Counter[str] = Counter()
    for tile in game.catalogue.tiles.values():
        if tile.expansion == "base" or setup.has(tile.expansion):
            supply[tile.id] = tile.count
    river = setup.has("river")
    start_id, rot = setup.start or ("RV-spring" if river else "D", 0)
    if river:
        supply["D"] -= 1  # the spring replaces the start tile
    if supply[start_id] <= 0:
        raise IllegalMove("start_not_in_supply", tile=start_id)
    supply[start_id] -= 1
    game.supply = supply
    shape = game.catalogue.shape(start_id, rot)
    game.board.place((0, 0), shape)
    game.board.log.clear()  # the start tile is never taken back
    if river and shape.river:
        game.river.start((0, 0), shape)


def river_phase(game: Game) -> bool:
    """Whether river tiles are still to come: they are drawn before all others."""
    tiles = game.catalogue.tiles
    return any(n > 0 and tiles[t].is_river for t, n in game.supply.items())


def drawable(game: Game) -> list[str]:
    """Tile types the active player could draw now (river first, lake last)."""
    left = sorted(t for t, n in game.supply.items() if n > 0)
    if river_phase(game):
        tiles = game.catalogue.tiles
        river = [t for t in left if tiles[t].is_river]
        ordinary = [t for t in river if not tiles[t].river_last]
        return ordinary or river
    return left


def draw(game: Game) -> str:
    """The next tile, fixed by the seed and how many tiles were taken before it."""
    supply = game.supply
    pool = [t for t in drawable(game) for _ in range(supply[t])]
    if not pool:
        raise IllegalMove("no_tiles_left")
    return random.Random(f"{game.setup.seed or 0}:{game.drawn}").choice(pool)
