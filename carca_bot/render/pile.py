"""The tiles still in the pile, as a picture: each kind's art with how many are left.

Counts by kind are public (anyone could count the tiles on the table); the order is
not, and this picture gets only counts (`carca_bot.service.history.pile`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.chart import PAPER
from carca_bot.render.grid import GRID
from carca_bot.render.png import encode_rgb
from carca_bot.render.tile_art import tile_image

_T = Domain("render")
_ = _T.gettext

TILE = 88
COLUMNS = 10


def draw_pile(counts: Sequence[tuple[str, int]], tunnel: bool = False,
              tile: int = TILE, columns: int = COLUMNS) -> Image.Image:
    """The picture as an RGB image. Call inside `speaking(language)`."""
    total = sum(n for _tile, n in counts)
    f = max(14, round(tile / 4))
    pad = round(0.8 * f)
    gap = round(0.35 * f)
    cell_w, cell_h = tile + 2 * gap + f // 2, tile + 2 * gap + f // 2
    cols = max(1, min(columns, len(counts)))
    rows = math.ceil(len(counts) / cols) if counts else 0
    head = round(3.4 * f)
    width = max(2 * pad + cols * cell_w, round(16 * f))
    height = head + rows * cell_h + pad + (round(1.6 * f) if not counts else 0)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    title = _T.ngettext("{n} tile left in the pile", "{n} tiles left in the pile",
                        total).format(n=total)
    text.draw(d, (pad, round(1.3 * f)), title, round(1.3 * f), bold=True)
    kinds = len(counts)
    text.draw(d, (pad, round(2.6 * f)),
              _T.ngettext("{n} kind of tile, in no particular order",
                          "{n} kinds of tile, in no particular order", kinds).format(n=kinds),
              round(0.8 * f), fill=text.MUTED)
    if not counts:
        text.draw(d, (pad, head + round(0.6 * f)), _("The pile is empty."), f)
    for i, (tile_id, n) in enumerate(counts):
        r, c = divmod(i, cols)
        x = pad + c * cell_w + gap
        y = head + r * cell_h
        d.rectangle((x - 1, y - 1, x + tile, y + tile), outline=GRID)
        img.paste(tile_image(tile_id, 0, tile, tunnel), (x, y))
        _badge(d, str(n), (x + tile, y + tile), f)
    return img


def _badge(d: ImageDraw.ImageDraw, label: str, corner: tuple[int, int], f: int) -> None:
    """The count in a dark disc over the tile's lower right corner."""
    r = round(0.62 * f) + max(0, len(label) - 1) * f // 4
    cx, cy = corner[0] - f // 6, corner[1] - f // 6
    d.rounded_rectangle((cx - r, cy - round(0.62 * f), cx + r, cy + round(0.62 * f)),
                        radius=round(0.62 * f), fill=text.INK, outline=PAPER, width=2)
    text.draw(d, (cx, cy), label, round(0.85 * f), fill=PAPER, anchor="mm", bold=True)


def render_pile(counts: Sequence[tuple[str, int]], tunnel: bool = False,
                language: str = "en") -> bytes:
    """PNG bytes of `draw_pile`; `tunnel`: draw the art of a game with The Tunnel."""
    with speaking(language):
        return encode_rgb(draw_pile(counts, tunnel), 6)
