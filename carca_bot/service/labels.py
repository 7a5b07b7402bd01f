"""Feature labels as data: what a figure would stand on, as (kind, where) on its tile.

`where` is a compass point of the tile ("N", "SW", ...; "C" for its middle or a
field covering all of it); `carca_bot.words.service.feature_label` says it in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.geometry import HALF_NAMES, Pos

CORNERS = ("NE", "NW", "SE", "SW")
# Where each half-edge lies, seen from the tile's middle (x east, y north). "L" is on
# the left of someone looking out of the tile across that side.
_HALF_AT = {"NL": (-0.5, 1.0), "NR": (0.5, 1.0), "EL": (1.0, 0.5), "ER": (1.0, -0.5),
            "SL": (0.5, -1.0), "SR": (-0.5, -1.0), "WL": (-1.0, -0.5), "WR": (-1.0, 0.5)}
_SIDE_AT = {"N": (0.0, 1.0), "E": (1.0, 0.0), "S": (0.0, -1.0), "W": (-1.0, 0.0)}
_COMPASS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


@dataclass(frozen=True, slots=True)
class FeatureLabel:
    """The feature named `on` of the tile at (x, y): its kind and where on the tile."""

    x: int
    y: int
    on: str
    kind: str  # city, road, field, monastery, shrine, garden; corner (a corner figure's)
    where: str


def _compass(points: list[tuple[float, float]]) -> str:
    x = sum(p[0] for p in points)
    y = sum(p[1] for p in points)
    if math.hypot(x, y) < 0.3:
        return "C"
    return _COMPASS[round(math.atan2(y, x) / (math.pi / 4)) % 8]


def label(board: Board, pos: Pos, on: str) -> FeatureLabel | None:
    """The label of `on` on the tile at `pos`, or None if it names nothing there. A
    corner of the tile is where a corner figure stands (the figure table's `corner`
    flag: the barn), whatever figure that is: its kind is "corner"."""
    if on in CORNERS:
        return FeatureLabel(pos[0], pos[1], on, "corner", on)
    placed = board.tiles.get(pos)
    if placed is None:
        return None
    if placed.shape is None:  # an abbey
        return FeatureLabel(pos[0], pos[1], on, "monastery", "C") if on == "C" else None
    index = placed.shape.names.get(on)
    if index is None:
        return None
    seg = placed.shape.segments[index]
    if seg.kind is Kind.BUILDING:
        return FeatureLabel(pos[0], pos[1], on, seg.building, "C")
    if seg.kind is Kind.FIELD:
        where = _compass([_HALF_AT[HALF_NAMES[h]] for h in seg.halves]) if seg.halves \
            else "C"
    elif seg.kind in (Kind.CITY, Kind.ROAD):
        where = _compass([_SIDE_AT["NESW"[s]] for s in seg.sides]) if seg.sides else "C"
    else:
        where = "C"
    return FeatureLabel(pos[0], pos[1], on, seg.kind.value, where)
