"""Sprite sheets: many pictures in one PNG, for pages that draw the board themselves
(the HTML replay). One file per sheet means one data URI and no network."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from carca_bot.render.figure_art import figure_image, token_image
from carca_bot.render.png import encode_rgb
from carca_bot.render.tile_art import tile_image


@dataclass(frozen=True, slots=True)
class Sheet:
    """`png` holds the pictures in rows of `columns`, each `size` px square; picture
    `index[key]` is at column i % columns, row i // columns."""

    png: bytes
    size: int
    columns: int
    index: dict[str, int]


def _sheet(pictures: Sequence[tuple[str, Image.Image]], size: int, alpha: bool) -> Sheet:
    columns = max(1, min(16, len(pictures)))
    rows = max(1, math.ceil(len(pictures) / columns))
    mode = "RGBA" if alpha else "RGB"
    sheet = Image.new(mode, (columns * size, rows * size), (0, 0, 0, 0) if alpha else (0, 0, 0))
    index: dict[str, int] = {}
    for i, (key, pic) in enumerate(pictures):
        r, c = divmod(i, columns)
        sheet.paste(pic, (c * size, r * size))
        index[key] = i
    if alpha:  # our PNG writer does RGB only
        buf = io.BytesIO()
        sheet.save(buf, format="PNG", optimize=True)
        data = buf.getvalue()
    else:
        data = encode_rgb(sheet, 9)
    return Sheet(data, size, columns, index)


def tile_sheet(tiles: Sequence[str], size: int = 64, tunnel: bool = False) -> Sheet:
    """The tiles (ids, or "ABBEY") unturned: pages turn them when drawing."""
    unique = list(dict.fromkeys(tiles))
    return _sheet([(t, tile_image(t, 0, size, tunnel)) for t in unique], size, alpha=False)


def figure_sheet(kinds: Sequence[str], players: int, pairs: int, size: int = 48) -> Sheet:
    """Figures "kind-seat" for every kind and seat, and tokens "token-seat-pair"."""
    pictures = [(f"{kind}-{p}", figure_image(kind, p, size))
                for kind in kinds for p in range(players)]
    pictures += [(f"token-{p}-{pair}", token_image(p, pair + 1, size))
                 for p in range(players) for pair in range(pairs)]
    return _sheet(pictures, size, alpha=True)
