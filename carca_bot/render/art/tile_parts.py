"""The pieces a tile is drawn from: walls, roads, river, buildings, gardens, shields.

Sizes are in tile units. Buildings are drawn in a slight front view (like the printed tiles)
so a monastery reads as a church and a village as houses even when the tile is small.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from carca_bot.render import palette as pal
from carca_bot.render.art.canvas import Canvas, arc, inside, resample, tangent
from carca_bot.render.art.figures import EMBLEMS
from carca_bot.render.art.tile_layout import CityArt
from carca_bot.render.units import Pt

ROAD_W = 0.13
ROAD_EDGE = 0.022
RIVER_W = 0.19
BANK_W = 0.02
WALL_W = 0.042
HILL_RX, HILL_RY = 0.19, 0.17


def _add(p: Pt, v: Pt, k: float = 1.0) -> Pt:
    return (p[0] + v[0] * k, p[1] + v[1] * k)


def _normal(d: Pt) -> Pt:
    return (-d[1], d[0])


# --- terrain ----------------------------------------------------------------------------------

def grass(cv: Canvas, seed: int) -> None:
    """Tufts that make the field read as grass; kept off the border so edges stay plain."""
    rng = random.Random(seed)
    for _ in range(16):
        x, y = 0.1 + 0.8 * rng.random(), 0.1 + 0.8 * rng.random()
        cv.line([(x - 0.018, y - 0.022), (x, y), (x + 0.018, y - 0.022)], 0.011, pal.FIELD_DARK,
                min_px=0.6)


def river(cv: Canvas, path: Sequence[Pt]) -> None:
    cv.line(path, RIVER_W + 2 * BANK_W, pal.RIVER_BANK, round_ends=False)
    cv.line(path, RIVER_W, pal.RIVER, round_ends=False)
    pts = resample(path, 0.02)
    for i in range(4, len(pts) - 6, 9):
        n = _normal(tangent(pts, i))
        side = 0.045 if (i // 9) % 2 else -0.045
        cv.line([_add(p, n, side) for p in pts[i:i + 4]], 0.014, pal.RIVER_LIGHT, min_px=0.5)


def pond(cv: Canvas, c: Pt, rx: float, ry: float, reeds: bool) -> None:
    x, y = c
    cv.ellipse(x, y, rx + BANK_W, ry + BANK_W, pal.RIVER_BANK)
    cv.ellipse(x, y, rx, ry, pal.RIVER)
    cv.ellipse(x - rx * 0.25, y - ry * 0.3, rx * 0.35, ry * 0.15, pal.RIVER_LIGHT)
    if reeds:
        for a in (200, 230, 320, 140):
            px, py = x + (rx + 0.02) * math.cos(math.radians(a)), y + (ry + 0.02) * math.sin(
                math.radians(a))
            for dx in (-0.012, 0.0, 0.012):
                cv.line([(px + dx, py + 0.015), (px + dx * 1.8, py - 0.035)], 0.008, pal.HEDGE)
    else:  # a spring: stones around the source
        for a in range(15, 360, 45):
            if 330 > a > 30:  # leave the outflow to the east open
                cv.circle(x + (rx + 0.02) * math.cos(math.radians(a)),
                          y + (ry + 0.02) * math.sin(math.radians(a)), 0.025, pal.STONE_LIGHT,
                          pal.OUTLINE, 0.008)


def road_outline(cv: Canvas, path: Sequence[Pt]) -> None:
    cv.line(path, ROAD_W + 2 * ROAD_EDGE, pal.ROAD_EDGE)


def road_fill(cv: Canvas, path: Sequence[Pt]) -> None:
    cv.line(path, ROAD_W, pal.ROAD)


def bridge(cv: Canvas, at: Pt, d: Pt) -> None:
    n = _normal(d)
    for sign in (-1.0, 1.0):
        off = _add(at, n, sign * (ROAD_W / 2 + 0.012))
        rail = [_add(off, d, -0.15), _add(off, d, 0.15)]
        cv.line(rail, 0.04, pal.OUTLINE)
        cv.line(rail, 0.024, pal.STONE_LIGHT, min_px=0.5)


# --- cities ---------------------------------------------------------------------------------

def wall(cv: Canvas, points: Sequence[Pt]) -> None:
    cv.line(points, WALL_W, pal.WALL, min_px=1.5)
    cv.line(points, WALL_W * 0.35, pal.WALL_LIGHT, min_px=0.0)


def city(cv: Canvas, art: CityArt, seed: int) -> None:
    for poly in art.polys:
        cv.polygon(poly, art.colour)
    if art.colour != pal.FIELD:
        _roofs(cv, art, seed)
    for w in art.walls:
        wall(cv, w)
        if art.colour != pal.FIELD:
            _merlons(cv, w, art.polys)
    if art.cathedral is not None:
        cathedral(cv, art.cathedral)
    for s in art.shields:
        shield(cv, s)
    for name, at in art.emblems:
        badge(cv, name, at)


def _merlons(cv: Canvas, points: Sequence[Pt], polys: Sequence[Sequence[Pt]]) -> None:
    """Battlements on the city side of a wall, so it reads as a wall and not a path."""
    pts = resample(points, 0.01)
    for i in range(3, len(pts) - 3, 6):
        n = _normal(tangent(pts, i))
        probe = _add(pts[i], n, 0.04)
        if not any(inside(probe, poly) for poly in polys):
            n = (-n[0], -n[1])
            if not any(inside(_add(pts[i], n, 0.04), poly) for poly in polys):
                continue
        d = tangent(pts, i)
        c = _add(pts[i], n, WALL_W / 2 + 0.008)
        sq = [_add(_add(c, d, a), n, b) for a, b in
              ((-0.013, -0.012), (0.013, -0.012), (0.013, 0.012), (-0.013, 0.012))]
        cv.polygon(sq, pal.WALL, min_px=0.5)


def _roofs(cv: Canvas, art: CityArt, seed: int) -> None:
    """A few roofs inside the walls: the cue that says 'city' before any colour does."""
    rng = random.Random(seed)
    placed: list[Pt] = []
    m = 0.085
    for _ in range(60):
        p = (0.1 + 0.8 * rng.random(), 0.1 + 0.8 * rng.random())
        probes = [(p[0] + m * math.cos(a * math.pi / 4), p[1] + m * math.sin(a * math.pi / 4))
                  for a in range(8)]
        if not all(any(inside(q, poly) for poly in art.polys) for q in [p, *probes]):
            continue
        if any(math.dist(p, q) < 0.16 for q in placed + art.shields
               + [at for _, at in art.emblems]):
            continue
        if art.cathedral is not None and math.dist(p, art.cathedral) < 0.3:
            continue
        placed.append(p)
        x, y = p
        cv.rect(x - 0.04, y - 0.005, x + 0.04, y + 0.035, pal.HOUSE_WALL, pal.WALL, 0.007, 0.3)
        cv.polygon([(x - 0.052, y), (x - 0.025, y - 0.045), (x + 0.025, y - 0.045),
                    (x + 0.052, y)], pal.CITY_ROOF, pal.WALL, 0.007, 0.3)
        if len(placed) == 6:
            break


def shield(cv: Canvas, c: Pt, w: float = 0.16) -> None:
    x, y = c
    top, mid = y - 0.5 * w, y + 0.08 * w
    pts = [(x - w / 2, top), (x + w / 2, top), (x + w / 2, mid),
           *arc(x, mid, w / 2, 0.5 * w, 0, 90, 8)[1:], *arc(x, mid, w / 2, 0.5 * w, 90, 180, 8)]
    cv.polygon(pts, pal.SHIELD, pal.OUTLINE, 0.036)
    cv.polygon(pts, pal.SHIELD, pal.SHIELD_RIM, 0.018)
    cv.line([(x, top + 0.1 * w), (x, y + 0.42 * w)], 0.11 * w, pal.SHIELD_RIM, min_px=0.8)
    cv.line([(x - 0.3 * w, y - 0.12 * w), (x + 0.3 * w, y - 0.12 * w)], 0.11 * w, pal.SHIELD_RIM,
            min_px=0.8)


def badge(cv: Canvas, name: str, c: Pt, r: float = 0.085) -> None:
    """A modifier's emblem on a pale disc in a city (a goods symbol), as big as a shield."""
    x, y = c
    cv.circle(x, y, r, pal.SHIELD_RIM, pal.OUTLINE, 0.02)
    EMBLEMS[name](cv, c, r * 0.8)


def gate(cv: Canvas, at: Pt, d: Pt) -> None:
    """Two towers either side of the road where it enters the city."""
    n = _normal(d)
    half = ROAD_W / 2
    opening = [_add(_add(at, n, half), d, -0.025), _add(_add(at, n, -half), d, -0.025),
               _add(_add(at, n, -half), d, 0.035), _add(_add(at, n, half), d, 0.035)]
    cv.polygon(opening, pal.TUNNEL_DARK)
    for sign in (-1.0, 1.0):
        t = _add(at, n, sign * (half + 0.03))
        sq = [_add(_add(t, n, a), d, b) for a, b in
              ((-0.038, -0.038), (0.038, -0.038), (0.038, 0.038), (-0.038, 0.038))]
        cv.polygon(sq, pal.WALL_LIGHT, pal.WALL, 0.014)


def arch(cv: Canvas, at: Pt, d: Pt, width: float = ROAD_W + 0.03) -> None:
    """A dark arched mouth on a wall or hillside; `d` points into it."""
    n = _normal(d)
    base = math.degrees(math.atan2(d[1], d[0]))
    for w, colour in ((width + 0.05, pal.STONE_LIGHT), (width, pal.TUNNEL_DARK)):
        pts = [_add(at, n, w / 2)]
        for i in range(13):
            a = math.radians(base + 90 - 180 * i / 12)
            pts.append(_add(at, (math.cos(a) * w / 2, math.sin(a) * w / 2)))
        pts.append(_add(at, n, -w / 2))
        pts = [_add(p, d, -0.012) for p in pts]
        cv.polygon(pts, colour, pal.OUTLINE if colour == pal.STONE_LIGHT else None, 0.012)


def hill(cv: Canvas, c: Pt) -> None:
    x, y = c
    cv.ellipse(x, y, HILL_RX, HILL_RY, pal.ROCK, pal.OUTLINE, 0.014)
    cv.ellipse(x - 0.03, y - 0.035, 0.11, 0.08, pal.ROCK_LIGHT)
    for dx, dy in ((-0.06, -0.06), (0.05, -0.02), (-0.01, 0.05)):
        cv.line([(x + dx - 0.02, y + dy - 0.02), (x + dx, y + dy), (x + dx + 0.02, y + dy - 0.02)],
                0.014, pal.FIELD_DARK, min_px=0.6)


# --- buildings ------------------------------------------------------------------------------

def house(cv: Canvas, c: Pt, w: float, roof: pal.RGB = pal.ROOF) -> None:
    x, y = c
    bottom = y + 0.32 * w
    cv.rect(x - w / 2, bottom - 0.5 * w, x + w / 2, bottom, pal.HOUSE_WALL, pal.OUTLINE, 0.01)
    cv.polygon([(x - 0.62 * w, bottom - 0.45 * w), (x, bottom - 1.0 * w),
                (x + 0.62 * w, bottom - 0.45 * w)], roof, pal.OUTLINE, 0.01)
    cv.rect(x - 0.1 * w, bottom - 0.28 * w, x + 0.1 * w, bottom, pal.TUNNEL_DARK)


def village(cv: Canvas, c: Pt) -> None:
    """Houses on a little square: every road that reaches them ends here."""
    x, y = c
    cv.circle(x, y, 0.15, pal.ROAD, pal.ROAD_EDGE, 0.02)
    house(cv, (x - 0.06, y - 0.04), 0.12)
    house(cv, (x + 0.065, y - 0.03), 0.11, pal.ROOF_DARK)
    house(cv, (x, y + 0.06), 0.12)


def houses(cv: Canvas, c: Pt) -> None:
    x, y = c
    cv.ellipse(x, y + 0.02, 0.13, 0.09, pal.ROAD, pal.ROAD_EDGE, 0.018)
    house(cv, (x - 0.055, y), 0.11)
    house(cv, (x + 0.06, y + 0.015), 0.1, pal.ROOF_DARK)


def monastery(cv: Canvas, c: Pt, scale: float = 1.0) -> None:
    x, y = c
    s = scale

    def p(dx: float, dy: float) -> Pt:
        return (x + dx * s, y + dy * s)

    cv.ellipse(x, y, 0.21 * s, 0.175 * s, pal.PLOT, pal.ROAD_EDGE, 0.016)
    ow = 0.012 * s
    # nave with a red roof
    cv.polygon([p(-0.06, -0.04), p(0.15, -0.04), p(0.15, 0.11), p(-0.06, 0.11)], pal.HOUSE_WALL,
               pal.OUTLINE, ow)
    cv.polygon([p(-0.08, -0.03), p(-0.04, -0.13), p(0.13, -0.13), p(0.17, -0.03)], pal.ROOF,
               pal.OUTLINE, ow)
    door = arc(x + 0.05 * s, y + 0.06 * s, 0.025 * s, 0.03 * s, 180, 360, 8)
    cv.polygon([*door, p(0.075, 0.11), p(0.025, 0.11)], pal.TUNNEL_DARK)
    # bell tower with a pointed red roof and a cross
    cv.polygon([p(-0.16, -0.1), p(-0.06, -0.1), p(-0.06, 0.11), p(-0.16, 0.11)], pal.HOUSE_WALL,
               pal.OUTLINE, ow)
    cv.polygon([p(-0.175, -0.09), p(-0.11, -0.23), p(-0.045, -0.09)], pal.ROOF, pal.OUTLINE, ow)
    cv.circle(x - 0.11 * s, y - 0.03 * s, 0.022 * s, pal.TUNNEL_DARK)
    cv.line([p(-0.11, -0.23), p(-0.11, -0.3)], 0.014 * s, pal.OUTLINE)
    cv.line([p(-0.135, -0.27), p(-0.085, -0.27)], 0.014 * s, pal.OUTLINE)


def shrine(cv: Canvas, c: Pt) -> None:
    """A dark ring of standing stones round a fire: unmistakably not a church."""
    x, y = c
    cv.ellipse(x, y, 0.2, 0.17, pal.SHRINE_GROUND, pal.OUTLINE, 0.016)
    stones = [(x + 0.135 * math.cos(math.radians(a)), y + 0.105 * math.sin(math.radians(a)))
              for a in range(0, 360, 45)]

    def stone(p: Pt) -> None:
        sx, sy = p
        pts = [(sx - 0.022, sy + 0.03), (sx - 0.022, sy - 0.03), *arc(sx, sy - 0.03, 0.022, 0.02,
               180, 360, 6), (sx + 0.022, sy + 0.03)]
        cv.polygon(pts, pal.SHRINE_STONE, pal.OUTLINE, 0.01)

    for p in stones:
        if p[1] <= y:
            stone(p)
    cv.ellipse(x, y + 0.02, 0.05, 0.025, pal.OUTLINE)
    cv.polygon([(x - 0.035, y + 0.02), *arc(x, y - 0.03, 0.035, 0.04, 180, 270, 5),
                (x, y - 0.1), *arc(x, y - 0.03, 0.035, 0.04, 270, 360, 5), (x + 0.035, y + 0.02)],
               pal.FIRE, pal.OUTLINE, 0.008)
    cv.polygon([(x - 0.015, y + 0.015), (x, y - 0.045), (x + 0.015, y + 0.015)], pal.GOLD)
    for p in stones:
        if p[1] > y:
            stone(p)


def garden(cv: Canvas, c: Pt) -> None:
    x, y = c
    h = 0.095
    cv.polygon([(x - h, y - h + 0.02), (x - h + 0.02, y - h), (x + h - 0.02, y - h),
                (x + h, y - h + 0.02), (x + h, y + h - 0.02), (x + h - 0.02, y + h),
                (x - h + 0.02, y + h), (x - h, y + h - 0.02)], pal.HEDGE, pal.OUTLINE, 0.012)
    cv.rect(x - 0.06, y - 0.06, x + 0.06, y + 0.06, pal.HEDGE_LIGHT)
    for i in range(3):
        for j in range(3):
            colour = pal.FLOWERS[(i + 2 * j) % len(pal.FLOWERS)]
            cv.circle(x + (i - 1) * 0.04, y + (j - 1) * 0.04, 0.017, colour, pal.OUTLINE, 0.005)


def abbey_wall(cv: Canvas) -> None:
    a, b = 0.05, 0.95
    loop = [(a, a), (b, a), (b, b), (a, b), (a, a)]
    cv.line(loop, 0.06, pal.WALL, min_px=2)
    cv.line(loop, 0.025, pal.WALL_LIGHT, min_px=0.5)
    for x, y in loop[:4]:
        cv.circle(x, y, 0.055, pal.WALL_LIGHT, pal.WALL, 0.016)


# --- Inns & Cathedrals ------------------------------------------------------------------------

TIMBER = (112, 76, 48)  # the inn's beams and signpost
SIGN = (236, 196, 92)


def inn(cv: Canvas, c: Pt, towards: Pt) -> None:
    """A timber-framed inn by the road: a long house with a hanging sign on the road side
    (`towards` points from the inn to the road), so it reads apart from a village's houses."""
    x, y = c
    w, h = 0.2, 0.09
    bottom = y + h / 2
    cv.ellipse(x, bottom, w * 0.62, 0.035, pal.FIELD_DARK)
    cv.rect(x - w / 2, bottom - h, x + w / 2, bottom, pal.HOUSE_WALL, pal.OUTLINE, 0.01)
    for k in (-0.25, 0.25):  # the beams
        cv.line([(x + k * w, bottom - h), (x + k * w, bottom)], 0.012, TIMBER, min_px=0.6)
    cv.line([(x - w / 2, bottom - h / 2), (x + w / 2, bottom - h / 2)], 0.01, TIMBER, min_px=0.6)
    cv.polygon([(x - 0.6 * w, bottom - h + 0.005), (x - 0.4 * w, bottom - h - 0.075),
                (x + 0.4 * w, bottom - h - 0.075), (x + 0.6 * w, bottom - h + 0.005)],
               pal.ROOF_DARK, pal.OUTLINE, 0.01)
    cv.rect(x - 0.02, bottom - 0.05, x + 0.02, bottom, pal.TUNNEL_DARK)
    side = 1.0 if towards[0] >= 0 else -1.0  # the sign hangs on the road's side
    post = x + side * (w / 2 + 0.035)
    cv.line([(post, bottom), (post, bottom - 0.13)], 0.014, TIMBER)
    cv.line([(post, bottom - 0.125), (post - side * 0.05, bottom - 0.125)], 0.012, TIMBER)
    sx = post - side * 0.035
    cv.rect(sx - 0.028, bottom - 0.115, sx + 0.028, bottom - 0.07, SIGN, pal.OUTLINE, 0.008)
    cv.circle(sx, bottom - 0.0925, 0.011, pal.ROOF_DARK)  # a tankard's round on the board


def cathedral(cv: Canvas, c: Pt) -> None:
    """A cathedral on its square: two spired towers and a rose window over a long nave,
    larger than any roof in a city, so the city reads as worth more at a glance."""
    x, y = c
    cv.ellipse(x, y + 0.04, 0.25, 0.2, pal.STONE_LIGHT, pal.OUTLINE, 0.014)
    ow = 0.012
    cv.polygon([(x - 0.11, y - 0.04), (x + 0.11, y - 0.04), (x + 0.11, y + 0.14),
                (x - 0.11, y + 0.14)], pal.HOUSE_WALL, pal.OUTLINE, ow)
    cv.polygon([(x - 0.13, y - 0.03), (x, y - 0.14), (x + 0.13, y - 0.03)], pal.STONE,
               pal.OUTLINE, ow)
    for tx in (-0.15, 0.15):
        cv.polygon([(x + tx - 0.045, y - 0.1), (x + tx + 0.045, y - 0.1),
                    (x + tx + 0.045, y + 0.14), (x + tx - 0.045, y + 0.14)], pal.HOUSE_WALL,
                   pal.OUTLINE, ow)
        cv.polygon([(x + tx - 0.055, y - 0.095), (x + tx, y - 0.25),
                    (x + tx + 0.055, y - 0.095)], pal.STONE, pal.OUTLINE, ow)
        cv.line([(x + tx, y - 0.25), (x + tx, y - 0.29)], 0.012, pal.OUTLINE)
        cv.rect(x + tx - 0.015, y - 0.04, x + tx + 0.015, y + 0.01, pal.TUNNEL_DARK)
    cv.circle(x, y + 0.02, 0.035, pal.SHIELD, pal.OUTLINE, 0.008)  # the rose window
    cv.circle(x, y + 0.02, 0.012, pal.GOLD)
    door = arc(x, y + 0.1, 0.03, 0.03, 180, 360, 8)
    cv.polygon([*door, (x + 0.03, y + 0.14), (x - 0.03, y + 0.14)], pal.TUNNEL_DARK)
