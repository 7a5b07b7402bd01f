"""Digits drawn as strokes, so figures carry seat numbers without depending on any font."""

from __future__ import annotations

from carca_bot.render.art.canvas import Canvas, arc
from carca_bot.render.palette import RGB
from carca_bot.render.units import Pt

# Each digit as polylines in a box 0..1 wide and 0..1 tall (y down); drawn narrower.
_DIGITS: dict[str, list[list[Pt]]] = {
    "0": [arc(0.5, 0.5, 0.42, 0.5, 0, 360, 32)],
    "1": [[(0.18, 0.26), (0.58, 0.0), (0.58, 1.0)]],
    "2": [[*arc(0.5, 0.3, 0.4, 0.3, 190, 380, 14), (0.08, 1.0), (0.95, 1.0)]],
    "3": [arc(0.48, 0.26, 0.36, 0.26, 200, 450, 16), arc(0.48, 0.74, 0.42, 0.26, 270, 520, 16)],
    "4": [[(0.72, 1.0), (0.72, 0.0), (0.05, 0.7), (0.98, 0.7)]],
    "5": [[(0.88, 0.0), (0.2, 0.0), (0.14, 0.45), *arc(0.5, 0.68, 0.42, 0.32, 220, 505, 18)]],
    "6": [[*arc(0.5, 0.7, 0.4, 0.3, 180, 540, 24)],
          [(0.78, 0.06), (0.5, 0.0), (0.2, 0.2), (0.1, 0.6), (0.1, 0.7)]],
    "7": [[(0.05, 0.0), (0.95, 0.0), (0.38, 1.0)]],
    "8": [arc(0.5, 0.25, 0.33, 0.25, 0, 360, 24), arc(0.5, 0.73, 0.4, 0.27, 0, 360, 24)],
    "9": [[*arc(0.5, 0.3, 0.4, 0.3, 0, 360, 24)],
          [(0.9, 0.3), (0.88, 0.6), (0.72, 0.9), (0.45, 1.0), (0.2, 0.94)]],
}


def draw_number(cv: Canvas, text: str, centre: Pt, height: float, colour: RGB,
                halo: RGB | None = None) -> None:
    """Draw `text` (digits only) centred at `centre`, `height` units tall."""
    width = height * 0.62
    gap = height * 0.22
    total = len(text) * width + (len(text) - 1) * gap
    stroke = height * 0.2
    x0 = centre[0] - total / 2
    y0 = centre[1] - height / 2
    strokes: list[list[Pt]] = []
    for i, ch in enumerate(text):
        left = x0 + i * (width + gap)
        for line in _DIGITS[ch]:
            strokes.append([(left + x * width, y0 + y * height) for x, y in line])
    if halo is not None:
        for line in strokes:
            cv.line(line, stroke * 1.9, halo, min_px=2.0)
    for line in strokes:
        cv.line(line, stroke, colour, min_px=1.0)
