"""The game card's picture: small, phone-wide, around the last move and the drawn tile's squares."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest
from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render import palette
from carca_bot.render.focus import (
    CONTEXT,
    MIN_LABEL,
    WIDTH,
    focus_image,
    focus_layout,
    plan,
    render_focus,
)
from carca_bot.render.formats import FORMATS, encode
from carca_bot.render.grid import TILE_STEPS, Layout, bounds, label_strides, layout_at
from carca_bot.render.pieces import outline_width
from carca_bot.render.tile_art import TILE_SIZE
from carca_bot.render.yourtile import MARK_FILL, legal_squares

NAMES = ("Ana", "Ben", "Cyrille", "Dee", "Eve", "Finn")
LIMIT = 250_000  # issue 15: a typical post under 250 KB


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


@pytest.mark.parametrize("seed", [1, 7])
def test_a_late_six_player_board_fits_a_phone_and_250_kb(seed: int) -> None:
    game, tile = _played(seed, 4)
    assert len(game.board.tiles) > 80  # a board of some size
    data = render_focus(game, tile)
    assert len(data) < LIMIT
    img = _decoded(data)
    assert img.format == "PNG" and img.mode == "P"  # the default: 256 colours
    assert img.width <= WIDTH and img.height <= WIDTH
    assert img.size == focus_image(game, tile).size


@pytest.mark.parametrize("left", [100, 60, 4])
def test_the_crop_holds_the_last_tile_and_every_legal_square(left: int) -> None:
    game, tile = _played(3, left)
    assert tile is not None and game.last_placed is not None
    lay = focus_layout(game, tile)
    squares = legal_squares(game, tile)
    assert squares and all(lay.holds(pos) for pos in squares)
    last = game.last_placed[0]
    assert lay.holds(last)
    # Within the board (its tiles and one empty square all round), and at least the
    # context around the last move that the board has.
    x0, y0, cols, rows = bounds(game)
    assert x0 <= lay.x0 and lay.x0 + lay.cols <= x0 + cols
    assert y0 <= lay.y0 and lay.y0 + lay.rows <= y0 + rows
    for dx in range(-CONTEXT, CONTEXT + 1):
        for dy in range(-CONTEXT, CONTEXT + 1):
            pos = (last[0] + dx, last[1] + dy)
            if x0 <= pos[0] < x0 + cols and y0 <= pos[1] < y0 + rows:
                assert lay.holds(pos)
    assert lay.width <= WIDTH and lay.height <= WIDTH
    assert lay.tile in TILE_STEPS and lay.label >= MIN_LABEL


def test_the_crop_is_part_of_a_large_board_when_the_tile_fits_nearby() -> None:
    """Late in a game, with the tile fitting only beside the last move: the picture shows
    part of the board, at a larger scale than the whole board gets."""
    game, _ = _played(3, 4)
    assert game.last_placed is not None
    x, y = game.last_placed[0]
    near = [pos for pos in game.board.frontier if abs(pos[0] - x) + abs(pos[1] - y) == 1]
    assert near
    lay = plan(game, near[:1])
    whole = plan(game, tuple(game.board.frontier))
    assert lay.holds((x, y)) and lay.holds(near[0])
    assert lay.cols * lay.rows < whole.cols * whole.rows and lay.tile > whole.tile


def test_the_last_move_is_framed_in_its_players_colour_and_legal_squares_are_marked() -> None:
    game, tile = _played(3, 60)
    assert tile is not None and game.last_placed is not None
    img = focus_image(game, tile)
    lay = focus_layout(game, tile)
    pos, player = game.last_placed
    left, top, _, bottom = lay.box(pos)
    w = 2 * outline_width(lay)  # twice the full board's frame
    assert w > outline_width(lay)
    assert _rgb(img, (left + w - 1, (top + bottom) // 2)) == palette.player(player).fill
    for square in legal_squares(game, tile):
        sl, st, _, _ = lay.box(square)
        inset = max(3, lay.tile // 14) + 3
        assert _rgb(img, (sl + inset, st + inset)) == MARK_FILL
    bare = focus_image(game, None)  # no tile: nothing marked
    assert MARK_FILL not in {c for _, c in bare.getcolors(1 << 20) or []}


def test_tiles_and_figures_beside_the_crop_stay_out_of_the_labels() -> None:
    """The board's tiles west and north of the crop are not drawn: they would land on the
    coordinate labels."""
    game, _ = _played(3, 60)
    x0, y0, _, _ = bounds(game)
    last = game.last_placed[0] if game.last_placed else (0, 0)
    lay = focus_layout(game, None, width=400)
    assert lay.x0 > x0 or lay.y0 > y0  # a part of the board
    img = focus_image(game, None, width=400)
    band = img.crop((0, 0, lay.left, img.height)).getcolors(1 << 16) or []
    top = img.crop((0, 0, img.width, lay.top)).getcolors(1 << 16) or []
    colours = {c for _, c in (*band, *top)}
    assert palette.FIELD not in colours and palette.CITY not in colours
    assert lay.holds(last)


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


def test_a_one_tile_board_is_drawn_at_the_arts_own_size() -> None:
    game = Game(Setup(NAMES[:2], frozenset(), seed=5))
    assert len(game.board.tiles) == 1 and game.last_placed is None
    tile = game.draw()
    lay = focus_layout(game, tile)
    start = next(iter(game.board.tiles))
    assert lay.tile == TILE_SIZE  # never scaled up beyond the art
    assert (lay.cols, lay.rows) == (3, 3) and lay.holds(start)
    assert all(lay.holds(pos) for pos in legal_squares(game, tile))
    img = _decoded(render_focus(game, tile))
    assert img.size == (lay.width, lay.height) and img.width < WIDTH
    assert focus_layout(game, tile, width=5000).tile == TILE_SIZE


@pytest.mark.parametrize("width", [300, 640])
def test_a_narrow_width_is_kept_even_below_the_smallest_tile_step(width: int) -> None:
    game, tile = _played(1, 4)
    img = _decoded(render_focus(game, tile, width=width))
    assert img.width <= width and img.height <= width


def test_labels_wider_than_a_square_are_thinned_not_overlapped() -> None:
    """At phone size the labels are larger than small squares: every 2nd (3rd...) column is
    labelled, on multiples of the stride, so 0 keeps its label."""
    def column(_f: int) -> tuple[int, int]:
        return 0, 0

    small: Layout = layout_at(-12, -12, 25, 25, TILE_STEPS[-1], column, 30)
    across, down = label_strides(small)
    assert across >= 2 and down >= 2
    big = layout_at(-3, -3, 7, 7, TILE_SIZE, column, 34)
    assert label_strides(big) == (1, 1)
    board = layout_at(-12, -12, 25, 25, TILE_STEPS[-1], column)  # the full board's labels
    assert label_strides(board) == (1, 1)


def test_the_words_under_squares_are_in_the_language_asked() -> None:
    """`language` reaches the words under a square where the tile fits every way."""
    game, _ = _played(3, 60)
    tile = next(t for t in sorted(game.catalogue.tiles)
                if any(len(r) == 4 for r in legal_squares(game, t).values()))
    assert focus_layout(game, tile).tile >= 40  # the words are drawn at this size
    english = render_focus(game, tile)
    assert render_focus(game, tile, language="es") != english
    assert render_focus(game, tile, language="en") == english
