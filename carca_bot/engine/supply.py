"""The tiles not yet played: dealing the supply, which tiles may be drawn, and the draw."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.expansions import river

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def deal(game: GameState) -> None:
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
    game.tile_order = tuple(sorted(supply))
    game.river_tiles = tuple(t for t in game.tile_order if game.catalogue[t].is_river)
    shape = game.catalogue.shape(start_id, rot)
    game.board.place((0, 0), shape)
    game.board.log.clear()  # the start tile is never taken back
    if river and shape.river:
        game.river.start((0, 0), shape)


def may_draw(game: GameState, tile: str) -> bool:
    """Whether `tile` could be drawn now (the same answer as `tile in drawable(game)`)."""
    if game.supply[tile] <= 0:
        return False
    return not river.in_river_phase(game) or river.may_draw(game, game.catalogue[tile])


def drawable(game: GameState) -> list[str]:
    """Tile types the active player could draw now (river first, lake last)."""
    supply = game.supply
    left = [t for t in game.tile_order if supply[t] > 0]
    return river.drawable(game, left) if river.in_river_phase(game) else left


def draw(game: GameState) -> str:
    """The next tile, fixed by the seed and how many tiles were taken before it."""
    supply = game.supply
    kinds = drawable(game) if river.in_river_phase(game) else game.tile_order
    total = sum(supply[t] for t in kinds)
    if not total:
        raise IllegalMove("no_tiles_left")
    # The same pick as Random.choice over every tile laid out in a row, without the row.
    index = random.Random(f"{game.setup.seed or 0}:{game.drawn}").randrange(total)
    for tile in kinds:
        index -= supply[tile]
        if index < 0:
            return tile
    raise AssertionError("unreachable: index < total")
