"""Abbey & Mayor: the barn (docs/RULES.md 2.8.4, 2.12 item 3, 2.13 item 10, 2.15)."""

from __future__ import annotations

from typing import Any

from tests.engine.expansion_helpers import AM, END, game_of, play, refused, scored, t

# The barn block. E rot90 at (0,1) (city E) and E rot270 at (1,1) (city W) make a
# completed 2-tile city. B(2,1), B(1,2), B(2,2) are all field; the point where (1,1),
# (2,1), (1,2) and (2,2) meet is the NW corner of B(2,2): four field corners.
# The barn field = E(1,1)'s field + the three B: it touches one completed city.
# U(-1,0) extends the start road west (open at its west end).


def _block(farmer_on_b12: bool = False) -> list[dict[str, Any]]:
    b12: dict[str, Any] = {"fig": "follower", "on": "NL"} if farmer_on_b12 else {}
    return [
        t("Ana", "U", (-1, 0)),
        t("Ben", "E", (0, 1), 90),
        t("Ana", "E", (1, 1), 270),  # closes the 2-tile city: 4, nobody on it
        t("Ben", "B", (2, 1)),
        t("Ana", "B", (1, 2), **b12),
    ]


def test_barn_scores_the_farmers_of_its_field_at_once() -> None:
    # Ana's farmer on B(1,2) is in the barn field; Ben's barn at B(2,2)'s NW corner:
    # the farmers score like at the end, 3 x 1 completed city = 3, and go home.
    actions = [*_block(farmer_on_b12=True), t("Ben", "B", (2, 2), fig="barn", on="NW")]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7
    assert out["supply"]["Ben"]["barn"] == 0  # the barn stays on the board
    game = game_of(actions, expansions=(AM,))
    assert scored(game, "field") == [(("Ana",), 3)]


def test_barn_scores_four_per_completed_city_at_the_end() -> None:
    # Ana's farmer went home with 3; at the end Ben's barn: 4 x 1 completed city = 4.
    out = play([*_block(farmer_on_b12=True), t("Ben", "B", (2, 2), fig="barn", on="NW"), END],
               expansions=(AM,))
    assert out["finished"] is True
    assert out["scores"] == {"Ana": 3, "Ben": 4}
    game = game_of([*_block(farmer_on_b12=True), t("Ben", "B", (2, 2), fig="barn", on="NW"),
                    END], expansions=(AM,))
    assert scored(game, "barn") == [(("Ben",), 4)]


def test_barn_counts_a_city_completed_by_the_same_tile() -> None:
    # U(1,0), E rot90 (0,1), U(2,0), B(2,1), B(2,2) with Ana's farmer, B(1,2); then Ana's
    # E rot270 at (1,1) closes the 2-tile city E(0,1)+E(1,1) (nobody on it) and carries
    # her barn at its SE corner. The features are scored first, so the farmer's field
    # touches 1 completed city: 3 x 1 = 3 (docs/RULES.md 2.2 step 3, 2.15).
    out = play([t("Ana", "U", (1, 0)), t("Ben", "E", (0, 1), 90), t("Ana", "U", (2, 0)),
                t("Ben", "B", (2, 1)), t("Ana", "B", (2, 2), fig="follower", on="NL"),
                t("Ben", "B", (1, 2)), t("Ana", "E", (1, 1), 270, fig="barn", on="SE")],
               expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7


def test_barn_without_farmers_scores_nothing_at_once() -> None:
    out = play([*_block(), t("Ben", "B", (2, 2), fig="barn", on="NW")], expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}


def test_barn_needs_four_tiles_at_the_corner() -> None:
    # The SE corner of B(2,2): (3,2), (2,3), (3,3) are empty.
    refused([*_block(), t("Ben", "B", (2, 2), fig="barn", on="SE")],
            "a barn needs four tiles meeting at the SE corner", expansions=(AM,))


def test_barn_needs_four_field_corners() -> None:
    # U(1,0), N rot270 at (0,-1) (city S+W joined to the start city), B(1,-1): four tiles
    # meet at B's SW corner, but the start tile's NE corner there is city.
    refused([t("Ana", "U", (1, 0)), t("Ben", "N", (0, -1), 270),
             t("Ana", "B", (1, -1), fig="barn", on="SW")],
            "a barn needs four tiles meeting at the SW corner, all of them field there",
            expansions=(AM,))


def test_barn_only_on_a_corner_name() -> None:
    refused([*_block(), t("Ben", "B", (2, 2), fig="barn", on="NL")],
            "a barn goes on a corner", expansions=(AM,))


def test_no_second_barn_in_a_barn_field() -> None:
    # E rot90 at (3,1) and (3,2) extend the barn field; the corner where B(2,1), E(3,1),
    # B(2,2), E(3,2) meet is all field, but the field already has Ben's barn: Ana's barn
    # is refused. (U(-2,0) is Ben's filler turn.)
    refused([*_block(), t("Ben", "B", (2, 2), fig="barn", on="NW"), t("Ana", "E", (3, 1), 90),
             t("Ben", "U", (-2, 0)), t("Ana", "E", (3, 2), 90, fig="barn", on="NW")],
            "that field already has a barn", expansions=(AM,))
    # The same corner is fine when the field has no barn yet.
    play([*_block(), t("Ben", "B", (2, 2)), t("Ana", "E", (3, 1), 90),
          t("Ben", "U", (-2, 0)), t("Ana", "E", (3, 2), 90, fig="barn", on="NW")],
         expansions=(AM,))


def test_no_farmer_into_a_barn_field() -> None:
    refused([*_block(), t("Ben", "B", (2, 2), fig="barn", on="NW"),
             t("Ana", "E", (3, 1), 90, fig="follower", on="NL")],
            "that field is already occupied", expansions=(AM,))


# -- farmers joined to a barn field later ------------------------------------------------------


def _joined(ana_farmer: bool, ben_farmer: bool) -> list[dict[str, Any]]:
    # Ana's farmer on U(-1,0) NL: the field north of the start road (touches the start
    # city, open). Ben's farmer on E(0,1): the field south of the road (touches the
    # completed 2-tile city). Ben's barn at B(2,2) NW (no farmers there: nothing at once).
    # Then Ana's A rot90 at (1,0) ends the start road at its monastery; A's one field joins
    # the north field (W half WR), the south field (WL) and the barn field (S halves).
    ana: dict[str, Any] = {"fig": "follower", "on": "NL"} if ana_farmer else {}
    ben: dict[str, Any] = {"fig": "follower", "on": "NL"} if ben_farmer else {}
    return [
        t("Ana", "U", (-1, 0), **ana),
        t("Ben", "E", (0, 1), 90, **ben),
        t("Ana", "E", (1, 1), 270),
        t("Ben", "B", (2, 1)),
        t("Ana", "B", (1, 2)),
        t("Ben", "B", (2, 2), fig="barn", on="NW"),
        t("Ana", "A", (1, 0), 90),
    ]


def test_farmers_joined_to_a_barn_score_one_per_city_and_go_home() -> None:
    # Merged field touches the start city (open) and the 2-tile city (complete): Ana's
    # farmer scores 1 x 1 = 1 and goes home.
    out = play(_joined(ana_farmer=True, ben_farmer=False), expansions=(AM,))
    assert out["scores"] == {"Ana": 1, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7


def test_barn_connection_tie_both_score() -> None:
    # One farmer each in the merged field: a tie, both score 1 x 1 = 1, both go home.
    out = play(_joined(ana_farmer=True, ben_farmer=True), expansions=(AM,))
    assert out["scores"] == {"Ana": 1, "Ben": 1}
    assert out["supply"]["Ana"]["follower"] == 7
    assert out["supply"]["Ben"]["follower"] == 7
    # At the end only Ben's barn scores: 4 x 1 = 4 -> Ana 1, Ben 1 + 4 = 5.
    out = play([*_joined(ana_farmer=True, ben_farmer=True), END], expansions=(AM,))
    assert out["scores"] == {"Ana": 1, "Ben": 5}


def test_without_the_barn_the_farmers_stay_and_score_at_the_end() -> None:
    # Control: same fields, no barn. Nothing happens when A joins them; at the end the
    # farmers (1 each, a tie) score 3 x 1 completed city = 3 each.
    actions = _joined(ana_farmer=True, ben_farmer=True)
    actions[5] = t("Ben", "B", (2, 2))
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    out = play([*actions, END], expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 3}
