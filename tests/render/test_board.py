"""The board picture: deterministic, within size limits, labelled, and figures on their features."""

from __future__ import annotations

import io
import random
import struct
from functools import cache

import pytest
from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render import palette, yourtile
from carca_bot.render.board import (
    MAX_BYTES,
    MAX_SIDE,
    BoardRenderer,
    ImageTooLarge,
    render_board,
    render_your_tile,
)
from carca_bot.render.grid import Layout
from carca_bot.render.pieces import outline_width
from carca_bot.render.tile_art import tile_image
from carca_bot.render.yourtile import MARK, legal_squares

NAMES = ("Ana", "Ben", "Cyrille", "Dee", "Eve", "Finn")


@cache
def _played(seed: int, left: int | None = None, players: int = 4) -> Game:
    """A game with all expansions, played at random until `left` tiles remain (or to its
    end)."""
    game = Game(Setup(NAMES[:players], frozenset(EXPANSIONS), seed=seed))
    rng = random.Random(seed)
    while not game.finished and (left is None or game.tiles_left > left):
        play_random_turn(game, rng)
    return game


def _image(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, i = [], 8
    while i < len(data):
        (length,) = struct.unpack(">I", data[i:i + 4])
        kinds.append(data[i + 4:i + 8])
        i += 12 + length
    return kinds


def _rgb(img: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    p = img.getpixel(xy)
    assert isinstance(p, tuple)
    return (int(p[0]), int(p[1]), int(p[2]))


# --- determinism and limits ----------------------------------------------------------------

def test_same_state_same_bytes() -> None:
    game = _played(3, 40)
    first = BoardRenderer().render(game)
    kept = BoardRenderer()
    assert kept.render(game) == first
    tile = game.draw()
    yours = kept.your_tile(game, tile)
    kept.render(_played(4, 60))  # another game in between must not leave traces
    assert kept.render(game) == first
    assert kept.your_tile(game, tile) == yours == BoardRenderer().your_tile(game, tile)
    assert render_board(game) == first
    assert _chunks(first) == [b"IHDR", b"IDAT", b"IEND"]  # no metadata, no timestamps


def test_move_by_move_equals_from_scratch() -> None:
    """The kept layer (pasting new tiles, growing the crop) gives the same picture as a
    renderer that starts from nothing."""
    game = Game(Setup(NAMES[:3], frozenset(EXPANSIONS), seed=11))
    rng = random.Random(11)
    kept = BoardRenderer()
    moves = 0
    while not game.finished:
        play_random_turn(game, rng)
        moves += 1
        data = kept.render(game)
        if moves % 9 == 0 or game.finished:
            assert data == BoardRenderer().render(game), moves


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 2), (5, 6)])
def test_full_board_fits_limits(seed: int, players: int) -> None:
    game = _played(seed, None, players)
    assert game.finished and len(game.board.tiles) >= 110
    data = render_board(game)
    img = _image(data)
    assert max(img.size) <= MAX_SIDE
    assert len(data) < MAX_BYTES
    img, lay = BoardRenderer().board_image(game)
    assert lay.figure_size() >= 22


def test_max_bytes_is_respected() -> None:
    game = _played(1)
    full = render_board(game)
    limit = len(full) // 3
    small = render_board(game, max_bytes=limit)
    assert len(small) < limit
    assert _image(small).width < _image(full).width
    assert len(render_your_tile(_played(1, 20), "D", max_bytes=limit)) < limit
    with pytest.raises(ImageTooLarge):
        render_board(game, max_bytes=2_000)


# --- what is drawn where ---------------------------------------------------------------------

def _label_strips(img: Image.Image, lay: Layout, x: int, y: int) -> tuple[bytes, bytes]:
    """The label band above column x and left of row y."""
    left, top, right, bottom = lay.box((x, y))
    above = img.crop((left, 0, right, lay.top)).tobytes()
    beside = img.crop((lay.left - 30, top, lay.left, bottom)).tobytes()  # right-aligned
    return above, beside


def test_coordinate_labels_are_stable() -> None:
    """As the board grows, the labels over the start tile still read 0 and 0, and each label
    stays with its own column: the same label pixels sit over square x whatever the crop."""
    early, early_lay = BoardRenderer().board_image(_played(7, 80), cap=64)
    late, late_lay = BoardRenderer().board_image(_played(7, 50), cap=64)
    assert early_lay.tile == late_lay.tile
    assert (early_lay.x0, early_lay.y0) != (late_lay.x0, late_lay.y0)
    for x, y in ((0, 0), (1, -1), (-1, 1)):
        a = _label_strips(early, early_lay, x, y)
        b = _label_strips(late, late_lay, x, y)
        assert a == b, (x, y)
    assert _label_strips(late, late_lay, 0, 0) != _label_strips(late, late_lay, 1, 1)
    above, _ = _label_strips(late, late_lay, 0, 0)
    dark = sum(1 for i in range(0, len(above), 3) if sum(above[i:i + 3]) < 200)
    assert dark > 5  # the label is really there
    pos, art = _bare_tile(_played(7, 50), late_lay.tile)
    assert late.crop(late_lay.box(pos)).tobytes() == art.tobytes(), pos


def _bare_tile(game: Game, size: int) -> tuple[tuple[int, int], Image.Image]:
    """A placed tile nearest the start with nothing drawn over it (no figure or token,
    nor the last tile's outline, on it or on a neighbour, which may reach over its
    edge), and its art: whatever the random game, a square to compare exactly."""
    drawn = [f.pos for f in game.figures] + [t[0] for t in game.tokens_on_board()]
    if game.last_placed is not None:  # its outline may reach a pixel over its edge
        drawn.append(game.last_placed[0])
    covered = {(x + dx, y + dy) for x, y in drawn for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    bare = sorted((abs(x) + abs(y), (x, y)) for x, y in game.board.tiles
                  if (x, y) not in covered)
    assert bare, "every tile has something drawn over it"
    pos = bare[0][1]
    placed = game.board.tiles[pos]  # an abbey's tile is ABBEY, as the art names it
    return pos, tile_image(placed.tile, placed.rot, size, game.setup.has("tunnel"))


@pytest.mark.parametrize("seed", [2, 8, 9])
def test_last_tile_outlined_in_its_players_colour(seed: int) -> None:
    game = _played(seed, 50)
    assert game.last_placed is not None
    pos, player = game.last_placed
    img, lay = BoardRenderer().board_image(game)
    left, top, right, bottom = lay.box(pos)
    band = 1 + outline_width(lay) // 2
    mid_x, mid_y = (left + right) // 2, (top + bottom) // 2
    want = palette.player(player).fill
    for xy in ((left + band, mid_y), (right - 1 - band, mid_y), (mid_x, top + band),
               (mid_x, bottom - 1 - band)):
        assert _rgb(img, xy) == want, xy


def _marked(img: Image.Image, lay: Layout, game: Game) -> set[tuple[int, int]]:
    """Empty squares whose frame shows the mark colour (at 3 or 4 of its edge middles; a
    figure on a neighbouring tile may hide one)."""
    band = 1 + max(3, lay.tile // 14) // 2
    marked = set()
    for pos in lay.squares():
        if pos in game.board.tiles:
            continue
        x0, y0, x1, y1 = lay.box(pos)
        mx, my = (x0 + x1) // 2, (y0 + y1) // 2
        hits = sum(_rgb(img, xy) == MARK for xy in ((x0 + band, my), (x1 - 1 - band, my),
                                                    (mx, y0 + band), (mx, y1 - 1 - band)))
        assert hits in (0, 3, 4), (pos, hits)
        if hits:
            marked.add(pos)
    return marked


def _map(game: Game, tile: str) -> tuple[Image.Image, Layout]:
    """The your-tile picture's small board, cut out, with its layout."""
    parts = yourtile.your_tile_parts(game, tile)
    assert parts.board is not None
    lay = yourtile.map_layout(game)
    left = (yourtile.WIDTH - lay.width) // 2
    return parts.board.crop((left, yourtile.MAP_TOP, left + lay.width,
                             yourtile.MAP_TOP + lay.height)), lay


@pytest.mark.parametrize(("seed", "left"), [(3, 60), (6, 20), (10, 5)])
def test_your_tile_marks_exactly_the_legal_squares(seed: int, left: int) -> None:
    game = _played(seed, left)
    tile = game.draw()
    img, lay = _map(game, tile)
    legal = {p.pos for p in game.legal_placements(tile)}
    assert legal
    assert _marked(img, lay, game) == legal == set(legal_squares(game, tile))


def test_abbey_squares_are_marked_too() -> None:
    """The abbey goes in holes: the picture marks exactly those."""
    game = _played(12, 30)
    img, lay = _map(game, "ABBEY")
    assert _marked(img, lay, game) == set(game.abbey_squares())
