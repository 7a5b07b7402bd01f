"""The River (docs/RULES.md 2.1, 2.3 and section 4 items 2-4)."""

from __future__ import annotations

from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from tests.engine.records import play, refuse, turn

RIVER = ("river",)


def river_game() -> Game:
    return Game(Setup(("Ana", "Ben"), frozenset(RIVER)))


def test_spring_is_the_start_and_the_d_start_tile_leaves() -> None:
    game = river_game()
    assert game.board.tiles[(0, 0)].tile == "RV-spring"
    # 72 base tiles less the D that leaves the game, + 11 river tiles (the spring is placed).
    assert game.tiles_left == 72 - 1 + 11
    assert game.supply["D"] == 3
    assert set(game.drawable()) == {t for t, n in game.supply.items()
                                    if n > 0 and t.startswith("RV-") and t != "RV-lake"}


def test_record_with_river_needs_the_spring_start() -> None:
    from carca_bot.engine.record import replay
    status, out = replay({"format": "carca-record/1", "players": ["Ana"], "expansions": ["river"],
                          "start": {"tile": "D", "rot": 0}, "actions": []})
    assert status == 2 and "RV-spring" in out["error"]["message"]


def test_river_tiles_first() -> None:
    _, message, _ = refuse([turn("Ana", "U", (1, 0))], expansions=RIVER)
    assert message == "river tiles come first: draw from the river stack"


def test_lake_comes_last() -> None:
    _, message, _ = refuse([turn("Ana", "RV-lake", (1, 0), 180)], expansions=RIVER)
    assert message == "the lake is placed last, after every other river tile"


def test_river_must_continue_its_open_end() -> None:
    # The spring's river leaves east; a straight piece placed south of the spring (edges fit:
    # field against field) does not continue it.
    _, message, _ = refuse([turn("Ana", "RV-straight", (0, 1), 0)], expansions=RIVER)
    assert message.endswith("a river tile must continue the river at 1,0")
    play([turn("Ana", "RV-straight", (1, 0), 0)], expansions=RIVER)


def test_no_immediate_u_turn() -> None:
    # Right turn at (1,0) (river W->S), then another right at (1,1) with no straight between.
    _, message, _ = refuse([turn("Ana", "RV-curve", (1, 0), 0),
                            turn("Ben", "RV-curve-g", (1, 1), 90)], expansions=RIVER)
    assert message.endswith("the river may not turn right twice in a row (a U-turn)")


def test_same_turn_after_a_straight_is_fine_but_not_three_in_a_row() -> None:
    actions = [
        turn("Ana", "RV-curve", (1, 0), 0),  # right: heading south
        turn("Ben", "RV-straight", (1, 1), 90),
        turn("Ana", "RV-curve-g", (1, 2), 90),  # right again after a straight: heading west
        turn("Ben", "RV-straight", (0, 2), 0),
    ]
    play(actions, expansions=RIVER)
    # A third right (heading north) is refused; a left (heading south) is allowed.
    _, message, _ = refuse([*actions, turn("Ana", "RV-road-curve", (-1, 2), 180)],
                           expansions=RIVER)
    assert message.endswith("the river may not turn right three times in a row")
    play([*actions, turn("Ana", "RV-road-curve", (-1, 2), 270)], expansions=RIVER)


def test_no_figure_on_the_river_itself() -> None:
    _, message, _ = refuse([turn("Ana", "RV-straight", (1, 0), 0, figure="follower", on="E")],
                           expansions=RIVER)
    assert "names nothing on the tile just placed" in message


def test_river_splits_fields_and_the_spring_joins_them() -> None:
    game = river_game()
    game.place_tile(0, "RV-straight", (1, 0), 0)
    straight = game.board.tiles[(1, 0)]
    north, south = straight.node_named("NL"), straight.node_named("SL")
    assert north is not None and south is not None
    # The two banks are separate on the straight tile but both reach the spring's single
    # field, which surrounds the spring: one field.
    assert game.board.find(north) == game.board.find(south)


def test_bridge_tile_has_four_fields() -> None:
    game = river_game()
    shape = game.catalogue.shape("RV-bridge", 0)
    assert sum(1 for s in shape.segments if s.kind.value == "field") == 4


def test_whole_river_then_land_tiles() -> None:
    # Straight east from the spring, then the lake: afterwards land tiles are drawn.
    actions = [turn("Ana", "RV-straight", (1, 0), 0)]
    game = river_game()
    for action in actions:
        game.apply(action)
    for tile in list(game.supply):
        if tile.startswith("RV-") and tile != "RV-lake":
            game.supply[tile] = 0  # as if discarded: only the lake is left of the river
    assert game.drawable() == ["RV-lake"]
    game.place_tile(1, "RV-lake", (2, 0), 0)
    game.end_turn(1)
    assert game.river.open_end is None
    assert "U" in game.drawable()
