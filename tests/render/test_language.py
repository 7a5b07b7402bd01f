"""The pictures' words in Spanish: passed as an argument, drawable, and fitting the panel."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from string import Formatter

from babel.messages.pofile import read_po
from PIL import Image, ImageChops, ImageFont

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.i18n import speaking
from carca_bot.i18n.catalogues import po_path
from carca_bot.render import panel, text, yourtile
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


NAMES = ("José", "Begoña", "Zoë", "Łukasz", "Ørjan", "Ἀθηνᾶ", "Дмитрий", "Ñandú", "Ångström",
         "Çağla", "Dvořák", "Nguyễn", "Þórunn", "Ἀριστοτέλης", "Щербаков", "Їжак")
SAMPLE = 70  # any value: what is checked is the catalogue's own text around the fields


def _filled(template: str) -> str:
    """`template` with a sample value in each of its `{field}`s, whatever their names."""
    fields = {name.split(".")[0].split("[")[0]
              for _text, name, _spec, _conv in Formatter().parse(template) if name}
    return template.format(**dict.fromkeys(fields, SAMPLE))


def _catalogue_strings(language: str, domain: str) -> list[str]:
    """Every source and translated string of one catalogue, fields filled in."""
    with po_path(language, domain).open("rb") as f:
        catalog = read_po(f)
    out: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        given = message.string
        strings = given if isinstance(given, (tuple, list)) else (given,)
        out.extend(_filled(str(s)) for s in (*ids, *strings) if s)
    return out


def _drawn_strings() -> list[str]:
    return [s for language in ("en", "es") for domain in ("render", "replay_html")
            for s in _catalogue_strings(language, domain)]


def _mask(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


def _without_glyph(face: ImageFont.FreeTypeFont, chars: set[str]) -> set[str]:
    """The characters `face` draws as its missing-glyph box."""
    box = _mask(face, MISSING)
    return {c for c in chars if _mask(face, c) == box}


def test_every_word_and_name_is_drawn_with_real_glyphs() -> None:
    """Every letter of the pictures' words, in both languages, and of players' names from
    many alphabets has a glyph in both faces: no box instead of "ó" in "Clasificación"."""
    strings = _drawn_strings()
    assert len(strings) > 100 and "Jugada 70 de 70" in strings  # {n} and {total} filled
    assert not any("{" in s for s in strings)
    chars = {c for s in (*strings, *NAMES) for c in s}
    assert {"á", "é", "í", "ó", "ú", "ñ", "Ø", "Ł", "ᾶ", "Д"} <= chars
    for bold in (False, True):
        for size in (9, 20):
            assert _without_glyph(text.font(size, bold), chars) == set(), (bold, size)


def test_the_glyph_check_sees_a_missing_letter() -> None:
    """The font has no Chinese: the check above would have caught a box."""
    assert _without_glyph(text.font(20), {"中", "文", "a"}) == {"中", "文"}


def test_spanish_fits_the_panel_at_every_size() -> None:
    for f in (8, 11, 14, 20):
        room = panel.panel_width(f) - 2 * round(0.6 * f)
        with speaking("es"):
            heads = [panel._("Game over"), panel.ngettext("Tiles left: {n}", "Tiles left: {n}",
                                                          72).format(n=72), yourtile._("Your tile")]
            lines = [panel._("square = x,y")]  # drawn bold
            notes = [yourtile.ngettext("{n} legal square", "{n} legal squares", 188).format(
                n=188), yourtile._("fits nowhere")]
        assert all(text.width(h, round(1.15 * f), bold=True) <= room for h in heads), (f, heads)
        assert all(text.width(line, f, bold=True) <= room for line in lines)
        assert all(text.width(note, round(0.85 * f)) <= room for note in notes), (f, notes)


def test_the_words_under_a_best_square_fit_it() -> None:
    """Under a square shown magnified in the your-tile picture (sizes as in
    yourtile._best): the rotations, or "any turn", uncut in both languages."""
    for language in ("en", "es"):
        with speaking(language):
            words = [yourtile.turns_words(rots) for rots in ((0, 1, 2, 3), (0, 1, 2), (1,))]
        room = 3 * yourtile.NEAR
        assert all(text.fit(w, yourtile.F, room) == w for w in words), (language, words)
