"""What the AI may know of the pile: the counts by tile type, never its order.

The engine's `draw()` is fixed by the game's secret seed; the AI never calls it on
a real game and never reads the seed. `public_copy` gives the AI a copy whose setup
has no seed (so even a mistaken draw there could not reveal the real order), and
`sample_tile` draws from the public counts, river tiles first and the lake last, as
the rules allow. Sampling one tile at each chance point of a search, from the counts
left after the tiles already sampled on that path, is sampling an order of the
remaining pile lazily, one tile at a time.

The engine needs no hook for this: a `PlaceTile` or `Discard` move checks only
that its tile is in the supply and may be drawn now (`supply.may_draw`), so a
sampled tile is played with `push` like a drawn one.
"""

from __future__ import annotations

import random
from dataclasses import replace

from carca_bot.engine import supply
from carca_bot.engine.game import Game


def public_copy(game: Game) -> Game:
    """A copy of `game` to search in, with the seed taken out and the undo frames kept."""
    other = game.copy()
    other.setup = replace(game.setup, seed=None)
    return other


def drawable_counts(game: Game) -> list[tuple[str, int]]:
    """Tile types that may be drawn now and how many of each are left."""
    counts = game.supply
    return [(t, counts[t]) for t in supply.drawable(game)]


def sample_tile(game: Game, rng: random.Random) -> str | None:
    """A tile drawn at random from the public counts (None: the pile is empty)."""
    kinds = drawable_counts(game)
    total = sum(n for _, n in kinds)
    if total <= 0:
        return None
    pick = rng.randrange(total)
    for tile, n in kinds:
        if pick < n:
            return tile
        pick -= n
    raise AssertionError("unreachable: the pick is below the total")  # pragma: no cover
