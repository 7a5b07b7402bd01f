"""Base-game scoring in concrete positions (docs/RULES.md 2.5, 2.6, 2.12).

Every position grows from the start tile D at (0, 0): city to the north, road
west-east, field to the south. Points are worked out in the comments.
"""

from __future__ import annotations

from tests.engine.records import END, play, refuse, turn

# A ring of eight tiles around a monastery B at (0, 1), placed in an order that
# keeps every tile touching the board; the last one completes the monastery.
RING = [
    ("U", (1, 0), 0), ("U", (-1, 0), 0), ("V", (1, 1), 270), ("V", (-1, 1), 0),
    ("U", (0, 2), 0), ("V", (1, 2), 90), ("V", (-1, 2), 180),
]


def ring_turns(first: str = "Ben") -> list[dict[str, object]]:
    names = ["Ben", "Ana"] if first == "Ben" else ["Ana", "Ben"]
    return [turn(names[i % 2], t, at, rot) for i, (t, at, rot) in enumerate(RING)]


def test_completed_road_scores_one_per_tile() -> None:
    # Ana's thief on L's west road joins the start road; Ben's X closes the west end:
    # X + D + L = 3 tiles -> 3.
    out = play([turn("Ana", "L", (1, 0), figure="follower", on="W"), turn("Ben", "X", (-1, 0))])
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7  # the thief came home


def test_incomplete_road_at_the_end_scores_one_per_tile() -> None:
    # Road D + U(1,0), both ends open: 2 tiles -> 2 at the end.
    out = play([turn("Ana", "U", (1, 0), figure="follower", on="E"), END])
    assert out["scores"] == {"Ana": 2, "Ben": 0}
    assert out["finished"] is True and out["next"] is None


def test_road_loop_counts_a_tile_crossed_twice_once() -> None:
    # X at (1,0): its east and south arms are joined by three curves into one road that
    # starts and ends at X's junction. Tiles: X, (2,0), (2,1), (1,1) = 4, not 5.
    out = play([
        turn("Ana", "X", (1, 0), figure="follower", on="E"),
        turn("Ben", "V", (2, 0), 0),
        turn("Ana", "V", (2, 1), 90),
        turn("Ben", "V", (1, 1), 180),
    ])
    assert out["scores"] == {"Ana": 4, "Ben": 0}


def test_two_tile_city_scores_four() -> None:
    # Knight on E(0,-1) turned 180 closes the start city at once: 2 tiles x 2 = 4, and the
    # knight deployed on a feature its own tile completes comes straight home.
    out = play([turn("Ana", "E", (0, -1), 180, figure="follower", on="S")])
    assert out["scores"] == {"Ana": 4, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7


def test_completed_city_with_pennant() -> None:
    # M(0,-1) rot 270 (city W+S, pennant) joins the start city; Ben's E(-1,-1) rot 90
    # closes it: 3 tiles + 1 pennant, completed: (3 + 1) x 2 = 8.
    out = play([turn("Ana", "M", (0, -1), 270, figure="follower", on="S"),
                turn("Ben", "E", (-1, -1), 90)])
    assert out["scores"] == {"Ana": 8, "Ben": 0}


def test_incomplete_city_with_pennant_at_the_end() -> None:
    # The same city left open: 2 tiles + 1 pennant, incomplete: 1 + 1 + 1 = 3.
    out = play([turn("Ana", "M", (0, -1), 270, figure="follower", on="S"), END])
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def _two_knights_city() -> list[dict[str, object]]:
    """Ana's knight and Ben's knight on two cities that Ben's N(-1,-1) joins into one."""
    return [
        turn("Ana", "N", (0, -1), 270, figure="follower", on="S"),  # start city + N: W open
        turn("Ben", "B", (0, -2)),
        turn("Ana", "U", (1, 0)),
        turn("Ben", "E", (-1, -2), 180, figure="follower", on="S"),  # Ben's own city cap
        turn("Ana", "U", (2, 0)),
    ]


def test_tied_majority_both_score_in_full() -> None:
    # N(-1,-1) rot 90 (city N+E) joins both: D, N(0,-1), N(-1,-1), E(-1,-2) = 4 tiles,
    # completed: 4 x 2 = 8 to each of the tied owners.
    out = play([*_two_knights_city(), turn("Ben", "N", (-1, -1), 90)])
    assert out["scores"] == {"Ana": 8, "Ben": 8}
    assert out["supply"]["Ana"]["follower"] == 7 and out["supply"]["Ben"]["follower"] == 7


def test_deployment_blocked_after_a_merge() -> None:
    # The joining tile's city is part of a city with knights on it: no third knight.
    index, message, out = refuse([*_two_knights_city(),
                                  turn("Ben", "N", (-1, -1), 90, figure="follower", on="N")])
    assert index == 5
    assert "already occupied" in message
    assert out["scores"] == {"Ana": 0, "Ben": 0}  # the state before the refused turn


def test_majority_two_against_one() -> None:
    # Ana has two knights, Ben one: Ana alone takes the whole city. Ana's knight on the
    # start city extended by N(0,-1) rot 270, Ben's on the cap E(-1,-2), Ana's second on
    # the cap E(-2,-1) rot 90; Ben's R(-1,-1) (city N, E and W) joins all three.
    out = play([
        turn("Ana", "N", (0, -1), 270, figure="follower", on="S"),
        turn("Ben", "B", (0, -2)),
        turn("Ana", "U", (-1, 0)),
        turn("Ben", "E", (-1, -2), 180, figure="follower", on="S"),
        turn("Ana", "U", (-2, 0)),
        turn("Ben", "U", (1, 0)),
        turn("Ana", "E", (-2, -1), 90, figure="follower", on="E"),
        turn("Ben", "R", (-1, -1), 0),
    ])
    # Tiles: D, N(0,-1), E(-1,-2), E(-2,-1), R(-1,-1) = 5, completed: 5 x 2 = 10.
    assert out["scores"] == {"Ana": 10, "Ben": 0}


def test_completed_monastery_scores_nine() -> None:
    # Ana's monk on B(0,1); the ring of 8 tiles around it completes it: 9.
    out = play([turn("Ana", "B", (0, 1), figure="follower", on="C"), *ring_turns("Ben")])
    assert out["scores"]["Ana"] == 9
    assert out["supply"]["Ana"]["follower"] == 7


def test_incomplete_monastery_at_the_end() -> None:
    # Monk on B(0,1) with neighbours D(0,0), U(1,0), U(-1,0): 1 + 3 = 4.
    out = play([turn("Ana", "B", (0, 1), figure="follower", on="C"),
                turn("Ben", "U", (1, 0)), turn("Ana", "U", (-1, 0)), END])
    assert out["scores"] == {"Ana": 4, "Ben": 0}


def test_farmer_scores_three_per_completed_city_only() -> None:
    # Farmer north of the road on U(1,0) reaches the start city. The start city is left
    # open: an incomplete city gives farmers nothing -> 0.
    out = play([turn("Ana", "U", (1, 0), figure="follower", on="NL"), END])
    assert out["scores"] == {"Ana": 0, "Ben": 0}


def test_city_counts_once_for_a_field_that_touches_it_twice() -> None:
    # Ana's farmer on U(1,0) NL; Ben closes the start city with E(0,-1) rot 180; Ana's
    # monastery B(1,-1) joins E(0,-1)'s field to the farmer's field, so the field touches
    # the same city through D and through E(0,-1): counted once -> 3 (not 6).
    out = play([
        turn("Ana", "U", (1, 0), figure="follower", on="NL"),
        turn("Ben", "E", (0, -1), 180),
        turn("Ana", "B", (1, -1)),
        END,
    ])
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def test_city_counts_for_each_field_it_touches() -> None:
    # F(0,-1) rot 90: city band N-S on the start city, a field on each side. Ana farms the
    # east field; Ben's monastery B(-1,-1) joins the west field and Ben farms it; Ana's
    # E(0,-2) rot 180 closes the city (3 tiles + 1 pennant, no knight: nobody).
    # End: each field touches 1 completed city -> 3 each.
    out = play([
        turn("Ana", "F", (0, -1), 90, figure="follower", on="EL"),
        turn("Ben", "B", (-1, -1), figure="follower", on="NL"),
        turn("Ana", "E", (0, -2), 180),
        END,
    ])
    assert out["scores"] == {"Ana": 3, "Ben": 3}


def test_farmer_field_touching_two_completed_cities() -> None:
    # Farmer on U(1,0) NL (the field north of the road, which reaches the start city).
    # Ben closes the start city; Ana's E(1,-1) (cap north) joins its field to the farmer's;
    # Ben closes that cap with E(1,-2) rot 180. The field touches 2 completed cities: 6.
    out = play([
        turn("Ana", "U", (1, 0), figure="follower", on="NL"),
        turn("Ben", "E", (0, -1), 180),
        turn("Ana", "E", (1, -1), 0),
        turn("Ben", "E", (1, -2), 180),
        END,
    ])
    assert out["scores"] == {"Ana": 6, "Ben": 0}


def test_farmers_tied_after_fields_merge() -> None:
    # Ana farms U(1,0) NL (the start tile's north field); Ben closes the start city with
    # E(0,-1) rot 180 and farms its own field, a separate one. Ana's monastery B(1,-1)
    # joins the two fields. 1 farmer each: both score the 1 completed city: 3 each.
    out = play([
        turn("Ana", "U", (1, 0), figure="follower", on="NL"),
        turn("Ben", "E", (0, -1), 180, figure="follower", on="NL"),
        turn("Ana", "B", (1, -1)),
        END,
    ])
    assert out["scores"] == {"Ana": 3, "Ben": 3}


def test_final_scoring_order_and_only_occupied_features() -> None:
    # Road and city left open; only Ana's road is occupied: 2 points, the city nothing.
    out = play([turn("Ana", "U", (1, 0), figure="follower", on="W"),
                turn("Ben", "U", (-1, 0)), END])
    # Road: U(-1,0), D, U(1,0) = 3 tiles, incomplete -> 3.
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["finished"] is True
