"""Abbey & Mayor: the mayor (docs/RULES.md 2.4, 2.6, 2.8.2, 2.13 items 5-7)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.expansion_helpers import AM, END, game_of, play, refused, t


@pytest.mark.parametrize(("tile", "rot", "on", "words"), [
    ("U", 0, "W", "a mayor cannot stand on a road"),
    ("U", 0, "NL", "a mayor cannot stand on a field"),
    ("B", 0, "C", "a mayor cannot stand on a monastery"),
])
def test_mayor_only_in_a_city(tile: str, rot: int, on: str, words: str) -> None:
    at = (1, 0) if tile == "U" else (0, 1)
    out = refused([t("Ana", tile, at, rot, fig="mayor", on=on)], words, expansions=(AM,))
    assert out["error"]["index"] == 0
    assert out["supply"]["Ana"]["mayor"] == 1


def test_mayor_in_a_city_is_accepted() -> None:
    out = play([t("Ana", "N", (0, -1), 270, fig="mayor", on="S")], expansions=(AM,))
    assert out["supply"]["Ana"]["mayor"] == 0


def test_mayor_strength_one_pennant_public_example() -> None:
    # M rot270 at (0,-1) (city W+S, 1 pennant) joins the start city; Ben's E rot90 at
    # (-1,-1) closes it: 3 tiles + 1 pennant = (3 + 1) x 2 = 8; mayor strength 1 -> Ana 8.
    out = play([t("Ana", "M", (0, -1), 270, fig="mayor", on="S"),
                t("Ben", "E", (-1, -1), 90)], expansions=(AM,))
    assert out["scores"] == {"Ana": 8, "Ben": 0}
    assert out["supply"]["Ana"]["mayor"] == 1


# A star city around (0,-2). Ana's mayor stands on the north cap of H(0,-1) (no pennant
# on that tile). Ben's knights may stand on the caps E rot90 (-1,-2), E rot270 (1,-2) and
# E rot180 (0,-3). The centre tile, placed last by Ana, joins all five: AM1 brings 2
# pennants, C brings 1. Supports: B(-1,-1), B(1,-1), B(1,-3); U(1,0) is a filler.
# The mayor's strength is the pennants of the whole city at scoring time.
def _star(knights: int, centre: str) -> list[dict[str, Any]]:
    def knight(n: int, on: str) -> dict[str, Any]:
        return {"fig": "follower", "on": on} if knights >= n else {}

    return [
        t("Ana", "H", (0, -1), 0, fig="mayor", on="N"),
        t("Ben", "B", (-1, -1)),
        t("Ana", "B", (1, -1)),
        t("Ben", "E", (-1, -2), 90, **knight(1, "E")),
        t("Ana", "U", (1, 0)),
        t("Ben", "E", (1, -2), 270, **knight(2, "W")),
        t("Ana", "B", (1, -3)),
        t("Ben", "E", (0, -3), 180, **knight(3, "S")),
        t("Ana", centre, (0, -2)),
    ]


@pytest.mark.parametrize(("knights", "centre", "scores"), [
    # AM1: 5 tiles + 2 pennants = (5 + 2) x 2 = 14; mayor strength 2.
    (1, "AM1", {"Ana": 14, "Ben": 0}),  # 2 beats 1 knight
    (2, "AM1", {"Ana": 14, "Ben": 14}),  # 2 = 2 knights: tie, both score in full
    (3, "AM1", {"Ana": 0, "Ben": 14}),  # 3 knights beat 2 pennants
    # C: 5 tiles + 1 pennant = (5 + 1) x 2 = 12; mayor strength 1.
    (1, "C", {"Ana": 12, "Ben": 12}),  # 1 = 1: tie
    (2, "C", {"Ana": 0, "Ben": 12}),  # 2 knights beat 1 pennant
])
def test_mayor_strength_is_the_pennants_of_the_whole_city(knights: int, centre: str,
                                                        scores: dict[str, int]) -> None:
    out = play(_star(knights, centre), expansions=(AM,))
    assert out["scores"] == scores
    # Everybody on the completed city goes home, winners and losers alike.
    assert out["supply"]["Ana"]["mayor"] == 1
    assert out["supply"]["Ben"]["follower"] == 7


def test_star_city_is_one_city_of_five_tiles() -> None:
    game = game_of(_star(3, "AM1"), expansions=(AM,))
    city = [e for e in game.events if e.kind == "score" and e.feature == "city" and e.players]
    assert len(city) == 1
    assert sorted(city[0].tiles) == [(-1, -2), (0, -3), (0, -2), (0, -1), (1, -2)]


def test_zero_pennant_mayor_occupies_the_city() -> None:
    # Ana's mayor on H(0,-1)'s north cap (no pennant). Ben's E rot180 at (0,-2) joins that
    # city: his knight is refused, the city is occupied.
    refused([t("Ana", "H", (0, -1), 0, fig="mayor", on="N"),
             t("Ben", "E", (0, -2), 180, fig="follower", on="S")],
            "that city is already occupied", expansions=(AM,))


def test_zero_pennant_mayor_alone_scores_nothing() -> None:
    # Ben's E rot180 at (0,-2) completes the 2-tile city without pennants: mayor strength
    # 0, nobody scores the (2 x 2 = 4) points; the mayor still goes home.
    actions = [t("Ana", "H", (0, -1), 0, fig="mayor", on="N"), t("Ben", "E", (0, -2), 180)]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    assert out["supply"]["Ana"]["mayor"] == 1
    game = game_of(actions, expansions=(AM,))
    cities = [e for e in game.events if e.kind == "score" and e.feature == "city"]
    assert [e.players for e in cities] == [(), ()]  # D+H south cap, and the mayor's city


def _corner() -> list[dict[str, Any]]:
    # Ana's mayor on H(0,-1)'s north cap (no pennant); Ben's knight on E rot270 at (1,-2),
    # a separate city (B(1,-1) supports it, U(1,0) is a filler). N rot180 at (0,-2), city
    # E+S without pennant, joins both and closes the city.
    return [
        t("Ana", "H", (0, -1), 0, fig="mayor", on="N"),
        t("Ben", "B", (1, -1)),
        t("Ana", "U", (1, 0)),
        t("Ben", "E", (1, -2), 270, fig="follower", on="W"),
        t("Ana", "N", (0, -2), 180),
    ]


def test_zero_pennant_mayor_loses_to_a_knight() -> None:
    # City H north cap + N(0,-2) + E(1,-2) = 3 tiles, no pennant: 3 x 2 = 6.
    # Mayor strength 0 < 1 knight -> Ben 6.
    out = play(_corner(), expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 6}
    assert out["supply"]["Ana"]["mayor"] == 1


def test_mayor_at_the_end_counts_pennants() -> None:
    # M rot270 (city W+S, 1 pennant) joined to the start city, open: at the end 2 tiles +
    # 1 pennant, 1 each = 3; the mayor has strength 1 -> Ana 3.
    out = play([t("Ana", "M", (0, -1), 270, fig="mayor", on="S"), END], expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def test_zero_pennant_mayor_at_the_end_scores_nothing() -> None:
    # N rot270 (city W+S, no pennant) joined to the start city: the incomplete city
    # would be worth 2 at the end, but strength 0 -> nobody.
    out = play([t("Ana", "N", (0, -1), 270, fig="mayor", on="S"), END], expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}


@pytest.mark.parametrize(("centre", "scores"), [
    # AM1: 4 tiles + 2 pennants, 1 each = 6; mayor strength 2 beats 1 knight.
    ("AM1", {"Ana": 6, "Ben": 0}),
    # C: 4 tiles + 1 pennant = 5; strength 1 = 1 knight: both score.
    ("C", {"Ana": 5, "Ben": 5}),
])
def test_mayor_against_a_knight_at_the_end(centre: str, scores: dict[str, int]) -> None:
    # The star without its north cap: the centre's north side stays open.
    star = _star(1, centre)
    actions = [*star[:6], t("Ana", centre, (0, -2)), END]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == scores
