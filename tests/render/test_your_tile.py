"""The "my tile" picture: a phone-shaped column with the rotations, the best squares
magnified, every other square listed, and the whole board small."""

from __future__ import annotations

import io
import random
from functools import cache

import pytest
from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render import yourtile
from carca_bot.render.board import BoardRenderer, ImageTooLarge, render_your_tile
from carca_bot.render.grid import BACKGROUND
from carca_bot.render.yourtile import (
    BEST,
    MARK,
    MAX_BYTES,
    WIDTH,
    best_squares,
    legal_squares,
    shown_squares,
    your_tile_image,
    your_tile_parts,
)

NAMES = ("Ana", "Ben", "Cyrille", "Dee", "Eve", "Finn")


@cache
def _played(seed: int, left: int) -> tuple[Game, str]:
    game = Game(Setup(NAMES, frozenset(EXPANSIONS), seed=seed))
    rng = random.Random(seed)
    while not game.finished and game.tiles_left > left:
        play_random_turn(game, rng)
    return game, game.draw()


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize(("seed", "left"), [(7, 100), (7, 4), (3, 4), (1, 60)])
def test_a_phone_shaped_picture_within_200_kb(seed: int, left: int) -> None:
    """Before: landscape, the whole board beside a panel (2254 x 1721 px, 666 KB late in a
    6-player game), 235 px tall on a phone."""
    game, tile = _played(seed, left)
    data = render_your_tile(game, tile)
    img = _png(data)
    assert img.width <= WIDTH and img.height >= img.width  # portrait
    assert len(data) <= MAX_BYTES
    assert data == BoardRenderer().your_tile(game, tile)  # the bot's other way in


def test_every_legal_square_is_shown_or_listed_and_the_best_touch_most_tiles() -> None:
    game, tile = _played(3, 4)
    squares = legal_squares(game, tile)
    chosen, rest = shown_squares(game, tile)
    assert len(chosen) == BEST and sorted(chosen + rest) == sorted(squares)
    tiles = game.board.tiles

    def touching(pos: tuple[int, int]) -> int:
        return sum((pos[0] + dx, pos[1] + dy) in tiles
                   for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))

    assert min(touching(p) for p in chosen) >= max(touching(p) for p in rest)
    assert best_squares(game, squares) == chosen + rest


def test_the_best_squares_show_the_tile_framed_in_the_mark_colour() -> None:
    game, tile = _played(1, 60)
    parts = your_tile_parts(game, tile)
    assert parts.best is not None and parts.others is not None
    colours = {c for _, c in parts.best.getcolors(1 << 20) or []}
    assert MARK in colours
    few = Game(Setup(NAMES[:2], frozenset(), seed=5))  # the first move: few squares
    first = few.draw()
    small = your_tile_parts(few, first)
    assert small.best is not None
    if len(legal_squares(few, first)) <= BEST:
        assert small.others is None  # nothing left to list


def test_a_rotation_that_fits_nowhere_is_washed_out() -> None:
    """The river's lake fits only one way on the first move: the other rotations fade."""
    game = Game(Setup(NAMES[:2], frozenset({"river"}), seed=3))
    tile = game.draw()
    fits = {r for rots in legal_squares(game, tile).values() for r in rots}
    assert 0 < len(fits) < 4
    strip = your_tile_parts(game, tile).rotations
    size, pad = yourtile.TURNED, yourtile.PAD
    gap = (WIDTH - 2 * pad - 4 * size) // 3
    top = round(1.5 * yourtile.F)
    for rot in range(4):
        left = pad + rot * (size + gap)
        frame = strip.getpixel((left - 2, top + size // 2))
        assert (frame == MARK) == (rot in fits), rot


def test_a_tight_limit_drops_the_small_board_then_shrinks() -> None:
    game, tile = _played(7, 4)
    whole = render_your_tile(game, tile)
    limit = len(whole) * 2 // 3
    smaller = render_your_tile(game, tile, max_bytes=limit)
    assert len(smaller) <= limit and _png(smaller).height < _png(whole).height
    tiny = render_your_tile(game, tile, max_bytes=30_000)
    assert len(tiny) <= 30_000 and _png(tiny).width < WIDTH
    with pytest.raises(ImageTooLarge):
        render_your_tile(game, tile, max_bytes=500)


def test_the_words_follow_the_language_and_the_picture_is_deterministic() -> None:
    game, tile = _played(7, 100)
    english = render_your_tile(game, tile)
    assert render_your_tile(game, tile, language="es") != english
    assert render_your_tile(game, tile) == english
    img = your_tile_image(game, tile)
    assert img.getpixel((2, 2)) == BACKGROUND


def test_a_tile_that_fits_nowhere_still_gets_a_picture() -> None:
    game, _ = _played(3, 4)
    stuck = next((t for t in sorted(game.catalogue.tiles) if not legal_squares(game, t)), None)
    if stuck is None:
        pytest.skip("every tile fits somewhere on this board")
    parts = your_tile_parts(game, stuck)
    assert parts.best is None and parts.others is None and parts.board is not None
    assert _png(render_your_tile(game, stuck)).width == WIDTH
