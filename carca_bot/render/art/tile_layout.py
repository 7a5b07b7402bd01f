"""Where things go on a tile: the catalogue's segments turned into shapes in tile units.

Everything is laid out for rotation 0 (the catalogue orientation); other rotations are the
same picture turned. Most tiles follow from their segments alone (a city on one side is a
cap, on two opposite sides a band, ...); the few unusual tiles get a hand-made layout in
`unusual.py`, so each special case is visible in one place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from carca_bot.engine.catalogue import Kind, Shape, catalogue
from carca_bot.render import palette
from carca_bot.render.art.canvas import cubic, spline
from carca_bot.render.art.figures import EMBLEMS
from carca_bot.render.units import INWARD, MID, Pt, turn_all

CAP_DEPTH = 0.28
BAND_DEPTH = 0.3
THREE_DEPTH = 0.34
CENTRE: Pt = (0.5, 0.5)


@dataclass
class CityArt:
    polys: list[list[Pt]]  # their union is the city
    walls: list[list[Pt]]  # where the city borders anything but the tile edge
    shields: list[Pt] = field(default_factory=list)
    colour: palette.RGB = palette.CITY
    cathedral: Pt | None = None  # Inns & Cathedrals: where its cathedral stands
    emblems: list[tuple[str, Pt]] = field(default_factory=list)  # modifiers shown by a badge


@dataclass
class RoadArt:
    path: list[Pt]  # starts outside the tile edge; single-ended roads end where they stop
    end: str = "through"  # through | village | building | tunnel | houses | gate | under


@dataclass
class Plan:
    tile: str
    cities: list[CityArt] = field(default_factory=list)
    rivers: list[list[Pt]] = field(default_factory=list)
    spring: Pt | None = None
    lake: Pt | None = None
    roads: list[RoadArt] = field(default_factory=list)
    building: str = ""  # monastery | shrine
    building_at: Pt = CENTRE
    village: Pt | None = None
    houses: list[Pt] = field(default_factory=list)
    hill: Pt | None = None
    bridge: Pt | None = None
    garden: bool = False
    abbey_wall: bool = False
    tunnel_trace: list[Pt] = field(default_factory=list)  # AM12: the road underground
    arches: list[tuple[Pt, Pt]] = field(default_factory=list)  # a city passing under another
    inns: list[tuple[Pt, Pt]] = field(default_factory=list)  # where, and towards its road
    garden_at: Pt | None = None  # where the garden goes, when the usual spots will not do


# --- city shapes, drawn for one orientation and turned into place --------------------------

def dome(depth: float, n: int = 28) -> list[Pt]:
    """Half-ellipse from (1,0) to (0,0) reaching `depth` into the tile: the inner wall of a cap."""
    out: list[Pt] = []
    for i in range(n + 1):
        x = 1.0 - i / n
        u = 2 * x - 1
        out.append((x, depth * math.sqrt(max(0.0, 1 - u * u))))
    return out


def cap(side: int, depth: float = CAP_DEPTH) -> CityArt:
    wall = turn_all(dome(depth), side)
    return CityArt([wall], [wall])


def band_we() -> CityArt:
    top = [(x, y) for x, y in reversed(dome(BAND_DEPTH))]
    bottom = [(x, 1 - y) for x, y in dome(BAND_DEPTH)]
    return CityArt([top + bottom], [top, bottom])


def corner_nw(mid: float = 0.52) -> CityArt:
    """City in the north-west corner whose wall passes through (mid, mid)."""
    k = (mid - 0.125) / 0.375
    curve = cubic((1.0, 0.0), (0.62 * k, 0.38 * k), (0.38 * k, 0.62 * k), (0.0, 1.0))
    return CityArt([[(0.0, 0.0), *curve]], [curve])


def three_new() -> CityArt:
    curve = [(x, 1 - y) for x, y in dome(THREE_DEPTH)]
    return CityArt([[(0.0, 0.0), (1.0, 0.0), *curve]], [curve])


def turned(city: CityArt, k: int) -> CityArt:
    cathedral = None if city.cathedral is None else turn_all([city.cathedral], k)[0]
    emblems = [(name, turn_all([at], k)[0]) for name, at in city.emblems]
    return CityArt([turn_all(p, k) for p in city.polys], [turn_all(w, k) for w in city.walls],
                   turn_all(city.shields, k), city.colour, cathedral, emblems)


_SHIELD_AT: dict[str, list[Pt]] = {
    "cap": [(0.5, 0.142)], "band": [(0.5, 0.5)], "corner": [(0.27, 0.27)],
    "three": [(0.5, 0.36)], "full": [(0.5, 0.5)], "full2": [(0.36, 0.5), (0.64, 0.5)],
}


def city_for(sides: tuple[int, ...], pennants: int, roomy: bool = False,
             cathedral: bool = False, emblems: Sequence[str] = ()) -> CityArt:
    """The usual picture of a city reaching `sides`, with its shields (and its cathedral
    where a shield would stand, its shields then below it; the badges of its `emblems`,
    beside the shields).

    `roomy`: nothing else is on the tile, so a corner city may bulge further.
    """
    s = set(sides)
    if len(s) == 1:
        (side,) = s
        art, kind, k = cap(0), "cap", side
    elif len(s) == 2 and (min(s) + 2) in s:
        art, kind, k = band_we(), "band", (0 if s == {1, 3} else 1)
    elif len(s) == 2:
        art, kind = corner_nw(0.6 if roomy else 0.52), "corner"
        k = next(k for k in range(4) if {k % 4, (k + 3) % 4} == s)
    elif len(s) == 3:
        art, kind = three_new(), "three"
        missing = ({0, 1, 2, 3} - s).pop()
        k = (missing - 2) % 4
    else:
        square: list[Pt] = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        art, kind, k = CityArt([square], []), ("full2" if pennants > 1 else "full"), 0
    if cathedral:
        art.cathedral = _SHIELD_AT[kind][0]
    if pennants:
        art.shields = list(_SHIELD_AT[kind])
        if cathedral:
            art.shields = [(x, y + 0.3) for x, y in art.shields]
    x, y = _SHIELD_AT[kind][0]
    beside = 0.17 if pennants else 0.0
    art.emblems = [(name, (x + beside + 0.17 * i, y)) for i, name in enumerate(emblems)]
    return turned(art, k)


# --- roads and rivers -------------------------------------------------------------------------

def outside(side: int, by: float = 0.06) -> Pt:
    (mx, my), (ix, iy) = MID[side], INWARD[side]
    return (mx - ix * by, my - iy * by)


def through(a: int, b: int) -> list[Pt]:
    if (a + 2) % 4 == b:
        return [outside(a), outside(b)]
    (ax, ay), (bx, by) = MID[a], MID[b]
    (iax, iay), (ibx, iby) = INWARD[a], INWARD[b]
    k = 0.28
    curve = cubic(MID[a], (ax + iax * k, ay + iay * k), (bx + ibx * k, by + iby * k), MID[b])
    return [outside(a), *curve, outside(b)]


def to_point(side: int, end: Pt) -> list[Pt]:
    return [outside(side), MID[side], end]


def via(side: int, *points: Pt) -> list[Pt]:
    """A smooth path from the middle of `side` through `points`, leaving the edge squarely."""
    (mx, my), (ix, iy) = MID[side], INWARD[side]
    first = (mx + ix * 0.12, my + iy * 0.12)
    return [outside(side), *spline([MID[side], first, *points])]


# --- the generic plan -------------------------------------------------------------------------

def generic_plan(shape: Shape) -> Plan:
    plan = Plan(shape.tile)
    roomy = not shape.river and all(s.kind is not Kind.ROAD for s in shape.segments)
    for seg in shape.segments:
        if seg.kind is Kind.CITY:
            emblems = [name for name, count in seg.mods if name in EMBLEMS
                       for _ in range(count)]
            plan.cities.append(city_for(seg.sides, seg.pennants, roomy,
                                        bool(seg.mod("cathedral")), emblems))
        elif seg.kind is Kind.BUILDING:
            plan.building = seg.building
        elif seg.kind is Kind.GARDEN:
            plan.garden = True
    if plan.cities and plan.building:
        plan.building_at = (0.5, 0.6)
    river = shape.river
    if len(river) == 2:
        plan.rivers.append(through(*river))
    elif len(river) == 1:
        if catalogue()[shape.tile].river_last:
            plan.lake = (0.56, 0.5)
            plan.rivers.append(to_point(river[0], plan.lake))
        else:
            plan.spring = (0.36, 0.5)
            plan.rivers.append(to_point(river[0], plan.spring))
    roads = [s for s in shape.segments if s.kind is Kind.ROAD]
    ends = [s for s in roads if len(s.sides) == 1 and not s.tunnel]
    for seg in roads:
        if len(seg.sides) == 2:
            plan.roads.append(RoadArt(through(*seg.sides)))
        elif len(seg.sides) == 3:  # one road forking three ways, no junction
            stem = next(s for s in seg.sides if (s + 2) % 4 not in seg.sides)
            a, b = (s for s in seg.sides if s != stem)
            plan.roads.append(RoadArt(through(a, b)))
            plan.roads.append(RoadArt(to_point(stem, CENTRE)))
        elif seg.tunnel:
            plan.hill = (0.5, 0.56) if plan.cities else CENTRE
            plan.roads.append(RoadArt(to_point(seg.sides[0], plan.hill), "tunnel"))
        elif plan.building:
            plan.roads.append(RoadArt(to_point(seg.sides[0], plan.building_at), "building"))
        elif len(ends) >= 3:
            plan.village = CENTRE
            plan.roads.append(RoadArt(to_point(seg.sides[0], CENTRE), "village"))
        elif plan.cities:
            plan.roads.append(RoadArt(to_point(seg.sides[0], CENTRE), "gate"))
        else:
            plan.houses.append(CENTRE)
            plan.roads.append(RoadArt(to_point(seg.sides[0], CENTRE), "houses"))
    return plan
