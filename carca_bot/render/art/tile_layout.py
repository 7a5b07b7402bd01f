"""Where things go on a tile: the catalogue's segments turned into shapes in tile units.

Everything is laid out for rotation 0 (the catalogue orientation); other rotations are the
same picture turned. Most tiles follow from their segments alone (a city on one side is a
cap, on two opposite sides a band, ...); the few unusual tiles get a hand-made layout in
`_OVERRIDES`, so each special case is visible in one place.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from carca_bot.engine.catalogue import Kind, Shape, catalogue
from carca_bot.render import palette
from carca_bot.render.art.canvas import cubic, inside, resample, spline
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

def _dome(depth: float, n: int = 28) -> list[Pt]:
    """Half-ellipse from (1,0) to (0,0) reaching `depth` into the tile: the inner wall of a cap."""
    out: list[Pt] = []
    for i in range(n + 1):
        x = 1.0 - i / n
        u = 2 * x - 1
        out.append((x, depth * math.sqrt(max(0.0, 1 - u * u))))
    return out


def cap(side: int, depth: float = CAP_DEPTH) -> CityArt:
    wall = turn_all(_dome(depth), side)
    return CityArt([wall], [wall])


def band_we() -> CityArt:
    top = [(x, y) for x, y in reversed(_dome(BAND_DEPTH))]
    bottom = [(x, 1 - y) for x, y in _dome(BAND_DEPTH)]
    return CityArt([top + bottom], [top, bottom])


def corner_nw(mid: float = 0.52) -> CityArt:
    """City in the north-west corner whose wall passes through (mid, mid)."""
    k = (mid - 0.125) / 0.375
    curve = cubic((1.0, 0.0), (0.62 * k, 0.38 * k), (0.38 * k, 0.62 * k), (0.0, 1.0))
    return CityArt([[(0.0, 0.0), *curve]], [curve])


def three_new() -> CityArt:
    curve = [(x, 1 - y) for x, y in _dome(THREE_DEPTH)]
    return CityArt([[(0.0, 0.0), (1.0, 0.0), *curve]], [curve])


def _turned(city: CityArt, k: int) -> CityArt:
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
    return _turned(art, k)


# --- roads and rivers -------------------------------------------------------------------------

def _outside(side: int, by: float = 0.06) -> Pt:
    (mx, my), (ix, iy) = MID[side], INWARD[side]
    return (mx - ix * by, my - iy * by)


def through(a: int, b: int) -> list[Pt]:
    if (a + 2) % 4 == b:
        return [_outside(a), _outside(b)]
    (ax, ay), (bx, by) = MID[a], MID[b]
    (iax, iay), (ibx, iby) = INWARD[a], INWARD[b]
    k = 0.28
    curve = cubic(MID[a], (ax + iax * k, ay + iay * k), (bx + ibx * k, by + iby * k), MID[b])
    return [_outside(a), *curve, _outside(b)]


def to_point(side: int, end: Pt) -> list[Pt]:
    return [_outside(side), MID[side], end]


def via(side: int, *points: Pt) -> list[Pt]:
    """A smooth path from the middle of `side` through `points`, leaving the edge squarely."""
    (mx, my), (ix, iy) = MID[side], INWARD[side]
    first = (mx + ix * 0.12, my + iy * 0.12)
    return [_outside(side), *spline([MID[side], first, *points])]


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


# --- the unusual tiles --------------------------------------------------------------------------

def _crossed(plan: Plan, pennant_on_ns: bool) -> None:
    """Two separate cities crossing (AM2, KR5): the W-E city bridges over the N-S one."""
    c = CENTRE
    ns = CityArt([[(0.0, 0.0), (1.0, 0.0), c], [(0.0, 1.0), (1.0, 1.0), c]],
                 [[(0.0, 0.0), c, (1.0, 0.0)], [(0.0, 1.0), c, (1.0, 1.0)]],
                 [(0.5, 0.17)] if pennant_on_ns else [])
    lo, hi = 0.41, 0.59
    we = CityArt([[(0.0, 0.0), (lo, lo), (hi, lo), (1.0, 0.0), (1.0, 1.0), (hi, hi), (lo, hi),
                   (0.0, 1.0)]],
                 [[(-0.02, -0.02), (lo, lo), (hi, lo), (1.02, -0.02)],
                  [(-0.02, 1.02), (lo, hi), (hi, hi), (1.02, 1.02)]],
                 colour=palette.CITY_ALT)
    plan.cities = [ns, we, _pocket((0.75, 0.25)), _pocket((0.25, 0.75))]
    plan.arches = [((0.5, lo), (0.0, 1.0)), ((0.5, hi), (0.0, -1.0))]


def _pocket(at: Pt, r: float = 0.075) -> CityArt:
    """An enclosed little field between crossed cities, drawn as a walled green lens."""
    x, y = at
    pts = [(x + r * math.cos(a / 12 * math.tau), y + r * 0.8 * math.sin(a / 12 * math.tau))
           for a in range(12)]
    return CityArt([pts], [[*pts, pts[0]]], colour=palette.FIELD)


def _am3(plan: Plan) -> None:
    """A northern city wedged into a W-E city, with a little field where they cross."""
    north = CityArt([[(0.0, 0.0), (1.0, 0.0), (0.5, 0.4)]],
                    [[(0.0, 0.0), (0.5, 0.4), (1.0, 0.0)]], [(0.5, 0.16)])
    bottom = [(x, 1 - y) for x, y in _dome(BAND_DEPTH)]
    band = CityArt([[(0.0, 0.0), (0.5, 0.4), (1.0, 0.0), *bottom]], [bottom],
                   colour=palette.CITY_ALT)
    plan.cities = [band, north, _pocket((0.5, 0.45), 0.07)]


def _am4(plan: Plan) -> None:
    plan.roads = [RoadArt(via(1, (0.7, 0.44), (0.64, 0.3), (0.64, 0.12)), "gate"),
                  RoadArt(via(2, (0.44, 0.7), (0.3, 0.64), (0.12, 0.64)), "gate")]


def _west_gate(plan: Plan) -> None:
    plan.roads[0] = RoadArt(via(3, (0.3, 0.44), (0.36, 0.3), (0.36, 0.12)), "gate")


def _am7(plan: Plan) -> None:
    """The curve rises to touch the city, cutting off a little field at the east."""
    curve = cubic((0.5, 1.0), (0.5, 0.08), (0.72, 0.42), (1.0, 0.5))
    plan.roads = [RoadArt([_outside(2), *curve, _outside(1)])]


def _am8(plan: Plan) -> None:
    """AM7 mirrored: the field cut off by the road lies at the west."""
    _am7(plan)
    plan.roads = [RoadArt([(1 - x, y) for x, y in r.path], r.end) for r in plan.roads]


def _am9(plan: Plan) -> None:
    """Walls run from the city to the corners, splitting the grass into three fields."""
    city = plan.cities[0]
    city.walls += [[(0.255, 0.3), (0.62, 0.2), (1.02, -0.02)],
                   [(0.255, 0.7), (0.62, 0.8), (1.02, 1.02)]]


def _kr4(plan: Plan) -> None:
    """Both roads end at the city; a wall to the south-east corner parts their fields."""
    city = corner_nw(0.6)
    city.walls.append([(0.59, 0.59), (1.02, 1.02)])
    plan.cities = [city]
    plan.roads = [RoadArt(via(2, (0.46, 0.76), (0.4, 0.52)), "gate"),
                  RoadArt(via(1, (0.76, 0.46), (0.52, 0.4)), "gate")]


def _am12(plan: Plan, tunnel: bool) -> None:
    """The road dives under the city; south of it, it runs underground to the edge."""
    plan.hill = None
    top = [(x, y) for x, y in reversed(_dome(0.36))]
    bottom = [(x, 1 - y) for x, y in _dome(0.36)]
    plan.cities = [CityArt([top + bottom], [top, bottom], [(0.76, 0.5)])]
    plan.roads = [RoadArt(to_point(0, CENTRE), "under"), RoadArt(to_point(2, (0.5, 0.9)), "tunnel")]
    if not tunnel:
        plan.tunnel_trace = [(0.5, 0.88), (0.5, 0.64)]


def _rv_monastery(plan: Plan) -> None:
    """The river bends north so the monastery can sit on its bank and part the south fields."""
    plan.rivers = [[_outside(3), *cubic((0.0, 0.5), (0.3, 0.2), (0.7, 0.2), (1.0, 0.5)),
                    _outside(1)]]
    plan.building_at = (0.5, 0.53)
    plan.roads = [RoadArt(to_point(2, plan.building_at), "building")]


def _rv_city_road(plan: Plan) -> None:
    plan.roads = [RoadArt(to_point(2, (0.5, 0.12)), "gate")]
    plan.bridge = CENTRE


def _rv_city_curve(plan: Plan) -> None:
    plan.cities = [corner_nw(0.44)]


def _rv_bridge(plan: Plan) -> None:
    plan.bridge = CENTRE


def _tu4(plan: Plan) -> None:
    """Houses end the north road well clear of the hill, so the north field stays one."""
    plan.hill = (0.5, 0.56)
    plan.houses = [(0.5, 0.16)]
    plan.roads = [RoadArt(to_point(0, (0.5, 0.16)), "houses"),
                  *(RoadArt(to_point(side, plan.hill), "tunnel") for side in (1, 2, 3))]


def _ic3(plan: Plan) -> None:
    """Four cities, one per side, walled from each other along the diagonals, round an
    enclosed field with a garden."""
    lo, hi = 0.3, 0.7
    corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    inner = [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]
    plan.cities = [CityArt([[corners[i], corners[(i + 1) % 4], inner[(i + 1) % 4], inner[i]]],
                           [[corners[i], inner[i], inner[(i + 1) % 4], corners[(i + 1) % 4]]])
                   for i in range(4)]
    plan.cities.append(CityArt([inner], [[*inner, inner[0]]], colour=palette.FIELD))
    plan.garden_at = CENTRE


def _funnel(depth: float) -> CityArt:
    """A city on the north edge narrowing to a gate at `depth` (turned into place)."""
    right = spline([(1.0, 0.0), (0.9, 0.13), (0.7, 0.2), (0.61, 0.26), (0.58, depth)])
    left = [(1 - x, y) for x, y in reversed(right)]
    return CityArt([[(0.0, 0.0), *right, *left]], [[*right, *left]])


def _ic5(plan: Plan) -> None:
    """Two cities narrowing to a square in the middle where both roads end: the cities and
    the square part the four fields."""
    plan.cities = [_funnel(0.38), _turned(_funnel(0.38), 2)]
    plan.village = CENTRE
    plan.roads = [RoadArt(to_point(side, CENTRE), "village") for side in (1, 3)]


def _ic6(plan: Plan) -> None:
    """A smaller corner city, so its wall and the southern city's stay apart."""
    corner = corner_nw(0.42)
    corner.shields = [(0.22, 0.22)]
    plan.cities = [corner, cap(2, 0.26)]


def _ic7(plan: Plan) -> None:
    """The city's wall runs on to the south-east corner, cutting off the eastern grass."""
    plan.cities[0].walls.append(spline([(0.72, 0.25), (0.68, 0.5), (0.8, 0.8), (1.02, 1.02)]))


def _ic8(plan: Plan) -> None:
    plan.roads = [RoadArt(to_point(2, (0.5, 0.16)), "gate")]


_OVERRIDES: dict[str, Callable[[Plan], None]] = {
    "AM2": lambda p: _crossed(p, True), "KR5": lambda p: _crossed(p, False), "AM3": _am3,
    "AM4": _am4, "AM6": _west_gate, "KR2": _west_gate, "KR3": _west_gate, "AM7": _am7, "AM8": _am8,
    "AM9": _am9, "KR4": _kr4, "RV-monastery": _rv_monastery,
    "RV-city-road": _rv_city_road, "RV-bridge": _rv_bridge,
    "RV-city-curve": _rv_city_curve, "TU4": _tu4,
    "IC3": _ic3, "IC5": _ic5, "IC6": _ic6, "IC7": _ic7, "IC8": _ic8,
}


def plan_for(tile_id: str, tunnel: bool = False) -> Plan:
    """The rotation-0 layout of a catalogue tile or of the abbey."""
    if tile_id == "ABBEY":
        return Plan("ABBEY", building="monastery", abbey_wall=True)
    shape = catalogue(tunnel).shape(tile_id, 0)
    plan = generic_plan(shape)
    if tile_id == "AM12":  # the one tile whose picture depends on The Tunnel
        _am12(plan, tunnel)
    elif tile_id in _OVERRIDES:
        _OVERRIDES[tile_id](plan)
    _place_inns(plan, shape)
    return plan


# --- inns ---------------------------------------------------------------------------------------

def _clear(plan: Plan, p: Pt) -> bool:
    """Whether an inn fits at `p`: inside the tile's margin, on grass, clear of the roads,
    buildings and other inns."""
    x, y = p
    if not (0.2 <= x <= 0.8 and 0.2 <= y <= 0.8):
        return False
    probes = [(x + dx, y + dy) for dx in (-0.14, 0.0, 0.14) for dy in (-0.12, 0.0, 0.08)]
    polys = [poly for c in plan.cities for poly in c.polys]
    if any(inside(q, poly) for q in probes for poly in polys):
        return False
    busy = [plan.building_at] if plan.building else []
    busy += [q for q in (plan.village, plan.hill) if q is not None] + plan.houses
    busy += [at for at, _ in plan.inns]
    if any(math.dist(p, q) < 0.3 for q in busy):
        return False
    return all(math.dist(p, q) > 0.16 for r in plan.roads for q in resample(r.path, 0.02))


def _place_inns(plan: Plan, shape: Shape) -> None:
    """An inn beside each road with one: near the middle of the road's visible stretch, on
    whichever side has room."""
    for seg in shape.segments:
        if seg.kind is not Kind.ROAD or not seg.mod("inn"):
            continue
        road = next(r for r in plan.roads if _entry(r.path) in seg.sides)
        pts = [p for p in resample(road.path, 0.02) if 0 <= p[0] <= 1 and 0 <= p[1] <= 1]
        for frac in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8):
            i = min(len(pts) - 2, int(frac * (len(pts) - 1)))
            (ax, ay), (bx, by) = pts[i], pts[i + 1]
            d = math.dist(pts[i], pts[i + 1]) or 1.0
            nx, ny = -(by - ay) / d, (bx - ax) / d
            spots = [((ax + nx * k, ay + ny * k), (-nx * k, -ny * k)) for k in (0.2, -0.2)]
            spot = next((s for s in spots if _clear(plan, s[0])), None)
            if spot is not None:
                plan.inns.append(spot)
                break
        else:
            raise ValueError(f"{shape.tile}: no room for its inn")


def _entry(path: list[Pt]) -> int:
    """The side a road path enters from: its first point lies just outside that edge."""
    x, y = path[0]
    return 0 if y < 0 else 1 if x > 1 else 2 if y > 1 else 3

