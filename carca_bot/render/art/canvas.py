"""Drawing in tile units (0..1, y down) on a supersampled image.

All art is described in unit coordinates so one description serves every output size; the
canvas is drawn `SUPERSAMPLE` times larger and box-filtered down, which anti-aliases the
result without any randomness (so the bytes are the same on every run).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageDraw

from carca_bot.render.palette import RGB
from carca_bot.render.units import Pt

Colour = RGB | tuple[int, int, int, int]

SUPERSAMPLE = 4

def lerp(a: Pt, b: Pt, t: float) -> Pt:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def cubic(p0: Pt, p1: Pt, p2: Pt, p3: Pt, n: int = 32) -> list[Pt]:
    out: list[Pt] = []
    for i in range(n + 1):
        t = i / n
        a, b = (1 - t) ** 3, 3 * t * (1 - t) ** 2
        c, d = 3 * t * t * (1 - t), t**3
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def spline(points: Sequence[Pt], n: int = 12, closed: bool = False) -> list[Pt]:
    """Catmull-Rom curve through `points`: smooth paths from a handful of hand-placed points."""
    pts = list(points)
    ext = [pts[-1], *pts, pts[0], pts[1]] if closed else [pts[0], *pts, pts[-1]]
    out: list[Pt] = []
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        for j in range(n):
            t = j / n
            t2, t3 = t * t, t * t * t
            out.append(tuple(  # type: ignore[arg-type]
                0.5 * (2 * p1[k] + (-p0[k] + p2[k]) * t + (2 * p0[k] - 5 * p1[k] + 4 * p2[k]
                       - p3[k]) * t2 + (-p0[k] + 3 * p1[k] - 3 * p2[k] + p3[k]) * t3)
                for k in range(2)))
    if not closed:
        out.append(pts[-1])
    return out


def arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float,
        n: int = 24) -> list[Pt]:
    """Points on an ellipse from angle a0 to a1 in degrees (0 = east, 90 = south)."""
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


def inside(p: Pt, poly: Sequence[Pt]) -> bool:
    x, y = p
    hit = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def tangent(path: Sequence[Pt], i: int) -> Pt:
    a = path[max(i - 1, 0)]
    b = path[min(i + 1, len(path) - 1)]
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    return (dx / length, dy / length)


def resample(path: Sequence[Pt], step: float) -> list[Pt]:
    """Evenly spaced points along a polyline, for decorations that follow a path."""
    out: list[Pt] = [path[0]]
    carry = 0.0
    for a, b in itertools.pairwise(path):
        seg = math.dist(a, b)
        t = step - carry
        while t <= seg:
            out.append(lerp(a, b, t / seg))
            t += step
        carry = seg - (t - step)
    return out


class Canvas:
    """An image addressed in units; widths are in units with a floor in final pixels."""

    def __init__(self, size: int, background: Colour, mode: str = "RGB") -> None:
        self.size = size
        self.ss = SUPERSAMPLE if size <= 256 else 2
        self.px = size * self.ss
        self.image = Image.new(mode, (self.px, self.px), background)
        self.draw = ImageDraw.Draw(self.image)

    def xy(self, points: Iterable[Pt]) -> list[tuple[float, float]]:
        s = self.px
        return [(x * s, y * s) for x, y in points]

    def width(self, units: float, min_px: float = 1.0) -> int:
        """Line width in canvas pixels, never thinner than `min_px` output pixels."""
        return max(1, round(max(units * self.size, min_px) * self.ss))

    def polygon(self, points: Sequence[Pt], fill: Colour, outline: Colour | None = None,
                width: float = 0.0, min_px: float = 1.0) -> None:
        self.draw.polygon(self.xy(points), fill=fill)
        if outline is not None and width > 0:
            self.line([*points, points[0], points[1]], width, outline, min_px)

    def line(self, points: Sequence[Pt], width: float, fill: Colour, min_px: float = 1.0,
             round_ends: bool = True) -> None:
        """A thick polyline built from quads and round joints.

        ImageDraw's own wide lines leave slivers between short segments of a curve.
        """
        w = self.width(width, min_px)
        r = w / 2
        pts = self.xy(points)
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            length = math.hypot(x1 - x0, y1 - y0)
            if length == 0:
                continue
            nx, ny = -(y1 - y0) / length * r, (x1 - x0) / length * r
            self.draw.polygon([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny),
                               (x0 - nx, y0 - ny)], fill=fill)
        joints = pts if round_ends else pts[1:-1]
        if w > 2:
            for x, y in joints:
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: Colour | None,
                outline: Colour | None = None, width: float = 0.0) -> None:
        s = self.px
        box = (round((cx - rx) * s), round((cy - ry) * s), round((cx + rx) * s),
               round((cy + ry) * s))
        w = self.width(width) if outline is not None and width > 0 else 0
        self.draw.ellipse(box, fill=fill, outline=outline if w else None, width=w)

    def circle(self, cx: float, cy: float, r: float, fill: Colour | None,
               outline: Colour | None = None, width: float = 0.0) -> None:
        self.ellipse(cx, cy, r, r, fill, outline, width)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Colour,
             outline: Colour | None = None, width: float = 0.0, min_px: float = 1.0) -> None:
        self.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], fill, outline, width, min_px)

    def finish(self) -> Image.Image:
        if self.image.mode == "RGBA":  # average colours weighted by coverage, not raw RGBA
            small = self.image.convert("RGBa").resize((self.size, self.size),
                                                      Image.Resampling.BOX)
            return small.convert("RGBA")
        return self.image.resize((self.size, self.size), Image.Resampling.BOX)
