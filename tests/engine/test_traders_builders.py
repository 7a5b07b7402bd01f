"""Traders & Builders (docs/rules/RULES-inns-traders.md 2.17, 2.18, section 4 items 13-20):
goods and their majorities, the builder's double turn, the pig, as points in concrete
positions, and the record contract's `supply` and `next` for them.

Positions are records from the start tile D at (0, 0) (city north, road west-east);
x grows east, y south, `rot` is clockwise degrees.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.record import replay, result
from carca_bot.engine.setup import Setup
from tests.engine.expansion_helpers import (
    AM,
    END,
    HOLE,
    KR,
    TUNNEL,
    abbey,
    game_of,
    next_turn,
    play,
    record,
    refused,
    ring,
    scored,
    t,
)
from tests.engine.test_push_pop import play_checked

TB = "traders_builders"
IC = "inns_cathedrals"


# -- goods ------------------------------------------------------------------------------------


def _grain_city(follower: bool = True) -> list[dict[str, Any]]:
    """TB1 (a corner city with grain) north of the start tile, closed by E at (1, -1):
    a city of 3 tiles; Ana's follower in it, Ben completes it."""
    fig, on = ("follower", "S") if follower else (None, None)
    return [t("Ana", "TB1", (0, -1), 180, fig=fig, on=on), t("Ben", "E", (1, -1), 270)]


def test_the_player_who_completes_a_city_takes_its_goods() -> None:
    out = play(_grain_city(), expansions=(TB,))
    assert out["scores"] == {"Ana": 6, "Ben": 0}  # the city scores as usual
    assert out["supply"]["Ben"] == {"follower": 7, "builder": 1, "pig": 1, "wine": 0,
                                    "grain": 1, "cloth": 0}
    assert out["supply"]["Ana"]["grain"] == 0
    game = game_of(_grain_city(), expansions=(TB,))
    taken = [e for e in game.events if e.kind == "goods"]
    assert [(e.players, e.params) for e in taken] == [
        ((1,), {"wine": 0, "grain": 1, "cloth": 0})]


def test_goods_of_a_city_nobody_holds_go_to_who_completes_it_too() -> None:
    out = play(_grain_city(follower=False), expansions=(TB,))
    assert out["scores"] == {"Ana": 0, "Ben": 0}
    assert out["supply"]["Ben"]["grain"] == 1


def test_every_symbol_of_a_completed_city_is_taken_at_once() -> None:
    # TB1 (grain) and TB2 (wine) join the start city; K closes it from (1, 0).
    actions = [t("Ana", "TB1", (0, -1), 180), t("Ben", "TB2", (1, -1), 270),
               t("Ana", "K", (1, 0))]
    out = play(actions, expansions=(TB,))
    assert (out["supply"]["Ana"]["grain"], out["supply"]["Ana"]["wine"]) == (1, 1)


def test_goods_of_an_incomplete_city_are_never_taken() -> None:
    out = play([t("Ana", "TB1", (0, -1), 180), END], expansions=(TB,))
    assert out["finished"] and out["supply"]["Ana"]["grain"] == 0
    assert out["scores"] == {"Ana": 0, "Ben": 0}


def test_an_abbey_that_completes_a_city_gives_its_goods_to_its_placer() -> None:
    # The ring around the hole (1, 1), with TB15 (a band city with wine) east of the hole
    # instead of E, closed further east by E at (3, 1): Ben's abbey completes the city.
    actions = ring()
    actions[4] = t("Ana", "TB15", (2, 1))
    actions += [t("Ana", "E", (3, 1), 270), abbey("Ben", HOLE)]
    out = play(actions, expansions=(TB, AM))
    assert (out["supply"]["Ben"]["wine"], out["supply"]["Ana"]["wine"]) == (1, 0)


def _two_kinds(tie: bool) -> list[dict[str, Any]]:
    """Ben takes a grain (TB1's city); Ana a wine (TB15 between two caps south of the
    start); with `tie`, Ben a wine too (TB2 with E and H's cap, further south)."""
    actions = [*_grain_city(follower=False),
               t("Ana", "TB15", (0, 1)), t("Ben", "E", (-1, 1), 90), t("Ana", "E", (1, 1), 270)]
    if tie:
        actions += [t("Ben", "TB2", (0, 2), 180), t("Ana", "E", (1, 2), 270),
                    t("Ben", "H", (0, 3))]
    return [*actions, END]


@pytest.mark.parametrize(("tie", "scores"), [(False, {"Ana": 10, "Ben": 10}),
                                             (True, {"Ana": 10, "Ben": 20})])
def test_each_kind_of_goods_gives_its_majority_ten_ties_included(
        tie: bool, scores: dict[str, int]) -> None:
    out = play(_two_kinds(tie), expansions=(TB,))
    assert out["finished"] and out["scores"] == scores
    game = game_of(_two_kinds(tie), expansions=(TB,))
    finals = sorted((e.params["goods"], e.players) for e in game.events
                    if e.reason == "goods_final")
    wine = ((0, 1) if tie else (0,))
    assert finals == [("grain", (1,)), ("wine", wine)]  # nobody holds cloth: nothing


# -- the builder ------------------------------------------------------------------------------


def _road_with_builder() -> list[dict[str, Any]]:
    """Ana's follower on the start road east (U at (1, 0)); her builder joins it on U at
    (2, 0); Ben plays elsewhere in between."""
    return [t("Ana", "U", (1, 0), fig="follower", on="W"), t("Ben", "B", (0, 1)),
            t("Ana", "U", (2, 0), fig="builder", on="W"), t("Ben", "B", (-1, 1))]


def test_a_builder_placed_this_turn_gives_no_second_part() -> None:
    out = play(_road_with_builder()[:3], expansions=(TB,))
    assert next_turn(out) == ("Ben", "tile")


def test_extending_the_builders_road_gives_a_second_part() -> None:
    actions = [*_road_with_builder(), t("Ana", "U", (3, 0))]
    out = play(actions, expansions=(TB,))
    assert next_turn(out) == ("Ana", "tile")  # `next` names the same player again
    game = game_of(actions, expansions=(TB,))
    assert (game.part, game.current) == (2, 0)
    assert [(e.kind, e.players) for e in game.events if e.kind == "builder"] == [("builder", (0,))]
    # The second part is a whole turn, with a figure of its own; then Ben.
    out = play([*actions, t("Ana", "B", (1, 1), fig="follower", on="C")], expansions=(TB,))
    assert next_turn(out) == ("Ben", "tile")
    assert out["supply"]["Ana"]["follower"] == 5


def test_no_third_part_when_the_second_extends_the_road_again() -> None:
    out = play([*_road_with_builder(), t("Ana", "U", (3, 0)), t("Ana", "U", (4, 0))],
               expansions=(TB,))
    assert next_turn(out) == ("Ben", "tile")


def test_the_builder_only_needs_its_feature_extended_not_its_own_tile() -> None:
    # A tile elsewhere (B at (1, -1)) gives nothing; a tile on the road's west end does.
    out = play([*_road_with_builder(), t("Ana", "B", (1, 1))], expansions=(TB,))
    assert next_turn(out) == ("Ben", "tile")
    out = play([*_road_with_builder(), t("Ana", "U", (-1, 0))], expansions=(TB,))
    assert next_turn(out) == ("Ana", "tile")


def test_completing_the_builders_road_still_gives_the_second_part() -> None:
    # W at (3, 0) ends the road east, W at (-1, 0) west: the second tile completes it
    # (5 tiles: 5 to Ana); the builder goes home with the follower; Ana plays again.
    actions = [*_road_with_builder(), t("Ana", "W", (3, 0), 180), t("Ana", "B", (2, 1)),
               t("Ben", "B", (2, -1)), t("Ana", "W", (-1, 0), 180)]
    out = play(actions, expansions=(TB,))
    assert out["scores"] == {"Ana": 5, "Ben": 0}
    assert out["supply"]["Ana"]["builder"] == 1 and out["supply"]["Ana"]["follower"] == 7
    assert next_turn(out) == ("Ana", "tile")


def test_the_builder_goes_only_where_its_player_has_a_follower() -> None:
    refused([t("Ana", "U", (1, 0), fig="builder", on="W")],
            "none of your followers is on that road", expansions=(TB,))
    refused([t("Ana", "U", (1, 0), fig="follower", on="W"),
             t("Ben", "U", (2, 0), fig="builder", on="W")],
            "none of your followers is on that road", expansions=(TB,))
    refused([t("Ana", "W", (1, 0), fig="follower", on="W"), t("Ben", "B", (0, 1)),
             t("Ana", "W", (-1, 0), 180, fig="builder", on="E")],
            "this tile completes that road", expansions=(TB,))
    refused([t("Ana", "B", (0, 1), fig="builder", on="C")], "cannot stand on a monastery",
            expansions=(TB,))


@pytest.mark.parametrize("figure", ["mayor", "wagon"])
def test_a_mayor_or_a_wagon_is_the_follower_a_builder_needs(figure: str) -> None:
    # The start city with Ana's mayor (N on the north, no pennant: strength 0) or the
    # start road with her wagon; her builder joins on the next tile of it.
    if figure == "mayor":
        actions = [t("Ana", "N", (0, -1), 270, fig="mayor", on="S"), t("Ben", "B", (0, 1)),
                   t("Ana", "N", (-1, -1), 180, fig="builder", on="E")]
    else:
        actions = [t("Ana", "U", (1, 0), fig="wagon", on="W"), t("Ben", "B", (0, 1)),
                   t("Ana", "U", (2, 0), fig="builder", on="W")]
    out = play(actions, expansions=(TB, AM))
    assert out["supply"]["Ana"]["builder"] == 0


def test_an_abbey_never_triggers_the_builder() -> None:
    # The ring around the hole (1, 1) (see expansion_helpers.RING): the start road runs
    # west to the junction W(-1, 0) and east along V(1, 0) into the hole. Ana's follower
    # is on V, her builder joins on W(-1, 0); her abbey closes the road: 3 tiles, and
    # no second part.
    actions = [t("Ana", "V", (1, 0), fig="follower", on="W"), t("Ben", "B", (0, 1)),
               t("Ana", "W", (-1, 0), 180, fig="builder", on="E"), t("Ben", "E", (2, 0)),
               t("Ana", "E", (2, 1), 270), t("Ben", "E", (-1, 1), 270),
               t("Ana", "U", (-1, 2)), t("Ben", "U", (0, 2)), t("Ana", "U", (2, 2)),
               t("Ben", "W", (1, 2), 180), abbey("Ana", (1, 1))]
    out = play(actions, expansions=(TB, AM))
    assert scored(game_of(actions, expansions=(TB, AM)), "road") == [(("Ana",), 3)]
    assert next_turn(out) == ("Ben", "tile")
    assert out["supply"]["Ana"]["builder"] == 1


def _tunnel_road(builder: bool) -> list[dict[str, Any]]:
    """Ana's follower on U(1, 0), her builder (or nothing) on TU1 at (2, 0) with
    her first token of pair 0 on TU1's W entrance; Ben closes the west end."""
    fig = "builder" if builder else None
    return [t("Ana", "U", (1, 0), fig="follower", on="W"), t("Ben", "B", (0, 1)),
            t("Ana", "TU1", (2, 0), fig=fig, on="W", token=((2, 0), "W", 0)),
            t("Ben", "W", (-1, 0))]


@pytest.mark.parametrize("builder", [True, False])
def test_a_tunnel_link_that_adds_tiles_to_the_builders_road_gives_a_second_part(
        builder: bool) -> None:
    # W(2, 1) under TU1 starts a road from its S entrance; Ana's second token links the
    # two entrances: the road W(-1,0), D, U, TU1, W(2,1) is completed (5) and, with her
    # builder on it, she plays again (docs/rules/RULES-inns-traders.md 4.15).
    actions = [*_tunnel_road(builder), t("Ana", "W", (2, 1), 180, token=((2, 0), "S", 0))]
    out = play(actions, expansions=(TB, TUNNEL))
    assert out["scores"]["Ana"] == 5
    assert next_turn(out) == (("Ana" if builder else "Ben"), "tile")


def test_one_tunnel_token_over_both_parts() -> None:
    # TU2 extends the builder's road with a token on its W entrance: the second part may
    # not place the pair's other token (docs/rules/RULES-inns-traders.md 4.17).
    actions = [*_road_with_builder(), t("Ana", "TU2", (3, 0), 0, token=((3, 0), "W", 0)),
               t("Ana", "B", (1, 1), token=((3, 0), "E", 0))]
    refused(actions, "only one tunnel token may be placed per turn", expansions=(TB, TUNNEL))


def test_the_king_moves_in_either_part() -> None:
    # Ana's second part completes the 3-tile grain city: the King is hers at once.
    actions = [*_road_with_builder(), t("Ana", "U", (3, 0)), t("Ana", "TB1", (0, -1), 180),
               t("Ben", "B", (1, 1)), t("Ana", "E", (1, -1), 270)]
    out = play(actions, expansions=(TB, KR))
    assert out["king"] == "Ana" and out["supply"]["Ana"]["grain"] == 1


def _west_arm_and_hole(trigger_tile: bool = True) -> list[dict[str, Any]]:
    """The ring around the hole (1, 1) (expansion_helpers.RING), Ana's follower on the west
    arm of the junction W(-1, 0) and her builder on U(-2, 0), further west; then U(-3, 0)
    extends that road."""
    actions = [t("Ana", "V", (1, 0)), t("Ben", "B", (0, 1)),
               t("Ana", "W", (-1, 0), 180, fig="follower", on="W"), t("Ben", "E", (2, 0)),
               t("Ana", "U", (-2, 0), fig="builder", on="E"), t("Ben", "E", (2, 1), 270),
               t("Ana", "E", (-1, 1), 270), t("Ben", "U", (-1, 2)), t("Ana", "U", (0, 2)),
               t("Ben", "U", (2, 2)), t("Ana", "W", (1, 2), 180), t("Ben", "B", (3, 0))]
    return [*actions, t("Ana", "U", (-3, 0))] if trigger_tile else actions


@pytest.mark.parametrize("abbeys", [True, False])
def test_a_second_part_with_the_pile_empty_is_the_abbey_or_nothing(abbeys: bool) -> None:
    # The supply is cut down so that U(-3, 0), which triggers the builder, is the last
    # tile: with Abbey & Mayor Ana's second part is her abbey; without, the game ends.
    expansions = (TB, AM) if abbeys else (TB,)
    game = game_of(_west_arm_and_hole(trigger_tile=False), expansions=expansions)
    for tile in list(game.supply):
        game.supply[tile] = 1 if tile == "U" else 0
    game.apply(t("Ana", "U", (-3, 0)))
    if not abbeys:
        assert game.finished
        return
    assert (game.current, game.part, game.phase) == (0, 2, Phase.TILE)
    assert result(game)["next"] == {"player": "Ana", "expects": ["abbey"]}
    game.apply(abbey("Ana", (1, 1)))
    assert game.finished  # Ben's abbey has no hole left: the final scoring follows


# -- the pig ----------------------------------------------------------------------------------


def _farmers(pig: bool, second_farmer: bool = False) -> list[dict[str, Any]]:
    """Ana's farmer north of the start road (U at (1, 0)), Ben's outside the start city,
    which E closes; B(1, -1) joins the two fields, with Ana's pig on it; with
    `second_farmer`, Ben's second farmer south of the start road joins through A(2, 0)."""
    fig, on = ("pig", "NL") if pig else (None, None)
    actions = [t("Ana", "U", (1, 0), fig="follower", on="NL"),
               t("Ben", "E", (0, -1), 180, fig="follower", on="NL"),
               t("Ana", "B", (1, -1), fig=fig, on=on)]
    if second_farmer:
        actions += [t("Ben", "U", (-1, 0), fig="follower", on="SL"), t("Ana", "A", (2, 0), 90)]
    return [*actions, END]


def test_a_pig_adds_one_per_completed_city_to_its_farmers() -> None:
    refused([t("Ana", "B", (0, 1), fig="pig", on="C")], "cannot stand on a monastery",
            expansions=(TB,))
    assert play(_farmers(pig=False), expansions=(TB,))["scores"] == {"Ana": 3, "Ben": 3}
    assert play(_farmers(pig=True), expansions=(TB,))["scores"] == {"Ana": 4, "Ben": 3}
    game = game_of(_farmers(pig=True), expansions=(TB,))
    assert [(e.reason, e.players, e.points) for e in game.events if e.feature == "field"] == [
        ("farmers_final", (0, 1), 3), ("pig_bonus", (0,), 1)]


def test_a_pig_does_nothing_for_a_player_out_of_the_majority() -> None:
    out = play(_farmers(pig=True, second_farmer=True), expansions=(TB,))
    assert out["scores"] == {"Ana": 0, "Ben": 3}


def test_a_pig_needs_its_players_farmer_in_the_field() -> None:
    refused([t("Ana", "U", (1, 0), fig="pig", on="NL")],
            "none of your farmers is in that field", expansions=(TB,))
    refused([t("Ana", "U", (1, 0), fig="follower", on="NL"), t("Ben", "U", (2, 0),
             fig="pig", on="NL")], "none of your farmers is in that field", expansions=(TB,))


def _barn_block() -> list[dict[str, Any]]:
    """test_barn.py's block: E(0, 1) and E(1, 1) close a city; B(2, 2)'s NW corner is where
    four fields meet. Ana's farmer on B(1, 2)."""
    return [t("Ana", "U", (-1, 0)), t("Ben", "E", (0, 1), 90), t("Ana", "E", (1, 1), 270),
            t("Ben", "B", (2, 1)), t("Ana", "B", (1, 2), fig="follower", on="NL")]


def test_a_barn_placed_pays_the_pig_too_and_both_go_home() -> None:
    # Ana's pig on B(0, 2), in the field of her farmer; Ben's barn: 3 + 1 for the city.
    actions = [*_barn_block(), t("Ben", "U", (2, 0)), t("Ana", "B", (0, 2), fig="pig", on="NL"),
               t("Ben", "B", (2, 2), fig="barn", on="NW")]
    out = play(actions, expansions=(TB, AM))
    assert out["scores"] == {"Ana": 4, "Ben": 0}
    assert out["supply"]["Ana"]["pig"] == 1 and out["supply"]["Ana"]["follower"] == 7
    # At the end the barn scores 4 per city, and no pig is counted there.
    out = play([*actions, END], expansions=(TB, AM))
    assert out["scores"] == {"Ana": 4, "Ben": 4}


def test_farmers_joined_to_a_barns_field_with_a_pig_score_two_per_city() -> None:
    # Ben's barn first, with no farmer in its field; Ana's farmer south of the start road
    # (U(-1, 0)); B(0, 2) joins her field to the barn's, her pig on it: 1 + 1.
    actions = [t("Ana", "U", (-1, 0), fig="follower", on="SL"), t("Ben", "E", (0, 1), 90),
               t("Ana", "E", (1, 1), 270), t("Ben", "B", (2, 1)), t("Ana", "B", (1, 2)),
               t("Ben", "B", (2, 2), fig="barn", on="NW"),
               t("Ana", "B", (0, 2), fig="pig", on="NL")]
    out = play(actions, expansions=(TB, AM))
    assert out["scores"] == {"Ana": 2, "Ben": 0}
    assert out["supply"]["Ana"]["pig"] == 1 and out["supply"]["Ana"]["follower"] == 7


# -- the record ---------------------------------------------------------------------------------


def test_an_empty_record_lists_every_new_piece_in_supply() -> None:
    status, out = replay(record([], expansions=(IC, TB)))
    assert status == 0
    assert out["supply"]["Ana"] == {"follower": 7, "large": 1, "builder": 1, "pig": 1,
                                    "wine": 0, "grain": 0, "cloth": 0}
    assert Game(Setup(("A",), frozenset({TB}))).tiles_left == 72 + 24 - 1


def test_carca_bot_replay_scores_a_record_of_both_expansions(tmp_path: Path) -> None:
    """Through the command itself (docs/game-record.md, exit status and JSON on stdout):
    a large follower in a grain city another player completes."""
    actions = [t("Ana", "TB1", (0, -1), 180, fig="large", on="S"), t("Ben", "E", (1, -1), 270)]
    outs = []
    for name, actions_ in (("empty", []), ("played", actions)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record(actions_, expansions=(IC, TB))))
        proc = subprocess.run([sys.executable, "-m", "carca_bot", "replay", str(path)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 0, proc.stdout + proc.stderr[-2000:]
        outs.append(json.loads(proc.stdout))
    empty, out = outs
    every = {"follower": 7, "large": 1, "builder": 1, "pig": 1, "wine": 0, "grain": 0,
             "cloth": 0}
    assert empty["supply"] == {"Ana": every, "Ben": every}
    assert out["scores"] == {"Ana": 6, "Ben": 0}
    assert out["supply"] == {"Ana": every, "Ben": {**every, "grain": 1}}
    assert out["next"]["player"] == "Ana"


def test_builder_and_pig_without_traders_and_builders_are_rule_breaks() -> None:
    status, out = replay(record([t("Ana", "U", (1, 0), fig="pig", on="NL")]))
    assert status == 1 and "pig" not in out["supply"]["Ana"]


@pytest.mark.parametrize(("seed", "mix"), [
    (1, (TB,)), (2, (TB, IC, "river", "abbot")), (3, (TB, AM, KR)), (4, (TB, "cult", TUNNEL)),
    (5, (TB, AM, TUNNEL, IC)),
])
def test_push_and_pop_restore_exactly_with_traders_and_builders(
        seed: int, mix: tuple[str, ...]) -> None:
    rng = random.Random(seed)
    setup = Setup(tuple(f"P{i}" for i in range(1 + seed % 4)), frozenset(mix), seed=seed)
    assert play_checked(setup, rng) > 70


def _final(players: tuple[int, ...], goods: str, count: int) -> Event:
    return Event("score", players, 10, "goods", reason="goods_final",
                 params={"goods": goods, "count": count}, final=True)


# Judged by tests/engine/test_words_es.py (players Ana, Ben, Cy), written by hand.
SPANISH: list[tuple[IllegalMove | Event, str]] = [
    (Event("goods", (1,), reason="goods_taken", params={"wine": 0, "grain": 1, "cloth": 0}),
     "Ben: se lleva 1 ficha de trigo de la ciudad completada"),
    (Event("goods", (0,), reason="goods_taken", params={"wine": 2, "grain": 0, "cloth": 1}),
     "Ana: se lleva 2 fichas de vino y 1 ficha de tela de la ciudad completada"),
    (_final((0, 2), "wine", 3), "Ana y Cy: +10 por la mayoría de vino: 3 fichas (10)"),
    (_final((1,), "grain", 1), "Ben: +10 por la mayoría de trigo: 1 ficha (10)"),
    (_final((2,), "cloth", 2), "Cy: +10 por la mayoría de tela: 2 fichas (10)"),
    (Event("score", (0,), 1, "field", reason="pig_bonus", params={"cities": 1}, final=True),
     "Ana: +1 por un cerdo entre los campesinos: 1 más por la ciudad completada"),
    (Event("score", (2,), 3, "field", reason="pig_bonus", params={"cities": 3}),
     "Cy: +3 por un cerdo entre los campesinos: 1 más por cada una de las 3 ciudades "
     "completadas"),
    (Event("builder", (1,), feature="builder", reason="builder_second_part"),
     "Ben: turno doble: el camino o la ciudad del constructor ha crecido, así que una loseta "
     "y una figura más"),
    (IllegalMove("joins_no_follower", figure="builder", on="E", kind="road"),
     "no se puede colocar el constructor en E: ninguno de tus seguidores está en ese camino"),
    (IllegalMove("joins_no_follower", figure="pig", on="NL", kind="field"),
     "no se puede colocar el cerdo en NL: ninguno de tus campesinos está en ese campo"),
    (IllegalMove("joins_completed", figure="builder", on="S", kind="city"),
     "no se puede colocar el constructor en S: esta loseta completa esa ciudad"),
]
