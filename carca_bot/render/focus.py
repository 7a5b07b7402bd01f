"""The game card's picture: a fixed-scale view of the board around the last move, for phones.

The card is read on phones, where Discord shows a picture at the screen's width (about
400 px). A picture that widens to take in the whole board shrinks there until only its
outline survives, so this one never does: it shows at most `MAX_COLS` x `MAX_ROWS`
squares at `SQUARE` px each (a phone then shows each square about 34 px wide and the
coordinate labels about 11 px high), placed so that the last move keeps `MARGIN` squares
of context and, within that, as many as possible of the squares where the drawn tile fits
(the player to act's region of interest). Squares where it fits outside the view are not
dropped: each side of the view that has some carries a marker with their count ("7 more
squares" and an arrow), placed along the side where they lie. The full board stays one
button away (`render_board`).

The default format is a 256-colour PNG (`formats.palette_png`: fast octree palette, no
dithering, zlib 6), which keeps the art as it was and takes a third of a plain PNG's
bytes; `python bench/pictures.py` prints the sizes, times and what a phone shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.formats import Format, encode
from carca_bot.render.grid import (
    TILE_STEPS,
    Layout,
    base_layer,
    bounds,
    layout_at,
    paste_tiles,
    placed,
)
from carca_bot.render.pieces import Scratch, draw_pieces, outline_square, outline_width
from carca_bot.render.yourtile import MARK, MARK_EDGE, MARK_FILL, legal_squares

_T = Domain("render")
ngettext = _T.ngettext

SQUARE = 80  # px per square: a phone showing 11 of them 400 px wide shows ~34 px each
MAX_COLS, MAX_ROWS = 11, 13  # the most squares shown: portrait, as a phone is held
MARGIN = 2  # squares kept between the last move and the view's edge (where the board has them)
LABEL = 26  # coordinate labels, px: ~11 px on a phone
WIDTH = 1000  # px: the widest picture (the default view is ~940 px wide)
DEFAULT_FORMAT: Format = "png256"
PHONE = 400  # px: the width a phone shows a picture at, for `Card.phone`


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

    def holds(self, pos: Pos) -> bool:
        return self.x0 <= pos[0] < self.x0 + self.cols and self.y0 <= pos[1] < self.y0 + self.rows


@dataclass(frozen=True, slots=True)
class Marker:
    """Squares where the tile fits beyond one side of the view: the side (0-3: west, east,
    north, south), how many, and where along that side they lie (a column or row)."""

    side: int
    count: int
    along: float


def centre(game: Game) -> Pos:
    """The last placed tile's square; before any, the start tile's (the first placed)."""
    if game.last_placed is not None:
        return game.last_placed[0]
    return next(iter(game.board.tiles))


def _prefix(squares: Sequence[Pos], area: Crop) -> list[list[int]]:
    """Counts of `squares` in every rectangle of `area` from its corner (summed-area table)."""
    table = [[0] * (area.cols + 1) for _ in range(area.rows + 1)]
    for x, y in squares:
        if area.holds((x, y)):
            table[y - area.y0 + 1][x - area.x0 + 1] += 1
    for r in range(1, area.rows + 1):
        for c in range(1, area.cols + 1):
            table[r][c] += table[r - 1][c] + table[r][c - 1] - table[r - 1][c - 1]
    return table


def _span(size: int, board_lo: int, board_size: int, at: int) -> range:
    """First columns (or rows) a view of `size` may start at: within the board, with the
    last move `at` at least MARGIN from either edge where the board allows it."""
    first, last = board_lo, board_lo + board_size - size
    margin = min(MARGIN, (size - 1) // 2)
    low = max(first, min(at - size + 1 + margin, last))
    high = min(last, max(at - margin, first))
    return range(min(low, high), max(low, high) + 1)


def view_crop(game: Game, squares: Sequence[Pos], cols: int = MAX_COLS,
              rows: int = MAX_ROWS) -> Crop:
    """The view: at most `cols` x `rows` squares of the board (its tiles and one empty
    square all round), holding the last move with MARGIN squares of context, and as many
    of `squares` as such a view can; among equals, the one centred nearest the last move."""
    board = Crop(*bounds(game))
    cols, rows = min(cols, board.cols), min(rows, board.rows)
    cx, cy = centre(game)
    table = _prefix(squares, board)
    best: tuple[int, float, int, int] | None = None
    for x0 in _span(cols, board.x0, board.cols, cx):
        for y0 in _span(rows, board.y0, board.rows, cy):
            c, r = x0 - board.x0, y0 - board.y0
            held = (table[r + rows][c + cols] - table[r][c + cols] - table[r + rows][c]
                    + table[r][c])
            off = abs(x0 + (cols - 1) / 2 - cx) + abs(y0 + (rows - 1) / 2 - cy)
            key = (-held, off, x0, y0)
            if best is None or key < best:
                best = key
    assert best is not None
    return Crop(best[2], best[3], cols, rows)


def markers(crop: Crop, squares: Sequence[Pos]) -> list[Marker]:
    """The squares outside `crop`, counted by the side they lie beyond (the side they are
    furthest past; a tie goes to west or east)."""
    found: dict[int, list[float]] = {}
    x1, y1 = crop.x0 + crop.cols - 1, crop.y0 + crop.rows - 1
    for x, y in squares:
        if crop.holds((x, y)):
            continue
        dx = crop.x0 - x if x < crop.x0 else max(0, x - x1)
        dy = crop.y0 - y if y < crop.y0 else max(0, y - y1)
        if dx >= dy:
            found.setdefault(0 if x < crop.x0 else 1, []).append(min(max(y, crop.y0), y1))
        else:
            found.setdefault(2 if y < crop.y0 else 3, []).append(min(max(x, crop.x0), x1))
    return [Marker(side, len(at), sum(at) / len(at)) for side, at in sorted(found.items())]


def _tile_size(width: int) -> int:
    """`SQUARE`, or the largest tile step that fits MAX_COLS squares into `width`."""
    for t in (SQUARE, *(s for s in TILE_STEPS if s < SQUARE)):
        if _layout(Crop(-9, -9, MAX_COLS, 1), t).width <= width:
            return t
    return TILE_STEPS[-1]


def _layout(crop: Crop, t: int) -> Layout:
    return layout_at(crop.x0, crop.y0, crop.cols, crop.rows, t, _no_column, LABEL)


@dataclass(frozen=True, slots=True)
class Card:
    """What the card's picture shows: its layout, the squares where the tile fits and the
    markers for those outside the view; `smallest` is the smallest text drawn, in px."""

    layout: Layout
    squares: dict[Pos, tuple[int, ...]]
    markers: tuple[Marker, ...]
    smallest: int

    def phone(self, px: int) -> float:
        """`px` of the picture as a phone showing it PHONE px wide sees it."""
        return px * PHONE / self.layout.width


def mark_size(t: int) -> int:
    """The coordinates written in a marked square."""
    return max(LABEL - 2, round(0.3 * t))


def marker_size() -> int:
    return LABEL - 2


def plan(game: Game, tile: str | None, width: int = WIDTH) -> Card:
    """The card's picture for this state, before any drawing."""
    squares = legal_squares(game, tile) if tile is not None else {}
    crop = view_crop(game, tuple(squares))
    lay = _layout(crop, _tile_size(width))
    found = tuple(markers(crop, tuple(squares)))
    sizes = [lay.label, *([mark_size(lay.tile)] if squares else []),
             *([marker_size()] if found else [])]
    return Card(lay, squares, found, min(sizes))


def focus_layout(game: Game, tile: str | None, width: int = WIDTH) -> Layout:
    """The layout `render_focus` draws for this state (its squares: `Layout.holds`)."""
    return plan(game, tile, width).layout


@lru_cache(maxsize=4)
def _base(lay: Layout) -> Image.Image:
    """The empty grid with its labels (no faint coordinates in the squares: the labels and
    the marked squares' own coordinates say them, at a size a phone can read). Kept: the
    view stays the same for many moves. Callers copy it."""
    return base_layer(lay, coordinates=False)


def _mark(sheet: Scratch, lay: Layout, squares: dict[Pos, tuple[int, ...]]) -> None:
    """Each square where the tile fits that the view shows: filled, framed, its coordinates
    written large (the rotations are in the player's own picture)."""
    d = ImageDraw.Draw(sheet.image)
    t = lay.tile
    w = max(3, t // 14)
    size = mark_size(t)
    for pos in squares:
        if not lay.holds(pos):
            continue
        left, top, right, bottom = lay.box(pos)
        d.rectangle((left, top, right - 1, bottom - 1), fill=MARK_FILL, outline=MARK_EDGE,
                    width=1)
        d.rectangle((left + 1, top + 1, right - 2, bottom - 2), outline=MARK, width=w)
        label = text.fit(f"{pos[0]},{pos[1]}", size, t - 2 * w - 2, bold=True)
        text.draw(d, ((left + right) // 2, (top + bottom) // 2), label, size, anchor="mm",
                  bold=True)


def _arrow(d: ImageDraw.ImageDraw, side: int, x: int, y: int, s: int) -> None:
    """A solid triangle `s` px across pointing off the view on `side`, centred on x, y."""
    h = s // 2
    points = {0: [(x - h, y), (x + h, y - h), (x + h, y + h)],
              1: [(x + h, y), (x - h, y - h), (x - h, y + h)],
              2: [(x, y - h), (x - h, y + h), (x + h, y + h)],
              3: [(x, y + h), (x - h, y - h), (x + h, y - h)]}[side]
    d.polygon(points, fill=MARK_EDGE)


Box = tuple[int, int, int, int]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _marker_words(marker: Marker, room: int) -> tuple[str, int, int]:
    """The marker's words (cut to `room` px), and the pill's width and height."""
    f = marker_size()
    words = ngettext("{n} more square", "{n} more squares", marker.count).format(
        n=marker.count)
    arrow, pad = round(0.8 * f), round(0.45 * f)
    words = text.fit(words, f, room - arrow - 4 * pad, bold=True)
    return words, text.width(words, f, bold=True) + arrow + 3 * pad, round(1.6 * f)


def _marker_box(lay: Layout, side: int, size: tuple[int, int], at: int) -> Box:
    """The pill's box on the inside of `side`, centred at `at` px along it."""
    w, h = size
    right, bottom = lay.board_size
    if side in (0, 1):
        left = lay.left + 2 if side == 0 else right - w - 2
        return left, at - h // 2, left + w, at - h // 2 + h
    top = lay.top + 2 if side == 2 else bottom - h - 2
    return at - w // 2, top, at - w // 2 + w, top + h


def _place(lay: Layout, marker: Marker, size: tuple[int, int], avoid: list[Box],
           taken: list[Box]) -> Box:
    """Where along its side the pill goes: near where its squares lie, but off the marked
    squares' coordinates, the last move and the other pills when it can. Beside the west
    and east edges it sits on a line between two rows, so the squares it touches keep
    their centres (and coordinates) in view."""
    t = lay.tile
    w, h = size
    right, bottom = lay.board_size
    if marker.side in (0, 1):
        want = lay.top + (marker.along - lay.y0 + 0.5) * t
        spots = [lay.top + k * t for k in range(1, lay.rows)] or [lay.top + t // 2]
        spots = [min(max(y, lay.top + h // 2 + 2), bottom - h // 2 - 2) for y in spots]
    else:
        want = lay.left + (marker.along - lay.x0 + 0.5) * t
        spots = [min(max(lay.left + k * t // 2, lay.left + w // 2 + 2), right - w // 2 - 2)
                 for k in range(1, 2 * lay.cols)]

    def cost(at: int) -> float:
        box = _marker_box(lay, marker.side, size, at)
        return (1000 * sum(_overlap(box, b) for b in taken)
                + 100 * sum(_overlap(box, b) for b in avoid) + abs(at - want) / t)

    return _marker_box(lay, marker.side, size, min(spots, key=cost))


def _draw_markers(img: Image.Image, lay: Layout, card: Card, last: Pos | None) -> None:
    """Each marker as a pill on the inside of the view's edge: an arrow pointing off the
    view and the count of squares beyond it."""
    d = ImageDraw.Draw(img)
    f = marker_size()
    arrow, pad = round(0.8 * f), round(0.45 * f)
    t = lay.tile
    avoid: list[Box] = []
    for pos in card.squares:
        if lay.holds(pos):
            left, top, right, bottom = lay.box(pos)
            half = mark_size(t) * 3 // 4
            avoid.append((left, (top + bottom) // 2 - half, right, (top + bottom) // 2 + half))
    if last is not None and lay.holds(last):
        avoid.append(lay.box(last))
    taken: list[Box] = []
    for marker in card.markers:
        words, w, h = _marker_words(marker, lay.cols * t)
        box = _place(lay, marker, (w, h), avoid, taken)
        taken.append(box)
        left, top, right, bottom = box
        d.rounded_rectangle(box, radius=h // 2, fill=MARK_FILL, outline=MARK_EDGE,
                            width=max(2, f // 10))
        cy = (top + bottom) // 2
        if marker.side == 1:  # the arrow at the end that points off the view
            text.draw(d, (left + pad, cy), words, f, fill=MARK_EDGE, bold=True)
            _arrow(d, 1, right - pad - arrow // 2, cy, arrow)
        else:
            _arrow(d, marker.side, left + pad + arrow // 2, cy, arrow)
            text.draw(d, (left + 2 * pad + arrow, cy), words, f, fill=MARK_EDGE, bold=True)


def focus_image(game: Game, tile: str | None, width: int = WIDTH) -> Image.Image:
    """The picture as an RGB image at most `width` px wide.

    Call inside `speaking(language)`: the markers carry words.
    """
    card = plan(game, tile, width)
    lay = card.layout
    sheet = Scratch(_base(lay).copy())  # a fresh image: nothing to give back
    paste_tiles(sheet.image, lay, placed(game), game.setup.has("tunnel"))
    _mark(sheet, lay, card.squares)
    if game.last_placed is not None and lay.holds(game.last_placed[0]):  # framed twice as
        outline_square(sheet, lay, *game.last_placed, width=2 * outline_width(lay))  # boldly
    draw_pieces(sheet, lay, game)  # as the full board, with figures over the frame
    _draw_markers(sheet.image, lay, card,
                  game.last_placed[0] if game.last_placed is not None else None)
    img = sheet.image
    if img.width > width:  # narrower than MAX_COLS squares at the smallest step
        scale = width / img.width
        img = img.resize((width, max(1, round(img.height * scale))), Image.Resampling.LANCZOS)
    return img


def render_focus(game: Game, tile: str | None, *, language: str = "en", width: int = WIDTH,
                 fmt: Format = DEFAULT_FORMAT) -> bytes:
    """The card's picture in `fmt`: the board around the last move, with the squares where
    `tile` (the next player's drawn tile, already public; None marks nothing) fits.

    `language` is for the markers' words; an argument, not the caller's context, as the
    bot renders in a thread pool.
    """
    with speaking(language):
        img = focus_image(game, tile, width)
    return encode(img, fmt)
