"""Inns & Cathedrals (docs/rules/RULES-inns-traders.md 2.16, 2.18, section 4 items 11, 12,
21): inns, cathedrals, the large follower, as points in concrete positions.

Positions are records from the start tile D at (0, 0) (city north, road west-east);
x grows east, y south, `rot` is clockwise degrees.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.engine.record import replay
from carca_bot.engine.setup import Setup
from tests.engine.expansion_helpers import AM, END, KR, game_of, play, record, refused, scored, t
from tests.engine.test_push_pop import play_checked

IC = "inns_cathedrals"


def score(players: tuple[int, ...], points: int, reason: str, final: bool = False,
          **params: Any) -> Event:
    return Event("score", players, points, reason=reason, params={"final": final, **params},
                 final=final)


# Judged by tests/engine/test_words_es.py (players Ana, Ben, Cy), written by hand.
SPANISH: list[tuple[IllegalMove | Event, str]] = [
    (score((0,), 8, "inn", tiles=4, each=2),
     "Ana: +8 por camino completado de 4 losetas con posada (2 por loseta)"),
    (score((1,), 2, "inn", tiles=1, each=2),
     "Ben: +2 por camino completado de 1 loseta con posada (2 por loseta)"),
    (score((0,), 0, "inn", final=True, tiles=3, each=0),
     "Ana: +0 por camino sin completar de 3 losetas con posada (nada al final)"),
    (score((2,), 21, "cathedral", tiles=6, pennants=1, each=3),
     "Cy: +21 por ciudad completada de 6 losetas y 1 escudo con catedral (3 por loseta y "
     "escudo)"),
    (score((2,), 15, "cathedral", tiles=5, pennants=0, each=3),
     "Cy: +15 por ciudad completada de 5 losetas con catedral (3 por loseta y escudo)"),
    (score((0, 1), 0, "cathedral", final=True, tiles=1, pennants=0, each=0),
     "Ana y Ben: +0 por ciudad sin completar de 1 loseta con catedral (nada al final)"),
]


def _inn_road(inn: bool) -> list[dict[str, Any]]:
    """Ana's follower on a road from the start tile east, turning south on IC16 (inn) or
    V (none), closed by junctions W at (-1, 0) and (1, 1): 4 tiles."""
    return [
        t("Ana", "IC16" if inn else "V", (1, 0), fig="follower", on="W"),
        t("Ben", "W", (-1, 0)),
        t("Ana", "W", (1, 1), 180),
    ]


@pytest.mark.parametrize(("inn", "points"), [(True, 8), (False, 4)])
def test_a_completed_road_with_an_inn_scores_two_per_tile(inn: bool, points: int) -> None:
    out = play(_inn_road(inn), expansions=(IC,))
    assert out["scores"] == {"Ana": points, "Ben": 0}
    game = game_of(_inn_road(inn), expansions=(IC,))
    event = next(e for e in game.events if e.kind == "score")
    assert event.reason == ("inn" if inn else "road") and event.params["tiles"] == 4


@pytest.mark.parametrize(("inn", "points"), [(True, 0), (False, 3)])
def test_an_incomplete_road_with_an_inn_scores_nothing(inn: bool, points: int) -> None:
    out = play([*_inn_road(inn)[:2], END], expansions=(IC,))
    assert out["finished"] and out["scores"] == {"Ana": points, "Ben": 0}


def test_several_inns_on_one_road_still_score_two_per_tile() -> None:
    # IC16 (inn) east of the start, IC15 (inn, straight) west of it, closed by junctions.
    actions = [t("Ana", "IC16", (1, 0), fig="follower", on="W"), t("Ben", "IC15", (-1, 0)),
               t("Ana", "W", (1, 1), 180), t("Ben", "W", (-2, 0))]
    out = play(actions, expansions=(IC,))
    assert out["scores"] == {"Ana": 10, "Ben": 0}
    game = game_of(actions, expansions=(IC,))
    road = game.board.feature(game.board.tiles[(0, 0)].nodes[1])
    assert road.mod("inn") == 2 and len(road.tiles) == 5


def _cathedral_city(cathedral: bool) -> list[dict[str, Any]]:
    """A city north of the start tile around IC1 (the cathedral, or C: four city sides and
    one pennant) at (0, -1): F (a band with a pennant) and E to its west, caps E north and
    east. With IC1: 6 tiles, 1 pennant; with C: 6 tiles, 2 pennants."""
    return [
        t("Ana", "IC1" if cathedral else "C", (0, -1), fig="follower", on="N"),
        t("Ben", "F", (-1, -1)),
        t("Ana", "E", (-2, -1), 90),
        t("Ben", "E", (1, -1), 270),
        t("Ana", "E", (0, -2), 180),
    ]


@pytest.mark.parametrize(("cathedral", "points"), [(True, 21), (False, 16)])
def test_a_completed_city_with_a_cathedral_scores_three_per_tile_and_pennant(
        cathedral: bool, points: int) -> None:
    out = play(_cathedral_city(cathedral), expansions=(IC,))
    assert out["scores"] == {"Ana": points, "Ben": 0}


def test_an_incomplete_city_with_a_cathedral_scores_nothing() -> None:
    out = play([*_cathedral_city(True)[:4], END], expansions=(IC,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    out = play([*_cathedral_city(False)[:4], END], expansions=(IC,))
    assert out["scores"] == {"Ana": 7, "Ben": 0}  # 5 tiles and 2 pennants, 1 each


def test_both_cathedrals_in_one_city_score_three_each_once() -> None:
    # IC1 at (0,-1) and (0,-2); caps (four E, one K) close its five open sides: 8 tiles.
    actions = [t("Ana", "IC1", (0, -1), fig="follower", on="N"), t("Ben", "IC1", (0, -2)),
               t("Ana", "E", (-1, -1), 90), t("Ben", "E", (1, -1), 270),
               t("Ana", "E", (-1, -2), 90), t("Ben", "E", (1, -2), 270),
               t("Ana", "K", (0, -3), 180)]
    out = play(actions, expansions=(IC,))
    assert out["scores"] == {"Ana": 24, "Ben": 0}


def test_king_counts_tiles_of_a_cathedral_city_not_points() -> None:
    out = play(_cathedral_city(True), expansions=(IC, KR))
    assert out["king"] == "Ana"
    game = game_of(_cathedral_city(True), expansions=(IC, KR))
    assert [e.params["size"] for e in game.events if e.kind == "king"] == [6]


# -- the large follower ---------------------------------------------------------------


def test_the_large_follower_wins_a_road_two_to_one() -> None:
    # Ana's large follower on U(1,0) (the start road, going east), Ben's follower on
    # U(1,1) (a road of its own); V(2,0) and V(2,1) join them; junctions close both ends:
    # W(-1,0) at the start road's west end, W(0,1) at the second road's west end. 7 tiles.
    actions = [
        t("Ana", "U", (1, 0), fig="large", on="W"),
        t("Ben", "U", (1, 1), fig="follower", on="W"),
        t("Ana", "V", (2, 0)),
        t("Ben", "V", (2, 1), 90),
        t("Ana", "W", (-1, 0)),
        t("Ben", "W", (0, 1)),
    ]
    out = play(actions, expansions=(IC,))
    assert out["scores"] == {"Ana": 7, "Ben": 0}  # strength 2 against 1; points not doubled
    assert out["supply"]["Ana"]["large"] == 1 and out["supply"]["Ben"]["follower"] == 7


def test_the_large_follower_counts_two_among_farmers() -> None:
    # Three fields: the start tile's north strip with U(1,0) (Ana's large follower), the
    # field outside E(0,-1) (Ben's follower; E closes the start city), the field south of
    # the start road with U(-1,0) (Ben's second follower). B(1,-1) joins the first two:
    # at the end Ana 3 for the completed city (2 against 1). A(2,0) then joins the third:
    # 2 against 2, a tie, 3 each.
    base = [t("Ana", "U", (1, 0), fig="large", on="NL"),
            t("Ben", "E", (0, -1), 180, fig="follower", on="NL"),
            t("Ana", "B", (1, -1)),
            t("Ben", "U", (-1, 0), fig="follower", on="SL")]
    out = play([*base, END], expansions=(IC,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    out = play([*base, t("Ana", "A", (2, 0), 90), END], expansions=(IC,))
    assert out["scores"] == {"Ana": 3, "Ben": 3}


def test_the_large_follower_counts_two_when_a_barn_scores_its_field() -> None:
    # As in test_barn.py, E(0,1) and E(1,1) close a city and B(2,2)'s NW corner meets four
    # fields. Ana's large follower in E(0,1)'s field, Ben's follower in B(2,1)'s; B(0,2)
    # joins the two. Ana's barn: 3 per completed city (1) to Ana alone, and both farmers
    # go home.
    actions = [t("Ana", "E", (0, 1), 90, fig="large", on="NL"), t("Ben", "E", (1, 1), 270),
               t("Ana", "U", (-1, 0)), t("Ben", "B", (2, 1), fig="follower", on="NL"),
               t("Ana", "B", (1, 2)), t("Ben", "B", (0, 2)),
               t("Ana", "B", (2, 2), fig="barn", on="NW")]
    out = play(actions, expansions=(IC, AM))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["supply"]["Ana"]["large"] == 1 and out["supply"]["Ben"]["follower"] == 7
    game = game_of(actions, expansions=(IC, AM))
    assert scored(game, "field") == [(("Ana",), 3)]


def test_the_large_follower_on_a_monastery_and_never_in_a_garden() -> None:
    # IC15 (straight inn road with a garden) east of the start: the garden is the abbot's.
    refused([t("Ana", "IC15", (1, 0), fig="large", on="G")],
            "only an abbot may stand in a garden", expansions=(IC, "abbot"))
    game = game_of([t("Ana", "B", (0, 1), fig="large", on="C")], expansions=(IC,))
    assert game.figures[0].kind == "large" and game.figures[0].type.strength == 2


def test_a_large_follower_without_inns_and_cathedrals_is_a_rule_break() -> None:
    status, out = replay(record([t("Ana", "U", (1, 0), fig="large", on="W")]))
    assert status == 1 and out["error"]["index"] == 0
    assert out["supply"]["Ana"] == {"follower": 7}


def test_an_empty_record_lists_the_large_follower_in_supply() -> None:
    status, out = replay(record([], expansions=(IC,)))
    assert status == 0
    assert out["supply"] == {"Ana": {"follower": 7, "large": 1},
                             "Ben": {"follower": 7, "large": 1}}
    assert Game(Setup(("A",), frozenset({IC}))).tiles_left == 72 + 18 - 1


@pytest.mark.parametrize(("seed", "mix"), [
    (1, (IC,)), (2, (IC, "river", "abbot")), (3, (IC, AM, KR)), (4, (IC, "cult", "tunnel")),
])
def test_push_and_pop_restore_exactly_with_inns_and_cathedrals(
        seed: int, mix: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    setup = Setup(tuple(f"P{i}" for i in range(1 + seed % 4)), frozenset(mix), seed=seed)
    assert play_checked(setup, rng) > 70
