"""The score chart: the final scoring as bars of its own, so the game keeps the height."""

from __future__ import annotations

import random
from functools import cache

from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.chart import FINAL_BAND, draw_chart, progress
from carca_bot.render.palette import player
from carca_bot.render.summary import Tally
from carca_bot.service.history import public_history, tally

SIZE = (1200, 620)


@cache
def _tally() -> Tally:
    game = Game(Setup(("Ana", "Ben", "Cy", "Dee"), frozenset(EXPANSIONS), seed=12))
    rng = random.Random(12)
    while not game.finished:
        play_random_turn(game, rng)
    return tally(public_history(game))


def _top(img: Image.Image, colour: tuple[int, int, int], right: int) -> int:
    """The highest row where `colour` shows left of x = `right` (the curves' area)."""
    rgb = img.convert("RGB")

    def near(xy: tuple[int, int]) -> bool:
        pixel = rgb.getpixel(xy)
        assert isinstance(pixel, tuple)
        return all(abs(int(a) - b) <= 24 for a, b in zip(pixel, colour, strict=False))

    for y in range(img.height):
        if any(near((x, y)) for x in range(80, right)):
            return y
    return img.height


def test_the_tally_holds_the_final_scorings_points() -> None:
    card = _tally()
    assert any(card.final) and len(card.final) == len(card.names)
    before = progress(card.curves, card.final)
    for p, curve in enumerate(card.curves):  # the final scoring comes last
        assert curve[-1] - before[p][-1] == card.final[p] >= 0
        assert before[p][:-1] == list(curve[:-1])


def test_the_game_keeps_the_charts_height_and_the_final_scoring_has_its_bars() -> None:
    """Before: the last move's final scoring set the scale, and the game's progress was
    squeezed under it."""
    card = _tally()
    leader = max(range(len(card.names)), key=lambda p: progress(card.curves, card.final)[p][-1])
    colour = player(leader).fill
    split = draw_chart(card.names, card.curves, SIZE, card.final)
    whole = draw_chart(card.names, card.curves, SIZE)
    right = SIZE[0] // 2  # well inside the curves' area in both
    assert _top(split, colour, right) < _top(whole, colour, right) - 40
    colours = {c for _, c in split.getcolors(1 << 20) or []}
    assert FINAL_BAND in colours
    assert FINAL_BAND not in {c for _, c in whole.getcolors(1 << 20) or []}
