"""Text on the board pictures, with Pillow's bundled font only (no system fonts to miss)."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

from carca_bot.engine.limits import one_line
from carca_bot.render.palette import RGB

INK: RGB = (40, 34, 30)
MUTED: RGB = (110, 104, 96)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled Aileron at `size` px (Pillow >= 10.1 ships it)."""
    return ImageFont.load_default(size=max(6, size))


def width(text: str, size: int) -> int:
    left, _, right, _ = font(size).getbbox(text)
    return int(right - left)


def fit(text: str, size: int, max_width: int) -> str:
    """`text` as one line, cut with an ellipsis so it is at most `max_width` px wide.

    Measuring is linear in the string's length, so the text is first clipped to
    `max_width` characters (no visible glyph is narrower than a pixel) and the cut is then
    found by binary search: a few measurements of a bounded string, whatever the input.
    """
    limit = max(max_width, 1)
    line = one_line(text[: 4 * limit])
    clipped = len(line) > limit or len(text) > 4 * limit
    line = line[:limit]
    if not clipped and width(line, size) <= max_width:
        return line
    lo, hi = 0, len(line) if clipped else len(line) - 1  # the answer is line[:lo] + "…"
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(line[:mid] + "…", size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return line[:lo] + "…"


def draw(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
         fill: RGB = INK, anchor: str = "lm", bold: bool = False,
         halo: RGB | None = None) -> None:
    """Draw text; `bold` thickens the strokes (the bundled font has no bold face)."""
    stroke = max(1, size // 16) if bold else 0
    if halo is not None:
        d.text(xy, text, font=font(size), fill=halo, anchor=anchor,
               stroke_width=stroke + max(2, size // 8), stroke_fill=halo)
    d.text(xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke,
           stroke_fill=fill)
