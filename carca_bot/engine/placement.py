"""Where a tile may go: edge matching, the River's course and the Cult's limits.

Edge matching is answered from a cache keyed by the letters the neighbours
show (`frontier` keys), so listing every legal square is one dict lookup per
open square.
"""

from __future__ import annotations

from carca_bot.engine.board import ANY, OPEN, Board
from carca_bot.engine.catalogue import Shape, TileType
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos, neighbour

EDGE_KINDS = {"C": "city", "R": "road", "F": "field", "W": "river"}
FITS: dict[str, dict[str, tuple[int, ...]]] = {}  # tile id -> frontier key -> rotations


def fits_of(tile: TileType) -> dict[str, tuple[int, ...]]:
    """The cache of `rotations_fitting` answers for one tile type."""
    fits = FITS.get(tile.id)
    if fits is None:
        fits = FITS[tile.id] = {}
    return fits


def rotations_fitting(tile: TileType, key: str) -> tuple[int, ...]:
    """Quarter turns of `tile` whose edges match the neighbour letters in `key`."""
    fits = fits_of(tile)
    cached = fits.get(key)
    if cached is None:
        cached = tuple(
            r for r, shape in enumerate(tile.shapes)
            if all(k in (OPEN, ANY, e) for k, e in zip(key, shape.edges, strict=True))
        )
        fits[key] = cached
    return cached


def edge_problem(board: Board, pos: Pos, shape: Shape) -> IllegalMove | None:
    """Why the tile cannot lie there by its edges; None when it fits."""
    if pos in board.tiles:
        return IllegalMove("tile_square_taken", square=pos)
    key = board.frontier.get(pos)
    if key is None:
        return IllegalMove("tile_no_neighbour", square=pos)
    for side in range(4):
        want = key[side]
        if want not in (OPEN, ANY) and want != shape.edges[side]:
            return IllegalMove("tile_edge_mismatch", side=side,
                               edge=EDGE_KINDS[shape.edges[side]],
                               other=neighbour(pos, side), shows=EDGE_KINDS[want])
    return None


