"""Setup, placement and deployment rules of the base game (docs/RULES.md 2.1-2.4, 2.13)."""

from __future__ import annotations

import pytest

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.setup import Setup
from tests.engine.records import play, refuse, refused_saying, turn


def new_game(*expansions: str, players: tuple[str, ...] = ("Ana", "Ben")) -> Game:
    return Game(Setup(players, frozenset(expansions), seed=1))


def test_setup_base_game() -> None:
    game = new_game()
    assert game.board.tiles[(0, 0)].tile == "D"
    assert game.tiles_left == 71  # 72 land tiles less the start tile
    assert game.in_hand(0) == {"follower": 7}
    assert game.phase is Phase.TILE and game.current == 0


def test_setup_with_every_expansion() -> None:
    game = new_game("river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel",
                    players=("Ana", "Ben", "Cy"))
    # 110 land tiles; the spring is the start tile and one D leaves the game.
    assert game.tiles_left == 110 - 2
    assert game.in_hand(0) == {"follower": 7, "abbot": 1, "mayor": 1, "wagon": 1, "barn": 1,
                               "abbey": 1, "tokens": 4}


def test_tile_must_touch_the_board() -> None:
    index, message, _ = refuse([turn("Ana", "U", (3, 3))])
    assert index == 0
    assert "does not touch any placed tile" in message


def test_corner_contact_is_not_enough() -> None:
    _, message, _ = refuse([turn("Ana", "B", (1, 1))])
    assert "does not touch any placed tile" in message


def test_edges_must_match_and_the_message_says_which() -> None:
    # U at (0,-1) unturned shows field to the south, but the start tile's city faces it.
    _, message, _ = refuse([turn("Ana", "U", (0, -1))])
    assert message == ("U cannot go at 0,-1 turned 0: its south edge is field but the tile "
                       "at 0,0 shows city there")


def test_square_already_taken() -> None:
    _, message, _ = refuse([turn("Ana", "U", (0, 0))])
    assert "already taken" in message


def test_wrong_player_and_unknown_player() -> None:
    _, message, _ = refuse([turn("Ben", "U", (1, 0))])
    assert message == "it is not Ben's turn: waiting for Ana to place a tile"
    _, message, _ = refuse([turn("Zed", "U", (1, 0))])
    assert message == "'Zed' is not a player in this game"


def test_tile_not_in_the_supply() -> None:
    # There is one C tile; after it is used, no second one can be drawn. AM1 is not in a
    # base game at all.
    _, message, _ = refuse([turn("Ana", "AM1", (0, -1), 0)])
    assert message == "no AM1 tile is left in the supply"


def test_legal_placements_lists_every_square_and_rotation() -> None:
    game = new_game()
    spots = {(p.pos, p.rot) for p in game.legal_placements("U")}
    # A straight road continues the start road east or west, or lies turned beside the
    # field to the south (field on its north side: rotations 0 and 2, road W-E).
    assert ((1, 0), 0) in spots and ((1, 0), 2) in spots and ((-1, 0), 0) in spots
    assert ((0, 1), 0) in spots and ((0, 1), 2) in spots
    assert all(pos != (0, -1) for pos, _ in spots)  # city to the north
    for pos, rot in spots:
        assert game.placement_problem("U", pos, rot) is None


def test_discard_only_a_tile_that_fits_nowhere() -> None:
    _, message, _ = refuse([{"by": "Ana", "discard": "U"}])
    assert message == "U fits on the board, so it cannot be discarded"


def test_discard_of_an_unplaceable_tile_then_the_same_player_plays() -> None:
    # After E(0,-1) rot 180 closes the start city, no square offers four city edges...
    # C (city on all sides) fits nowhere only if no square shows city; build that:
    out = play([turn("Ana", "E", (0, -1), 180), turn("Ben", "U", (1, 0)),
                {"by": "Ana", "discard": "C"}, turn("Ana", "U", (-1, 0))])
    assert out["next"]["player"] == "Ben"
    game = new_game()
    for action in ([turn("Ana", "E", (0, -1), 180), turn("Ben", "U", (1, 0))]):
        game.apply(action)
    assert not game.fits_somewhere("C")
    assert "discard" in game.expects()
    with refused_saying("fits nowhere: discard it"):
        game.place_tile(0, "C", (1, 1), 0)


def test_one_figure_per_turn_and_only_on_the_new_tile() -> None:
    game = new_game()
    game.place_tile(0, "U", (1, 0), 0)
    with refused_saying("names nothing on the tile just placed"):
        game.deploy(0, "follower", "C")
    game.deploy(0, "follower", "E")
    with refused_saying("only one figure"):
        game.deploy(0, "follower", "NL")


def test_refused_step_changes_nothing_and_apply_is_atomic() -> None:
    game = new_game()
    before = (dict(game.supply), game.tiles_left, list(game.board.tiles))
    with pytest.raises(IllegalMove):
        game.apply(turn("Ana", "U", (1, 0), figure="follower", on="X"))
    assert (dict(game.supply), game.tiles_left, list(game.board.tiles)) == before
    assert game.phase is Phase.TILE and game.history == []


def test_followers_run_out() -> None:
    # Seven thieves on the south arms of seven junctions (W x4, L x3), then an eighth is
    # refused.
    game = new_game()
    x = 1
    for i in range(7):
        game.place_tile(0, "W" if i < 4 else "L", (x, 0), 0)
        game.deploy(0, "follower", "S")
        game.end_turn(0)
        game.place_tile(1, "U", (x + 1, 0), 0)
        game.end_turn(1)
        x += 2
    assert game.in_hand(0)["follower"] == 0
    game.place_tile(0, "X", (x, 0), 0)
    with refused_saying("has no follower in hand"):
        game.deploy(0, "follower", "S")


def test_follower_not_on_a_garden_and_no_abbot_without_the_expansion() -> None:
    game = new_game()
    game.place_tile(0, "U-g", (1, 0), 0)
    with refused_saying("only an abbot may stand in a garden"):
        game.deploy(0, "follower", "G")
    with refused_saying("has no abbot in hand"):
        game.deploy(0, "abbot", "G")


def test_legal_deployments_for_the_placed_tile() -> None:
    game = new_game()
    game.place_tile(0, "D", (1, 0), 0)  # a second D east of the start: road joins the start road
    spots = {(d.figure, d.on) for d in game.legal_deployments()}
    # City cap (own city), the road, the north field (EL/WR) and the south field.
    assert spots == {("follower", "N"), ("follower", "E"), ("follower", "EL"),
                     ("follower", "ER")}


def test_draw_is_fixed_by_seed_and_count() -> None:
    a, b = new_game(), new_game()
    assert a.draw() == b.draw()
    assert a.draw() == a.draw()  # drawing again without taking the tile changes nothing
