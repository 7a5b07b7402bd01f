"""The tiles not yet played: dealing the supply, which tiles may be drawn, and the draw."""

from __future__ import annotations

import random
import threading
from _random import Random as _Generator
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from hashlib import sha512
from itertools import accumulate
from typing import TYPE_CHECKING

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.expansions import river

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState



class _Draws(threading.local):
    """One generator per thread, reseeded for every draw: cheaper than a new one each time."""

    def __init__(self) -> None:
        self.random = random.Random()


_DRAWS = _Draws()
# `Random.seed(text)` (version 2) hands the generator int.from_bytes(text + sha512(text));
# drawing does the same without the Python-level wrapper, and then `randrange(total)`'s
# rejection sampling by hand. `tests/engine/test_fast_paths.py` holds draws to
# `Random(text).choice(row)`, the rule as first written.
_SEED = _Generator.seed  # the C generator under random.Random


def _pick(text: str, total: int) -> int:
    """`random.Random(text).randrange(total)`, for `total` > 0."""
    rng = _DRAWS.random
    raw = text.encode()
    _SEED(rng, int.from_bytes(raw + sha512(raw).digest(), "big"))
    bits = total.bit_length()
    getrandbits = rng.getrandbits
    pick = getrandbits(bits)
    while pick >= total:
        pick = getrandbits(bits)
    return pick


def deal(game: GameState) -> None:
    """Fill the supply for the game's expansions and lay the start tile (or the spring)."""
    setup = game.setup
    supply: Counter[str] = Counter()
    for tile in game.catalogue.tiles.values():
        if tile.expansion == "base" or setup.has(tile.expansion):
            supply[tile.id] = tile.count
    has_river = setup.has(river.NAME)
    start_id, rot = setup.start or ("RV-spring" if has_river else "D", 0)
    if has_river:
        supply["D"] -= 1  # the spring replaces the start tile
    if supply[start_id] <= 0:
        raise IllegalMove("start_not_in_supply", tile=start_id)
    supply[start_id] -= 1
    game.supply = supply
    game.tile_order = tuple(sorted(supply))
    shape = game.catalogue.shape(start_id, rot)
    game.board.place((0, 0), shape)
    game.board.log.clear()  # the start tile is never taken back
    if has_river:
        tiles = tuple(t for t in game.tile_order if game.catalogue[t].is_river)
        river.start(game, tiles, (0, 0), shape)


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
    kinds: Sequence[str] = game.tile_order  # zero counts never win the pick below
    flow = river.river_of(game)
    if flow is not None and river.in_river_phase(game):
        kinds = river.drawable(game, [t for t in flow.tiles if supply[t] > 0])
    running = list(accumulate(map(supply.__getitem__, kinds)))
    total = running[-1] if running else 0
    if not total:
        raise IllegalMove("no_tiles_left")
    # The same pick as Random.choice over every tile laid out in a row, without the row.
    return kinds[bisect_right(running, _pick(f"{game.setup.seed or 0}:{game.drawn}", total))]
