"""The board's grid of squares: where each square lands in the picture, and its labels.

The picture shows the placed tiles plus one empty square all round (where the next tile may
go), column x numbers along the top and row y numbers down the left, exactly as players type
them. Tiles shrink in steps as the board grows, so the long side stays within `MAX_SIDE`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.render import palette as pal
from carca_bot.render import text
from carca_bot.render.tile_art import tile_image
from carca_bot.render.units import Pt

MAX_SIDE = 2400
# Tile sizes we render at: a few steps, so the art cache still holds them after a shrink.
TILE_STEPS = (128, 112, 100, 90, 80, 72, 64, 58, 52, 46, 40, 36, 32, 28, 24)
MIN_FIGURE = 22
BACKGROUND: pal.RGB = (250, 247, 240)
EMPTY: pal.RGB = (228, 223, 210)
GRID: pal.RGB = (202, 195, 180)
SQUARE_TEXT: pal.RGB = (150, 143, 130)

Column = Callable[[int], tuple[int, int]]  # panel font size -> (width, height) of the column


@dataclass(frozen=True)
class Layout:
    """Where everything goes: the squares of the board and the column on the right."""

    x0: int  # board x of the leftmost column
    y0: int  # board y of the top row
    cols: int
    rows: int
    tile: int  # px per square
    left: int  # width of the row-label band
    top: int  # height of the column-label band
    label: int  # label font size
    f: int  # panel font size
    width: int
    height: int

    def box(self, pos: Pos) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom) of a square."""
        left = self.left + (pos[0] - self.x0) * self.tile
        top = self.top + (pos[1] - self.y0) * self.tile
        return left, top, left + self.tile, top + self.tile

    def at(self, pos: Pos, unit: Pt) -> tuple[int, int]:
        left, top, _, _ = self.box(pos)
        return round(left + unit[0] * self.tile), round(top + unit[1] * self.tile)

    @property
    def grid(self) -> tuple[int, ...]:
        """What the squares and labels depend on (not the column on the right)."""
        return (self.x0, self.y0, self.cols, self.rows, self.tile, self.left, self.top,
                self.label)

    @property
    def board_size(self) -> tuple[int, int]:
        return self.left + self.cols * self.tile, self.top + self.rows * self.tile

    def squares(self) -> list[Pos]:
        return [(self.x0 + c, self.y0 + r) for r in range(self.rows) for c in range(self.cols)]

    def holds(self, pos: Pos) -> bool:
        """Whether square `pos` is in the picture (a focus picture shows part of the board)."""
        return (self.x0 <= pos[0] < self.x0 + self.cols
                and self.y0 <= pos[1] < self.y0 + self.rows)

    def contains(self, other: Layout) -> bool:
        return (self.x0 <= other.x0 and self.y0 <= other.y0
                and self.x0 + self.cols >= other.x0 + other.cols
                and self.y0 + self.rows >= other.y0 + other.rows)

    def figure_size(self) -> int:
        return min(max(MIN_FIGURE, round(0.44 * self.tile)), round(0.7 * self.tile))

    def token_size(self) -> int:
        return min(max(18, round(0.3 * self.tile)), round(0.5 * self.tile))


def placed(game: Game) -> dict[Pos, tuple[str, int]]:
    """Each placed tile as (tile id, quarter turns), by square."""
    return {pos: (p.tile, p.rot) for pos, p in game.board.tiles.items()}


def paste_tiles(img: Image.Image, lay: Layout, tiles: dict[Pos, tuple[str, int]],
                tunnel: bool) -> None:
    """Paste the tiles on squares the layout shows (a tile beside the crop would cover the
    labels), in square order."""
    t = lay.tile
    for pos in sorted(tiles):
        if lay.holds(pos):
            tile, rot = tiles[pos]
            left, top, _, _ = lay.box(pos)
            img.paste(tile_image(tile, rot, t, tunnel), (left, top))


def bounds(game: Game) -> tuple[int, int, int, int]:
    """First column, first row, columns, rows: the tiles plus one empty square all round."""
    xs = [x for x, _ in game.board.tiles]
    ys = [y for _, y in game.board.tiles]
    return min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 3, max(ys) - min(ys) + 3


def make_layout(game: Game, column: Column, cap: int = TILE_STEPS[0]) -> Layout:
    """The largest tile step (at most `cap`) that keeps the picture within MAX_SIDE."""
    x0, y0, cols, rows = bounds(game)
    steps = [t for t in TILE_STEPS if t <= cap] or [TILE_STEPS[-1]]
    lay = layout_at(x0, y0, cols, rows, steps[-1], column)
    for t in steps:
        lay = layout_at(x0, y0, cols, rows, t, column)
        if max(lay.width, lay.height) <= MAX_SIDE:
            break
    return lay


def layout_at(x0: int, y0: int, cols: int, rows: int, t: int, column: Column,
            label: int | None = None) -> Layout:
    """The layout of squares x0.., y0.. at `t` px each; labels `label` px high (by default
    from the tile size)."""
    if label is None:
        label = min(28, max(12, round(0.3 * t)))
    widest = max(text.width(str(y), label) for y in (y0, y0 + rows - 1))
    left = widest + round(0.9 * label)
    top = round(1.7 * label)
    # The panel grows with the board so that, shrunk to a phone's width, the scores and
    # the turn highlight still read; small boards get a relatively larger panel.
    f = min(40, max(20, round(0.022 * max(left + cols * t, top + rows * t) + 12)))
    col_w, col_h = column(f)
    width = left + cols * t + col_w
    height = max(top + rows * t, col_h)
    return Layout(x0, y0, cols, rows, t, left, top, label, f, width, height)


def label_strides(lay: Layout) -> tuple[int, int]:
    """Label every column and row, or every 2nd, 3rd... when labels larger than a square
    would overlap (the focus picture keeps its labels big enough to read on a phone); the
    labelled numbers are multiples of the stride, so 0 is always labelled."""
    ends = (lay.x0, lay.x0 + lay.cols - 1)
    widest = max(text.width(str(x), lay.label, bold=True) for x in ends)
    across = math.ceil((widest + lay.label // 3) / lay.tile)
    down = math.ceil(lay.label * 1.05 / lay.tile)
    return max(1, across), max(1, down)


def base_layer(lay: Layout, coordinates: bool = True) -> Image.Image:
    """The whole picture before any tile: label bands, empty squares (with their
    coordinates, faintly, if `coordinates`) and a light grid; the column on the right is
    left blank."""
    img = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    w, h = lay.board_size
    d = ImageDraw.Draw(img)
    t = lay.tile
    d.rectangle((lay.left, lay.top, w - 1, h - 1), fill=EMPTY)
    line = max(1, t // 48)
    # Each square carries its own grid lines along its west and north edges, so a square's
    # pixels never depend on the crop (the kept layer is moved into a larger crop as is).
    for c in range(lay.cols):
        x = lay.left + c * t
        d.rectangle((x, lay.top, x + line - 1, h - 1), fill=GRID)
    for r in range(lay.rows):
        y = lay.top + r * t
        d.rectangle((lay.left, y, w - 1, y + line - 1), fill=GRID)
    across, down = label_strides(lay)
    for c in range(lay.cols):
        if (lay.x0 + c) % across == 0:
            x = lay.left + c * t + t // 2
            text.draw(d, (x, lay.top // 2), str(lay.x0 + c), lay.label, anchor="mm", bold=True)
    for r in range(lay.rows):
        if (lay.y0 + r) % down == 0:
            y = lay.top + r * t + t // 2
            text.draw(d, (lay.left - lay.label // 3, y), str(lay.y0 + r), lay.label,
                      anchor="rm", bold=True)
    small = round(0.6 * lay.label)
    text.draw(d, (lay.left - small // 3, lay.top - small // 4), "y\\x", small,
              fill=text.MUTED, anchor="rs")
    size = min(22, round(0.2 * t))
    if coordinates and size >= 9:
        for pos in lay.squares():
            left, top, _, _ = lay.box(pos)
            text.draw(d, (left + t // 2, top + t // 2), f"{pos[0]},{pos[1]}", size,
                      fill=SQUARE_TEXT, anchor="mm")
    return img
