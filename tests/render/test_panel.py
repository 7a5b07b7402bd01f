"""The side panel's held pieces come from the records: the figure table's figures, then
the abbey and the pieces with a picture (goods), each drawn, with its count."""

from __future__ import annotations

from PIL import Image

from carca_bot.engine.figures import FIGURES
from carca_bot.engine.rules import PIECES
from carca_bot.render.figure_art import piece_image
from carca_bot.render.panel import HAND_ORDER, draw_panel, panel_height, panel_state
from tests.engine.expansion_helpers import game_of, t

IC, TB, AM = "inns_cathedrals", "traders_builders", "abbey_mayor"
GRAIN_CITY = [t("Ana", "TB1", (0, -1), 180, fig="large", on="S"), t("Ben", "E", (1, -1), 270)]


def _colours(img: Image.Image) -> set[tuple[int, ...]]:
    return {c for _, c in img.convert("RGB").getcolors(1 << 22) or [] if isinstance(c, tuple)}


def test_the_hand_order_is_the_figure_tables_then_the_pieces() -> None:
    assert HAND_ORDER[:len(FIGURES)] == tuple(FIGURES)
    assert {"large", "builder", "pig", "wine", "grain", "cloth", "abbey"} <= set(HAND_ORDER)
    assert [k for k in HAND_ORDER if k in {p.name for p in PIECES}][-3:] == [
        "wine", "grain", "cloth"]


def test_the_panel_shows_the_new_figures_and_the_goods_each_player_took() -> None:
    game = game_of(GRAIN_CITY, expansions=(IC, TB, AM))
    state = panel_state(game, 20)
    ana, ben = (dict(hand) for hand in state.hands)
    assert [k for k, _ in state.hands[1]] == [  # no abbot: the Abbot is not in this game
        "follower", "mayor", "wagon", "barn", "large", "builder", "pig", "abbey", "wine",
        "grain", "cloth"]
    assert (ana["large"], ana["grain"], ben["grain"], ben["builder"], ben["pig"]) == (
        1, 0, 1, 1, 1)
    # More pieces than a line holds: the rows grow; the grain token's own picture shows.
    base = panel_state(game_of([t("Ana", "U", (1, 0)), t("Ben", "V", (2, 0), 90)]), 20)
    assert panel_height(state) > panel_height(base)
    grain = _colours(piece_image("grain", round(1.1 * 20))) - _colours(draw_panel(base))
    assert grain and grain & _colours(draw_panel(state))
