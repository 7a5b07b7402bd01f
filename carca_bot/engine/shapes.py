"""What a tile is made of: feature kinds, segments, a tile type in one rotation.

The data types only; `catalogue.py` builds them from the data files. They live
apart from the catalogue so that the rule modules, which every expansion's
record imports, never import the catalogue (which reads the records).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    CITY = "city"
    ROAD = "road"
    FIELD = "field"
    BUILDING = "building"  # monastery, shrine or abbey
    GARDEN = "garden"


Mods = tuple[tuple[str, int], ...]  # a feature's modifiers: (name, count), sorted by name
NO_MODS: Mods = ()


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature piece on a tile, as it lies on the board."""

    kind: Kind
    sides: tuple[int, ...] = ()  # city / road: the sides it reaches
    halves: tuple[int, ...] = ()  # field: the half-edges it touches
    pennants: int = 0
    cities: tuple[int, ...] = ()  # field: indices of the city segments it touches
    tunnel: bool = False  # road ending at a tunnel entrance
    building: str = ""  # "monastery" or "shrine"
    name: str = ""  # the canonical name players type
    mods: Mods = NO_MODS  # an inn, a cathedral, goods: what the expansions' records read

    def mod(self, name: str) -> int:
        """How many of the modifier `name` the segment carries (0: none)."""
        for key, count in self.mods:
            if key == name:
                return count
        return 0


@dataclass(frozen=True, slots=True)
class Shape:
    """A tile type in one rotation."""

    tile: str
    rot: int  # quarter turns clockwise
    edges: str  # N E S W letters after rotation: C R F W
    segments: tuple[Segment, ...]
    side_segment: tuple[int | None, ...]  # city/road segment reaching each side
    half_segment: tuple[int | None, ...]  # field segment touching each half-edge
    names: dict[str, int]  # every name for each segment
    river: tuple[int, ...]  # sides the river reaches
    building: int | None  # segment index of a monastery or shrine
    garden: int | None
    links: tuple[tuple[int, ...], ...]  # C1 wagon links, as segment indices


@dataclass(frozen=True, slots=True)
class TileType:
    id: str
    count: int
    expansion: str  # "base" or the expansion whose record claims its id prefix
    shapes: tuple[Shape, ...]  # by quarter turns
    river_last: bool = False

    @property
    def is_river(self) -> bool:
        return self.expansion == "river"


@dataclass(frozen=True)
class Catalogue:
    """All land tile types of the game; AM12's road differs with the Tunnel."""

    tiles: dict[str, TileType]

    def __getitem__(self, tile_id: str) -> TileType:
        return self.tiles[tile_id]

    def shape(self, tile_id: str, rot: int) -> Shape:
        return self.tiles[tile_id].shapes[rot]


def merge_mods(a: Mods, b: Mods) -> Mods:
    """Two features' modifiers as one: counts of the same name add up (sorted by name)."""
    if not b:
        return a
    if not a:
        return b
    counts = dict(a)
    for key, count in b:
        counts[key] = counts.get(key, 0) + count
    return tuple(sorted(counts.items()))


# The abbey as the placement hooks see it: one building, walls that match anything.
ABBEY_SHAPE = Shape("ABBEY", 0, "****", (Segment(Kind.BUILDING, building="abbey", name="C"),),
                    (None,) * 4, (None,) * 8, {"C": 0}, (), 0, None, ())
ABBEY_TYPE = TileType("ABBEY", 0, "abbey_mayor", (ABBEY_SHAPE,) * 4)
