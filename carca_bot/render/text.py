"""Text on the board pictures, with Pillow's bundled font only (no system fonts to miss)."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

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
    """`text`, cut with an ellipsis so it is at most `max_width` px wide."""
    if width(text, size) <= max_width:
        return text
    while text and width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"


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
