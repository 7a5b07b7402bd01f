"""Abbey & Mayor: the wagon (docs/RULES.md 2.4, 2.8.3, 2.13 items 8-9, section 4 item 9)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.expansion_helpers import (
    AM,
    HOLE,
    SE_OF_HOLE,
    abbey,
    game_of,
    next_turn,
    play,
    refused,
    ring,
    t,
    wagon,
)

C1 = {"wagon": "c1"}
THREE = ("Ana", "Ben", "Cy")


# -- where a wagon may be deployed ------------------------------------------------------------


@pytest.mark.parametrize(("tile", "at", "rot", "on"), [
    ("U", (1, 0), 0, "W"),  # road
    ("N", (0, -1), 270, "S"),  # city
    ("B", (0, 1), 0, "C"),  # monastery
])
def test_wagon_on_road_city_or_monastery(tile: str, at: tuple[int, int], rot: int,
                                        on: str) -> None:
    out = play([t("Ana", tile, at, rot, fig="wagon", on=on)], expansions=(AM,))
    assert out["supply"]["Ana"]["wagon"] == 0


@pytest.mark.parametrize(("tile", "on", "words"), [
    ("U", "NL", "a wagon cannot stand on a field"),
    ("U-g", "G", "garden"),
])
def test_wagon_refused_on_field_or_garden(tile: str, on: str, words: str) -> None:
    refused([t("Ana", tile, (1, 0), 0, fig="wagon", on=on)], words, expansions=(AM,))


def test_wagon_on_an_abbey() -> None:
    out = play([*ring(), abbey("Ana", HOLE, fig="wagon")], expansions=(AM,))
    # The abbey has 8 neighbours: complete at once, 9 for the wagon as a monk.
    assert out["scores"] == {"Ana": 9, "Ben": 0}


# -- scoring, then move or return (rule c2, the default) --------------------------------------


def _junction_road(extra: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    # Ana's wagon on the W arm of junction W rot0 at (1,0); Ben's junction W rot0 at
    # (-1,0) closes the road: W(-1,0) E arm + D + W(1,0) W arm = 3 tiles -> Ana 3.
    return [t("Ana", "W", (1, 0), 0, fig="wagon", on="W"), *(extra or []),
            t("Ben", "W", (-1, 0), 0)]


def test_wagon_scores_like_a_follower_and_its_owner_decides() -> None:
    out = play(_junction_road(), expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}
    assert out["supply"]["Ana"]["wagon"] == 1  # awaiting its owner: counted in hand


def test_c2_targets_are_on_the_wagons_square_or_the_eight_around() -> None:
    game = game_of(_junction_road(), expansions=(AM,))
    # Around (1,0): the junction's E and S arms, the start tile's city (0,0).
    # Not the complete road, not fields, not W(-1,0) (two squares away).
    assert sorted(game.legal_wagon_moves()) == [((0, 0), "N"), ((1, 0), "E"), ((1, 0), "S")]


def test_wagon_moves_and_scores_again() -> None:
    # The wagon moves to the start city; Ana's E rot180 at (0,-1) closes it:
    # 2 tiles x 2 = 4 for the wagon -> Ana 3 + 4 = 7.
    actions = [*_junction_road(), wagon("Ana", (0, 0), "N")]
    out = play(actions, expansions=(AM,))
    assert next_turn(out) == ("Ana", "tile")
    assert out["supply"]["Ana"]["wagon"] == 0
    out = play([*actions, t("Ana", "E", (0, -1), 180)], expansions=(AM,))
    assert out["scores"] == {"Ana": 7, "Ben": 0}
    # Again free features around (0,0) exist (the junction arms): Ana decides again.
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}


def test_wagon_may_return_to_hand() -> None:
    out = play([*_junction_road(), wagon("Ana")], expansions=(AM,))
    assert out["supply"]["Ana"]["wagon"] == 1
    assert next_turn(out) == ("Ana", "tile")


def test_moved_wagon_occupies_its_new_feature() -> None:
    # After the wagon moved to the start city, Ben's E rot180 at (0,-1) joins that city:
    # his knight is refused.
    refused([*_junction_road(), wagon("Ana", (0, 0), "N"), t("Ana", "U", (2, 0)),
             t("Ben", "E", (0, -1), 180, fig="follower", on="S")],
            "already occupied", expansions=(AM,))


@pytest.mark.parametrize(("target", "words"), [
    (((-1, 0), "W"), "with rule c2 the wagon moves only to its own square 1,0 or one of "
                     "the 8 around it"),
    (((0, 0), "W"), "a wagon can only move to an incomplete feature"),  # the scored road
    (((1, 0), "NL"), "a wagon cannot move onto a field"),
    (((5, 5), "N"), "names nothing"),
])
def test_c2_wagon_refusals(target: tuple[tuple[int, int], str], words: str) -> None:
    at, on = target
    out = refused([*_junction_road(), wagon("Ana", at, on)], words, expansions=(AM,))
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}


def test_wagon_refused_onto_an_occupied_feature() -> None:
    # Ben's knight on N rot270 at (0,-1) occupies the start city (open to the west).
    out = refused([t("Ana", "W", (1, 0), 0, fig="wagon", on="W"),
                   t("Ben", "N", (0, -1), 270, fig="follower", on="S"),
                   t("Ana", "W", (-1, 0), 0), wagon("Ana", (0, 0), "N")],
                  "that feature is occupied", expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def test_wagon_refused_onto_a_complete_feature() -> None:
    # Ana's E rot180 at (0,-1) completes the start city before the road is scored; the
    # complete city is no target.
    refused([t("Ana", "W", (1, 0), 0, fig="wagon", on="W"), t("Ben", "E", (0, -1), 180),
             t("Ana", "U", (2, 0)), t("Ben", "W", (-1, 0), 0), wagon("Ana", (0, 0), "N")],
            "a wagon can only move to an incomplete feature", expansions=(AM,))


def _long_arm() -> list[dict[str, Any]]:
    # Ana's wagon on the W arm of junction W(1,0); the junction's E arm runs on through
    # U(2,0) and U(3,0). Ben's junction W(-1,0) closes the road: 3 tiles -> Ana 3.
    return [t("Ana", "W", (1, 0), 0, fig="wagon", on="W"), t("Ben", "U", (2, 0)),
            t("Ana", "U", (3, 0)), t("Ben", "W", (-1, 0), 0)]


def test_wagon_target_may_be_named_by_any_edge_it_reaches() -> None:
    # U(2,0) rot0 carries the junction's E arm, one square from the wagon; its road
    # reaches E and W, and both names mean that road (docs/game-record.md, "city or road: an
    # edge it reaches").
    for on in ("E", "W"):
        out = play([*_long_arm(), wagon("Ana", (2, 0), on)], expansions=(AM,))
        assert out["supply"]["Ana"]["wagon"] == 0


# -- placed and moved in the same turn; returning by itself ----------------------------------


def test_wagon_placed_and_moved_in_the_same_turn() -> None:
    # Ana's wagon on E rot180 at (0,-1), which closes the start city: 2 x 2 = 4 at once;
    # the start road (free, open) is on the square next to it: Ana moves the wagon there.
    actions = [t("Ana", "E", (0, -1), 180, fig="wagon", on="S")]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 4, "Ben": 0}
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}
    out = play([*actions, wagon("Ana", (0, 0), "E")], expansions=(AM,))
    assert next_turn(out) == ("Ben", "tile")
    assert out["supply"]["Ana"]["wagon"] == 0


def test_wagon_with_nowhere_to_go_returns_by_itself() -> None:
    # Ana's thief on U(1,0) occupies the start road. Ben's wagon on E rot180 at (0,-1)
    # closes the start city: 4. Around (0,-1) every feature is complete or occupied:
    # nobody is asked, the wagon is back in Ben's hand and it is Ana's turn.
    actions = [t("Ana", "U", (1, 0), 0, fig="follower", on="W"),
               t("Ben", "E", (0, -1), 180, fig="wagon", on="S")]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 4}
    assert next_turn(out) == ("Ana", "tile")
    assert out["supply"]["Ben"]["wagon"] == 1
    game = game_of(actions, expansions=(AM,))
    assert [e.kind for e in game.events][-1] == "wagon_returned"


# -- two wagons in one turn: active player first, then clockwise ------------------------------


def _two_wagons() -> list[dict[str, Any]]:
    # Ana's wagon on the start road (U(1,0)); Cy's wagon on the start city (via N rot180 at
    # (-1,-1), city E+S). Ben's L at (-1,0) closes both:
    #   road L(-1,0) E arm + D + U(1,0) + W(2,0) W arm = 4 tiles -> Ana 4;
    #   city D + N(0,-1) + N(-1,-1) + L = 4 tiles, no pennant, 4 x 2 = 8 -> Cy 8.
    return [
        t("Ana", "U", (1, 0), 0, fig="wagon", on="W"),
        t("Ben", "N", (0, -1), 270),
        t("Cy", "N", (-1, -1), 180, fig="wagon", on="E"),
        t("Ana", "W", (2, 0), 0),
        t("Ben", "L", (-1, 0), 0),
    ]


def test_two_wagons_decide_clockwise_from_the_active_player() -> None:
    out = play(_two_wagons(), players=THREE, expansions=(AM,))
    assert out["scores"] == {"Ana": 4, "Ben": 0, "Cy": 8}
    # Ben is active and has no wagon out: Cy (after Ben) decides first, then Ana.
    assert out["next"] == {"player": "Cy", "expects": ["wagon"]}
    assert out["supply"]["Ana"]["wagon"] == 1
    assert out["supply"]["Cy"]["wagon"] == 1
    refused([*_two_wagons(), wagon("Ana", (2, 0), "E")],
            "it is not Ana's turn: waiting for Cy to move or return their wagon",
            players=THREE, expansions=(AM,))
    out = play([*_two_wagons(), wagon("Cy", (-1, 0), "W")], players=THREE, expansions=(AM,))
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}
    out = play([*_two_wagons(), wagon("Cy", (-1, 0), "W"), wagon("Ana", (2, 0), "E")],
               players=THREE, expansions=(AM,))
    # Both decided: the next turn is Cy's (after Ben).
    assert next_turn(out) == ("Cy", "tile")
    assert out["supply"]["Ana"]["wagon"] == 0
    assert out["supply"]["Cy"]["wagon"] == 0


def test_two_wagons_the_active_player_decides_first() -> None:
    # Same position, but Ben's turn is played by... the active player owning a wagon:
    # Ana's road wagon and Cy's city wagon, and Ana herself closes both with the L.
    # Order: Ana (active) first, then Cy.
    actions = [
        t("Ana", "U", (1, 0), 0, fig="wagon", on="W"),
        t("Ben", "N", (0, -1), 270),
        t("Cy", "N", (-1, -1), 180, fig="wagon", on="E"),
        t("Ana", "W", (2, 0), 0),
        t("Ben", "U", (3, 0), 0),
        t("Cy", "U", (4, 0), 0),
        t("Ana", "L", (-1, 0), 0),
    ]
    out = play(actions, players=THREE, expansions=(AM,))
    # Road still L E arm + D + U(1,0) + W(2,0) W arm = 4 (U(3,0) is on the E arm) -> Ana 4;
    # city 4 tiles -> Cy 8.
    assert out["scores"] == {"Ana": 4, "Ben": 0, "Cy": 8}
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}
    out = play([*actions, wagon("Ana")], players=THREE, expansions=(AM,))
    assert out["next"] == {"player": "Cy", "expects": ["wagon"]}
    out = play([*actions, wagon("Ana"), wagon("Cy")], players=THREE, expansions=(AM,))
    assert next_turn(out) == ("Ben", "tile")


# -- rule c1: directly connected features, any distance -------------------------------------


def test_c1_targets_are_features_connected_at_the_junctions() -> None:
    game = game_of(_long_arm(), expansions=(AM,), rules=C1)
    assert game.scores == [3, 0]
    # Junction (1,0): its E arm (on (1,0), (2,0), (3,0)) and S arm; junction (-1,0): its W
    # and S arms. The start city (0,0) is not connected to the road.
    assert sorted(game.legal_wagon_moves()) == [
        ((-1, 0), "S"), ((-1, 0), "W"), ((1, 0), "E"), ((1, 0), "S"), ((2, 0), "E"),
        ((3, 0), "E")]
    c2 = game_of(_long_arm(), expansions=(AM,))
    assert sorted(c2.legal_wagon_moves()) == [
        ((0, 0), "N"), ((1, 0), "E"), ((1, 0), "S"), ((2, 0), "E")]


def test_c1_wagon_goes_any_distance_along_a_connected_road() -> None:
    # (3,0) is two squares from the wagon: legal with c1, refused with c2.
    out = play([*_long_arm(), wagon("Ana", (3, 0), "E")], expansions=(AM,), rules=C1)
    assert next_turn(out) == ("Ana", "tile")
    refused([*_long_arm(), wagon("Ana", (3, 0), "E")], "with rule c2", expansions=(AM,))
    # The far junction's W arm, two squares west: c1 yes.
    play([*_long_arm(), wagon("Ana", (-1, 0), "W")], expansions=(AM,), rules=C1)


def test_c1_refuses_a_nearby_feature_that_is_not_connected() -> None:
    refused([*_long_arm(), wagon("Ana", (0, 0), "N")],
            "with rule c1 the wagon moves only to a feature directly connected",
            expansions=(AM,), rules=C1)
    # ... which c2 allows (same square row, next to the wagon).
    play([*_long_arm(), wagon("Ana", (0, 0), "N")], expansions=(AM,))


def test_c1_road_into_a_city_gate() -> None:
    # Ana's wagon on U(1,0); T rot90 at (2,0) ends the road at its city gate (city N, E, S
    # of that tile); Ben's junction W(-1,0) closes the road:
    # W(-1,0) E arm + D + U(1,0) + T(2,0) = 4 tiles -> Ana 4.
    actions = [t("Ana", "U", (1, 0), 0, fig="wagon", on="W"), t("Ben", "T", (2, 0), 90),
               t("Ana", "B", (0, 1)),
               t("Ben", "W", (-1, 0), 0)]
    game = game_of(actions, expansions=(AM,), rules=C1)
    assert game.scores == [4, 0]
    # Connected: T's city (through the gate) and W(-1,0)'s other arms; not the start city.
    assert sorted(game.legal_wagon_moves()) == [((-1, 0), "S"), ((-1, 0), "W"), ((2, 0), "N")]


def test_c1_road_closed_by_an_abbey_leads_into_the_abbey() -> None:
    # Ring without U(2,2): the hole has 7 neighbours. Ana's wagon on V(1,0); Ana's abbey
    # (no monk) closes the road W(-1,0) + D + V = 3 -> Ana 3. The abbey is incomplete and
    # free: a c1 target (docs/RULES.md 2.8.3: "a road closed by an abbey edge is directly
    # connected to that abbey").
    actions = ring(deploys={0: ("wagon", "W")}, leave_out=(SE_OF_HOLE,))
    # Nine tiles: Ana placed the last, so Ben plays one filler, then Ana's abbey.
    actions += [t("Ben", "U", (-2, 2)), abbey("Ana", HOLE)]
    game = game_of(actions, expansions=(AM,), rules=C1)
    assert game.scores == [3, 0]
    assert ((1, 1), "C") in game.legal_wagon_moves()


def test_c1_wagon_on_an_abbey_goes_to_a_road_its_wall_closed() -> None:
    # The ring with U(-1,0) instead of the junction: the start road U(-1,0) + D + V(1,0)
    # ends at the hole but stays open to the west. Ana's wagon on her abbey (8 neighbours):
    # complete at once, 9. With c1 the wagon may go to the road the abbey's wall closed,
    # on any of its tiles -- (-1,0) is two squares away, out of c2's range.
    actions = ring()
    actions[1] = t("Ben", "U", (-1, 0))
    actions.append(abbey("Ana", HOLE, fig="wagon"))
    game = game_of(actions, expansions=(AM,), rules=C1)
    assert game.scores == [9, 0]
    assert sorted(game.legal_wagon_moves()) == [((-1, 0), "E"), ((0, 0), "E"), ((1, 0), "S")]
    c2 = game_of(actions, expansions=(AM,))
    assert ((-1, 0), "E") not in c2.legal_wagon_moves()
