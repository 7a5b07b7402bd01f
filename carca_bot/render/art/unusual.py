"""The unusual tiles: hand-made layouts over the generic plan, and where inns stand.

`plan_for` is the layout of any tile: the generic plan of `tile_layout`, then the
override in `_OVERRIDES` for the few tiles it would draw wrong, then an inn beside
each road that has one.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from carca_bot.engine.catalogue import Kind, Shape, catalogue
from carca_bot.render import palette
from carca_bot.render.art.canvas import cubic, inside, resample, spline
from carca_bot.render.art.tile_layout import (
    BAND_DEPTH,
    CENTRE,
    CityArt,
    Plan,
    RoadArt,
    cap,
    corner_nw,
    dome,
    generic_plan,
    outside,
    through,
    to_point,
    turned,
    via,
)
from carca_bot.render.units import Pt

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
    bottom = [(x, 1 - y) for x, y in dome(BAND_DEPTH)]
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
    plan.roads = [RoadArt([outside(2), *curve, outside(1)])]


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
    top = [(x, y) for x, y in reversed(dome(0.36))]
    bottom = [(x, 1 - y) for x, y in dome(0.36)]
    plan.cities = [CityArt([top + bottom], [top, bottom], [(0.76, 0.5)])]
    plan.roads = [RoadArt(to_point(0, CENTRE), "under"), RoadArt(to_point(2, (0.5, 0.9)), "tunnel")]
    if not tunnel:
        plan.tunnel_trace = [(0.5, 0.88), (0.5, 0.64)]


def _rv_monastery(plan: Plan) -> None:
    """The river bends north so the monastery can sit on its bank and part the south fields."""
    plan.rivers = [[outside(3), *cubic((0.0, 0.5), (0.3, 0.2), (0.7, 0.2), (1.0, 0.5)),
                    outside(1)]]
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
    plan.cities = [_funnel(0.38), turned(_funnel(0.38), 2)]
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


def _emblems_kept(draw: Callable[[Plan], None]) -> Callable[[Plan], None]:
    """An override that redraws the cities, keeping each city's badges where it puts them
    (the first city's at its corner or band, as `city_for` would)."""
    def override(plan: Plan) -> None:
        kept = [c.emblems for c in plan.cities]
        draw(plan)
        for city, emblems in zip(plan.cities, kept, strict=False):
            city.emblems = emblems
    return override


def _tb3(plan: Plan) -> None:
    """A city across the tile under a northern field, a separate city on the south edge,
    and a little enclosed field between the two."""
    top = dome(0.3)
    main = CityArt([[*top, (0.0, 1.0), (1.0, 1.0)]], [top])
    main.emblems = [(name, (0.5, 0.45)) for name, _ in plan.cities[0].emblems]
    plan.cities = [main, cap(2, 0.24), _pocket((0.5, 0.64), 0.07)]


def _tb6(plan: Plan) -> None:
    """A corner city and two caps, walled from each other, round an enclosed field."""
    lo, hi = 0.38, 0.72
    nw = [(0.0, 0.0), (1.0, 0.0), (hi, lo), (lo, lo), (lo, hi), (0.0, 1.0)]
    east = [(1.0, 0.0), (1.0, 1.0), (hi, hi), (hi, lo)]
    south = [(0.0, 1.0), (1.0, 1.0), (hi, hi), (lo, hi)]
    inner = [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]
    emblems = [(name, (0.2, 0.2)) for name, _ in plan.cities[0].emblems]
    plan.cities = [CityArt([nw], [nw[1:]], emblems=emblems), CityArt([east], [east[1:]]),
                   CityArt([south], [south[1:]]),
                   CityArt([inner], [[*inner, inner[0]]], colour=palette.FIELD)]


def _tb8(plan: Plan) -> None:
    """Both roads end at the city (as KR4) but the grass between them is one field."""
    _kr4(plan)
    plan.cities[0].walls.pop()


def _tb9(plan: Plan) -> None:
    """A smaller corner city, clear of the southern one; the east road ends at its gate."""
    corner = corner_nw(0.42)
    plan.cities = [corner, cap(2, 0.26)]
    plan.roads = [RoadArt(via(1, (0.72, 0.46), (0.5, 0.38), (0.3, 0.34)), "gate")]


def _se_wall(start: Pt) -> Callable[[Plan], None]:
    """The city's wall runs on from `start` to the south-east corner, parting two fields."""
    def wall(plan: Plan) -> None:
        plan.cities[0].walls.append(spline([start, (0.72, 0.72), (1.02, 1.02)]))
    return wall


def _tb14(plan: Plan) -> None:
    """Two corner cities, north-west and south-east, and the field enclosed between."""
    nw, se = corner_nw(0.4), turned(corner_nw(0.4), 2)
    nw.emblems = plan.cities[0].emblems
    lens = [*nw.walls[0], *se.walls[0]]
    plan.cities = [nw, se, CityArt([lens], [], colour=palette.FIELD)]


def _tb16(plan: Plan) -> None:
    plan.roads = [RoadArt(via(1, (0.72, 0.47), (0.6, 0.34), (0.56, 0.16)), "gate")]


def _tb23(plan: Plan) -> None:
    """The south road ends at the city's gate; the west road at houses beside it."""
    plan.roads = [RoadArt(to_point(2, (0.5, 0.16)), "gate"),
                  RoadArt(to_point(3, (0.36, 0.5)), "houses")]
    plan.houses = [(0.4, 0.5)]


def _tb24(plan: Plan) -> None:
    """The west-east road crosses the north-south one on a bridge."""
    plan.roads = [RoadArt(through(0, 2)), RoadArt(through(1, 3))]
    plan.village = None
    plan.bridge = CENTRE


_OVERRIDES: dict[str, Callable[[Plan], None]] = {
    "AM2": lambda p: _crossed(p, True), "KR5": lambda p: _crossed(p, False), "AM3": _am3,
    "AM4": _am4, "AM6": _west_gate, "KR2": _west_gate, "KR3": _west_gate, "AM7": _am7, "AM8": _am8,
    "AM9": _am9, "KR4": _kr4, "RV-monastery": _rv_monastery,
    "RV-city-road": _rv_city_road, "RV-bridge": _rv_bridge,
    "RV-city-curve": _rv_city_curve, "TU4": _tu4,
    "IC3": _ic3, "IC5": _ic5, "IC6": _ic6, "IC7": _ic7, "IC8": _ic8,
    "TB3": _tb3, "TB4": _tb3, "TB6": _tb6, "TB7": _emblems_kept(_kr4),
    "TB8": _emblems_kept(_tb8), "TB9": _emblems_kept(_tb9), "TB10": _emblems_kept(_tb9),
    "TB12": _se_wall((0.4, 0.62)), "TB14": _tb14, "TB16": _tb16,
    "TB22": _se_wall((0.62, 0.4)), "TB23": _tb23, "TB24": _tb24,
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

