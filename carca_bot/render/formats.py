"""Picture encodings for posts that must stay small: plain PNG, 256-colour PNG, lossless WebP.

The board art is flat colours with anti-aliased edges, figures and text, so a 256-colour
palette keeps it looking the same (compared zoomed in on late boards with every expansion)
at about a third of the bytes. Every encoding here is deterministic: the same image gives
the same bytes, with no metadata. `bench/pictures.py` measures them.
"""

from __future__ import annotations

import io
from typing import Literal, get_args

from PIL import Image

from carca_bot.render.png import encode_rgb

Format = Literal["png", "png256", "webp"]
FORMATS: tuple[Format, ...] = get_args(Format)
MIME: dict[Format, str] = {"png": "image/png", "png256": "image/png", "webp": "image/webp"}
SUFFIX: dict[Format, str] = {"png": ".png", "png256": ".png", "webp": ".webp"}


class ImageTooLarge(ValueError):
    """Even the smallest picture does not fit the byte limit."""


PNG_LEVEL = 1  # the full-colour writer's zlib level (render/png.py)
PALETTE_LEVEL = 6  # zlib level for 256 colours: level 9 saves ~6% for 3-5 times the time
WEBP_METHOD = 0  # libwebp's effort, 0-6: 0 is fastest; 6 halves the bytes in 300x the time
WEBP_EFFORT = 0  # lossless "quality" (0-100): more effort in the entropy search


def palette_png(img: Image.Image, dither: bool = False, level: int = PALETTE_LEVEL) -> bytes:
    """256 colours chosen for this picture (fast octree), without dithering by default:
    the art's flat areas stay flat, which compresses well and reads cleanly."""
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    quantised = rgb.quantize(256, method=Image.Quantize.FASTOCTREE)
    if dither:
        quantised = rgb.quantize(palette=quantised, dither=Image.Dither.FLOYDSTEINBERG)
    buf = io.BytesIO()
    quantised.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


def lossless_webp(img: Image.Image, method: int = WEBP_METHOD, effort: int = WEBP_EFFORT) -> bytes:
    """Lossless WebP (every pixel kept), at libwebp's `method` and `effort`."""
    buf = io.BytesIO()
    img.save(buf, format="WEBP", lossless=True, method=method, quality=effort, exact=True)
    return buf.getvalue()


def encode(img: Image.Image, fmt: Format) -> bytes:
    """The picture's bytes in `fmt`."""
    if fmt == "png":
        return encode_rgb(img, PNG_LEVEL)
    if fmt == "png256":
        return palette_png(img)
    if fmt == "webp":
        return lossless_webp(img)
    raise ValueError(f"unknown picture format {fmt!r}; expected one of {FORMATS}")
