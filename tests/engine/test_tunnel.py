"""The Tunnel (docs/RULES.md 1.2, 1.3, 2.5, 2.11, 2.13 item 16, section 4 item 10)."""

from __future__ import annotations

from typing import Any

import pytest

from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from tests.engine.expansion_helpers import AM, END, TUNNEL, game_of, play, refused, t
from tests.engine.records import refused_saying

TU_TILES = ["TU1", "TU2", "TU3", "TU4"]
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Flo")


def test_the_four_tunnel_tiles_are_in_the_supply_only_with_the_expansion() -> None:
    game = Game(Setup(("Ana", "Ben"), frozenset({TUNNEL})))
    assert {tile: game.supply[tile] for tile in TU_TILES} == dict.fromkeys(TU_TILES, 1)
    assert game.tiles_left == 71 + 4
    assert all(Game(Setup(("Ana", "Ben"))).supply[tile] == 0 for tile in TU_TILES)


@pytest.mark.parametrize(("players", "tokens"), [
    (2, 6),  # 3 pairs
    (3, 4),  # 2 pairs
    (4, 2),  # 1 pair
    (5, 2),
    (6, 2),
])
def test_token_pairs_by_player_count(players: int, tokens: int) -> None:
    out = play([], players=NAMES[:players], expansions=(TUNNEL,))
    assert {name: hand["tokens"] for name, hand in out["supply"].items()} == dict.fromkeys(
        NAMES[:players], tokens)


@pytest.mark.parametrize(("pairs", "tokens"), [(1, 2), (2, 4), (0, 0)])
def test_tunnel_pairs_rule_overrides_the_default(pairs: int, tokens: int) -> None:
    out = play([], expansions=(TUNNEL,), rules={"tunnel_pairs": pairs})
    assert out["supply"]["Ana"]["tokens"] == tokens
    assert out["supply"]["Ben"]["tokens"] == tokens


def test_no_tokens_without_the_tunnel() -> None:
    assert "tokens" not in play([])["supply"]["Ana"]


# -- an entrance without its pair -------------------------------------------------------------


def _west_road(token: bool) -> list[dict[str, Any]]:
    # Ana's thief on TU1's W road at (1,0): start road + TU1, ending at TU1's W entrance.
    # Ben's junction W(-1,0) closes the west end.
    spot = ((1, 0), "W", 0) if token else None
    return [t("Ana", "TU1", (1, 0), 0, fig="follower", on="W", token=spot),
            t("Ben", "W", (-1, 0), 0)]


@pytest.mark.parametrize("token", [False, True])
def test_an_unpaired_entrance_keeps_the_road_open(token: bool) -> None:
    # Both ends are closed by tiles, but the road runs into a tunnel entrance with no
    # linked partner (no token, or one token): incomplete, nothing scored.
    out = play(_west_road(token), expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    assert out["supply"]["Ana"]["follower"] == 6
    assert out["supply"]["Ana"]["tokens"] == (5 if token else 6)
    # At the end: incomplete road W(-1,0) + D + TU1 = 3 tiles -> 3.
    out = play([*_west_road(token), END], expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 3, "Ben": 0}


# -- linking -----------------------------------------------------------------------------------


def test_second_token_links_and_completes_the_road_that_turn() -> None:
    # Public example 06: Ana's token pair 0 on TU1's W entrance; later Ana places W rot180
    # at (1,1) and the second token of pair 0 on TU1's S entrance (not on the tile she
    # placed). One road: W(-1,0) + D + TU1 + W(1,1), TU1 counted once = 4 -> Ana 4.
    actions = [*_west_road(token=True),
               t("Ana", "W", (1, 1), 180, token=((1, 0), "S", 0))]
    out = play(actions, expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 4, "Ben": 0}
    assert out["supply"]["Ana"]["tokens"] == 4
    assert out["supply"]["Ana"]["follower"] == 7
    game = game_of(actions, expansions=(TUNNEL,))
    road = [e for e in game.events if e.kind == "score" and e.feature == "road"]
    assert sorted(road[0].tiles) == [(-1, 0), (0, 0), (1, 0), (1, 1)]


def test_tokens_of_different_pairs_do_not_link() -> None:
    # The second token is of pair 1: no link, the road stays open.
    out = play([*_west_road(token=True), t("Ana", "W", (1, 1), 180, token=((1, 0), "S", 1))],
               expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}


def test_tokens_of_different_players_do_not_link() -> None:
    # Ben puts his own pair-0 token on the S entrance: still no link.
    out = play([*_west_road(token=True), t("Ana", "U", (2, 0)),
                t("Ben", "W", (1, 1), 180, token=((1, 0), "S", 0))], expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}


def test_road_through_two_tunnels() -> None:
    # Road pieces: W(-1,0) rot180 E arm + D + TU1's W road (entrance e1);
    #   TU2 rot180 (0,1) W road (entrance e2) + TU3 (-1,1) E road (entrance e3);
    #   TU1's S road (entrance e4) + W rot180 (1,1) N arm.
    # Ana links e1-e2 with pair 0 and e3-e4 with pair 1. One complete road of the
    # distinct tiles W(-1,0), D, TU1, TU2, TU3, W(1,1) = 6 -> Ana 6.
    actions = [
        t("Ana", "TU1", (1, 0), 0, fig="follower", on="W", token=((1, 0), "W", 0)),
        t("Ben", "W", (-1, 0), 180),
        t("Ana", "TU2", (0, 1), 180, token=((0, 1), "W", 0)),
        t("Ben", "TU3", (-1, 1), 0),
        t("Ana", "W", (1, 1), 180, token=((-1, 1), "E", 1)),
        t("Ben", "U", (2, 0)),
    ]
    out = play(actions, expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}  # one tunnel still unlinked
    actions.append(t("Ana", "U", (3, 0), token=((1, 0), "S", 1)))
    out = play(actions, expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 6, "Ben": 0}
    game = game_of(actions, expansions=(TUNNEL,))
    road = [e for e in game.events if e.kind == "score" and e.players]
    assert sorted(road[0].tiles) == [(-1, 0), (-1, 1), (0, 0), (0, 1), (1, 0), (1, 1)]


# -- token before or after the figure -----------------------------------------------------------


def _token_order(token_first: bool) -> list[dict[str, Any]]:
    # Ana's thief on TU1's W road (start road side). Ben's first pair-0 token goes on that
    # entrance; later Ben's TU2 rot180 at (0,1) with a thief on its W road and his second
    # pair-0 token on TU2's W entrance, linking the two roads.
    return [
        t("Ana", "TU1", (1, 0), 0, fig="follower", on="W"),
        t("Ben", "U", (2, 0), token=((1, 0), "W", 0)),
        t("Ana", "U", (3, 0)),
        t("Ben", "TU2", (0, 1), 180, fig="follower", on="W", token=((0, 1), "W", 0),
          token_first=token_first),
    ]


def test_token_after_the_figure() -> None:
    # Thief first (TU2's W road is free), then the link: both thieves on one road.
    # End: road D + TU1 + TU2 (open at (-1,0) and (-1,1)) = 3 tiles, a tie: 3 each.
    out = play([*_token_order(token_first=False), END], expansions=(TUNNEL,))
    assert out["scores"] == {"Ana": 3, "Ben": 3}


def test_token_before_the_figure() -> None:
    # Link first: TU2's W road is now Ana's road, so Ben's thief is refused.
    refused(_token_order(token_first=True), "already occupied", expansions=(TUNNEL,))


@pytest.mark.parametrize("recall", [False, True])
def test_token_first_without_a_figure_changes_nothing(recall: bool) -> None:
    """The spec's settled edge: `token_first` orders a token and a deploy; on a turn with a
    token and no figure (records written elsewhere carry it) it is well-formed and scores
    exactly as the same turn without it."""
    def game(flag: bool) -> list[dict[str, Any]]:
        return [
            t("Ana", "TU1", (1, 0), 0, fig="follower", on="W"),
            t("Ben", "U", (2, 0), token=((1, 0), "W", 0), token_first=flag),
            t("Ana", "U", (3, 0)),
            t("Ben", "TU2", (0, 1), 180, token=((0, 1), "W", 0), token_first=flag),
            END,
        ]
    plain = play(game(False), expansions=(TUNNEL,))
    flagged = play(game(True), expansions=(TUNNEL,))
    assert flagged["scores"] == plain["scores"] == {"Ana": 3, "Ben": 0}
    assert flagged["next"] == plain["next"]


def test_one_token_per_turn() -> None:
    game = game_of([t("Ana", "TU1", (1, 0))], expansions=(TUNNEL,))
    game.place_tile(1, "TU2", (0, 1), 2)
    game.place_token(1, (1, 0), "W", 0)
    assert game.legal_tokens() == []
    with refused_saying("only one tunnel token may be placed per turn"):
        game.place_token(1, (1, 0), "E", 1)


def test_token_on_any_free_entrance_on_the_board() -> None:
    game = game_of([t("Ana", "TU1", (1, 0)), t("Ben", "TU2", (0, 1), 180)],
                   expansions=(TUNNEL,))
    game.place_tile(0, "U", (2, 0), 0)  # placed tile has no entrance
    spots = {(s.pos, s.on) for s in game.legal_tokens()}
    assert spots == {((1, 0), "W"), ((1, 0), "E"), ((1, 0), "S"), ((0, 1), "W"),
                     ((0, 1), "E")}


@pytest.mark.parametrize(("token", "words"), [
    (((0, 0), "E", 0), "has no tunnel entrance"),  # the start road
    (((1, 0), "N", 0), "has no tunnel entrance"),  # TU1's city
    (((1, 0), "W", 3), "there is no such token pair"),
    (((7, 7), "W", 0), "there is no tile at"),
])
def test_token_refusals(token: tuple[tuple[int, int], str, int], words: str) -> None:
    refused([t("Ana", "TU1", (1, 0), token=token)], words, expansions=(TUNNEL,))


def test_token_on_an_entrance_that_has_one() -> None:
    refused([t("Ana", "TU1", (1, 0), token=((1, 0), "W", 0)),
             t("Ben", "U", (2, 0), token=((1, 0), "W", 0))],
            "that tunnel entrance already has a token", expansions=(TUNNEL,))


def test_a_pair_has_only_two_tokens() -> None:
    refused([t("Ana", "TU1", (1, 0), token=((1, 0), "W", 0)), t("Ben", "U", (2, 0)),
             t("Ana", "TU2", (0, 1), 180, token=((1, 0), "E", 0)), t("Ben", "U", (3, 0)),
             t("Ana", "U", (4, 0), token=((0, 1), "W", 0))],
            "both tokens of that pair are already on the board", expansions=(TUNNEL,))


def test_no_tokens_in_a_game_without_tunnels() -> None:
    refused([t("Ana", "U", (1, 0), token=((1, 0), "W", 0))], "this game has no tunnels")


# -- AM12 with the Tunnel -----------------------------------------------------------------------


def test_am12_entrances_linked_on_one_tile() -> None:
    # AM12 rot90 at (0,-1): with the Tunnel its W and E roads end at two entrances.
    # Ana's thief W, Ben's thief on W(1,-1)'s W arm (AM12's E road), Ana's W(-1,-1) closes
    # the west. Ana's pair 0 links AM12's own two entrances: one road
    # W(-1,-1) + AM12 + W(1,-1) = 3 tiles (AM12 once), a tie -> 3 each.
    actions = [
        t("Ana", "AM12", (0, -1), 90, fig="follower", on="W"),
        t("Ben", "W", (1, -1), 0, fig="follower", on="W"),
        t("Ana", "W", (-1, -1), 0, token=((0, -1), "W", 0)),
        t("Ben", "U", (-2, -1)),
    ]
    out = play(actions, expansions=(AM, TUNNEL))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    game = game_of(actions, expansions=(AM, TUNNEL))
    game.place_tile(0, "U", (-3, -1), 0)
    assert {(s.pos, s.on) for s in game.legal_tokens() if s.pair == 0} == {((0, -1), "E")}
    out = play([*actions, t("Ana", "U", (-3, -1), token=((0, -1), "E", 0))],
               expansions=(AM, TUNNEL))
    assert out["scores"] == {"Ana": 3, "Ben": 3}


def test_am12_has_no_entrances_without_the_tunnel() -> None:
    refused([t("Ana", "AM12", (0, -1), 90, token=((0, -1), "W", 0))], "this game has no tunnels",
            expansions=(AM,))
    game = game_of([], expansions=(AM, TUNNEL))
    game.place_tile(0, "AM12", (0, -1), 1)
    assert {(s.pos, s.on) for s in game.legal_tokens() if s.pair == 0} == {
        ((0, -1), "W"), ((0, -1), "E")}
