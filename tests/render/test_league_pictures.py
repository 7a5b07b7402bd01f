"""League pictures: standings, leaderboard and profile card; pages, hostile names, languages."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from babel.messages.pofile import read_po
from PIL import Image

from carca_bot.i18n import speaking
from carca_bot.i18n.catalogues import po_path
from carca_bot.i18n.pseudo import untranslated
from carca_bot.render import text
from carca_bot.render.league import (
    PER_PAGE,
    TIEBREAK_HEADINGS,
    LeaderRow,
    StandingRow,
    number,
    render_leaderboard,
    render_standings,
    standing_columns,
)
from carca_bot.render.league_profile import ProfileCard, duration, render_profile
from carca_bot.render.table import (
    MAX_MARKS,
    WIDTH,
    Line,
    Sizes,
    column_widths,
    page_of,
    safe_name,
)
from carca_bot.service.league_ops import TIEBREAKS

CHAIN = ("buchholz", "difference", "scored", "head_to_head", "placing", "wins")
HOSTILE = (
    "",  # nothing at all
    "\x00\x01\x1b[31m",  # only control characters (and what they leave)
    "Ana\u202eevil\u202c",  # a right-to-left override
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew: no glyphs in the font
    "\U0001f409\u200d\U0001f525 Dragon\ufe0f",  # emoji with a joiner and a selector
    "Z\u0337\u0322\u031b\u031b\u032f\u0347a\u0337l\u0335g\u0336o\u0338" * 20,  # zalgo
    "W" * 10_000,  # very long
    "line\nbreak\ttab",
    "Begoña Íñiguez",
)


def _standings(n: int, names: tuple[str, ...] = ("Ana", "Ben", "Cyrille")) -> list[StandingRow]:
    return [StandingRow(i + 1, names[i % len(names)], 5, 3, 1, 1, 3.5 - (i % 4) / 2,
                        (7.5, 12 - i, 301, 0.5, 3, 3), withdrawn=i == 2) for i in range(n)]


def _leaders(n: int, names: tuple[str, ...] = ("Ana", "Ben", "Cyrille")) -> list[LeaderRow]:
    return [LeaderRow(i + 1, names[i % len(names)], 31.25 - i / 3, 40 - i % 40,
                      provisional=i % 5 == 4) for i in range(n)]


CARD = ProfileCard("Begoña", 27.34, 19.0, 57, 21, 84.62, ("abbey_mayor", "river", "cult"),
                   5423.0, ((1, 2), (3, 4), (2, 2), (1, 5)), provisional_multi=True)


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img


# --- sizes and pages --------------------------------------------------------------------

@pytest.mark.parametrize("rows", [1, 64])
def test_standings_and_leaderboard_pages(rows: int) -> None:
    pages = -(-rows // PER_PAGE)
    first = render_standings(_standings(rows), event="Winter League", tiebreaks=CHAIN[:3],
                             round_no=2, rounds=5)
    assert (first.page, first.pages) == (1, pages)
    img = _png(first.data)
    assert img.width == WIDTH and 300 < img.height < 1600
    assert len(first.data) < 250_000
    board = render_leaderboard(_leaders(rows), server="Guild", pool="multi")
    assert (board.page, board.pages) == (1, pages)
    assert _png(board.data).width == WIDTH
    last = render_standings(_standings(rows), event="W", page=pages)
    beyond = render_standings(_standings(rows), event="W", page=pages + 7)
    assert beyond == last and last.page == pages  # past the end: the last page
    assert render_standings(_standings(rows), event="W", page=-3).page == 1


def test_every_tiebreak_of_the_menu_has_a_heading_and_a_legend() -> None:
    """Each tie-break an organiser can choose gets its own short heading and legend line
    (not its raw key cut short), English and Spanish."""
    assert set(TIEBREAK_HEADINGS) == set(TIEBREAKS)
    chain = ("buchholz_cut1", "median", "sonneborn_berger")
    for language, words in (("en", "SB: Sonneborn-Berger (each opponent's wins times your "
                                    "result against them)"),
                            ("es", "SB: Sonneborn-Berger (victorias de cada rival por tu "
                                   "resultado contra él)")):
        with speaking(language):
            columns, legend = standing_columns(chain)
        assert [c.heading for c in columns[-3:]] == ["BH-1", "Med", "SB"]
        assert len(legend) == 8 and legend[-1] == words
        assert not any("_" in item for item in legend), legend
    drawn = render_standings(_standings(3), event="E", tiebreaks=chain)
    assert drawn != render_standings(_standings(3), event="E", tiebreaks=("x1", "x2", "x3"))


def test_a_short_last_page_is_a_shorter_picture() -> None:
    rows = _standings(64)  # 15, 15, 15, 15, 4
    full = _png(render_standings(rows, event="E", page=1).data)
    short = _png(render_standings(rows, event="E", page=5).data)
    assert short.width == full.width and short.height < full.height
    assert page_of(rows, 5, 15)[0] == rows[60:]
    with pytest.raises(ValueError, match="per_page"):
        render_standings(rows, event="E", per_page=0)


def test_no_rows_draws_a_message_not_an_error() -> None:
    empty = render_standings([], event="E")
    assert (empty.page, empty.pages) == (1, 1)
    assert _png(empty.data).width == WIDTH
    assert render_leaderboard([], server="S").pages == 1


def test_profile_card() -> None:
    data = render_profile(CARD)
    img = _png(data)
    assert img.width == WIDTH and 400 < img.height < 1000 and len(data) < 250_000
    bare = ProfileCard("New", None, None, 0, 0, None)  # nothing played yet
    assert _png(render_profile(bare)).width == WIDTH


def test_same_data_same_bytes_in_any_thread() -> None:
    rows = _standings(20)
    first = render_standings(rows, event="E", tiebreaks=CHAIN, language="es", page=2)
    with ThreadPoolExecutor(1) as pool:
        again = pool.submit(render_standings, rows, event="E", tiebreaks=CHAIN,
                            language="es", page=2).result()
        profile = pool.submit(render_profile, CARD, language="es").result()
    assert again == first
    assert profile == render_profile(CARD, language="es") != render_profile(CARD)
    assert render_leaderboard(_leaders(9), server="S") == render_leaderboard(_leaders(9),
                                                                             server="S")


# --- hostile names ----------------------------------------------------------------------

def test_hostile_names_draw_safely_and_never_change_the_size() -> None:
    plain = render_standings(_standings(len(HOSTILE)), event="E", tiebreaks=CHAIN)
    hostile = render_standings(_standings(len(HOSTILE), HOSTILE), event=HOSTILE[5],
                               tiebreaks=CHAIN)
    assert _png(hostile.data).size == _png(plain.data).size
    leaders = render_leaderboard(_leaders(len(HOSTILE), HOSTILE), server=HOSTILE[6])
    assert _png(leaders.data).size == _png(render_leaderboard(
        _leaders(len(HOSTILE)), server="S").data).size
    for name in HOSTILE:
        card = render_profile(ProfileCard(name, None, 3.0, 1, 0, 12.0, (name,)))
        assert _png(card).width == WIDTH


def test_safe_name() -> None:
    for name in HOSTILE:
        safe = safe_name(name)
        assert safe and len(safe) <= 400
        assert not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in safe)
        run = 0
        for c in safe:  # accents stacked on one letter stay few
            run = run + 1 if unicodedata.combining(c) else 0
            assert run <= MAX_MARKS
    assert safe_name("") == safe_name("\x00\x1b") == "?"
    assert safe_name("Ana\u202eevil") == "Anaevil"
    assert safe_name("Begoña  Íñiguez\n") == "Begoña Íñiguez"
    assert safe_name("e\u0301") == "é"  # composed, as the font draws it
    assert safe_name("Z\u0337a") == "Za"  # a mark the font lacks would be drawn as a box
    assert safe_name("\U0001f409 x") == "\U0001f409 x"  # a letter it lacks stays: a box


def test_long_names_are_cut_with_an_ellipsis(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch, lambda: render_standings(
        _standings(3, ("W" * 10_000,)), event="E", tiebreaks=CHAIN))
    cut = [s for s in drawn if s.startswith("WWW")]
    assert len(cut) == 3 and cut[0].endswith("…") and len(cut[0]) < 100
    assert cut[2].endswith("… (withdrawn)")  # the note is never what gets cut


def test_many_columns_still_fit_the_width() -> None:
    """A long tie-break chain narrows the gaps, a long text value is cut; the names keep
    some room."""
    columns, _legend = standing_columns((*CHAIN, "mystery_key_with_a_long_name"))
    rows = [Line(("10", "W" * 50, "99", "99", "99", "99", "99½",
                  *(["-999.5"] * 6), "a tie-break given as text " * 20)) for _ in range(3)]
    s = Sizes.of(WIDTH)
    widths = column_widths(columns, rows, WIDTH, s)
    assert sum(widths) <= WIDTH - 2 * s.pad
    assert widths[1] >= 4 * s.f  # the names


# --- words ------------------------------------------------------------------------------

def _drawn(monkeypatch: pytest.MonkeyPatch, draw: object) -> list[str]:
    """Every string the pictures draw while `draw()` runs."""
    seen: list[str] = []
    real = text.draw

    def record(d: object, xy: object, value: str, *args: object, **kwargs: object) -> None:
        seen.append(value)
        real(d, xy, value, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(text, "draw", record)
    assert callable(draw)
    draw()
    return seen


def _all_pictures(language: str) -> Iterator[object]:
    yield render_standings(_standings(20), event="Liga", tiebreaks=CHAIN, round_no=3,
                           rounds=5, language=language, page=2)
    yield render_standings(_standings(2), event="Liga", final=True, round_no=4,
                           language=language)
    yield render_standings([], event="Liga", language=language)
    for pool in ("duel", "multi"):
        yield render_leaderboard(_leaders(20), server="Guild", pool=pool, language=language,
                                 page=2)
    yield render_leaderboard([], server="Guild", language=language)
    yield render_profile(CARD, language=language)
    yield render_profile(ProfileCard("Neu", None, None, 0, 0, None), language=language)


def test_every_word_is_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pseudo-locale: every word drawn comes from the catalogue; only data is left."""
    drawn = _drawn(monkeypatch, lambda: list(_all_pictures("qps")))
    # Names are data ("Begoña" reads as the word "Bego": plain words are ASCII).
    allowed = frozenset({"Liga", "Guild", "Ana", "Ben", "Cyrille", "Bego", "Neu"})
    assert untranslated(" | ".join(drawn), allowed) == []
    assert len(drawn) > 100


def test_spanish_headings_are_in_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    with po_path("es", "render").open("rb") as f:
        catalog = read_po(f)
    for heading, meaning in TIEBREAK_HEADINGS.values():
        for msgid in (heading, meaning):
            message = catalog.get(msgid)
            assert message is not None and message.string and not message.fuzzy, msgid
    spanish = " | ".join(_drawn(monkeypatch, lambda: list(_all_pictures("es"))))
    for word in ("Clasificación", "Jugador", "PJ", "Pts", "Tras la ronda 3 de 5", "Ranking",
                 "Valoración", "Partidas", "Perfil de jugador", "El Culto", "Página 2 de 2",
                 "ED: enfrentamiento directo", "Clasificación final", "Victorias"):
        assert word in spanish, word
    assert "Standings" not in spanish and "Player" not in spanish


def test_numbers_and_durations() -> None:
    assert [number(v) for v in (3, 3.0, 2.5, 0.5, -1.5, 12.333, "n/a")] == [
        "3", "3", "2½", "½", "-1½", "12.3", "n/a"]
    assert number(12, signed=True) == "+12" and number(-3, signed=True) == "-3"
    assert number(0, signed=True) == "0"
    assert [duration(s) for s in (0, 42, 600, 5423, 200_000)] == [
        "0 s", "42 s", "10 min", "1 h 30 min", "2 d 8 h"]
    with speaking("es"):
        assert duration(5423) == "1 h 30 min"
    with pytest.raises(ValueError, match="pool"):
        render_leaderboard([], server="S", pool="triples")
