"""The chart, the end-of-game card, the pile picture and the animated replay."""

from __future__ import annotations

import io
from typing import Literal

import pytest
from PIL import Image

from carca_bot.render.chart import draw_chart, nice_step, render_score_chart
from carca_bot.render.palette import PLAYERS
from carca_bot.render.pile import render_pile
from carca_bot.render.replay import ReplayTooLarge, render_replay
from carca_bot.render.summary import Tally, places, render_summary
from carca_bot.service.history import pile, public_history, tally
from tests.history.games import finished, reseeded, running, with_unconfirmed_turn


def png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def near(img: Image.Image, colour: tuple[int, int, int], tol: int = 6) -> int:
    """How many pixels are within `tol` of `colour` on every channel."""
    data = img.convert("RGB").tobytes()
    r0, g0, b0 = colour
    return sum(1 for i in range(0, len(data), 3)
               if abs(data[i] - r0) <= tol and abs(data[i + 1] - g0) <= tol
               and abs(data[i + 2] - b0) <= tol)


def test_nice_steps() -> None:
    assert [nice_step(s) for s in (0, 5, 12, 60, 113, 250)] == [1, 1, 2, 10, 20, 50]


def test_chart_draws_each_player_in_their_colour() -> None:
    """Each seat's legend and line in its colour. Two players' curves may coincide in a
    random game (the later line then hides the earlier), so each line is also drawn
    with the others flat at 0, where nothing can hide it."""
    history = public_history(finished("all6"))
    curves = history.curves()
    img = draw_chart(history.players, curves, (900, 450))
    assert img.size == (900, 450)
    for seat in range(6):
        assert near(img, PLAYERS[seat].fill) > 0, PLAYERS[seat].name  # its legend at least
        alone = tuple(c if p == seat else (0,) * len(c) for p, c in enumerate(curves))
        shown = draw_chart(history.players, alone, (900, 450))
        assert near(shown, PLAYERS[seat].fill) > 20, PLAYERS[seat].name  # legend + line
    solo = draw_chart(("Ana",), ((0,),), (400, 300))  # a game with no move yet
    assert near(solo, PLAYERS[1].fill) == 0


def test_chart_and_card_speak_the_language() -> None:
    history = public_history(finished("base2"))
    en = render_score_chart(history.players, history.curves(), "en")
    es = render_score_chart(history.players, history.curves(), "es")
    assert png(en).size == png(es).size and en != es
    card = tally(history)
    assert render_summary(card, "en") != render_summary(card, "es")


def test_places_share_ties() -> None:
    assert places((5, 9, 9, 1)) == [(1, 1), (1, 2), (3, 0), (4, 3)]


@pytest.mark.parametrize("kind", ["base2", "all6"])
def test_summary_card(kind: str) -> None:
    card = tally(public_history(finished(kind)))
    img = png(render_summary(card))
    assert img.width == 1200 and 600 < img.height < 2000
    for seat in range(len(card.names)):
        assert near(img, PLAYERS[seat].fill) > 100


def test_summary_of_a_running_game_and_long_names() -> None:
    card = Tally(("A" * 300, "<@everyone>"), (3, 0), ({"cities": 3}, {}), ("cities",),
                 ((0, 3), (0, 0)), False, 1)
    assert png(render_summary(card)).width == 1200


def test_pile_picture() -> None:
    game = running("all6")
    counts = pile(game)
    img = png(render_pile(counts, tunnel=True))
    rows = -(-len(counts) // 10)
    assert img.height > rows * 88
    empty = png(render_pile((), language="es"))
    assert empty.height < img.height


def test_pile_picture_hides_the_unconfirmed_tile() -> None:
    game = running("all3")
    pending, _tile = with_unconfirmed_turn(game)
    assert render_pile(pile(pending)) == render_pile(pile(game))


@pytest.mark.parametrize("fmt", ["webp", "gif"])
def test_replay_animates_every_move(fmt: Literal["webp", "gif"]) -> None:
    game = finished("base2")
    made = render_replay(game, fmt=fmt, max_side=320)
    assert made.format == fmt and made.actions_per_frame == 1
    img = Image.open(io.BytesIO(made.data))
    assert img.format == fmt.upper() and getattr(img, "is_animated", False)
    assert getattr(img, "n_frames", 1) == made.frames == len(game.history) + 1
    assert img.size == made.size


def test_replay_fits_a_small_limit_by_shrinking_then_merging() -> None:
    game = finished("all3")
    big = render_replay(game, max_side=400)
    limit = len(big.data) // 5
    small = render_replay(game, max_bytes=limit, max_side=400)
    assert len(small.data) <= limit
    assert small.tile < big.tile or small.actions_per_frame > 1
    with pytest.raises(ReplayTooLarge):
        render_replay(game, max_bytes=2000, max_side=400)


def test_replay_is_the_same_whatever_the_seed_or_the_unconfirmed_turn() -> None:
    game = running("all6")
    pending, _tile = with_unconfirmed_turn(game)
    first = render_replay(game, fmt="gif", max_side=240).data
    assert render_replay(reseeded(game, 42), fmt="gif", max_side=240).data == first
    assert render_replay(pending, fmt="gif", max_side=240).data == first
