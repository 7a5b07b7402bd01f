"""The game card's picture: a fixed-scale view around the last move that a phone can read,
with markers counting the squares where the drawn tile fits beyond its edges."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest
from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render import palette
from carca_bot.render.focus import (
    MARGIN,
    MAX_COLS,
    MAX_ROWS,
    SQUARE,
    WIDTH,
    Crop,
    focus_image,
    focus_layout,
    markers,
    plan,
    render_focus,
    view_crop,
)
from carca_bot.render.formats import FORMATS, encode
from carca_bot.render.grid import TILE_STEPS, Layout, bounds, label_strides, layout_at
from carca_bot.render.pieces import outline_width
from carca_bot.render.yourtile import MARK_EDGE, MARK_FILL, legal_squares

NAMES = ("Ana", "Ben", "Cyrille", "Dee", "Eve", "Finn")
PHONE_SQUARE, PHONE_TEXT = 30, 9  # issue 27: px per square and px of text at 400 px
CARD_BYTES = 120_000


@cache
def _played(seed: int, left: int, players: int = 6) -> tuple[Game, str | None]:
    """A game with every expansion played at random until `left` tiles remain, and the
    tile the next player draws."""
    game = Game(Setup(NAMES[:players], frozenset(EXPANSIONS), seed=seed))
    rng = random.Random(seed)
    while not game.finished and game.tiles_left > left:
        play_random_turn(game, rng)
    return game, None if game.finished else game.draw()


def _rgb(img: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    p = img.getpixel(xy)
    assert isinstance(p, tuple)
    return (int(p[0]), int(p[1]), int(p[2]))


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize(("seed", "left"), [(1, 60), (7, 4), (3, 4)])
def test_a_phone_reads_the_card_at_every_stage(seed: int, left: int) -> None:
    """Before: from mid-game the view grew to the whole board (15-25 squares across), a
    square ~25 px and the labels ~3-7 px on a phone 400 px wide."""
    game, tile = _played(seed, left)
    assert len(game.board.tiles) > 40
    card = plan(game, tile)
    lay = card.layout
    assert lay.cols <= MAX_COLS and lay.rows <= MAX_ROWS and lay.tile == SQUARE
    assert card.phone(lay.tile) >= PHONE_SQUARE
    assert card.phone(card.smallest) >= PHONE_TEXT and card.phone(lay.label) >= PHONE_TEXT
    data = render_focus(game, tile)
    assert len(data) <= CARD_BYTES
    img = _decoded(data)
    assert img.format == "PNG" and img.mode == "P"  # the default: 256 colours
    assert img.size == (lay.width, lay.height) and img.width <= WIDTH
    assert img.size == focus_image(game, tile).size


@pytest.mark.parametrize("left", [100, 60, 4])
def test_the_view_holds_the_last_move_and_counts_every_other_square(left: int) -> None:
    game, tile = _played(3, left)
    assert tile is not None and game.last_placed is not None
    card = plan(game, tile)
    lay = card.layout
    squares = legal_squares(game, tile)
    assert squares and card.squares == squares
    last = game.last_placed[0]
    x0, y0, cols, rows = bounds(game)
    assert x0 <= lay.x0 and lay.x0 + lay.cols <= x0 + cols  # within the board
    assert y0 <= lay.y0 and lay.y0 + lay.rows <= y0 + rows
    for dx in range(-MARGIN, MARGIN + 1):  # the context around the last move that exists
        for dy in range(-MARGIN, MARGIN + 1):
            pos = (last[0] + dx, last[1] + dy)
            if x0 <= pos[0] < x0 + cols and y0 <= pos[1] < y0 + rows:
                assert lay.holds(pos)
    inside = [pos for pos in squares if lay.holds(pos)]
    assert len(inside) + sum(m.count for m in card.markers) == len(squares)
    crop = Crop(lay.x0, lay.y0, lay.cols, lay.rows)
    for marker in card.markers:  # each square beyond the side it is counted on
        beyond = [pos for pos in squares if not crop.holds(pos) and (
            pos[0] < crop.x0, pos[0] >= crop.x0 + crop.cols, pos[1] < crop.y0,
            pos[1] >= crop.y0 + crop.rows)[marker.side]]
        assert len(beyond) >= marker.count


def test_markers_count_by_side() -> None:
    crop = Crop(0, 0, 5, 5)
    squares: list[Pos] = [(-1, 2), (-3, 0), (7, 1), (2, -1), (2, 9), (8, 9), (1, 1)]
    found = {m.side: (m.count, m.along) for m in markers(crop, squares)}
    # (8, 9) is 4 columns east and 5 rows south: south; (1, 1) is inside: no marker.
    assert found == {0: (2, 1.0), 1: (1, 1.0), 2: (1, 2.0), 3: (2, 3.0)}
    assert markers(crop, [(1, 1)]) == []


def test_the_view_takes_in_as_many_squares_as_it_can() -> None:
    """Among the views that keep the last move in context, the one holding most of the
    squares where the tile fits; a centred view would hold fewer here."""
    game, tile = _played(3, 4)
    assert tile is not None and game.last_placed is not None
    squares = tuple(legal_squares(game, tile))
    chosen = view_crop(game, squares)
    cx, cy = game.last_placed[0]
    x0, y0, cols, rows = bounds(game)
    best = 0
    for left in range(x0, x0 + cols - chosen.cols + 1):
        for top in range(y0, y0 + rows - chosen.rows + 1):
            if (left + MARGIN <= cx < left + chosen.cols - MARGIN
                    and top + MARGIN <= cy < top + chosen.rows - MARGIN):
                view = Crop(left, top, chosen.cols, chosen.rows)
                best = max(best, sum(view.holds(p) for p in squares))
    assert sum(chosen.holds(p) for p in squares) == best
    centred = Crop(cx - chosen.cols // 2, cy - chosen.rows // 2, chosen.cols, chosen.rows)
    assert sum(centred.holds(p) for p in squares) <= best


def test_markers_are_drawn_in_the_language_asked_and_miss_the_marked_squares() -> None:
    game, tile = _played(7, 4)
    card = plan(game, tile)
    assert card.markers  # a late board: the tile fits beyond the view
    img = focus_image(game, tile)
    bare = focus_image(game, None)  # no tile: nothing marked, no marker
    assert MARK_FILL not in {c for _, c in bare.getcolors(1 << 20) or []}
    assert MARK_EDGE in {c for _, c in img.getcolors(1 << 20) or []}
    assert plan(game, None).markers == ()
    assert render_focus(game, tile, language="es") != render_focus(game, tile)
    lay = card.layout
    for pos in card.squares:  # every marked square is still marked, not covered by a marker
        if lay.holds(pos):
            left, top, _, bottom = lay.box(pos)
            inset = max(3, lay.tile // 14) + 3
            probe = (left + inset, (top + bottom) // 2)
            # a neighbour's figure on its edge may reach over (it does in the bare board
            # too); anything else there is a marker on the square
            assert _rgb(img, probe) in (MARK_FILL, _rgb(bare, probe)), pos


def test_the_last_move_is_framed_in_its_players_colour_and_legal_squares_are_marked() -> None:
    game, tile = _played(3, 60)
    assert tile is not None and game.last_placed is not None
    img = focus_image(game, tile)
    lay = focus_layout(game, tile)
    pos, player = game.last_placed
    left, top, _, bottom = lay.box(pos)
    w = 2 * outline_width(lay)  # twice the full board's frame
    assert _rgb(img, (left + w - 1, (top + bottom) // 2)) == palette.player(player).fill
    inset = max(3, lay.tile // 14) + 3
    for square in legal_squares(game, tile):
        if lay.holds(square):
            sl, st, sr, sb = lay.box(square)
            # a "more squares" pill may cover a marked square's edge (it keeps off the
            # coordinates only) and a neighbour's figure may reach over one corner: the
            # mark's fill shows in at least one of its four inner corners
            corners = [(x, y) for x in (sl + inset, sr - 1 - inset)
                       for y in (st + inset, sb - 1 - inset)]
            assert MARK_FILL in [_rgb(img, c) for c in corners], square


def test_tiles_and_figures_beside_the_crop_stay_out_of_the_labels() -> None:
    """The board's tiles west and north of the view are not drawn: they would land on the
    coordinate labels."""
    game, _ = _played(3, 4)
    x0, y0, _, _ = bounds(game)
    lay = focus_layout(game, None)
    assert lay.x0 > x0 or lay.y0 > y0  # a part of the board
    img = focus_image(game, None)
    band = img.crop((0, 0, lay.left, img.height)).getcolors(1 << 16) or []
    top = img.crop((0, 0, img.width, lay.top)).getcolors(1 << 16) or []
    colours = {c for _, c in (*band, *top)}
    assert palette.FIELD not in colours and palette.CITY not in colours


def test_same_state_same_bytes_in_every_format() -> None:
    game, tile = _played(1, 30)
    for fmt in FORMATS:
        first = render_focus(game, tile, fmt=fmt)
        assert render_focus(game, tile, fmt=fmt) == first
        with ThreadPoolExecutor(1) as pool:  # as the bot calls it
            assert pool.submit(render_focus, game, tile, fmt=fmt).result() == first
        img = _decoded(first)
        assert img.format == ("WEBP" if fmt == "webp" else "PNG")
        assert img.size == focus_image(game, tile).size
    with pytest.raises(ValueError, match="unknown picture format"):
        encode(focus_image(game, tile), "gif")  # type: ignore[arg-type]


def test_a_one_tile_board_is_the_start_and_its_ring() -> None:
    game = Game(Setup(NAMES[:2], frozenset(), seed=5))
    assert len(game.board.tiles) == 1 and game.last_placed is None
    tile = game.draw()
    card = plan(game, tile)
    start = next(iter(game.board.tiles))
    lay = card.layout
    assert lay.tile == SQUARE and (lay.cols, lay.rows) == (3, 3) and lay.holds(start)
    assert all(lay.holds(pos) for pos in legal_squares(game, tile)) and not card.markers
    img = _decoded(render_focus(game, tile))
    assert img.size == (lay.width, lay.height) and img.width < WIDTH


@pytest.mark.parametrize("width", [300, 640])
def test_a_narrow_width_is_kept(width: int) -> None:
    game, tile = _played(1, 4)
    lay = focus_layout(game, tile, width)
    assert lay.cols <= MAX_COLS and lay.tile < SQUARE
    img = _decoded(render_focus(game, tile, width=width))
    assert img.width <= width


def test_labels_wider_than_a_square_are_thinned_not_overlapped() -> None:
    """Labels larger than small squares: every 2nd (3rd...) column is labelled, on
    multiples of the stride, so 0 keeps its label."""
    def column(_f: int) -> tuple[int, int]:
        return 0, 0

    small: Layout = layout_at(-12, -12, 25, 25, TILE_STEPS[-1], column, 30)
    across, down = label_strides(small)
    assert across >= 2 and down >= 2
    big = layout_at(-3, -3, 7, 7, SQUARE, column, 26)
    assert label_strides(big) == (1, 1)


def test_the_bench_prints_the_card_line_in_the_issues_form() -> None:
    """`python bench/pictures.py` prints one line per stage that other checks read."""
    import importlib.util
    import re
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "pictures.py"
    spec = importlib.util.spec_from_file_location("bench_pictures", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_pictures"] = bench
    spec.loader.exec_module(bench)
    game, tile = _played(7, 60)
    line = bench.card_line("mid", game, tile, 1)
    found = re.fullmatch(r"card mid: (\d+) squares across, (\d+) px per square at 400 px, "
                         r"(\d+) px labels, (\d+) KB, (\d+) ms", line)
    assert found, line
    across, square, label, kb = (int(found.group(i)) for i in range(1, 5))
    assert across <= MAX_COLS and square >= PHONE_SQUARE and label >= PHONE_TEXT
    assert kb * 1000 <= CARD_BYTES
