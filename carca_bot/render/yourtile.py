"""The active player's picture: the drawn tile in its four rotations, and where it may go.

Every legal square is filled and framed in one bright colour found nowhere in the art, with
its coordinates in the form the place command takes (`x,y`) and the rotations (degrees
clockwise) that fit there; the rotations are shown above the player panel, labelled the
same way, and rotations that fit nowhere are greyed out.
"""

from __future__ import annotations

from dataclasses import replace

from PIL import Image, ImageDraw

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import ROTATIONS, Pos
from carca_bot.i18n import Domain, speaking
from carca_bot.render import panel, text
from carca_bot.render.grid import BACKGROUND, Column, Layout
from carca_bot.render.palette import RGB
from carca_bot.render.pieces import Paint, Scratch, draw_pieces
from carca_bot.render.tile_art import ABBEY, TILE_SIZE, tile_image

MARK: RGB = (0, 190, 255)  # frame of a legal square
MARK_FILL: RGB = (196, 240, 255)
MARK_EDGE: RGB = (0, 70, 120)

_T = Domain("render")
_ = _T.gettext
ngettext = _T.ngettext


def legal_squares(game: Game, tile: str) -> dict[Pos, tuple[int, ...]]:
    """Each square `tile` may go on, with the quarter turns that fit there."""
    if tile == ABBEY:
        return {pos: (0,) for pos in sorted(game.abbey_squares())}
    out: dict[Pos, list[int]] = {}
    for p in game.legal_placements(tile):
        out.setdefault(p.pos, []).append(p.rot)
    return {pos: tuple(sorted(set(out[pos]))) for pos in sorted(out)}


def _block_height(f: int) -> int:
    return round(f * 9.4)


def _preview(f: int) -> int:
    """Four rotations side by side, each at most the art's own size (never scaled up)."""
    return min(TILE_SIZE, (panel.panel_width(f) - round(1.2 * f) - 3 * (f // 2)) // 4)


def your_tile_paint(game: Game, tile: str, language: str = "en") -> tuple[Column, Paint]:
    """How to size and draw the picture: marks and pieces over the board, then the column
    with the rotations above the player panel; its words in `language`."""
    state = panel.panel_state(game, 14)
    squares = legal_squares(game, tile)
    tunnel = game.setup.has("tunnel")

    def column(f: int) -> tuple[int, int]:
        return panel.panel_width(f), _block_height(f) + panel.panel_height(replace(state, f=f))

    def paint(sheet: Scratch, lay: Layout) -> None:
        with speaking(language):
            mark_squares(sheet, lay, squares)
            draw_pieces(sheet, lay, game)
            x = lay.board_size[0]
            sheet.keep_plain((x, 0, lay.width, lay.height), BACKGROUND)
            _tile_block(sheet.image, lay.f, x, tile, tunnel, squares)
        sheet.image.paste(panel.draw_panel(replace(state, f=lay.f), language),
                          (x, _block_height(lay.f)))

    return column, paint


def mark_squares(sheet: Scratch, lay: Layout, squares: dict[Pos, tuple[int, ...]]) -> None:
    d = ImageDraw.Draw(sheet.image)
    t = lay.tile
    w = max(3, t // 14)
    big = min(30, max(10, round(0.26 * t)))
    small = min(20, max(8, round(0.17 * t)))
    for pos, rots in squares.items():
        left, top, right, bottom = lay.box(pos)
        sheet.keep((left, top, right, bottom))
        d.rectangle((left, top, right - 1, bottom - 1), fill=MARK_FILL, outline=MARK_EDGE,
                    width=1)
        d.rectangle((left + 1, top + 1, right - 2, bottom - 2), outline=MARK, width=w)
        cx = left + t // 2
        text.draw(d, (cx, top + round(0.42 * t)), f"{pos[0]},{pos[1]}", big, anchor="mm",
                  bold=True)
        if t >= 40:
            # TRANSLATORS: under a square where the drawn tile fits in all four rotations.
            turns = _("any turn") if len(rots) == 4 else " ".join(str(ROTATIONS[r]) for r in rots)
            text.draw(d, (cx, top + round(0.72 * t)), text.fit(turns, small, t - 2 * w - 2),
                      small, fill=MARK_EDGE, anchor="mm")


def _tile_block(img: Image.Image, f: int, x: int, tile: str, tunnel: bool,
                squares: dict[Pos, tuple[int, ...]]) -> None:
    """Title, the four rotations with their degree labels, and how many squares fit."""
    d = ImageDraw.Draw(img)
    pad = round(0.6 * f)
    text.draw(d, (x + pad, round(1.1 * f)), _("Your tile"), round(1.15 * f), bold=True)
    size = _preview(f)
    fits = {r for rots in squares.values() for r in rots}
    turns = (0,) if tile == ABBEY else (0, 1, 2, 3)
    y = round(2.3 * f)
    for i, rot in enumerate(turns):
        left = x + pad + i * (size + f // 2)
        label = f"{ROTATIONS[rot]}"
        ok = rot in fits
        text.draw(d, (left + size // 2, y + f // 2), label, f, anchor="mm", bold=ok,
                  fill=text.INK if ok else text.MUTED)
        pic = tile_image(tile, rot, size, tunnel)
        if not ok:  # fits nowhere: washed out
            pic = Image.blend(pic, Image.new("RGB", pic.size, BACKGROUND), 0.6)
        top = y + round(1.2 * f)
        frame = MARK if ok else panel.RULE
        d.rectangle((left - 3, top - 3, left + size + 2, top + size + 2), fill=frame)
        img.paste(pic, (left, top))
    n = len(squares)
    note = (ngettext("{n} legal square", "{n} legal squares", n).format(n=n) if n
            else _("fits nowhere"))
    note_f = round(0.85 * f)
    text.draw(d, (x + pad, y + round(1.2 * f) + size + round(1.1 * f)),
              text.fit(note, note_f, panel.panel_width(f) - 2 * pad), note_f, fill=text.MUTED)
