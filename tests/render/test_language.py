"""The pictures' words in Spanish: passed as an argument, drawable, and fitting the panel."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from babel.messages.pofile import read_po
from PIL import Image, ImageChops

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.i18n import speaking
from carca_bot.i18n.catalogues import po_path
from carca_bot.render import panel, text
from carca_bot.render.board import BoardRenderer, render_board, render_your_tile

MISSING = "\u0378"  # an unassigned code point: the font draws its missing-glyph box


@cache
def _game(left: int) -> Game:
    game = Game(Setup(("Ana", "Ben", "Cyrille"), frozenset(EXPANSIONS), seed=4))
    rng = random.Random(4)
    while game.tiles_left > left:
        play_random_turn(game, rng)
    return game


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def test_spanish_changes_only_the_words_of_the_column() -> None:
    game = _game(60)
    renderer = BoardRenderer()
    english, lay = renderer.board_image(game)
    spanish, _ = renderer.board_image(game, language="es")
    assert english.size == spanish.size
    diff = ImageChops.difference(english, spanish).getbbox()
    assert diff is not None and diff[0] >= lay.board_size[0]  # the board itself is the same
    # The kept layers and the cached panels are per language: English again is English.
    assert renderer.render(game) == BoardRenderer().render(game) == render_board(game)


def test_the_language_is_an_argument_not_the_callers_context() -> None:
    """The bot renders in a thread pool, which does not see the caller's language."""
    game = _game(60)
    tile = game.draw()
    with speaking("es"):
        assert render_board(game) == render_board(game, language="en")
        with ThreadPoolExecutor(1) as pool:
            board = pool.submit(render_board, game, None, "es").result()
            yours = pool.submit(render_your_tile, game, tile, None, "es").result()
    assert board == BoardRenderer().render(game, language="es") != render_board(game)
    assert yours == BoardRenderer().your_tile(game, tile, language="es")
    assert yours != render_your_tile(game, tile)


def _spanish_strings() -> list[str]:
    with po_path("es", "render").open("rb") as f:
        catalog = read_po(f)
    out: list[str] = []
    for message in catalog:
        if message.id:
            given = message.string
            strings = [str(s) for s in given] if isinstance(given, (tuple, list)) else [str(given)]
            out.extend(s.format(n=70) if "{n}" in s else s for s in strings)
    return out


def test_every_spanish_word_is_drawn_with_real_glyphs() -> None:
    """The bundled font has no accented letters (á, é, ñ, ...): the Spanish drawn in the
    pictures must avoid them, or a box would show instead of the letter."""
    font = text.font(20)
    box = bytes(font.getmask(MISSING))
    missing = {c for s in _spanish_strings() for c in set(s)
               if c != " " and bytes(font.getmask(c)) == box}
    assert _spanish_strings() and missing == set()
    assert bytes(font.getmask("á")) == box  # the check can see a missing letter


def test_spanish_fits_the_panel_at_every_size() -> None:
    for f in (8, 11, 14, 20):
        room = panel.panel_width(f) - 2 * round(0.6 * f)
        with speaking("es"):
            heads = [panel._("Game over"), panel.ngettext("Tiles left: {n}", "Tiles left: {n}",
                                                          72).format(n=72)]
            lines = [panel._("square = x,y")]
        assert all(text.width(h, round(1.15 * f)) <= room for h in heads), (f, heads)
        assert all(text.width(line, f) <= room for line in lines)
