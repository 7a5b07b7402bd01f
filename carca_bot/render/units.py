"""Points on a tile in tile units: 0..1 across, y down, sides 0..3 = N E S W.

Shared by the art generator, which draws in these units, and the renderer, which places
figures with them.
"""

from __future__ import annotations

from collections.abc import Iterable

Pt = tuple[float, float]

# Side midpoints and the inward direction from each side.
MID: tuple[Pt, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
INWARD: tuple[Pt, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))


def turn(p: Pt, quarter_turns: int) -> Pt:
    """Rotate a point clockwise about the tile centre."""
    x, y = p
    for _ in range(quarter_turns % 4):
        x, y = 1.0 - y, x
    return (x, y)


def turn_all(points: Iterable[Pt], quarter_turns: int) -> list[Pt]:
    return [turn(p, quarter_turns) for p in points]
