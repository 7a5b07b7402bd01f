"""Text on the pictures, in Source Sans Pro from the `font-source-sans-pro` dependency.

Pillow's bundled font has no accented letters, so "Clasificación" or a player called
"Begoña" came out with boxes. Source Sans Pro covers Latin, Greek and Cyrillic, has real
bold faces, and is installed like any other package (SIL Open Font License 1.1, whose
terms travel with it in the package's LICENSE.txt), so no font file lives in this repo and
no system font can be missing.
"""

from __future__ import annotations

import io
import unicodedata
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from PIL import ImageDraw, ImageFont

from carca_bot.engine.limits import one_line
from carca_bot.render.palette import RGB

INK: RGB = (40, 34, 30)
MUTED: RGB = (110, 104, 96)

FONT_PACKAGE = "font_source_sans_pro"
REGULAR = "SourceSansPro-Regular.ttf"
BOLD = "SourceSansPro-Bold.ttf"
# Source Sans Pro is drawn smaller on its em than the sizes here were chosen for (its
# capitals are 0.66 em tall, the old font's 0.70, its lower case 0.49 em against 0.54), so
# each size is scaled up a little; it is also narrower, so lines still take no more room.
SCALE = 1.06


@cache
def _face(name: str) -> str | bytes:
    """Where the font file is: found with importlib.resources (the package's own helpers
    glob its folder at import time); its bytes if it is not a plain file (a zipped install)."""
    file = resources.files(FONT_PACKAGE).joinpath("files", name)
    return str(file) if isinstance(file, Path) else file.read_bytes()


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Source Sans Pro (Bold when `bold`) for text `size` px high.

    Basic layout, as Pillow's bundled font used: the same pixels whether or not this
    Pillow has Raqm, and the pictures' text needs no shaping beyond one glyph per letter.
    """
    face = _face(BOLD if bold else REGULAR)
    return ImageFont.truetype(face if isinstance(face, str) else io.BytesIO(face),
                              max(6, round(size * SCALE)), layout_engine=ImageFont.Layout.BASIC)


def composed(text: str) -> str:
    """`text` with letter and accent as one character where Unicode has one (NFC): basic
    layout draws a separate accent ("e" + U+0301) after its letter, not over it."""
    return unicodedata.normalize("NFC", text)


def width(text: str, size: int, bold: bool = False) -> int:
    left, _, right, _ = font(size, bold).getbbox(composed(text))
    return int(right - left)


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """`text` as one line, cut with an ellipsis so it is at most `max_width` px wide.

    Measuring is linear in the string's length, so the text is first clipped to
    `max_width` characters (no visible glyph is narrower than a pixel) and the cut is then
    found by binary search: a few measurements of a bounded string, whatever the input.
    """
    limit = max(max_width, 1)
    line = composed(one_line(text[: 4 * limit]))
    clipped = len(line) > limit or len(text) > 4 * limit
    line = line[:limit]
    if not clipped and width(line, size, bold) <= max_width:
        return line
    lo, hi = 0, len(line) if clipped else len(line) - 1  # the answer is line[:lo] + "…"
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if width(line[:mid] + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return line[:lo] + "…"


def draw(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
         fill: RGB = INK, anchor: str = "lm", bold: bool = False,
         halo: RGB | None = None) -> None:
    """Draw text, in the Bold face when `bold`; `halo` draws a wide outline under it."""
    face = font(size, bold)
    text = composed(text)
    if halo is not None:
        d.text(xy, text, font=face, fill=halo, anchor=anchor,
               stroke_width=max(2, size // 8), stroke_fill=halo)
    d.text(xy, text, font=face, fill=fill, anchor=anchor)
