"""Tile pictures drawn by code: one per tile type at rotation 0, for the committed art.

`make_art` saves them under `tiles_art/tiles/`; the renderer reads those files
and never runs this code. Decorations are seeded by the tile id, so every run draws the same
pixels.
"""

from __future__ import annotations

import itertools
import math
import zlib

from PIL import Image

from carca_bot.engine.catalogue import catalogue
from carca_bot.render import palette as pal
from carca_bot.render.art import tile_parts as parts
from carca_bot.render.art.canvas import Canvas, inside, resample, tangent
from carca_bot.render.art.tile_layout import Plan, RoadArt
from carca_bot.render.art.unusual import plan_for
from carca_bot.render.tile_art import ABBEY
from carca_bot.render.units import Pt

_GARDEN_SPOTS: tuple[Pt, ...] = ((0.74, 0.74), (0.26, 0.74), (0.74, 0.26), (0.26, 0.26),
                                 (0.5, 0.76), (0.76, 0.5), (0.24, 0.5), (0.5, 0.24))


def draw_tile(tile_id: str, size: int = 128, tunnel: bool = False) -> Image.Image:
    """The tile at rotation 0 as an RGB image `size` pixels square (`tunnel`: as drawn when
    The Tunnel is in play)."""
    if tile_id != ABBEY and tile_id not in catalogue().tiles:
        raise KeyError(tile_id)
    return render(plan_for(tile_id, tunnel), size)


def render(plan: Plan, size: int) -> Image.Image:
    seed = zlib.crc32(plan.tile.encode())
    cv = Canvas(size, pal.FIELD)
    parts.grass(cv, seed)
    for path in plan.rivers:
        parts.river(cv, path)
    if plan.spring:
        parts.pond(cv, plan.spring, 0.13, 0.12, reeds=False)
    if plan.lake:
        parts.pond(cv, plan.lake, 0.24, 0.19, reeds=True)
    for road in plan.roads:
        parts.road_outline(cv, road.path)
    for road in plan.roads:
        parts.road_fill(cv, road.path)
    if plan.bridge:
        parts.bridge(cv, plan.bridge, _direction_near(plan.roads, plan.bridge))
    for i, city in enumerate(plan.cities):
        parts.city(cv, city, seed + i)
    _road_ends(cv, plan)
    for at, d in plan.arches:
        parts.arch(cv, at, d, 0.12)
    if plan.building == "monastery":
        parts.monastery(cv, plan.building_at, 1.15 if plan.abbey_wall else 1.0)
    elif plan.building == "shrine":
        parts.shrine(cv, plan.building_at)
    if plan.village:
        parts.village(cv, plan.village)
    for at in plan.houses:
        parts.houses(cv, at)
    for at, towards in plan.inns:
        parts.inn(cv, at, towards)
    if plan.garden:
        parts.garden(cv, plan.garden_at or _garden_spot(cv))
    if plan.abbey_wall:
        parts.abbey_wall(cv)
    return cv.finish()


def _road_ends(cv: Canvas, plan: Plan) -> None:
    """Gates, arches and tunnel mouths where roads stop at a city wall or a hill."""
    walled = [p for c in plan.cities if c.colour != pal.FIELD for p in c.polys]
    if plan.tunnel_trace:  # the road's course underground, as a faint line in the grass
        for a, b in itertools.pairwise(plan.tunnel_trace):
            for p in resample([a, b], 0.04)[:-1]:
                cv.line([p, _step(p, a, b, 0.022)], 0.05, pal.FIELD_DARK)
    if plan.hill:
        parts.hill(cv, plan.hill)
    for road in plan.roads:
        pts = resample(road.path, 0.004)
        if road.end in ("gate", "under"):
            hit = next((i for i, p in enumerate(pts) if any(inside(p, q) for q in walled)), None)
            if hit is not None:
                draw = parts.gate if road.end == "gate" else parts.arch
                draw(cv, pts[hit], tangent(pts, hit))
        elif road.end == "tunnel" and plan.hill:
            hx, hy = plan.hill
            hit = next(i for i, (x, y) in enumerate(pts)
                       if ((x - hx) / parts.HILL_RX) ** 2 + ((y - hy) / parts.HILL_RY) ** 2 <= 1)
            parts.arch(cv, pts[hit], tangent(pts, hit))
        elif road.end == "tunnel":
            parts.arch(cv, pts[-1], tangent(pts, len(pts) - 1))


def _step(p: Pt, a: Pt, b: Pt, by: float) -> Pt:
    d = math.dist(a, b) or 1.0
    return (p[0] + (b[0] - a[0]) / d * by, p[1] + (b[1] - a[1]) / d * by)


def _direction_near(roads: list[RoadArt], at: Pt) -> Pt:
    """The direction of the road nearest `at`; of two as near (roads crossing there), the
    one drawn last, which is the one on top: the bridge runs along it."""
    best: tuple[float, Pt] = (math.inf, (1.0, 0.0))
    for road in roads:
        pts = resample(road.path, 0.01)
        near = min(range(len(pts)), key=lambda i: math.dist(pts[i], at))
        if math.dist(pts[near], at) <= best[0] + 1e-9:
            best = (math.dist(pts[near], at), tangent(pts, near))
    return best[1]


def _garden_spot(cv: Canvas) -> Pt:
    """The first candidate spot whose surroundings are plain field in what is drawn so far."""
    img = cv.image.convert("RGB")
    for x, y in _GARDEN_SPOTS:
        probes = [(x + dx * 0.035, y + dy * 0.035) for dx in range(-4, 5) for dy in range(-4, 5)]
        if all(_is_field(img.getpixel((int(px * cv.px), int(py * cv.px)))) for px, py in probes):
            return (x, y)
    return _GARDEN_SPOTS[0]


def _is_field(pixel: object) -> bool:
    assert isinstance(pixel, tuple)
    return any(math.dist(pixel[:3], c) < 30 for c in (pal.FIELD, pal.FIELD_DARK))
