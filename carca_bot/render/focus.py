"""The game card's picture: the board around the last move, sized for a phone.

The card is read on phones, where Discord shows a picture at the screen's width: the full
board (up to 2400 px, ~450 KB) shrinks there until its labels cannot be read. This picture
shows only the squares around the last move (`CONTEXT` squares each way), widened to take
in every square where the next player's tile fits (marked as in the your-tile picture), at
the largest tile size that fits `width` (never above the art's own size), then grown to
fill the frame with more of the board where that costs no scale. The last tile is framed
in its player's colour; the coordinate labels are drawn at a size that reads at a phone's
width (every 2nd or 3rd column labelled when the squares are narrower than a label). The
full board stays one button away (`render_board`).

The default format is a 256-colour PNG (`formats.palette_png`: fast octree palette, no
dithering, zlib 6). `bench/pictures.py` on a late 6-player board with every expansion
(934 x 964 px, load ~6 on 2 cores): plain PNG 238 KB in 11 ms; 256-colour PNG 84 KB in
19 ms; lossless WebP 214 KB in 12 ms at libwebp's fastest, 165 KB in 240 ms at Pillow's
default, 95 KB at its slowest (4 s). The palette keeps the art as it was (compared zoomed
in), while dithering only speckles it and doubles the bytes. WebP of the same 256 colours
is a third smaller but three times slower, and PNG shows everywhere Discord runs. The
whole call takes ~26 ms a move late in a game (p95 40 ms).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.i18n import speaking
from carca_bot.render.board import paste_tiles, placed
from carca_bot.render.formats import Format, encode
from carca_bot.render.grid import TILE_STEPS, Layout, base_layer, bounds, layout_at
from carca_bot.render.pieces import Scratch, draw_pieces, outline_square, outline_width
from carca_bot.render.yourtile import legal_squares, mark_squares

CONTEXT = 3  # squares shown on each side of the last move: 7 x 7 at the art's own size
WIDTH = 1000  # px: the width issue 15 asks for, about what a phone shows whole
TALL = 1.0  # the picture is at most this many times as tall as it is wide
MIN_LABEL, MAX_LABEL = 26, 34  # coordinate labels, px: ~10 pt once a phone scales 1000 px
DEFAULT_FORMAT: Format = "png256"


def _no_column(_f: int) -> tuple[int, int]:
    """The card says the scores in words: no panel beside this board."""
    return 0, 0


@dataclass(frozen=True, slots=True)
class Crop:
    """A range of squares: first column, first row, columns, rows."""

    x0: int
    y0: int
    cols: int
    rows: int

    def grown(self, side: int, within: Crop) -> Crop:
        """One more square on `side` (0-3: west, east, north, south), if `within` has it."""
        x0, y0, x1, y1 = self.x0, self.y0, self.x0 + self.cols, self.y0 + self.rows
        if side == 0:
            x0 = max(within.x0, x0 - 1)
        elif side == 1:
            x1 = min(within.x0 + within.cols, x1 + 1)
        elif side == 2:
            y0 = max(within.y0, y0 - 1)
        else:
            y1 = min(within.y0 + within.rows, y1 + 1)
        return Crop(x0, y0, x1 - x0, y1 - y0)


def centre(game: Game) -> Pos:
    """The last placed tile's square; before any, the start tile's (the first placed)."""
    if game.last_placed is not None:
        return game.last_placed[0]
    return next(iter(game.board.tiles))


def focus_crop(game: Game, squares: list[Pos] | tuple[Pos, ...]) -> Crop:
    """The squares around the last move, widened to take in `squares`, within the board
    (its tiles and one empty square all round)."""
    board = Crop(*bounds(game))
    cx, cy = centre(game)
    xs = [cx - CONTEXT, cx + CONTEXT, *(x for x, _ in squares)]
    ys = [cy - CONTEXT, cy + CONTEXT, *(y for _, y in squares)]
    x0, y0 = max(board.x0, min(xs)), max(board.y0, min(ys))
    x1 = min(board.x0 + board.cols, max(xs) + 1)
    y1 = min(board.y0 + board.rows, max(ys) + 1)
    return Crop(x0, y0, x1 - x0, y1 - y0)


def _layout(crop: Crop, t: int) -> Layout:
    label = min(MAX_LABEL, max(MIN_LABEL, round(0.3 * t)))
    return layout_at(crop.x0, crop.y0, crop.cols, crop.rows, t, _no_column, label)


def _fits(lay: Layout, width: int) -> bool:
    return lay.width <= width and lay.height <= TALL * width


def plan(game: Game, squares: list[Pos] | tuple[Pos, ...], width: int = WIDTH) -> Layout:
    """The picture's layout: the crop at the largest tile step that fits `width`, then
    grown a square at a time on each side while it still fits at that step. When even
    the smallest step is too wide the layout is at that step and the picture is shrunk
    afterwards."""
    crop = focus_crop(game, squares)
    lay = _layout(crop, TILE_STEPS[-1])
    for t in TILE_STEPS:
        lay = _layout(crop, t)
        if _fits(lay, width):
            break
    if not _fits(lay, width):
        return lay
    board = Crop(*bounds(game))
    growing = True
    while growing:
        growing = False
        for side in range(4):
            bigger = crop.grown(side, board)
            if bigger != crop and _fits(more := _layout(bigger, lay.tile), width):
                crop, lay, growing = bigger, more, True
    return lay


@lru_cache(maxsize=4)
def _base(lay: Layout) -> Image.Image:
    """The empty grid with its labels, kept: late in a game the crop is the whole board and
    stays the same for many moves, and its hundreds of small labels are most of the
    drawing. Callers copy it."""
    return base_layer(lay)


def focus_layout(game: Game, tile: str | None, width: int = WIDTH) -> Layout:
    """The layout `render_focus` draws for this state (its squares: `Layout.holds`)."""
    squares = legal_squares(game, tile) if tile is not None else {}
    return plan(game, tuple(squares), width)


def focus_image(game: Game, tile: str | None, width: int = WIDTH) -> Image.Image:
    """The picture as an RGB image at most `width` px wide and `TALL * width` high.

    Call inside `speaking(language)`: the marked squares carry words.
    """
    squares = legal_squares(game, tile) if tile is not None else {}
    lay = plan(game, tuple(squares), width)
    sheet = Scratch(_base(lay).copy())  # a fresh image: nothing to give back
    paste_tiles(sheet.image, lay, placed(game), game.setup.has("tunnel"))
    mark_squares(sheet, lay, squares)
    draw_pieces(sheet, lay, game)
    if game.last_placed is not None:  # framed twice as boldly as on the full board
        outline_square(sheet, lay, *game.last_placed, width=2 * outline_width(lay))
    img = sheet.image
    if not _fits(lay, width):  # a board wider than `width` even at the smallest step
        scale = min(width / img.width, TALL * width / img.height)
        size = (max(1, int(img.width * scale)), max(1, int(img.height * scale)))
        img = img.resize(size, Image.Resampling.LANCZOS)
    return img


def render_focus(game: Game, tile: str | None, *, language: str = "en", width: int = WIDTH,
                 fmt: Format = DEFAULT_FORMAT) -> bytes:
    """The card's picture in `fmt`: the board around the last move, with the squares where
    `tile` (the next player's drawn tile, already public; None marks nothing) fits.

    `language` is for the words under the marked squares; an argument, not the caller's
    context, as the bot renders in a thread pool.
    """
    with speaking(language):
        img = focus_image(game, tile, width)
    return encode(img, fmt)
