"""Where a tile may go: edge matching, the River's course and the Cult's limits.

Edge matching is answered from a table keyed by the letters the neighbours
show (`frontier` keys), so listing every legal square is one dict lookup per
open square.
"""

from __future__ import annotations

from carca_bot.engine.board import ANY, OPEN, Board
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos, neighbour
from carca_bot.engine.shapes import Shape, TileType

EDGE_KINDS = {"C": "city", "R": "road", "F": "field", "W": "river"}
# tile id -> frontier key with ANY read as OPEN -> the quarter turns that fit it
FITS: dict[str, dict[str, tuple[int, ...]]] = {}


def fits_of(tile: TileType) -> dict[str, tuple[int, ...]]:
    """Every key a rotation of `tile` fits, as the neighbours could show it, and those rotations.

    A rotation fits a key when each side is open or shows that rotation's edge, so
    the keys it fits are its edges with any sides masked open: 16 per rotation,
    all worked out on the tile's first use. An abbey's wall (ANY) fits anything, so
    it is read as open.
    """
    fits = FITS.get(tile.id)
    if fits is None:
        table: dict[str, list[int]] = {}
        for rot, shape in enumerate(tile.shapes):
            for mask in range(16):
                key = "".join(OPEN if mask >> side & 1 else edge
                              for side, edge in enumerate(shape.edges))
                rots = table.setdefault(key, [])
                if rot not in rots:
                    rots.append(rot)
        fits = FITS[tile.id] = {key: tuple(rots) for key, rots in table.items()}
    return fits


def rotations_fitting(tile: TileType, key: str) -> tuple[int, ...]:
    """Quarter turns of `tile` whose edges match the neighbour letters in `key`."""
    fits = FITS.get(tile.id)
    if fits is None:
        fits = fits_of(tile)
    return fits.get(key.replace(ANY, OPEN) if ANY in key else key, ())


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


