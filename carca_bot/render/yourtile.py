"""The active player's picture, "my tile": the drawn tile and where it may go, for a phone.

Read on a phone held upright, so it is a column `WIDTH` px wide, read top to bottom:

1. the tile in its four rotations (degrees clockwise, as the place command takes them),
   each with how many squares it fits on in that rotation; a rotation that fits nowhere
   is washed out;
2. the `BEST` squares where it fits best, magnified: each square with its eight
   neighbours, the tile shown in the square in the first rotation that fits there, its
   coordinates (`x,y`, as typed) and every rotation that fits. "Best" is a fact of the
   board, not advice: the squares touching the most placed tiles (the tightest fits, and
   holes that few tiles can fill), then the nearest the last move. It is not the AI's
   choice, so a game without hints stays without hints;
3. every other square where it fits, listed with its rotations;
4. the whole board, small, with every square where it fits filled and the best ones
   numbered, to find them.

Every square where the tile fits is filled and framed in one bright colour found nowhere
in the art (`MARK`); the card's picture (`render.focus`) marks them the same way. The
picture is a 256-colour PNG within `MAX_BYTES`; the small board is left out (then the
rest shrunk) when a tighter limit asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import ROTATIONS, Pos
from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.formats import ImageTooLarge, palette_png
from carca_bot.render.grid import (
    BACKGROUND,
    EMPTY,
    GRID,
    TILE_STEPS,
    Layout,
    base_layer,
    bounds,
    layout_at,
    paste_tiles,
    placed,
)
from carca_bot.render.palette import RGB
from carca_bot.render.pieces import Scratch, draw_pieces, outline_square
from carca_bot.render.tile_art import ABBEY, TILE_SIZE, tile_image

MARK: RGB = (0, 190, 255)  # frame of a legal square
MARK_FILL: RGB = (196, 240, 255)
MARK_EDGE: RGB = (0, 70, 120)
RULE: RGB = (216, 208, 192)

WIDTH = 1000  # px: a phone shows it 400 px wide, so text of F px reads at ~10 px
MAX_BYTES = 200_000
BEST = 3  # squares shown magnified
NEAR = 96  # px per square in the magnified views (the card shows 80)
TURNED = 176  # px: each rotation of the tile (the art, 128 px, a little enlarged)
F = 26  # body text, px
PAD = 30
MAP_HEIGHT = 760  # px: the small board is at most this tall

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


def best_squares(game: Game, squares: dict[Pos, tuple[int, ...]]) -> list[Pos]:
    """The squares in the order the picture shows them: touching the most placed tiles
    first, then nearest the last move, then by coordinates."""
    tiles = game.board.tiles
    last = game.last_placed[0] if game.last_placed is not None else (0, 0)

    def key(pos: Pos) -> tuple[int, int, Pos]:
        x, y = pos
        touching = sum((x + dx, y + dy) in tiles for dx, dy in ((0, 1), (1, 0), (0, -1),
                                                                 (-1, 0)))
        return -touching, abs(x - last[0]) + abs(y - last[1]), pos

    return sorted(squares, key=key)


def turns_words(rots: tuple[int, ...]) -> str:
    """The rotations that fit on a square: "any turn", or "90° 270°"."""
    # TRANSLATORS: on a square where the drawn tile fits in all four rotations.
    return _("any turn") if len(rots) == 4 else " ".join(f"{ROTATIONS[r]}°" for r in rots)


def mark_squares(sheet: Scratch, lay: Layout, squares: dict[Pos, tuple[int, ...]],
                 numbers: dict[Pos, int] | None = None) -> None:
    """Fill and frame each square where the tile fits; write `numbers` in theirs."""
    d = ImageDraw.Draw(sheet.image)
    t = lay.tile
    w = max(2, t // 14)
    for pos in squares:
        if not lay.holds(pos):
            continue
        left, top, right, bottom = lay.box(pos)
        sheet.keep((left, top, right, bottom))
        number = numbers.get(pos) if numbers else None
        d.rectangle((left, top, right - 1, bottom - 1),
                    fill=MARK_FILL if number is None else MARK_EDGE, outline=MARK_EDGE, width=1)
        d.rectangle((left + 1, top + 1, right - 2, bottom - 2), outline=MARK, width=w)
        if number is not None:  # one of the best: dark, with its number
            text.draw(d, ((left + right) // 2, (top + bottom) // 2), str(number),
                      round(0.8 * t), fill=MARK_FILL, anchor="mm", bold=True)


@dataclass(frozen=True, slots=True)
class Parts:
    """The picture's sections, each an RGB image `WIDTH` px wide, top to bottom."""

    head: Image.Image
    rotations: Image.Image
    best: Image.Image | None
    others: Image.Image | None
    board: Image.Image | None

    def stacked(self, with_board: bool = True) -> Image.Image:
        parts = [p for p in (self.head, self.rotations, self.best, self.others,
                             self.board if with_board else None) if p is not None]
        img = Image.new("RGB", (WIDTH, sum(p.height for p in parts) + PAD // 2), BACKGROUND)
        y = 0
        for part in parts:
            img.paste(part, (0, y))
            y += part.height
        return img


def _band(height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    return img, ImageDraw.Draw(img)


def _head(squares: dict[Pos, tuple[int, ...]]) -> Image.Image:
    img, d = _band(round(2.6 * F))
    text.draw(d, (PAD, round(1.4 * F)), _("Your tile"), round(1.5 * F), bold=True)
    n = len(squares)
    note = (ngettext("{n} legal square", "{n} legal squares", n).format(n=n) if n
            else _("fits nowhere"))
    text.draw(d, (WIDTH - PAD, round(1.4 * F)), text.fit(note, F, WIDTH // 2), F,
              fill=text.MUTED, anchor="rm")
    return img


def _rotations(tile: str, tunnel: bool, squares: dict[Pos, tuple[int, ...]]) -> Image.Image:
    """The four rotations side by side at the art's own size, each with its degrees and
    the number of squares it fits on."""
    size = TURNED
    turns = (0,) if tile == ABBEY else (0, 1, 2, 3)
    gap = (WIDTH - 2 * PAD - 4 * size) // 3
    img, d = _band(size + round(3.4 * F))
    for i, rot in enumerate(turns):
        left = PAD + i * (size + gap)
        count = sum(rot in rots for rots in squares.values())
        ink = text.INK if count else text.MUTED
        text.draw(d, (left + size // 2, round(0.7 * F)), f"{ROTATIONS[rot]}°", round(1.1 * F),
                  fill=ink, anchor="mm", bold=bool(count))
        pic = tile_image(tile, rot, TILE_SIZE, tunnel).resize((size, size),
                                                             Image.Resampling.LANCZOS)
        if not count:  # fits nowhere: washed out
            pic = Image.blend(pic, Image.new("RGB", pic.size, BACKGROUND), 0.6)
        top = round(1.5 * F)
        d.rectangle((left - 4, top - 4, left + size + 3, top + size + 3),
                    fill=MARK if count else RULE)
        img.paste(pic, (left, top))
        words = (ngettext("{n} square", "{n} squares", count).format(n=count) if count
                 else _("fits nowhere"))
        text.draw(d, (left + size // 2, top + size + round(1.0 * F)),
                  text.fit(words, round(0.9 * F), size + gap - 8), round(0.9 * F),
                  fill=ink, anchor="mm")
    return img


def _near(game: Game, tile: str, pos: Pos, rots: tuple[int, ...]) -> Image.Image:
    """The square and its eight neighbours at NEAR px a square, with the tile shown in
    the square in its first rotation that fits, framed."""
    t = NEAR
    lay = Layout(pos[0] - 1, pos[1] - 1, 3, 3, t, 0, 0, 0, 0, 3 * t, 3 * t)
    img = Image.new("RGB", (3 * t, 3 * t), EMPTY)
    d = ImageDraw.Draw(img)
    for k in range(4):
        d.line([(k * t, 0), (k * t, 3 * t)], fill=GRID, width=1)
        d.line([(0, k * t), (3 * t, k * t)], fill=GRID, width=1)
    paste_tiles(img, lay, placed(game), game.setup.has("tunnel"))
    sheet = Scratch(img)
    draw_pieces(sheet, lay, game)
    pic = tile_image(tile, rots[0], t, game.setup.has("tunnel"))
    img.paste(Image.blend(pic, Image.new("RGB", pic.size, MARK_FILL), 0.15), (t, t))
    w = max(3, t // 14)
    d.rectangle((t - 1, t - 1, 2 * t, 2 * t), outline=MARK_EDGE, width=1)
    d.rectangle((t, t, 2 * t - 1, 2 * t - 1), outline=MARK, width=w)
    return img


def _best(game: Game, tile: str, squares: dict[Pos, tuple[int, ...]],
          chosen: list[Pos]) -> Image.Image | None:
    if not chosen:
        return None
    side = 3 * NEAR
    gap = (WIDTH - 2 * PAD - BEST * side) // (BEST - 1)
    img, d = _band(side + round(5.2 * F))
    text.draw(d, (PAD, round(0.9 * F)),
              text.fit(_("Where it fits best (touching the most tiles)"), round(1.05 * F),
                       WIDTH - 2 * PAD, bold=True), round(1.05 * F), bold=True)
    top = round(2.0 * F)
    for i, pos in enumerate(chosen):
        left = PAD + i * (side + gap)
        img.paste(_near(game, tile, pos, squares[pos]), (left, top))
        cx, y = left + side // 2, top + side + round(0.9 * F)
        label = f"{i + 1}   {pos[0]},{pos[1]}"
        text.draw(d, (cx, y), label, round(1.15 * F), anchor="mm", bold=True)
        text.draw(d, (cx, y + round(1.3 * F)), text.fit(turns_words(squares[pos]), F, side),
                  F, fill=text.MUTED, anchor="mm")
    return img


def _others(squares: dict[Pos, tuple[int, ...]], shown: list[Pos],
            rest: list[Pos]) -> Image.Image | None:
    """Every other square with its rotations, wrapped into lines."""
    if not rest:
        return None
    items = [f"{x},{y} ({turns_words(squares[(x, y)])})" for x, y in rest]
    room = WIDTH - 2 * PAD
    lines: list[str] = []
    for item in items:
        if lines and text.width(lines[-1] + " · " + item, F) <= room:
            lines[-1] += " · " + item
        else:
            lines.append(text.fit(item, F, room))
    line_h = round(1.35 * F)
    img, d = _band(round(2.4 * F) + line_h * len(lines))
    head = (_("Also fits at:") if shown else _("Fits at:"))
    text.draw(d, (PAD, round(0.9 * F)), head, round(1.05 * F), bold=True)
    y = round(2.2 * F)
    for line in lines:
        text.draw(d, (PAD, y), line, F)
        y += line_h
    return img


def map_layout(game: Game) -> Layout:
    """The small board's layout: the largest tile step up to 64 px that fits the width
    and MAP_HEIGHT."""
    x0, y0, cols, rows = bounds(game)

    def column(_f: int) -> tuple[int, int]:
        return 0, 0

    lay = layout_at(x0, y0, cols, rows, TILE_STEPS[-1], column, 22)
    for t in (s for s in TILE_STEPS if s <= 64):
        lay = layout_at(x0, y0, cols, rows, t, column, 22)
        if lay.width <= WIDTH - 2 * PAD and lay.height <= MAP_HEIGHT:
            break
    return lay


MAP_TOP = round(2.0 * F)  # the small board's top in its section


def _board(game: Game, squares: dict[Pos, tuple[int, ...]], chosen: list[Pos]
           ) -> Image.Image:
    """The whole board, small, with the squares marked and the best ones numbered; the
    board at (WIDTH - width) // 2, MAP_TOP in the section."""
    lay = map_layout(game)
    sheet = Scratch(base_layer(lay, coordinates=False))
    paste_tiles(sheet.image, lay, placed(game), game.setup.has("tunnel"))
    mark_squares(sheet, lay, squares, {pos: i + 1 for i, pos in enumerate(chosen)})
    if game.last_placed is not None:
        outline_square(sheet, lay, *game.last_placed)
    img, d = _band(MAP_TOP + lay.height)
    text.draw(d, (PAD, round(0.9 * F)), _("On the whole board"), round(1.05 * F), bold=True)
    img.paste(sheet.image, ((WIDTH - lay.width) // 2, MAP_TOP))
    return img


def shown_squares(game: Game, tile: str) -> tuple[list[Pos], list[Pos]]:
    """The squares shown magnified, and those listed, in the picture's order."""
    order = best_squares(game, legal_squares(game, tile))
    return order[:BEST], order[BEST:]


def your_tile_parts(game: Game, tile: str) -> Parts:
    """The picture's sections. Call inside `speaking(language)`: they carry words."""
    squares = legal_squares(game, tile)
    chosen, rest = shown_squares(game, tile)
    tunnel = game.setup.has("tunnel")
    return Parts(_head(squares), _rotations(tile, tunnel, squares),
                 _best(game, tile, squares, chosen), _others(squares, chosen, rest),
                 _board(game, squares, chosen))


def your_tile_image(game: Game, tile: str, language: str = "en") -> Image.Image:
    """The whole picture as an RGB image `WIDTH` px wide (for tests and previews)."""
    with speaking(language):
        return your_tile_parts(game, tile).stacked()


def render_your_tile(game: Game, tile: str, max_bytes: int | None = None,
                     language: str = "en") -> bytes:
    """The picture as a 256-colour PNG within `max_bytes` (and `MAX_BYTES`): whole if it
    fits, else without the small board, else that shrunk until it fits; its words in
    `language` (an argument: pictures are drawn in worker threads)."""
    limit = MAX_BYTES if max_bytes is None else min(max_bytes, MAX_BYTES)
    with speaking(language):
        parts = your_tile_parts(game, tile)
    data = palette_png(parts.stacked())
    if len(data) <= limit:
        return data
    img = parts.stacked(with_board=False)
    data = palette_png(img)
    while len(data) > limit and img.width > 200:
        scale = max(0.5, min(0.9, (limit / len(data)) ** 0.5))
        img = img.resize((round(img.width * scale), round(img.height * scale)),
                         Image.Resampling.LANCZOS)
        data = palette_png(img)
    if len(data) > limit:
        raise ImageTooLarge(f"the picture needs {len(data)} bytes; the limit is {limit}")
    return data
