"""Issue 28's rating pictures: the profile card's uncertainty and recent opponents, the
rating history chart and the head-to-head card; languages and hostile names."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image

from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.render.league_profile import (
    HISTORY_SIZE,
    SHOWN,
    HeadToHeadCard,
    ProfileCard,
    RatingHistoryCard,
    draw_profile,
    draw_rating_history,
    render_head_to_head,
    render_profile,
    render_rating_history,
)
from carca_bot.render.table import WIDTH
from tests.render.test_league_pictures import HOSTILE

RISING = RatingHistoryCard("Ana", "duel", tuple(25 + 0.4 * i for i in range(1, 21)),
                           tuple(8.3 * 0.95 ** i for i in range(1, 21)))
VERSUS = HeadToHeadCard(("Ana", "Ben"), 3, 1, 0, (12.3, 5.1), (None, 2.0),
                        ((1, 2, 2), (2, 1, 2), (1, 3, 4)))


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _near(colour: tuple[int, int, int], other: tuple[int, ...], by: int = 40) -> bool:
    return all(abs(a - b) <= by for a, b in zip(colour, other, strict=False))


def _rows_of(img: Image.Image, colour: tuple[int, int, int], x: int) -> list[int]:
    """The rows where column `x` is drawn in `colour`."""
    rgb = img.convert("RGB")
    return [y for y in range(rgb.height) if _near(colour, rgb.getpixel((x, y)))]  # type: ignore[arg-type]


def test_the_history_chart_draws_the_rating_rising_left_to_right() -> None:
    with speaking("en"):
        img = draw_rating_history(RISING)
    assert img.size == HISTORY_SIZE
    width = img.width
    start = _rows_of(img, SHOWN, round(width * 0.10))
    end = _rows_of(img, SHOWN, round(width * 0.95))
    assert start and end and min(end) < min(start)  # higher on the right: it rose
    falling = RatingHistoryCard("Ben", "duel", tuple(25 - 0.4 * i for i in range(1, 21)),
                                (5.0,) * 20)  # sure of itself from the start: it falls
    with speaking("en"):
        down = draw_rating_history(falling)
    assert min(_rows_of(down, SHOWN, round(width * 0.95))) > min(
        _rows_of(down, SHOWN, round(width * 0.10)))


def test_the_history_chart_in_both_languages_and_with_no_games() -> None:
    english, spanish = render_rating_history(RISING), render_rating_history(RISING,
                                                                            language="es")
    assert english != spanish and _png(spanish).size == HISTORY_SIZE
    empty = RatingHistoryCard("Neu", "multi", (), ())
    assert _png(render_rating_history(empty)).size == HISTORY_SIZE
    for name in HOSTILE:
        card = RatingHistoryCard(name, "duel", RISING.mus[:3], RISING.sigmas[:3])
        assert _png(render_rating_history(card)).size == HISTORY_SIZE


def test_the_head_to_head_card() -> None:
    data = render_head_to_head(VERSUS)
    img = _png(data)
    assert img.width == WIDTH and 300 < img.height < 900
    assert render_head_to_head(VERSUS, language="es") != data
    nothing = HeadToHeadCard(("Ana", "Ben"), 0, 0, 0)
    assert _png(render_head_to_head(nothing)).size == img.size
    for name in HOSTILE:
        hostile = HeadToHeadCard((name, name), 1, 2, 3, recent=VERSUS.recent)
        assert _png(render_head_to_head(hostile)).size == img.size


def test_the_profile_shows_uncertainty_and_recent_opponents() -> None:
    base = ProfileCard("Ana", 12.3, None, 14, 9, 87.5, ("river",), 3600.0, ((1, 2),))
    with speaking("en"):
        plain = draw_profile(base)
        sure = draw_profile(replace(base, sigma2=2.1))
        rivals = draw_profile(ProfileCard("Ana", 12.3, None, 14, 9, 87.5, ("river",),
                                          3600.0, ((1, 2),),
                                          recent_opponents=(("Ben", 3, 1, 0),
                                                            ("Cy", 1, 0, 2))))
    assert sure.size == plain.size and sure.tobytes() != plain.tobytes()
    assert rivals.height > plain.height
    assert _png(render_profile(ProfileCard("X", None, None, 0, 0, None, recent_opponents=tuple(
        (name, 1, 1, 1) for name in HOSTILE)))).width == WIDTH


def test_every_word_of_the_rating_pictures_is_translated() -> None:
    """The pseudo-locale check, on the words these pictures draw."""
    from carca_bot.render import league_profile as lp

    with speaking("qps"):
        words = [lp._("Rated games"), lp._("Skill estimate μ ± σ"),
                 lp._("Rating shown (μ − 3σ): {rating}").format(rating="1.0"),
                 lp._("Rating after each rated game, {pool}").format(pool="x"),
                 lp._("Recent opponents (won–lost)"), lp._("draws"),
                 lp._("No finished games together yet"),
                 lp._T.ngettext("Head to head: {n} game together",
                                "Head to head: {n} games together", 2).format(n=2)]
    for said in words:
        assert untranslated(said, frozenset({"x", "1.0", "μ", "σ"})) == [], said
