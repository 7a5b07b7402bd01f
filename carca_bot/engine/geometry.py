"""Sides, half-edges, corners and rotations: the one place that knows the compass.

Sides are 0..3 clockwise from north; half-edges 0..7 clockwise from the west half
of the north edge (NL); corners 0..3 clockwise from north-west. Turning a tile a
quarter clockwise adds 1 to a side or a corner and 2 to a half-edge.
"""

from __future__ import annotations

from typing import Final

Pos = tuple[int, int]

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES: Final = ("N", "E", "S", "W")
HALF_NAMES: Final = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
CORNER_NAMES: Final = ("NW", "NE", "SE", "SW")
SIDE_INDEX: Final = {name: i for i, name in enumerate(SIDE_NAMES)}
HALF_INDEX: Final = {name: i for i, name in enumerate(HALF_NAMES)}
CORNER_INDEX: Final = {name: i for i, name in enumerate(CORNER_NAMES)}

# y grows to the south.
STEP: Final[tuple[Pos, ...]] = ((0, -1), (1, 0), (0, 1), (-1, 0))
ROTATIONS: Final = (0, 90, 180, 270)

# The eight squares around a square, for monasteries, gardens and the C2 wagon.
AROUND: Final[tuple[Pos, ...]] = (
    (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1),
)


def opposite(side: int) -> int:
    return (side + 2) % 4


def facing_half(half: int) -> int:
    """The neighbour's half-edge that touches `half` across the shared edge (L meets R)."""
    side, right = divmod(half, 2)
    return 2 * opposite(side) + (1 - right)


def corner_halves(corner: int) -> tuple[int, int]:
    """The two half-edges that meet at a corner (NW: WR and NL)."""
    return ((2 * corner + 7) % 8, 2 * corner)


def neighbour(pos: Pos, side: int) -> Pos:
    dx, dy = STEP[side]
    return (pos[0] + dx, pos[1] + dy)


def around(pos: Pos) -> list[Pos]:
    x, y = pos
    return [(x + dx, y + dy) for dx, dy in AROUND]


def corner_tiles(pos: Pos, corner: int) -> list[tuple[Pos, int]]:
    """The four squares meeting at a corner of `pos`, each with its own corner there."""
    x, y = pos
    # Offsets of the point from the square's north-west corner, in tile units.
    px, py = ((0, 0), (1, 0), (1, 1), (0, 1))[corner]
    return [
        ((x + px - 1, y + py - 1), 2),  # the square to the point's north-west: its SE corner
        ((x + px, y + py - 1), 3),  # north-east square: its SW corner
        ((x + px, y + py), 0),  # south-east square: its NW corner
        ((x + px - 1, y + py), 1),  # south-west square: its NE corner
    ]
