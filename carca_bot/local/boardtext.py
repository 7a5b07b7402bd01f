"""The board drawn in the terminal itself: each tile five characters wide and three tall,
with its cities, roads, river, fields, buildings and the figures on it.

With colour (a terminal that has it, unless NO_COLOR is set) fields are green, cities
tan, the river blue, figures in their player's colour with their seat number; without,
the same shapes in plain characters: `#` city, `.` field, box-drawing roads, `~` river,
`M` monastery, `S` shrine, `*` garden, `+` pennant. Squares where the tile to place fits
show their coordinates (`3,-1`) on a light blue ground (or in a `+---+` frame), and the
last tile placed has its corners in its player's colour (`*` without colour).

Only the part of the board around the last move that the terminal has room for is drawn
(the same choice the game card's picture makes: `render.focus.view_crop`); squares where
the tile fits beyond it are counted by side under the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from carca_bot.engine.catalogue import Kind, Segment, catalogue
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.i18n import Domain
from carca_bot.render.focus import Crop, markers, view_crop
from carca_bot.render.grid import bounds
from carca_bot.render.pieces import figure_spots

_T = Domain("local")
_ = _T.gettext
ngettext = _T.ngettext

W, H = 5, 3  # characters per square
LABEL = 5  # the row numbers' column
MAX_ROWS = 9  # tile rows drawn at most (27 lines)
ABBEY = "ABBEY"

# 256-colour palette numbers
FIELD, CITY, CITY_INK, ROAD, RIVER = 71, 180, 94, 230, 33
ROOF, HEDGE, SHIELD, EMPTY_INK, MARK, MARK_INK = 160, 22, 19, 243, 117, 17
PLAYERS = ((26, 231), (214, 16), (226, 16), (236, 231), (170, 16), (255, 16))  # (ground, ink)


@dataclass(frozen=True, slots=True)
class Cell:
    """One character: what it shows with colour (`char` on `bg` in `fg`) and without."""

    char: str
    mono: str
    fg: int | None = None
    bg: int | None = None
    bold: bool = False

    def style(self) -> str:
        """The escape sequence that sets this cell's colours (after a reset)."""
        codes = [*(["1"] if self.bold else []), *([f"38;5;{self.fg}"] if self.fg else []),
                 *([f"48;5;{self.bg}"] if self.bg is not None else [])]
        return f"\x1b[{';'.join(codes)}m" if codes else ""


RESET = "\x1b[0m"


def line(cells: Sequence[Cell], colour: bool) -> str:
    """Cells as one line of text: with colour, a style change only where it changes."""
    if not colour:
        return "".join(c.mono for c in cells)
    out: list[str] = []
    style = ""
    for cell in cells:
        wanted = cell.style()
        if wanted != style:
            out.append(RESET + wanted if style else wanted)
            style = wanted
        out.append(cell.char)
    if style:
        out.append(RESET)
    return "".join(out)


Block = tuple[tuple[Cell, ...], ...]  # H rows of W cells

FIELD_CELL = Cell(" ", ".", bg=FIELD)
CITY_CELL = Cell(" ", "#", bg=CITY)
BLANK = Cell(" ", " ")
# The road or river reaching each side (N E S W) passes these cells on its way in.
PATH: tuple[tuple[tuple[int, int], ...], ...] = (((2, 0),), ((3, 1), (4, 1)), ((2, 2),),
                                                 ((0, 1), (1, 1)))
SIDE_CELLS: tuple[tuple[tuple[int, int], ...], ...] = (
    tuple((c, 0) for c in range(W)), tuple((4, r) for r in range(H)),
    tuple((c, 2) for c in range(W)), tuple((0, r) for r in range(H)))
JUNCTION = {frozenset({0, 2}): "│", frozenset({1, 3}): "─", frozenset({0, 1}): "└",
            frozenset({0, 3}): "┘", frozenset({1, 2}): "┌", frozenset({2, 3}): "┐",
            frozenset({0, 1, 2}): "├", frozenset({0, 2, 3}): "┤", frozenset({1, 2, 3}): "┬",
            frozenset({0, 1, 3}): "┴", frozenset({0, 1, 2, 3}): "┼"}


def _city_cells(seg: Segment) -> set[tuple[int, int]]:
    """The cells a city covers: its sides' edge cells, and inside when it is more than
    a cap (two sides across or at a corner, three or four)."""
    cells: set[tuple[int, int]] = set()
    for side in seg.sides:
        cells.update(SIDE_CELLS[side])
    if len(seg.sides) >= 2:
        if 3 in seg.sides:
            cells.add((1, 1))
        if 1 in seg.sides:
            cells.add((3, 1))
        if len(seg.sides) >= 3 or (len(seg.sides) == 2 and (seg.sides[1] - seg.sides[0]) == 2):
            cells.update({(1, 1), (2, 1), (3, 1)})
    return cells


@lru_cache(maxsize=2048)
def tile_block(tile: str, rot: int, tunnel: bool = False) -> Block:
    """A tile as W x H cells, turned `rot` quarter turns."""
    grid = [[FIELD_CELL] * W for _ in range(H)]
    if tile == ABBEY:
        grid[1][2] = Cell("⌂", "A", ROOF, FIELD, bold=True)
        return tuple(tuple(row) for row in grid)
    shape = catalogue(tunnel).shape(tile, rot % 4)
    roads: set[int] = set()
    for seg in shape.segments:
        if seg.kind is Kind.CITY:
            cells = _city_cells(seg)
            for c, r in cells:
                grid[r][c] = CITY_CELL
            if seg.pennants or getattr(seg, "cathedral", False):
                c, r = min(cells, key=lambda cell: (abs(cell[0] - 2) + abs(cell[1] - 1), cell))
                grid[r][c] = Cell("◆", "+", SHIELD, CITY, bold=True)
        elif seg.kind is Kind.ROAD:
            roads.update(seg.sides)
    for side in shape.river:
        for c, r in PATH[side]:
            grid[r][c] = Cell("≈", "~", RIVER, FIELD, bold=True)
    for side in roads:
        for c, r in PATH[side]:
            grid[r][c] = Cell("│" if side in (0, 2) else "─", "|" if side in (0, 2) else "-",
                              ROAD, grid[r][c].bg or FIELD, bold=True)
    if len(roads) >= 2:  # a crossing, or a bridge over the river
        grid[1][2] = Cell(JUNCTION[frozenset(roads)], "+", ROAD, FIELD, bold=True)
    elif shape.river:
        grid[1][2] = Cell("≈", "~", RIVER, FIELD, bold=True)
    if shape.building is not None:
        shrine = shape.segments[shape.building].building == "shrine"
        grid[1][2] = Cell("†" if shrine else "⌂", "S" if shrine else "M", ROOF, FIELD,
                          bold=True)
    if shape.garden is not None:
        c, r = next(((c, r) for c, r in ((1, 1), (3, 1), (1, 2), (3, 2), (1, 0), (3, 0))
                     if grid[r][c] == FIELD_CELL), (1, 1))
        grid[r][c] = Cell("♣", "*", HEDGE, FIELD, bold=True)
    return tuple(tuple(row) for row in grid)


def _empty(pos: Pos) -> Block:
    row = (BLANK, BLANK, Cell("·", " ", EMPTY_INK), BLANK, BLANK)  # blank without colour
    return ((BLANK,) * W, row, (BLANK,) * W)


def _marked(pos: Pos) -> Block:
    """A square where the tile fits: its coordinates, to type."""
    label = f"{pos[0]},{pos[1]}"
    if len(label) > W:
        label = "◇"
    mid = label.center(W)
    edge = (Cell(" ", "+", bg=MARK), *(Cell(" ", "-", bg=MARK) for _ in range(W - 2)),
            Cell(" ", "+", bg=MARK))
    text = tuple(Cell(ch, ch if ch != " " else (" " if 0 < i < W - 1 else "|"), MARK_INK,
                      MARK, bold=True) for i, ch in enumerate(mid))
    return edge, text, edge


def _pieces(game: Game) -> dict[Pos, list[tuple[int, int, str]]]:
    """Each square's figures as (column, row, seat) in its cells."""
    out: dict[Pos, list[tuple[int, int, str]]] = {}
    for _kind, seat, pos, (u, v) in figure_spots(game):
        c, r = min(W - 1, max(0, int(u * W))), min(H - 1, max(0, int(v * H)))
        out.setdefault(pos, []).append((c, r, str(seat + 1)))
    return out


def _square(game: Game, pos: Pos, squares: Sequence[Pos] | dict[Pos, tuple[int, ...]],
            figures: dict[Pos, list[tuple[int, int, str]]]) -> Block:
    placed = game.board.tiles.get(pos)
    if placed is None:
        return _marked(pos) if pos in squares else _empty(pos)
    grid = [list(row) for row in tile_block(placed.tile, placed.rot, game.setup.has("tunnel"))]
    for c, r, seat in figures.get(pos, []):
        ground, ink = PLAYERS[(int(seat) - 1) % len(PLAYERS)]
        grid[r][c] = Cell(seat, seat, ink, ground, bold=True)
    if game.last_placed is not None and game.last_placed[0] == pos:
        ground, _ink = PLAYERS[game.last_placed[1] % len(PLAYERS)]
        for c, r in ((0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1)):
            grid[r][c] = Cell(" ", "*", bg=ground)
    return tuple(tuple(row) for row in grid)


def draw(game: Game, crop: Crop, squares: Sequence[Pos] | dict[Pos, tuple[int, ...]],
         colour: bool) -> list[str]:
    """The lines of the board's squares in `crop`, with column and row numbers."""
    figures = _pieces(game)
    head = " " * LABEL + "".join(f"{x:^{W}}" for x in range(crop.x0, crop.x0 + crop.cols))
    lines = [head.rstrip()]
    for y in range(crop.y0, crop.y0 + crop.rows):
        blocks = [_square(game, (x, y), squares, figures)
                  for x in range(crop.x0, crop.x0 + crop.cols)]
        for r in range(H):
            label = f"{y:>{LABEL - 1}} " if r == 1 else " " * LABEL
            lines.append((label + line([cell for b in blocks for cell in b[r]], colour)).rstrip())
    return lines


def beyond_words(found: Sequence[tuple[int, int]]) -> str:
    """'Where it also fits, beyond this view: 3 west, 7 east.' from (side, count) pairs."""
    sides = (_("{n} west"), _("{n} east"), _("{n} north"), _("{n} south"))
    said = ", ".join(sides[side].format(n=n) for side, n in found)
    return _("Squares where it fits beyond this view: {counts} (type board for the whole "
             "board).").format(counts=said)


def board_lines(game: Game, squares: dict[Pos, tuple[int, ...]], width: int,
                colour: bool, whole: bool = False) -> list[str]:
    """The board as the terminal shows it: around the last move, as much as `width`
    characters and MAX_ROWS tile rows hold, then what lies beyond; or (`whole`) the
    whole board, in strips of columns as wide as the terminal."""
    cols = max(3, (width - LABEL) // W)
    if whole:  # in strips as wide as the terminal, west to east
        board = Crop(*bounds(game))
        lines: list[str] = []
        for x0 in range(board.x0, board.x0 + board.cols, cols):
            strip = Crop(x0, board.y0, min(cols, board.x0 + board.cols - x0), board.rows)
            lines += draw(game, strip, squares, colour)
        return lines
    crop = view_crop(game, tuple(squares), cols, MAX_ROWS)
    lines = draw(game, crop, squares, colour)
    found = [(m.side, m.count) for m in markers(crop, tuple(squares))]
    if found:
        lines.append(beyond_words(found))
    return lines


def tile_lines(tile: str, fits: set[int], tunnel: bool, colour: bool) -> list[str]:
    """The tile in its four rotations side by side, each labelled with its degrees; a
    rotation that fits nowhere is labelled in brackets."""
    turns = (0,) if tile == ABBEY else (0, 1, 2, 3)
    gap = "   "
    labels = [(f"{90 * r}°" if r in fits else f"({90 * r}°)").center(W) for r in turns]
    lines = [gap.join(labels)]
    blocks = [tile_block(tile, r, tunnel) for r in turns]
    for r in range(H):
        lines.append(gap.join(line(b[r], colour) for b in blocks))
    return lines
