"""The Cult / Heretics & Shrines.

docs/RULES.md 1.2, 2.3, 2.10, 2.13 item 15, section 4 items 6-7.
"""

from __future__ import annotations

from typing import Any

from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from tests.engine.expansion_helpers import (
    AM,
    CULT,
    END,
    abbey,
    game_of,
    play,
    refused,
    scored,
    t,
    wagon,
)

CU_TILES = [f"CU{i}" for i in range(1, 6)]


def test_the_five_shrine_tiles_are_in_the_supply_only_with_the_expansion() -> None:
    game = Game(Setup(("Ana", "Ben"), frozenset({CULT})))
    assert {tile: game.supply[tile] for tile in CU_TILES} == dict.fromkeys(CU_TILES, 1)
    assert game.tiles_left == 71 + 5
    assert all(Game(Setup(("Ana", "Ben"))).supply[tile] == 0 for tile in CU_TILES)


def test_shrine_alone_scores_like_a_monastery_at_the_end() -> None:
    # Heretic on CU1 at (0,1) under the start tile: neighbours D(0,0) and U(1,0)
    # -> 1 + 2 = 3.
    out = play([t("Ana", "CU1", (0, 1), fig="follower", on="C"), t("Ben", "U", (1, 0)), END],
               expansions=(CULT,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}


# -- challenges --------------------------------------------------------------------------------
#
# Ana's monk on B(0,1), Ben's heretic on CU1(1,1) next to it: a challenge.
#   row 0:  U(-1,0)   D(0,0)   U(1,0)    U(2,0)
#   row 1:  E270(-1,1) B(0,1)  CU1(1,1)  E90(2,1)
#   row 2:  U(-1,2)   U(0,2)   U(1,2)    U(2,2)
# B needs the x=-1 column, CU1 the x=2 column; (1,0), (0,2), (1,2) are shared.


def _challenge(fill: list[tuple[str, tuple[int, int], int]], heretic: str = "follower",
               ) -> list[dict[str, Any]]:
    actions = [t("Ana", "B", (0, 1), fig="follower", on="C"),
               t("Ben", "CU1", (1, 1), fig=heretic, on="C")]
    for i, (tile, at, rot) in enumerate(fill):
        actions.append(t(("Ana", "Ben")[i % 2], tile, at, rot))
    return actions


MONASTERY_FIRST = [("U", (1, 0), 0), ("U", (-1, 0), 0), ("E", (-1, 1), 270), ("U", (-1, 2), 0),
                   ("U", (0, 2), 0), ("U", (1, 2), 0)]
SHRINE_FIRST = [("U", (1, 0), 0), ("U", (2, 0), 0), ("E", (2, 1), 90), ("U", (0, 2), 0),
                ("U", (1, 2), 0), ("U", (2, 2), 0)]
BOTH_AT_ONCE = [("U", (1, 0), 0), ("U", (2, 0), 0), ("E", (2, 1), 90), ("U", (2, 2), 0),
                ("U", (-1, 0), 0), ("E", (-1, 1), 270), ("U", (-1, 2), 0), ("U", (0, 2), 0),
                ("U", (1, 2), 0)]


def test_monastery_completed_first_wins_and_the_heretic_goes_home_with_nothing() -> None:
    # U(1,2) is B's 8th neighbour; CU1 still lacks (2,0), (2,1), (2,2).
    # Ana 9; Ben's heretic goes home, 0 points.
    actions = _challenge(MONASTERY_FIRST)
    out = play(actions, expansions=(CULT,))
    assert out["scores"] == {"Ana": 9, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 7
    assert out["supply"]["Ben"]["follower"] == 7
    game = game_of(actions, expansions=(CULT,))
    challenges = [e for e in game.events if e.kind == "challenge"]
    assert [(e.players, e.tiles) for e in challenges] == [((1,), ((1, 1),))]
    # The shrine, completed later and empty, gives Ben nothing.
    out = play([*actions, t("Ana", "U", (2, 0)), t("Ben", "E", (2, 1), 90),
                t("Ana", "U", (2, 2)), END], expansions=(CULT,))
    assert out["scores"] == {"Ana": 9, "Ben": 0}


def test_challenging_your_own_monk() -> None:
    # A one-player game: Ana's heretic next to her own monk. The monastery completes
    # first: 9, once; her heretic goes home with nothing.
    actions = [dict(a, by="Ana") for a in _challenge(MONASTERY_FIRST)]
    out = play(actions, players=("Ana",), expansions=(CULT,))
    assert out["scores"] == {"Ana": 9}
    assert out["supply"]["Ana"]["follower"] == 7
    game = game_of(actions, players=("Ana",), expansions=(CULT,))
    assert [e.players for e in game.events if e.kind == "challenge"] == [(0,)]


def test_shrine_completed_first_wins_and_the_monk_goes_home_with_nothing() -> None:
    # U(2,2) is CU1's 8th neighbour; B still lacks the x=-1 column. Ben 9, Ana 0.
    out = play(_challenge(SHRINE_FIRST), expansions=(CULT,))
    assert out["scores"] == {"Ana": 0, "Ben": 9}
    assert out["supply"]["Ana"]["follower"] == 7
    # At the end the empty monastery scores nobody.
    out = play([*_challenge(SHRINE_FIRST), END], expansions=(CULT,))
    assert out["scores"] == {"Ana": 0, "Ben": 9}


def test_both_completed_by_the_same_tile_both_score() -> None:
    # U(1,2) is the 8th neighbour of both: 9 each.
    out = play(_challenge(BOTH_AT_ONCE), expansions=(CULT,))
    assert out["scores"] == {"Ana": 9, "Ben": 9}
    game = game_of(_challenge(BOTH_AT_ONCE), expansions=(CULT,))
    assert not [e for e in game.events if e.kind == "challenge"]
    assert sorted(scored(game)) == [(("Ana",), 9), (("Ben",), 9)]


def test_unresolved_challenge_both_score_as_incomplete_at_the_end() -> None:
    # After U(1,0): B has D, U(1,0), CU1 around it -> 1 + 3 = 4;
    # CU1 has D, U(1,0), B -> 1 + 3 = 4.
    out = play([*_challenge(MONASTERY_FIRST[:1]), END], expansions=(CULT,))
    assert out["scores"] == {"Ana": 4, "Ben": 4}


def test_challenged_wagon_may_move_but_not_back_to_its_shrine() -> None:
    # Ben's wagon is the heretic. When B completes first it is chased; the shrine is then
    # empty and incomplete, yet it may not go back there. The start road (U(1,0) is next to
    # (1,1)) is a legal target.
    actions = _challenge(MONASTERY_FIRST, heretic="wagon")
    out = play(actions, expansions=(CULT, AM))
    assert out["scores"] == {"Ana": 9, "Ben": 0}
    assert out["next"] == {"player": "Ben", "expects": ["wagon"]}
    refused([*actions, wagon("Ben", (1, 1), "C")], "chased", expansions=(CULT, AM))
    out = play([*actions, wagon("Ben", (1, 0), "E")], expansions=(CULT, AM))
    assert out["supply"]["Ben"]["wagon"] == 0


# -- placement limits --------------------------------------------------------------------------


def test_shrine_refused_next_to_two_monasteries() -> None:
    actions = [t("Ana", "B", (0, 1)), t("Ben", "B", (1, 1))]
    game = game_of(actions, expansions=(CULT,))
    assert (1, 2) not in {p.pos for p in game.legal_placements("CU1")}
    refused([*actions, t("Ana", "CU1", (1, 2))],
            "a shrine may not stand next to more than one monastery", expansions=(CULT,))


def test_monastery_refused_next_to_two_shrines() -> None:
    refused([t("Ana", "CU1", (0, 1)), t("Ben", "CU2", (1, 1)), t("Ana", "B", (1, 2))],
            "a monastery may not stand next to more than one shrine", expansions=(CULT,))


def test_monastery_may_not_become_a_paired_shrines_second_monastery() -> None:
    # B(0,1) and CU1(1,1) are a pair; B(2,1) would be CU1's second monastery.
    refused([t("Ana", "B", (0, 1)), t("Ben", "CU1", (1, 1)), t("Ana", "B", (2, 1))],
            "the shrine at 1,1 already has a monastery next to it", expansions=(CULT,))


def test_shrine_may_not_become_a_paired_monasterys_second_shrine() -> None:
    # CU1(0,1) and B(1,1) are a pair; CU3 (road S) at (2,1) would be B's second shrine.
    refused([t("Ana", "CU1", (0, 1)), t("Ben", "B", (1, 1)), t("Ana", "CU3", (2, 1))],
            "the monastery at 1,1 already has a shrine next to it", expansions=(CULT,))


def test_without_the_cult_monasteries_have_no_limits() -> None:
    play([t("Ana", "B", (0, 1)), t("Ben", "B", (1, 1)), t("Ana", "B", (1, 2))])


# -- abbeys count as monasteries ---------------------------------------------------------------
#
# A hole at (0,1) under the start tile: U(1,0), CU1(1,1), U(1,2), U(0,2), U(-1,2),
# E rot270 (-1,1) around it.


def _cult_hole(pair: bool) -> list[dict[str, Any]]:
    actions = [t("Ana", "U", (1, 0)), t("Ben", "CU1", (1, 1), fig="follower", on="C")]
    if pair:
        actions.append(t("Ana", "B", (2, 1)))  # B(2,1) and CU1 become a pair
    actions += [t("Ana", "U", (1, 2)), t("Ben", "U", (0, 2)), t("Ana", "U", (-1, 2)),
                t("Ben", "E", (-1, 1), 270)]
    # the players take turns in this order: Ana, Ben, Ana, ...
    return [dict(a, by=("Ana", "Ben")[i % 2]) for i, a in enumerate(actions)]


def test_abbey_refused_as_a_paired_shrines_second_monastery() -> None:
    actions = _cult_hole(pair=True)
    game = game_of(actions, expansions=(CULT, AM))
    assert game.board.holes() == [(0, 1)]
    assert game.abbey_squares() == []  # the hole exists, but the Cult forbids it
    out = play(actions, expansions=(CULT, AM))
    assert "abbey" not in out["next"]["expects"]
    refused([*actions, abbey(out["next"]["player"], (0, 1))],
            "the shrine at 1,1 already has a monastery next to it",
            expansions=(CULT, AM))


def test_end_round_passes_over_a_hole_the_cult_forbids() -> None:
    # The only hole is forbidden by the Cult: at the end nobody is asked.
    out = play([*_cult_hole(pair=True), END], expansions=(CULT, AM))
    assert out["finished"] is True
    assert out["next"] is None


def test_abbey_completed_first_chases_the_heretic() -> None:
    # Without the pair, and with U(-1,0) added, the hole has all 8 neighbours. Ana's abbey
    # with a monk is complete at once: 9. CU1 (missing (2,0), (2,1), (2,2)) loses Ben's
    # heretic with no points.
    actions = _cult_hole(pair=False)  # 6 actions: Ana, Ben, Ana, Ben, Ana, Ben
    actions += [t("Ana", "U", (-1, 0)), t("Ben", "U", (-2, 0)),
                abbey("Ana", (0, 1), fig="follower")]
    out = play(actions, expansions=(CULT, AM))
    assert out["scores"] == {"Ana": 9, "Ben": 0}
    assert out["supply"]["Ben"]["follower"] == 7
    game = game_of(actions, expansions=(CULT, AM))
    assert [e.players for e in game.events if e.kind == "challenge"] == [(1,)]
