"""Figures, tunnel tokens and the King/Robber markers, drawn by code in the six player colours.

Each kind has its own silhouette (so the kind reads from the outline alone), and every
figure carries its seat number, so players never depend on telling colours apart. Tokens
are drawn without their pair number: the renderer writes any number into the mouth.
`make_art` saves all of them under `tiles_art/figures/`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from carca_bot.render import palette as pal
from carca_bot.render.art.canvas import Canvas, arc, spline
from carca_bot.render.art.glyphs import draw_number
from carca_bot.render.units import Pt

CLEAR = (0, 0, 0, 0)
OUTLINE_W = 0.05
WOOD = (110, 70, 40)
PIECE_GROUND = (176, 132, 84)  # a held piece's disc: its rim, then its face
PIECE_FACE = (238, 222, 188)
IRON = (120, 124, 132)  # the builder's hammer
GRAPE, LEAF = (118, 40, 116), (70, 132, 52)  # Traders & Builders' goods
WHEAT, WHEAT_DARK = (232, 182, 62), (168, 118, 30)
CLOTH, CLOTH_DARK = (196, 48, 52), (132, 28, 34)


@dataclass(frozen=True)
class Part:
    """A filled polygon or circle; `shade` darkens the player colour for details."""

    points: tuple[Pt, ...] = ()
    circle: tuple[float, float, float] | None = None
    shade: float = 1.0
    colour: pal.RGB | None = None  # a fixed colour instead of the player's


def _mirror_closed(right: Sequence[Pt]) -> list[Pt]:
    """A symmetric outline from its right half, listed top to bottom."""
    return [*right, *[(1 - x, y) for x, y in reversed(right)]]


_MEEPLE_RIGHT: list[Pt] = [
    (0.57, 0.31), (0.7, 0.35), (0.9, 0.39), (0.96, 0.47), (0.9, 0.55), (0.67, 0.56),
    (0.7, 0.72), (0.85, 0.9), (0.81, 0.97), (0.63, 0.97), (0.5, 0.8),
]
_MAYOR_RIGHT: list[Pt] = [
    (0.58, 0.38), (0.76, 0.41), (0.95, 0.46), (0.99, 0.55), (0.93, 0.63), (0.72, 0.64),
    (0.77, 0.8), (0.91, 0.94), (0.86, 0.995), (0.62, 0.995), (0.5, 0.87),
]
# The large follower (Inns & Cathedrals): broad shoulders, thick arms, legs set wide on
# one broad base, and a bigger head: the follower's pose, twice the weight.
_LARGE_RIGHT: list[Pt] = [
    (0.6, 0.33), (0.8, 0.34), (0.97, 0.4), (0.995, 0.5), (0.95, 0.6), (0.74, 0.6),
    (0.8, 0.76), (0.98, 0.92), (0.95, 0.995), (0.62, 0.995), (0.5, 0.9),
]
# The builder (Traders & Builders): a taller, slimmer worker with a hammer raised on one
# side, so it reads apart from any follower even at the size of a board square.
_BUILDER_RIGHT: list[Pt] = [
    (0.56, 0.3), (0.68, 0.34), (0.8, 0.42), (0.84, 0.5), (0.78, 0.54), (0.64, 0.48),
    (0.66, 0.72), (0.76, 0.92), (0.72, 0.99), (0.58, 0.99), (0.5, 0.82),
]
_ABBOT_RIGHT: list[Pt] = [
    (0.5, 0.0), (0.63, 0.12), (0.69, 0.27), (0.76, 0.37), (0.93, 0.5), (0.9, 0.6),
    (0.72, 0.58), (0.77, 0.8), (0.86, 0.97), (0.5, 0.97),
]


def _body(right: Sequence[Pt]) -> tuple[Pt, ...]:
    return tuple(spline(_mirror_closed(right), 6, closed=True))


def _turned(points: Sequence[Pt]) -> tuple[Pt, ...]:
    """Lay a standing figure on its back, head to the left, resting on the ground."""
    return tuple((0.06 + 0.88 * y, 0.1 + 0.88 * (1 - x)) for x, y in points)


def _parts(kind: str) -> tuple[list[Part], Pt, float]:
    """The parts of a figure, and where its seat number goes (centre, height)."""
    if kind == "follower":
        return [Part(_body(_MEEPLE_RIGHT)), Part(circle=(0.5, 0.19, 0.155))], (0.5, 0.56), 0.24
    if kind == "farmer":
        lying = _turned(_body(_MEEPLE_RIGHT))
        hx, hy = _turned([(0.5, 0.19)])[0]
        return [Part(lying), Part(circle=(hx, hy, 0.155 * 0.88))], (0.52, 0.54), 0.24
    if kind == "large":
        belt = Part(((0.28, 0.58), (0.72, 0.58), (0.72, 0.66), (0.28, 0.66)), shade=0.65)
        return ([Part(_body(_LARGE_RIGHT)), Part(circle=(0.5, 0.18, 0.175)), belt], (0.5, 0.47),
                0.2)
    if kind == "large_farmer":
        lying = _turned(_body(_LARGE_RIGHT))
        hx, hy = _turned([(0.5, 0.18)])[0]
        belt = Part(_turned(((0.28, 0.58), (0.72, 0.58), (0.72, 0.66), (0.28, 0.66))), shade=0.65)
        return [Part(lying), Part(circle=(hx, hy, 0.175 * 0.88)), belt], (0.6, 0.55), 0.22
    if kind == "builder":
        handle = Part(((0.12, 0.52), (0.19, 0.5), (0.3, 0.15), (0.23, 0.13)), colour=WOOD)
        hammer = Part(((0.08, 0.16), (0.36, 0.04), (0.41, 0.15), (0.13, 0.27)), colour=IRON)
        hat = Part(((0.33, 0.11), (0.67, 0.11), (0.74, 0.17), (0.26, 0.17)), shade=0.6)
        return ([Part(_body(_BUILDER_RIGHT)), Part(circle=(0.5, 0.2, 0.12)), hat, handle,
                 hammer], (0.5, 0.63), 0.22)
    if kind == "pig":
        snout = Part(circle=(0.9, 0.52, 0.07), shade=0.7)
        legs = [Part(((x, 0.66), (x + 0.1, 0.66), (x + 0.1, 0.9), (x, 0.9))) for x in
                (0.22, 0.38, 0.58, 0.72)]
        ears = [Part(((0.7, 0.3), (0.8, 0.16), (0.84, 0.34)), shade=0.7)]
        tail = Part(tuple(arc(0.1, 0.4, 0.06, 0.06, 90, 400, 10)), shade=0.7)
        trunk = Part(tuple(arc(0.47, 0.52, 0.38, 0.23, 0, 360, 32)))
        face = Part(circle=(0.78, 0.45, 0.16))
        return [*legs, tail, trunk, face, *ears, snout], (0.44, 0.54), 0.22
    if kind == "abbot":
        face = Part(tuple(arc(0.5, 0.22, 0.075, 0.095, 0, 360, 16)), shade=0.55)
        return [Part(_body(_ABBOT_RIGHT)), face], (0.5, 0.7), 0.24
    if kind == "mayor":
        crown = Part(((0.33, 0.2), (0.33, 0.03), (0.42, 0.11), (0.5, 0.0), (0.58, 0.11),
                      (0.67, 0.03), (0.67, 0.2)), colour=pal.GOLD)
        return [Part(_body(_MAYOR_RIGHT)), Part(circle=(0.5, 0.27, 0.15)), crown], (0.5, 0.64), 0.24
    if kind == "wagon":
        body = Part(((0.04, 0.3), (0.96, 0.3), (0.9, 0.64), (0.1, 0.64)))
        rail = Part(((0.04, 0.3), (0.96, 0.3), (0.96, 0.36), (0.04, 0.36)), shade=0.7)
        wheels = [Part(circle=(x, 0.74, 0.17), colour=WOOD) for x in (0.27, 0.73)]
        hubs = [Part(circle=(x, 0.74, 0.06)) for x in (0.27, 0.73)]
        return [body, rail, *wheels, *hubs], (0.5, 0.5), 0.19
    if kind == "barn":
        house = Part(((0.07, 0.96), (0.07, 0.47), (0.2, 0.23), (0.5, 0.07), (0.8, 0.23),
                      (0.93, 0.47), (0.93, 0.96)))
        door = Part(((0.3, 0.6), (0.7, 0.6), (0.7, 0.96), (0.3, 0.96)), shade=0.6)
        return [house, door], (0.5, 0.38), 0.2
    raise ValueError(f"unknown figure kind {kind!r}")


def _shade(c: pal.RGB, k: float) -> pal.RGB:
    if k >= 1.0:
        return c
    if sum(c) < 150:  # darkening black shows nothing: lighten it instead
        v = min(255, int(c[0] + 90 * (1 - k)))
        return (v, v, v)
    return (int(c[0] * k), int(c[1] * k), int(c[2] * k))


def _draw_parts(cv: Canvas, parts: Sequence[Part], fill: pal.RGB, outline: pal.RGB,
                ow: float = OUTLINE_W) -> None:
    """Outline everything first, then fill: touching parts share one silhouette outline."""
    for part in parts:
        if part.circle:
            x, y, r = part.circle
            cv.circle(x, y, r + ow / 2, outline)
        else:
            cv.polygon(part.points, outline, outline, ow)
    for part in parts:
        colour = part.colour or _shade(fill, part.shade)
        if part.circle:
            x, y, r = part.circle
            cv.circle(x, y, r - ow / 2, colour)
        else:
            cv.polygon(part.points, colour)


def draw_figure(kind: str, player: int, size: int) -> Image.Image:
    """A figure of `kind` for seat `player` (0-based; the number shown is player + 1)."""
    colour = pal.player(player)
    parts, at, height = _parts(kind)
    cv = Canvas(size, CLEAR, "RGBA")
    _draw_parts(cv, parts, colour.fill, colour.outline)
    if kind == "barn":  # the door's cross bars
        for line in (((0.3, 0.6), (0.7, 0.96)), ((0.7, 0.6), (0.3, 0.96))):
            cv.line(list(line), 0.035, colour.ink)
    draw_number(cv, str(player + 1), at, height, colour.ink)
    return cv.finish()


def draw_token(player: int, size: int) -> Image.Image:
    """A tunnel token: owner colour with seat pips on the rim, an empty tunnel mouth."""
    colour = pal.player(player)
    cv = Canvas(size, CLEAR, "RGBA")
    cv.circle(0.5, 0.5, 0.48, colour.outline)
    cv.circle(0.5, 0.5, 0.44, colour.fill)
    cv.circle(0.5, 0.56, 0.29, pal.ROCK, pal.OUTLINE, 0.03)
    mouth = [(0.31, 0.8), *arc(0.5, 0.56, 0.19, 0.2, 180, 360, 16), (0.69, 0.8)]
    cv.polygon(mouth, pal.TUNNEL_DARK)
    seats = player + 1
    for i in range(seats):
        a = 270 + (i - (seats - 1) / 2) * 24
        x, y = arc(0.5, 0.5, 0.355, 0.355, a, a, 1)[0]
        cv.circle(x, y, 0.045, colour.ink)
    return cv.finish()


def draw_marker(kind: str, size: int) -> Image.Image:
    """The King (crown) or the Robber (masked bandit) scoring marker."""
    cv = Canvas(size, CLEAR, "RGBA")
    if kind == "king":
        crown = Part(((0.14, 0.74), (0.1, 0.3), (0.32, 0.5), (0.5, 0.18), (0.68, 0.5),
                      (0.9, 0.3), (0.86, 0.74)))
        band = Part(((0.14, 0.7), (0.86, 0.7), (0.86, 0.84), (0.14, 0.84)), shade=0.75)
        tips = [Part(circle=(x, y, 0.055)) for x, y in ((0.1, 0.28), (0.5, 0.15), (0.9, 0.28))]
        _draw_parts(cv, [crown, band, *tips], pal.GOLD, pal.OUTLINE)
        for x, c in ((0.3, (200, 30, 40)), (0.5, (30, 90, 200)), (0.7, (200, 30, 40))):
            cv.circle(x, 0.77, 0.04, c)
    elif kind == "robber":
        hood = Part(tuple(spline(_mirror_closed([(0.5, 0.04), (0.74, 0.14), (0.8, 0.42),
                                                 (0.94, 0.72), (0.96, 0.97), (0.5, 0.97)]),
                                 6, closed=True)))
        face = Part(tuple(arc(0.5, 0.42, 0.2, 0.24, 0, 360, 24)), colour=(232, 188, 150))
        _draw_parts(cv, [hood, face], (70, 52, 44), pal.OUTLINE)
        cv.polygon([(0.26, 0.3), (0.74, 0.3), (0.76, 0.44), (0.24, 0.44)], pal.OUTLINE)
        for x in (0.4, 0.6):
            cv.ellipse(x, 0.37, 0.05, 0.035, pal.WHITE)
            cv.circle(x, 0.37, 0.018, pal.OUTLINE)
        cv.polygon([(0.3, 0.7), (0.7, 0.7), (0.5, 0.86)], (180, 40, 40), pal.OUTLINE, 0.02)
    else:
        raise ValueError(f"unknown marker {kind!r}")
    return cv.finish()


# The emblem of each piece with art of its own (figure_art.PIECE_KINDS), drawn centred at a
# point with a radius: on the piece's disc, and on the tiles whose cities carry a modifier
# of that name (a goods symbol on a city, as on the printed tiles).
Emblem = Callable[[Canvas, Pt, float], None]


def _wine(cv: Canvas, c: Pt, r: float) -> None:
    """A bunch of grapes under a vine leaf."""
    x, y = c
    cv.line([(x, y - 0.95 * r), (x + 0.1 * r, y - 0.6 * r)], 0.12 * r, WOOD)
    cv.polygon([(x + 0.05 * r, y - 0.7 * r), (x + 0.55 * r, y - 0.95 * r),
                (x + 0.45 * r, y - 0.5 * r)], LEAF, pal.OUTLINE, 0.06 * r)
    for row, count in enumerate((4, 3, 2, 1)):
        for i in range(count):
            gx = x + (i - (count - 1) / 2) * 0.34 * r
            cv.circle(gx, y - 0.4 * r + row * 0.32 * r, 0.19 * r, GRAPE, pal.OUTLINE, 0.05 * r)


def _grain(cv: Canvas, c: Pt, r: float) -> None:
    """A sheaf of wheat: three stalks with their ears, tied in the middle."""
    x, y = c
    for dx in (-0.45, 0.0, 0.45):
        top = (x + dx * r, y - 0.55 * r)
        cv.line([(x + dx * 0.3 * r, y + 0.9 * r), top], 0.1 * r, WHEAT_DARK)
        cv.ellipse(top[0], top[1], 0.17 * r, 0.38 * r, WHEAT, pal.OUTLINE, 0.05 * r)
        for k in (-0.15, 0.1):
            cv.line([(top[0] - 0.12 * r, top[1] + k * r), (top[0] + 0.12 * r, top[1] + k * r)],
                    0.04 * r, WHEAT_DARK, min_px=0.5)
    cv.rect(x - 0.3 * r, y + 0.18 * r, x + 0.3 * r, y + 0.34 * r, CLOTH_DARK)


def _cloth(cv: Canvas, c: Pt, r: float) -> None:
    """A bolt of cloth: a roll seen from its end, its loose length folded below."""
    x, y = c
    cv.polygon([(x - 0.75 * r, y - 0.1 * r), (x + 0.75 * r, y - 0.1 * r),
                (x + 0.85 * r, y + 0.75 * r), (x - 0.65 * r, y + 0.75 * r)], CLOTH, pal.OUTLINE,
               0.06 * r)
    cv.line([(x - 0.7 * r, y + 0.35 * r), (x + 0.8 * r, y + 0.35 * r)], 0.08 * r, CLOTH_DARK)
    cv.rect(x - 0.75 * r, y - 0.7 * r, x + 0.5 * r, y - 0.05 * r, CLOTH, pal.OUTLINE, 0.06 * r)
    cv.ellipse(x + 0.5 * r, y - 0.375 * r, 0.2 * r, 0.33 * r, CLOTH_DARK, pal.OUTLINE, 0.06 * r)
    cv.ellipse(x + 0.5 * r, y - 0.375 * r, 0.06 * r, 0.1 * r, pal.OUTLINE)


EMBLEMS: dict[str, Emblem] = {"wine": _wine, "grain": _grain, "cloth": _cloth}


def draw_piece(kind: str, size: int) -> Image.Image:
    """A piece held in hand that is not a figure (`Piece.art`): a wooden disc, as the
    cardboard tokens of the box, with the piece's emblem; in no player's colour."""
    emblem = EMBLEMS.get(kind)
    if emblem is None:
        raise ValueError(f"no picture for the piece {kind!r}")
    cv = Canvas(size, CLEAR, "RGBA")
    cv.circle(0.5, 0.5, 0.48, pal.OUTLINE)
    cv.circle(0.5, 0.5, 0.44, PIECE_GROUND)
    cv.circle(0.5, 0.5, 0.38, PIECE_FACE)
    emblem(cv, (0.5, 0.5), 0.3)
    return cv.finish()
