"""Figures, tunnel tokens and the newest tile's outline, drawn over the cached tile layer.

The renderer draws these straight onto its kept layer (no copy of a multi-megabyte image per
move) through a `Scratch`, which remembers what was under every change and puts it back once
the picture is encoded.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.render import palette as pal
from carca_bot.render.anchors import segment_point, tunnel_point
from carca_bot.render.figure_art import FLAT_KINDS, figure_image, lying, token_image
from carca_bot.render.grid import Layout
from carca_bot.render.units import Pt

CORNERS: dict[str, Pt] = {"NW": (0.0, 0.0), "NE": (1.0, 0.0), "SE": (1.0, 1.0),
                          "SW": (0.0, 1.0)}
Box = tuple[int, int, int, int]


class Scratch:
    """Draw on an image that must be given back unchanged: `keep` a box before drawing in it,
    `restore` when done."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self._saved: list[tuple[Box, Image.Image | None, pal.RGB]] = []

    def _clip(self, box: Box) -> Box:
        w, h = self.image.size
        return max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])

    def keep(self, box: Box) -> None:
        box = self._clip(box)
        if box[0] < box[2] and box[1] < box[3]:
            self._saved.append((box, self.image.crop(box), (0, 0, 0)))

    def keep_plain(self, box: Box, colour: pal.RGB) -> None:
        """A box that is one colour underneath: restored by filling, nothing copied."""
        self._saved.append((self._clip(box), None, colour))

    def paste(self, pic: Image.Image, xy: tuple[int, int]) -> None:
        self.keep((xy[0], xy[1], xy[0] + pic.width, xy[1] + pic.height))
        self.image.paste(pic, xy, pic if pic.mode == "RGBA" else None)

    def restore(self) -> None:
        for box, saved, colour in reversed(self._saved):
            if saved is None:
                self.image.paste(colour, box)
            else:
                self.image.paste(saved, box[:2])
        self._saved.clear()


Paint = Callable[[Scratch, Layout], None]  # draws one picture's changes over the layer


def figure_spots(game: Game) -> list[tuple[str, int, Pos, Pt]]:
    """Each figure as (art kind, player, square, point in that square in tile units)."""
    tunnel = game.setup.has("tunnel")
    spots: list[tuple[str, int, Pos, Pt]] = []
    for fig in game.figures:
        if fig.type.corner:  # a barn stands on the corner where four tiles meet
            spots.append((fig.kind, fig.player, fig.pos,
                          CORNERS.get(fig.on.upper(), (0.5, 0.5))))
            continue
        pos, index = game.board.location[fig.node]
        placed = game.board.tiles[pos]
        kind = fig.kind
        if fig.type.farms and game.board.feature(fig.node).kind is Kind.FIELD:
            kind = lying(kind)
        spots.append((kind, fig.player, pos,
                      segment_point(placed.tile, placed.rot, index, tunnel)))
    return spots


def token_spots(game: Game) -> list[tuple[int, int, Pos, Pt]]:
    """Each tunnel token as (player, pair, square, point at the tunnel mouth)."""
    out: list[tuple[int, int, Pos, Pt]] = []
    for pos, side, player, pair in game.tokens_on_board():
        placed = game.board.tiles[pos]
        if placed.shape is not None and side in placed.shape.names:
            index = placed.shape.names[side]
            out.append((player, pair, pos, tunnel_point(placed.tile, placed.rot, index)))
    return out


def draw_pieces(sheet: Scratch, lay: Layout, game: Game) -> None:
    """Tokens, then figures (lying ones first, then top to bottom so lower ones overlap),
    then the outline of the newest tile in its player's colour; only those on squares the
    layout shows."""
    ts = lay.token_size()
    for player, pair, pos, unit in token_spots(game):
        if lay.holds(pos):
            x, y = lay.at(pos, unit)
            sheet.paste(token_image(player, pair + 1, ts), (x - ts // 2, y - ts // 2))
    fs = lay.figure_size()
    spots = [(lay.at(pos, unit), kind, player) for kind, player, pos, unit in figure_spots(game)
             if lay.holds(pos)]
    order = sorted(range(len(spots)), key=lambda i: (
        spots[i][1] not in FLAT_KINDS, spots[i][0][1], spots[i][0][0], i))
    taken: list[tuple[int, int]] = []
    for i in order:
        (x, y), kind, player = spots[i]
        while any(math.dist((x, y), q) < 0.45 * fs for q in taken):  # never hide a figure
            x, y = x + fs // 3, y + fs // 5
        taken.append((x, y))
        sheet.paste(figure_image(kind, player, fs), (x - fs // 2, y - fs // 2))
    if game.last_placed is not None and lay.holds(game.last_placed[0]):
        outline_square(sheet, lay, *game.last_placed)


def outline_width(lay: Layout) -> int:
    return max(3, lay.tile // 16)


def outline_square(sheet: Scratch, lay: Layout, pos: Pos, player: int,
                   width: int | None = None) -> None:
    """A frame in the player's colour, `width` px (by default `outline_width`), edged in a
    contrasting colour so white and yellow frames still show on pale squares."""
    colour = pal.player(player)
    w = outline_width(lay) if width is None else width
    left, top, right, bottom = lay.box(pos)
    for box in ((left - 1, top - 1, right + 1, top + w + 2), (left - 1, bottom - w - 2,
                right + 1, bottom + 1), (left - 1, top - 1, left + w + 2, bottom + 1),
                (right - w - 2, top - 1, right + 1, bottom + 1)):
        sheet.keep(box)
    d = ImageDraw.Draw(sheet.image)
    d.rectangle((left - 1, top - 1, right, bottom), outline=colour.outline, width=w + 2)
    d.rectangle((left + 1, top + 1, right - 2, bottom - 2), outline=colour.fill, width=w)
