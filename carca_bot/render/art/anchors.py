"""Where a figure stands on a tile: one point inside every segment, in tile units.

This is the generator's half: `make_art` saves the points for every tile in
`tiles_art/anchors.json`, which the renderer reads (`render/anchors.py`).
A figure must land inside the feature it occupies, so we draw each tile's layout once more
as a *segment map* (every pixel holds the index of the segment it belongs to, built from the
same `tile_layout` plan and widths the art uses), then pick a deep point of each segment:
far from its borders, on a pixel that shows the segment's terrain in the real art. All of it
is for rotation 0; the renderer turns the points with the tile.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from carca_bot.engine.catalogue import Kind, Shape, catalogue
from carca_bot.render import palette as pal
from carca_bot.render.anchors import TileAnchors
from carca_bot.render.art import tile_parts as parts
from carca_bot.render.art.canvas import Canvas, inside, resample
from carca_bot.render.art.tile_layout import CityArt, Plan, RoadArt
from carca_bot.render.art.tiles import draw_tile
from carca_bot.render.art.unusual import plan_for
from carca_bot.render.tile_art import ABBEY, all_tile_ids, tunnel_sensitive
from carca_bot.render.units import INWARD, MID, Pt

RES = 128  # segment-map pixels per tile side
_CANVAS = RES // 4  # Canvas supersamples small sizes 4x: a 32-unit canvas is RES pixels
BLOCK = 255  # walls, road edges, hills, villages: belongs to no segment
RIVER = 254
NONE = 0  # grass not reached from any half-edge
_HALF_POINT: tuple[Pt, ...] = ((0.25, 0.0), (0.75, 0.0), (1.0, 0.25), (1.0, 0.75),
                               (0.75, 1.0), (0.25, 1.0), (0.0, 0.75), (0.0, 0.25))
_TERRAIN: dict[Kind, tuple[pal.RGB, ...]] = {
    Kind.CITY: (pal.CITY, pal.CITY_ALT),
    Kind.ROAD: (pal.ROAD,),
    Kind.FIELD: (pal.FIELD, pal.FIELD_DARK),
}
_GARDEN_SPOTS: tuple[Pt, ...] = ((0.74, 0.74), (0.26, 0.74), (0.74, 0.26), (0.26, 0.26),
                                 (0.5, 0.76), (0.76, 0.5), (0.24, 0.5), (0.5, 0.24))


def _label(value: int) -> pal.RGB:
    return (value, 0, 0)


def _side_of(path: list[Pt]) -> int:
    """The side a road path enters from: its first point lies just outside that edge."""
    x, y = path[0]
    return 0 if y < 0 else 1 if x > 1 else 2 if y > 1 else 3


def _probe(side: int, by: float = 0.03) -> Pt:
    (mx, my), (ix, iy) = MID[side], INWARD[side]
    return (mx + ix * by, my + iy * by)


def city_labels(plan: Plan, shape: Shape) -> dict[int, int]:
    """Which segment each drawn city shape is: the topmost shape at the segment's sides.

    Walled lenses of grass (the fields enclosed by crossing cities) are the inner fields.
    """
    out: dict[int, int] = {}
    for si, seg in enumerate(shape.segments):
        if seg.kind is not Kind.CITY:
            continue
        for side in seg.sides:
            hits = [i for i, c in enumerate(plan.cities) if c.colour != pal.FIELD
                    and any(inside(_probe(side), p) for p in c.polys)]
            if hits:
                out[hits[-1]] = si
    inner = [si for si, seg in enumerate(shape.segments) if seg.kind is Kind.FIELD
             and not seg.halves]
    pockets = [i for i, c in enumerate(plan.cities) if c.colour == pal.FIELD]
    out.update(zip(pockets, inner, strict=False))
    return out


def road_segment(road: RoadArt, shape: Shape) -> int | None:
    return shape.side_segment[_side_of(road.path)]


@cache
def _art(tile_id: str, tunnel: bool) -> bytes:
    """The art's pixels at RES px, rotation 0: what the players will see."""
    return draw_tile(tile_id, RES, tunnel).tobytes()


@cache
def garden_spot(tile_id: str) -> Pt:
    """Where the art put the garden: the candidate spot nearest the hedge's pixels."""
    placed = plan_for(tile_id).garden_at
    if placed is not None:
        return placed
    data = _art(tile_id, False)
    xs: list[int] = []
    ys: list[int] = []
    for i in range(0, len(data), 3):
        if math.dist((data[i], data[i + 1], data[i + 2]), pal.HEDGE) < 14:
            xs.append((i // 3) % RES)
            ys.append((i // 3) // RES)
    if not xs:
        return _GARDEN_SPOTS[0]
    c = ((sum(xs) / len(xs) + 0.5) / RES, (sum(ys) / len(ys) + 0.5) / RES)
    return min(_GARDEN_SPOTS, key=lambda p: math.dist(p, c))


def segment_map(tile_id: str, tunnel: bool = False) -> Image.Image:
    """An "L" image RES px square: pixel value = segment index + 1 (or NONE/BLOCK/RIVER)."""
    return _segment_map(tile_id, tunnel and tile_id in tunnel_sensitive())


@cache
def _segment_map(tile_id: str, tunnel: bool) -> Image.Image:
    if tile_id == ABBEY:
        return Image.new("L", (RES, RES), 1)
    shape = catalogue(tunnel).shape(tile_id, 0)
    plan = plan_for(tile_id, tunnel)
    cv = Canvas(_CANVAS, _label(NONE))
    for path in plan.rivers:
        cv.line(path, parts.RIVER_W + 2 * parts.BANK_W, _label(RIVER), round_ends=False)
    for c, rx, ry in ((plan.spring, 0.13, 0.12), (plan.lake, 0.24, 0.19)):
        if c:
            cv.ellipse(c[0], c[1], rx + parts.BANK_W, ry + parts.BANK_W, _label(RIVER))
    for road in plan.roads:
        cv.line(road.path, parts.ROAD_W + 2 * parts.ROAD_EDGE, _label(BLOCK))
    for road in plan.roads:
        si = road_segment(road, shape)
        cv.line(road.path, parts.ROAD_W, _label(BLOCK if si is None else si + 1))
    _draw_cities(cv, plan.cities, city_labels(plan, shape))
    if plan.hill:
        cv.ellipse(plan.hill[0], plan.hill[1], parts.HILL_RX, parts.HILL_RY, _label(BLOCK))
    if shape.building is not None:
        (x, y), s = plan.building_at, (1.15 if plan.abbey_wall else 1.0)
        cv.ellipse(x, y, 0.21 * s, 0.175 * s, _label(shape.building + 1))
    if plan.village:
        cv.circle(plan.village[0], plan.village[1], 0.16, _label(BLOCK))
    for x, y in plan.houses:
        cv.ellipse(x, y + 0.02, 0.14, 0.1, _label(BLOCK))
    if shape.garden is not None:
        x, y = garden_spot(tile_id)
        cv.rect(x - 0.1, y - 0.1, x + 0.1, y + 0.1, _label(shape.garden + 1))
    img = cv.image.getchannel("R")
    _fill_fields(img, shape)
    return img


def _draw_cities(cv: Canvas, cities: list[CityArt], labels: dict[int, int]) -> None:
    """Cities in drawing order, so a city drawn over another takes its pixels, as in the art."""
    for i, city in enumerate(cities):
        si = labels.get(i)
        for poly in city.polys:
            cv.polygon(poly, _label(BLOCK if si is None else si + 1))
        for wall in city.walls:
            cv.line(wall, parts.WALL_W, _label(BLOCK), min_px=1.5)


def _fill_fields(img: Image.Image, shape: Shape) -> None:
    """Flood the grass from each field's half-edges; grass reached from none stays NONE."""
    inset = 4
    for si, seg in enumerate(shape.segments):
        for half in seg.halves:
            x, y = _HALF_POINT[half]
            px = min(max(round(x * RES), inset), RES - 1 - inset)
            py = min(max(round(y * RES), inset), RES - 1 - inset)
            seed = _nearby(img, (px, py), NONE, si + 1)
            if seed is not None and img.getpixel(seed) == NONE:
                ImageDraw.floodfill(img, seed, si + 1)


def _nearby(img: Image.Image, at: tuple[int, int], *values: int) -> tuple[int, int] | None:
    for r in range(5):
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                p = (at[0] + dx, at[1] + dy)
                if 0 <= p[0] < RES and 0 <= p[1] < RES and img.getpixel(p) in values:
                    return p
    return None


def _depth(mask: Image.Image) -> bytes:
    """Per pixel, how many 3x3 erosions it survives: its distance from the segment's edge.

    The tile border counts as an edge, so figures keep off the neighbouring tiles.
    """
    padded = Image.new("L", (RES + 2, RES + 2), 0)
    padded.paste(mask, (1, 1))
    one = padded.point(lambda v: 1 if v else 0)
    total = one
    while padded.getbbox():
        padded = padded.filter(ImageFilter.MinFilter(3))
        total = ImageChops.add(total, padded.point(lambda v: 1 if v else 0))
    return total.crop((1, 1, RES + 1, RES + 1)).tobytes()


def _road_target(plan: Plan, shape: Shape, si: int, labels: bytes) -> Pt:
    """The middle of the part of the road one can see (not under a city or a hill)."""
    seen: list[Pt] = []
    for road in plan.roads:
        if road_segment(road, shape) != si:
            continue
        for x, y in resample(road.path, 0.01):
            px, py = int(x * RES), int(y * RES)
            if 0 <= px < RES and 0 <= py < RES and labels[py * RES + px] == si + 1:
                seen.append((x, y))
    return seen[len(seen) // 2] if seen else (0.5, 0.5)


def _seen_ground(tile_id: str, tunnel: bool, si: int, kind: Kind) -> bytes:
    """Pixels of the segment where the art shows its terrain (not a roof, shield or house),
    joined by such pixels to where the segment meets the tile edge: 255 there, else 0."""
    labels = segment_map(tile_id, tunnel).tobytes()
    art = _art(tile_id, tunnel)
    mine = [i for i, v in enumerate(labels) if v == si + 1]
    # One colour per segment (a city is plain or, where two cities cross, the darker tone).
    colour = max(_TERRAIN[kind], key=lambda c: sum(
        1 for i in mine if math.dist(art[3 * i:3 * i + 3], c) < 20))
    near = {i for i in mine if math.dist(art[3 * i:3 * i + 3], colour) < 20}
    clean = bytes(255 if i in near else 0 for i in range(RES * RES))
    seg = catalogue(tunnel).shape(tile_id, 0).segments[si]
    edges = [_HALF_POINT[h] for h in seg.halves] + [MID[s] for s in seg.sides]
    if not edges:  # a field enclosed inside the tile
        return clean
    img = Image.frombytes("L", (RES, RES), clean)
    for x, y in edges:
        px = min(max(int(x * RES), 4), RES - 5)
        py = min(max(int(y * RES), 4), RES - 5)
        seed = _nearby(img, (px, py), 255)
        if seed is not None:
            ImageDraw.floodfill(img, seed, 128)
    joined = img.point(lambda v: 255 if v == 128 else 0)
    inner = joined.filter(ImageFilter.MinFilter(5)).tobytes()  # not right against a roof
    if any(inner):
        return inner
    return joined.tobytes() if joined.getbbox() else clean


def _deep_point(tile_id: str, tunnel: bool, si: int, kind: Kind, target: Pt | None,
                avoid: list[Pt]) -> Pt:
    """The best pixel of a segment: deep inside it, on ground that shows its terrain and is
    joined to the segment's edges, near `target`."""
    labels = segment_map(tile_id, tunnel).tobytes()
    mask = segment_map(tile_id, tunnel).point(lambda v: 255 if v == si + 1 else 0)
    depth = _depth(mask)
    ground = _seen_ground(tile_id, tunnel, si, kind)
    cap = round(parts.ROAD_W / 2 * RES) - 1 if kind is Kind.ROAD else RES
    pixels = [i for i, v in enumerate(labels) if v == si + 1]
    if target is None:
        target = (sum(i % RES for i in pixels) / len(pixels) / RES,
                  sum(i // RES for i in pixels) / len(pixels) / RES)
    best: tuple[float, int] | None = None
    for i in pixels:
        if not ground[i]:
            continue
        p = ((i % RES + 0.5) / RES, (i // RES + 0.5) / RES)
        score = min(depth[i], cap) * (10.0 if kind is Kind.ROAD else 1.0)
        score -= math.dist(p, target) * RES * 0.08
        for a in avoid:  # keep pennants in view
            score -= max(0.0, 0.2 - math.dist(p, a)) * RES * 0.6
        if best is None or score > best[0]:
            best = (score, i)
    if best is None:  # no clean pixel: fall back to any pixel of the segment
        i = pixels[len(pixels) // 2]
        return ((i % RES + 0.5) / RES, (i // RES + 0.5) / RES)
    return ((best[1] % RES + 0.5) / RES, (best[1] // RES + 0.5) / RES)


def _tunnel_spot(plan: Plan, road: RoadArt) -> Pt:
    """Where a tunnel road meets its mouth: the hill's rim, a city wall, or the road's end."""
    pts = resample(road.path, 0.004)
    hit = len(pts) - 1
    if plan.hill:
        hx, hy = plan.hill
        hit = next((i for i, (x, y) in enumerate(pts)
                    if ((x - hx) / parts.HILL_RX) ** 2 + ((y - hy) / parts.HILL_RY) ** 2 <= 1),
                   hit)
    elif road.end == "under":
        walled = [p for c in plan.cities if c.colour != pal.FIELD for p in c.polys]
        hit = next((i for i, p in enumerate(pts) if any(inside(p, q) for q in walled)), hit)
    back = max(0, hit - 12)  # a little way back along the road, so the mouth still shows
    return pts[back]


def compute(tile_id: str, tunnel: bool = False) -> TileAnchors:
    """Rotation-0 anchor points for every segment of a tile type."""
    return _compute(tile_id, tunnel and tile_id in tunnel_sensitive())


@cache
def _compute(tile_id: str, tunnel: bool) -> TileAnchors:
    if tile_id == ABBEY:
        return TileAnchors(((0.5, 0.5),), {})
    shape = catalogue(tunnel).shape(tile_id, 0)
    plan = plan_for(tile_id, tunnel)
    labels = segment_map(tile_id, tunnel).tobytes()
    shields = [s for c in plan.cities for s in [*c.shields, *(at for _, at in c.emblems)]]
    points: list[Pt] = []
    for si, seg in enumerate(shape.segments):
        if seg.kind is Kind.BUILDING:
            points.append(plan.building_at)
        elif seg.kind is Kind.GARDEN:
            points.append(garden_spot(tile_id))
        elif seg.kind is Kind.ROAD:
            target = _road_target(plan, shape, si, labels)
            points.append(_deep_point(tile_id, tunnel, si, seg.kind, target, []))
        else:
            points.append(_deep_point(tile_id, tunnel, si, seg.kind, None, shields))
    tunnels = {ri: _tunnel_spot(plan, road) for road in plan.roads
               if (ri := road_segment(road, shape)) is not None and shape.segments[ri].tunnel}
    return TileAnchors(tuple(points), tunnels)


def all_anchors() -> dict[str, dict[str, TileAnchors]]:
    """Every tile's points, and the tunnel variants of the tiles The Tunnel changes."""
    return {"plain": {t: compute(t) for t in all_tile_ids()},
            "tunnel": {t: compute(t, True) for t in all_tile_ids() if t in tunnel_sensitive()}}
