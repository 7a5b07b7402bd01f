"""Abbey & Mayor: the land tiles (AM1-AM12) and the abbey (docs/RULES.md 1.2, 1.3, 2.8.1, 2.12)."""

from __future__ import annotations

import pytest

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from tests.engine.expansion_helpers import (
    AM,
    END,
    HOLE,
    RING,
    SE_OF_HOLE,
    TUNNEL,
    abbey,
    game_of,
    play,
    refused,
    ring,
    scored,
    skip,
    t,
    wagon,
)
from tests.engine.records import refused_saying

AM_TILES = [f"AM{i}" for i in range(1, 13)]
THREE = ("Ana", "Ben", "Cy")


# -- the 12 land tiles ----------------------------------------------------------------------


def test_the_twelve_land_tiles_are_in_the_supply_only_with_the_expansion() -> None:
    with_am = Game(Setup(("Ana", "Ben"), frozenset({AM})))
    base = Game(Setup(("Ana", "Ben")))
    assert {tile: with_am.supply[tile] for tile in AM_TILES} == dict.fromkeys(AM_TILES, 1)
    assert all(base.supply[tile] == 0 for tile in AM_TILES)
    # 72 base tiles minus the start tile = 71; + 12 A&M land tiles = 83.
    assert base.tiles_left == 71
    assert with_am.tiles_left == 83


def test_players_get_mayor_wagon_barn_and_abbey() -> None:
    out = play([], expansions=(AM,))
    hand = {"follower": 7, "mayor": 1, "wagon": 1, "barn": 1, "abbey": 1}
    assert out["supply"] == {"Ana": hand, "Ben": hand}
    assert play([])["supply"]["Ana"] == {"follower": 7}


def test_an_am_tile_is_refused_without_the_expansion() -> None:
    refused([t("Ana", "AM1", (0, -1))], "no AM1 tile is left in the supply")


# -- AM11: one road with three branches ---------------------------------------------------


def _am11(closers: int) -> list[dict[str, object]]:
    # AM11 rot180 at (0,1) under the start tile: one road with branches E, S, W.
    # Each branch is closed by a junction W: (1,1) rot0, (-1,1) rot0, (0,2) rot180.
    actions = [t("Ana", "AM11", (0, 1), 180, fig="follower", on="E")]
    closers_list = [t("Ben", "W", (1, 1), 0), t("Ana", "W", (-1, 1), 0),
                    t("Ben", "W", (0, 2), 180)]
    return actions + closers_list[:closers]


def test_am11_is_one_road_complete_only_when_all_three_ends_close() -> None:
    # Two branches closed: the road is still open, nothing scored, thief still out.
    out = play(_am11(2), expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 6
    # Third branch closed: one road of AM11 + 3 junction tiles = 4 tiles -> 4.
    out = play(_am11(3), expansions=(AM,))
    assert out["scores"] == {"Ana": 4, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7


def test_am11_branches_are_one_feature() -> None:
    # Ben's junction arm joins the branch of Ana's road: already occupied.
    refused([_am11(0)[0], t("Ben", "W", (1, 1), 0, fig="follower", on="W")],
            "already occupied", expansions=(AM,))


# -- AM12: the road under the city ----------------------------------------------------------


def test_am12_road_passes_under_the_city_as_one_road() -> None:
    # AM12 rot90 at (0,-1): city N-S joined to the start city, road W-E under it.
    # Junctions W at (1,-1) and (-1,-1) close both ends: one road of 3 tiles -> Ana 3.
    out = play([t("Ana", "AM12", (0, -1), 90, fig="follower", on="W"),
                t("Ben", "W", (1, -1), 0), t("Ana", "W", (-1, -1), 0)], expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    # The east half is the same road: Ben cannot put a thief on it.
    refused([t("Ana", "AM12", (0, -1), 90, fig="follower", on="W"),
             t("Ben", "W", (1, -1), 0, fig="follower", on="W")],
            "already occupied", expansions=(AM,))


def test_am12_with_the_tunnel_has_two_roads_each_ending_at_an_entrance() -> None:
    # With the Tunnel: the W and E halves are separate roads, so Ben may occupy the east
    # one. Both ends beyond are closed by junctions, but each road still ends at an
    # unlinked tunnel entrance: nothing completes. End: each incomplete road has 2 tiles
    # (AM12 + one junction) -> Ana 2, Ben 2.
    actions = [t("Ana", "AM12", (0, -1), 90, fig="follower", on="W"),
               t("Ben", "W", (1, -1), 0, fig="follower", on="W"),
               t("Ana", "W", (-1, -1), 0)]
    out = play(actions, expansions=(AM, TUNNEL))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 6
    out = play([*actions, END], expansions=(AM, TUNNEL))
    assert out["scores"] == {"Ana": 2, "Ben": 2}


# -- AM2 / AM3: enclosed fields -------------------------------------------------------------


def _am2(on: str, cities_closed: int) -> list[dict[str, object]]:
    # AM2 at (0,-1): city N-S (1 pennant) joins the start city, city W-E crosses it.
    # E rot180 at (0,-2) closes N-S (D + AM2 + E); E rot90 (-1,-1) and E rot270 (1,-1)
    # close W-E.
    closers = [t("Ben", "E", (0, -2), 180), t("Ana", "E", (-1, -1), 90),
               t("Ben", "E", (1, -1), 270)]
    closers = closers[:1] if cities_closed == 1 else closers
    return [t("Ana", "AM2", (0, -1), 0, fig="follower", on=on), *closers, END]


@pytest.mark.parametrize("inner", ["I1", "I2"])
def test_am2_enclosed_field_scores_each_completed_adjacent_city(inner: str) -> None:
    # Both crossing cities completed: the farmer's enclosed field touches 2 -> 2 x 3 = 6.
    out = play(_am2(inner, 2), expansions=(AM,))
    assert out["scores"] == {"Ana": 6, "Ben": 0}


def test_am2_enclosed_field_with_one_city_completed() -> None:
    # Only N-S completed (W-E still open): 1 x 3 = 3.
    out = play(_am2("I1", 1), expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def test_am2_enclosed_fields_are_two_separate_fields() -> None:
    game = game_of([t("Ana", "AM2", (0, -1), 0, fig="follower", on="I1")], expansions=(AM,))
    placed = game.board.tiles[(0, -1)]
    i1, i2 = placed.node_named("I1"), placed.node_named("I2")
    assert i1 is not None and i2 is not None
    assert game.board.find(i1) != game.board.find(i2)
    # Each touches both crossing cities.
    assert len(game.board.adjacent_cities(i1)) == len(game.board.adjacent_cities(i2)) == 2


def test_am3_enclosed_field() -> None:
    # AM3 rot180 at (0,-1): its pennant cap (now S) closes the start city at once
    # (2 tiles + 1 pennant, nobody on it). The farmer on I1 touches that city (complete)
    # and the W-E city (open): 1 x 3 = 3 at the end.
    out = play([t("Ana", "AM3", (0, -1), 180, fig="follower", on="I1"), END],
               expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}


# -- the abbey: where it may go --------------------------------------------------------------


def test_no_abbey_without_a_hole() -> None:
    out = refused([abbey("Ana", (0, 1))], "an abbey goes only into a hole", expansions=(AM,))
    assert out["next"] == {"player": "Ana", "expects": ["tile"]}
    # The ring with its last tile missing: (1,1) has only three neighbours.
    almost = ring()[:-1]
    out = refused([*almost, abbey("Ben", HOLE)], "not surrounded by tiles on all four sides",
                  expansions=(AM,))
    assert out["next"] == {"player": "Ben", "expects": ["tile"]}


def test_abbey_offered_once_a_hole_exists() -> None:
    out = play(ring(), expansions=(AM,))
    assert out["next"] == {"player": "Ana", "expects": ["tile", "abbey"]}
    refused([*ring(), abbey("Ana", (0, 1))], "already taken", expansions=(AM,))


def test_abbey_is_placed_instead_of_drawing_a_tile() -> None:
    game = game_of(ring(), expansions=(AM,))
    left = game.tiles_left
    assert game.abbey_squares() == [HOLE]
    game.place_abbey(0, HOLE)
    game.end_turn(0)
    assert game.tiles_left == left  # no land tile was taken
    assert game.in_hand(0)["abbey"] == 0
    assert game.current == 1
    # Ben takes a tile; Ana has no abbey left for a second one.
    refused([*ring(), abbey("Ana", HOLE), t("Ben", "U", (-2, 2)), abbey("Ana", HOLE)],
            "Ana has no abbey to place", expansions=(AM,))


def test_abbey_with_no_abbey_in_hand_is_refused() -> None:
    game = game_of([*ring(), abbey("Ana", HOLE), t("Ben", "U", (-2, 2))], expansions=(AM,))
    with refused_saying("Ana has no abbey to place"):
        game.place_abbey(0, (5, 5))


# -- the abbey closes roads, cities and fields -------------------------------------------------


def test_abbey_closes_roads_without_joining_or_counting_itself() -> None:
    # Ana's thief on V(1,0): road W(-1,0) + D + V = 3 land tiles, ends in the hole.
    # Ben's thief on the N arm of W(1,2): 1 tile, ends in the hole.
    # The abbey closes both: Ana 3, Ben 1 (joined they would share 4 or 5 each; counting
    # the abbey would give 4 and 2).
    out = play([*ring(deploys={0: ("follower", "W"), 9: ("follower", "N")}),
                abbey("Ana", HOLE)], expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 1}
    assert out["supply"]["Ana"]["follower"] == 7
    assert out["supply"]["Ben"]["follower"] == 7


def test_abbey_closes_a_city() -> None:
    # Ana's knight on E rot270 at (2,1), city W opening into the hole: the abbey closes it,
    # a 1-tile city, 1 x 2 = 2 (the abbey is not a city tile).
    out = play([*ring(deploys={4: ("follower", "W")}), abbey("Ana", HOLE)], expansions=(AM,))
    assert out["scores"] == {"Ana": 2, "Ben": 0}


def test_abbey_does_not_join_the_fields_around_it() -> None:
    # Ben's farmer on E(2,0): the field east of the hole, touching the start city (open),
    # E(2,0)'s city (open) and E(2,1)'s city (closed by the abbey) -> 1 x 3 = 3.
    # Ana's farmer on U(-1,2): the field west of the hole, touching only E(-1,1)'s city
    # (open) -> 0. Joined through the abbey they would both score 3.
    actions = [*ring(deploys={3: ("follower", "SL"), 6: ("follower", "NL")}),
               abbey("Ana", HOLE), END]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 3}
    game = game_of(actions[:-1], expansions=(AM,))
    v_tile = game.board.tiles[(1, 0)]
    east, west = v_tile.node_named("SL"), v_tile.node_named("SR")
    assert east is not None and west is not None
    assert game.board.find(east) != game.board.find(west)


# -- the abbey is a monastery ----------------------------------------------------------------


def test_abbey_with_a_monk_and_eight_neighbours_scores_nine() -> None:
    # All 8 squares around the hole hold tiles: the abbey is complete when placed -> 9.
    out = play([*ring(), abbey("Ana", HOLE, fig="follower")], expansions=(AM,))
    assert out["scores"] == {"Ana": 9, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7


def test_abbey_completes_a_neighbouring_monastery() -> None:
    # Ana's monk on B(0,1), which has 7 neighbours; Ana plays one more tile (U at (-2,2),
    # not next to B), then Ben's abbey is B's 8th neighbour: Ana 9. Ben's monk on his
    # abbey: 9 as well.
    out = play([*ring(deploys={2: ("follower", "C")}), t("Ana", "U", (-2, 2)),
                abbey("Ben", HOLE, fig="follower")], expansions=(AM,))
    assert out["scores"] == {"Ana": 9, "Ben": 9}
    game = game_of([*ring(deploys={2: ("follower", "C")}), t("Ana", "U", (-2, 2)),
                    abbey("Ben", HOLE, fig="follower")], expansions=(AM,))
    assert sorted(scored(game)) == [(("Ana",), 9), (("Ben",), 9)]
    assert sorted(e.feature for e in game.events if e.kind == "score" and e.players) == [
        "abbey", "monastery"]


def test_abbot_on_an_abbey() -> None:
    out = play([*ring(), abbey("Ana", HOLE, fig="abbot")], expansions=(AM, "abbot"))
    assert out["scores"] == {"Ana": 9, "Ben": 0}


def test_incomplete_abbey_scores_one_plus_neighbours_at_the_end() -> None:
    # Without U(2,2) the hole has 7 neighbours: 1 + 7 = 8 at the end.
    actions = ring(leave_out=(SE_OF_HOLE,))
    # Nine ring tiles: Ana placed the last one, so Ben places the abbey.
    out = play([*actions, abbey("Ben", HOLE, fig="follower"), END], expansions=(AM,))
    assert out["scores"] == {"Ana": 0, "Ben": 8}


def test_abbey_is_refused_on_a_tile_turn_after_drawing() -> None:
    game = game_of(ring(), expansions=(AM,))
    game.place_tile(0, "U", (-2, 2), 0)
    with pytest.raises(IllegalMove):
        game.place_abbey(0, HOLE)


# -- the end-of-game abbey round (docs/RULES.md 2.8.1, section 4 item 1) -------------------------


def test_end_round_starts_with_the_player_after_the_last_tile() -> None:
    # Two players; Ben placed the last ring tile, then the supply ends: Ana is asked first.
    out = play([*ring(), END], expansions=(AM,))
    assert out["finished"] is False
    assert out["next"] == {"player": "Ana", "expects": ["abbey"]}
    refused([*ring(), END, abbey("Ben", HOLE)], "not Ben's turn", expansions=(AM,))


def test_end_round_skip_then_place_with_a_monk_scores() -> None:
    # Ana skips, Ben places his abbey with a monk: 8 neighbours, complete -> 9.
    out = play([*ring(), END, skip("Ana"), abbey("Ben", HOLE, fig="follower")],
               expansions=(AM,))
    assert out["finished"] is True
    assert out["next"] is None
    assert out["scores"] == {"Ana": 0, "Ben": 9}


def test_end_round_three_players_order_and_passing_over() -> None:
    # Three players, nine ring tiles (no U(2,2)): the last one by THREE[8 % 3] = Cy. The
    # round asks Ana, then Ben, then Cy. Ana skips; Ben fills the only hole with a monk;
    # Cy has no hole left and is passed over: the game is finished. The hole has 7
    # neighbours, so Ben's monk scores at the final scoring: 1 + 7 = 8.
    actions = ring(THREE, leave_out=(SE_OF_HOLE,))
    assert actions[-1]["by"] == "Cy"
    out = play([*actions, END], players=THREE, expansions=(AM,))
    assert out["next"] == {"player": "Ana", "expects": ["abbey"]}
    out = play([*actions, END, skip("Ana")], players=THREE, expansions=(AM,))
    assert out["next"] == {"player": "Ben", "expects": ["abbey"]}
    out = play([*actions, END, skip("Ana"), abbey("Ben", HOLE, fig="follower")],
               players=THREE, expansions=(AM,))
    assert out["finished"] is True
    assert out["next"] is None
    assert out["scores"] == {"Ana": 0, "Ben": 8, "Cy": 0}


def test_end_round_last_asked_is_the_player_who_placed_the_last_tile() -> None:
    # Ring of 10 with three players: the last tile by THREE[9 % 3] = Ana. Ben and Cy skip,
    # Ana is asked last and places her abbey with a monk: complete -> 9.
    actions = ring(THREE)
    assert actions[-1]["by"] == "Ana"
    out = play([*actions, END, skip("Ben"), skip("Cy")], players=THREE, expansions=(AM,))
    assert out["next"] == {"player": "Ana", "expects": ["abbey"]}
    out = play([*actions, END, skip("Ben"), skip("Cy"), abbey("Ana", HOLE, fig="follower")],
               players=THREE, expansions=(AM,))
    assert out["finished"] is True
    assert out["scores"] == {"Ana": 9, "Ben": 0, "Cy": 0}


def _second_hole() -> list[dict[str, object]]:
    # After the ring (last tile by Ben) Ana puts her abbey into (1,1) during the game.
    # Then B(-1,3), B(1,3), B(1,4), E rot180 (0,4) make a second hole at (0,3) under
    # U(0,2); Ben's filler U(-2,2) is the last tile, so the round starts with Ana.
    return [*ring(), abbey("Ana", HOLE), t("Ben", "B", (-1, 3)), t("Ana", "B", (1, 3)),
            t("Ben", "B", (1, 4)), t("Ana", "E", (0, 4), 180), t("Ben", "U", (-2, 2))]


def test_end_round_passes_over_a_player_without_an_abbey() -> None:
    # Ana has no abbey left: she is passed over and Ben is asked first.
    out = play([*_second_hole(), END], expansions=(AM,))
    assert out["next"] == {"player": "Ben", "expects": ["abbey"]}
    assert out["supply"]["Ana"]["abbey"] == 0
    out = play([*_second_hole(), END, skip("Ben")], expansions=(AM,))
    assert out["finished"] is True


def test_end_with_no_hole_asks_nobody() -> None:
    out = play([t("Ana", "U", (1, 0)), END], expansions=(AM,))
    assert out["finished"] is True
    assert out["next"] is None


def test_end_round_abbey_scores_a_wagon_which_may_then_move() -> None:
    # Ana's wagon on V(1,0) (ring index 0). Ben placed the last ring tile; END: Ana first.
    # Her abbey closes the road W(-1,0) + D + V = 3 -> Ana 3; the wagon may go to the start
    # city (0,0), next to (1,0). Ben then has no hole: finished. Final: the wagon in the
    # open 1-tile start city, 1 -> Ana 4.
    actions = [*ring(deploys={0: ("wagon", "W")}), END, abbey("Ana", HOLE)]
    out = play(actions, expansions=(AM,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["next"] == {"player": "Ana", "expects": ["wagon"]}
    out = play([*actions, wagon("Ana", (0, 0), "N")], expansions=(AM,))
    assert out["finished"] is True
    assert out["scores"] == {"Ana": 4, "Ben": 0}


def test_skip_is_only_for_the_end_round() -> None:
    refused([*ring(), skip("Ana")], "only in the end-of-game abbey round", expansions=(AM,))


def test_ring_layout_is_what_the_comments_say() -> None:
    # Guard for the shared position: ten tiles, hole at (1,1) with 8 neighbours.
    game = game_of(ring(), expansions=(AM,))
    assert len(RING) == 10
    assert game.board.holes() == [HOLE]
    assert game.board.neighbours(HOLE) == 8
    assert game.board.neighbours((0, 1)) == 7
