"""King & Robber (docs/RULES.md 1.2, 2.9, 2.12 item 4, 2.13 item 14)."""

from __future__ import annotations

from typing import Any

from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from tests.engine.expansion_helpers import AM, END, HOLE, KR, abbey, game_of, play, ring, t

KR_TILES = [f"KR{i}" for i in range(1, 6)]


def test_the_five_land_tiles_are_in_the_supply_only_with_the_expansion() -> None:
    game = Game(Setup(("Ana", "Ben"), frozenset({KR})))
    assert {tile: game.supply[tile] for tile in KR_TILES} == dict.fromkeys(KR_TILES, 1)
    assert game.tiles_left == 71 + 5
    assert all(Game(Setup(("Ana", "Ben"))).supply[tile] == 0 for tile in KR_TILES)


def test_nobody_holds_king_or_robber_at_the_start() -> None:
    out = play([], expansions=(KR,))
    assert out["king"] is None
    assert out["robber"] is None


# -- the King ---------------------------------------------------------------------------------
#
# Cities in columns above the start road (every tile's east and west edges are field):
#   A: D(0,0) + G rot90 (0,-1) + KR1 rot180 (0,-2)                       3 tiles
#   B: E rot0 (1,-1) + E rot180 (1,-2)                                    2 tiles
#   C: E rot0 (2,-1) + F rot90 (2,-2) + E rot180 (2,-3)                   3 tiles
#   D: 2x2 ring of corners N rot90 (3,-1), N rot180 (3,-2), N-g rot270 (4,-2), M (4,-1)
#                                                                          4 tiles
KING_GAME: list[dict[str, Any]] = [
    t("Ana", "G", (0, -1), 90, fig="follower", on="N"),
    t("Ben", "KR1", (0, -2), 180),  # closes A (Ana's knight: 3 x 2 = 6); Ben completes it
    t("Ana", "U", (1, 0)),
    t("Ben", "E", (1, -1), 0),
    t("Ana", "E", (1, -2), 180),  # closes B: 2 tiles, smaller than 3
    t("Ben", "U", (2, 0)),
    t("Ana", "E", (2, -1), 0),
    t("Ben", "F", (2, -2), 90),
    t("Ana", "E", (2, -3), 180),  # closes C: 3 tiles, equal to 3
    t("Ben", "U", (3, 0)),
    t("Ana", "N", (3, -1), 90),
    t("Ben", "N", (3, -2), 180),
    t("Ana", "N-g", (4, -2), 270),
    t("Ben", "U", (4, 0)),
    t("Ana", "M", (4, -1), 0),  # closes D: 4 tiles, larger than 3
]


def _after(n: int) -> dict[str, Any]:
    return play(KING_GAME[:n], expansions=(KR,))


def test_king_goes_to_who_completes_the_first_city_not_its_owner() -> None:
    out = _after(1)
    assert out["king"] is None
    out = _after(2)
    assert out["scores"] == {"Ana": 6, "Ben": 0}  # Ana owns the city ...
    assert out["king"] == "Ben"  # ... Ben completed it


def test_smaller_city_does_not_take_the_king() -> None:
    assert _after(5)["king"] == "Ben"  # Ana completed a 2-tile city


def test_equal_city_does_not_take_the_king() -> None:
    assert _after(9)["king"] == "Ben"  # Ana completed a 3-tile city


def test_larger_city_takes_the_king() -> None:
    assert _after(15)["king"] == "Ana"  # Ana completed a 4-tile city


def test_king_scores_one_per_completed_city_at_the_end() -> None:
    # Completed cities on the board: A, B, C, D = 4 (only A was occupied) -> King +4.
    # Ana 6 (city A) + 4 = 10. No road is complete: no Robber.
    out = play([*KING_GAME, END], expansions=(KR,))
    assert out["finished"] is True
    assert out["king"] == "Ana"
    assert out["robber"] is None
    assert out["scores"] == {"Ana": 10, "Ben": 0}
    game = game_of([*KING_GAME, END], expansions=(KR,))
    kings = [e for e in game.events if e.kind == "score" and e.feature == "king"]
    assert [(e.players, e.points, e.final) for e in kings] == [((0,), 4, True)]


# One tile completes two cities: I rot0 at (2,-1) closes X (E rot180 (2,-4), F rot90 (2,-3),
# F rot90 (2,-2), I: 4 tiles) with its N cap and Y (E rot90 (1,-1) + I: 2 tiles) with its
# W cap. The King then stands at 3 (city A, Ben): the largest, 4, decides.
TWO_AT_ONCE: list[dict[str, Any]] = [
    t("Ana", "G", (0, -1), 90, fig="follower", on="N"),
    t("Ben", "KR1", (0, -2), 180),  # A: 3 tiles -> King Ben
    t("Ana", "U", (1, 0)),
    t("Ben", "U", (2, 0)),
    t("Ana", "E", (1, -1), 90),
    t("Ben", "B", (1, -2)),
    t("Ana", "F", (2, -2), 90),
    t("Ben", "F", (2, -3), 90),
    t("Ana", "E", (2, -4), 180),
    t("Ben", "U", (3, 0)),
    t("Ana", "I", (2, -1), 0),  # X (4) and Y (2) at once -> King Ana
    # Then Ben completes Z, a 3-tile city: E rot0 (3,-1), N rot180 (3,-2), E rot270 (4,-2).
    t("Ben", "E", (3, -1), 0),
    t("Ana", "N", (3, -2), 180),
    t("Ben", "E", (4, -2), 270),
]


def test_largest_of_several_cities_completed_in_one_turn_decides() -> None:
    game = game_of(TWO_AT_ONCE[:11], expansions=(KR,))
    sizes = sorted(len(e.tiles) for e in game.events
                   if e.kind == "score" and e.feature == "city" and e.complete)
    assert sizes == [2, 3, 4]  # Y, A, X
    assert play(TWO_AT_ONCE[:11], expansions=(KR,))["king"] == "Ana"
    # The record to beat is now 4 (not 2): Ben's 3-tile city does not take it.
    out = play(TWO_AT_ONCE, expansions=(KR,))
    assert out["king"] == "Ana"
    # End: completed cities A, X, Y, Z = 4 -> Ana 6 + 4 = 10.
    out = play([*TWO_AT_ONCE, END], expansions=(KR,))
    assert out["scores"] == {"Ana": 10, "Ben": 0}


# -- the Robber -------------------------------------------------------------------------------
#
#   R1: W(-1,0) E arm + D + W(1,0) W arm                           3 tiles
#   R2: W(1,0) S arm + A rot180 (1,1)                               2 tiles
#   R3: W(-1,0) S arm + U rot90 (-1,1) + A rot180 (-1,2)           3 tiles
#   R4: W(1,0) E arm + U(2,0) + U(3,0) + W(4,0) W arm               4 tiles
ROBBER_GAME: list[dict[str, Any]] = [
    t("Ana", "W", (1, 0), 0, fig="follower", on="W"),
    t("Ben", "W", (-1, 0), 0),  # closes R1 (Ana's thief: 3); Ben completes it
    t("Ana", "A", (1, 1), 180),  # R2: 2 tiles, smaller
    t("Ben", "U", (-1, 1), 90),
    t("Ana", "A", (-1, 2), 180),  # R3: 3 tiles, equal
    t("Ben", "U", (2, 0)),
    t("Ana", "U", (3, 0)),
    t("Ben", "B", (0, 1)),
    t("Ana", "W", (4, 0), 0),  # R4: 4 tiles, larger
]


def test_robber_goes_to_who_completes_the_first_road_not_its_owner() -> None:
    out = play(ROBBER_GAME[:2], expansions=(KR,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["robber"] == "Ben"
    assert out["king"] is None


def test_robber_smaller_and_equal_roads_do_not_take_it() -> None:
    assert play(ROBBER_GAME[:3], expansions=(KR,))["robber"] == "Ben"
    assert play(ROBBER_GAME[:5], expansions=(KR,))["robber"] == "Ben"


def test_robber_larger_road_takes_it_and_scores_one_per_completed_road() -> None:
    out = play(ROBBER_GAME, expansions=(KR,))
    assert out["robber"] == "Ana"
    # End: completed roads R1, R2, R3, R4 = 4 -> Robber +4: Ana 3 + 4 = 7.
    out = play([*ROBBER_GAME, END], expansions=(KR,))
    assert out["scores"] == {"Ana": 7, "Ben": 0}
    assert out["robber"] == "Ana"
    assert out["king"] is None


def test_no_titles_without_the_expansion() -> None:
    out = play([*ROBBER_GAME, END])
    assert out["robber"] is None
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def test_king_and_robber_both_scored_at_the_end() -> None:
    # Ana's E rot180 at (0,-1) closes the start city (2 tiles, nobody): King Ana. Ben's
    # junctions close the start road (3 tiles, nobody): Robber Ben.
    # End: King 1 completed city -> Ana 1; Robber 1 completed road -> Ben 1.
    out = play([t("Ana", "E", (0, -1), 180), t("Ben", "W", (1, 0), 0),
                t("Ana", "U", (2, 0)), t("Ben", "W", (-1, 0), 0), END], expansions=(KR,))
    assert (out["king"], out["robber"]) == ("Ana", "Ben")
    assert out["scores"] == {"Ana": 1, "Ben": 1}


def test_an_abbey_that_completes_takes_the_titles() -> None:
    # The ring's hole: the abbey closes the road W(-1,0) + D + V (3 tiles), the 1-tile
    # road of W(1,2)'s N arm and the 1-tile city of E(2,1). Nothing was completed before:
    # Ana, who places the abbey, takes the King (city of 1) and the Robber (road of 3).
    out = play([*ring(), abbey("Ana", HOLE)], expansions=(KR, AM))
    assert (out["king"], out["robber"]) == ("Ana", "Ana")
    # End: 1 completed city, 2 completed roads -> Ana 1 + 2 = 3.
    out = play([*ring(), abbey("Ana", HOLE), END], expansions=(KR, AM))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
