"""The extension points: the records agree, tables elsewhere must cover every figure, and
an expansion's hooks and slot work for any record, here a made-up one.

`Sprint` is a test-only record: its `tile_placed` hook counts tiles in its slot and owes
the player a second part after every tile with a road; `again` grants it; `turn_over`
counts whole turns. Installed on a game by hand (`_with`), it shows what the game does
for every expansion: a turn in two parts (never three), the slot copied, framed and
taken back by `pop`, values chained through `feature_value`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest

from carca_bot.engine.board import Feature
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.figures import FIGURE_TABLE, require_figures
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw, EndTurn
from carca_bot.engine.phase import Turn
from carca_bot.engine.record import result
from carca_bot.engine.rules import BY_NAME, ORDER, REGISTERED, WORDS, expansion_named
from carca_bot.engine.setup import Setup
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion, GameState, Value, hooks_of, put
from carca_bot.i18n import speaking
from carca_bot.render.figure_art import FIGURE_KINDS
from carca_bot.words.english import expansion_title, figure_name, held
from tests.engine.test_push_pop import check_push, fingerprint


def test_every_table_reads_the_same_records() -> None:
    assert tuple(r.name for r in REGISTERED) == EXPANSIONS
    assert sorted(EXPANSIONS) == sorted(r.name for r in ORDER)
    assert all(WORDS[r.name] == r.name for r in REGISTERED)
    assert expansion_named("Abbey & Mayor") == "abbey_mayor"
    assert expansion_named("tunnels") == "tunnel" and expansion_named("dragons") is None
    for figure in FIGURE_TABLE:
        assert figure.expansion in BY_NAME
        assert figure.name in FIGURE_KINDS  # every figure has its picture


def test_a_table_that_misses_a_figure_stops_at_start_up() -> None:
    names = {f.name: 1.0 for f in FIGURE_TABLE}
    require_figures(names, "test table")
    missing = dict(names)
    del missing["barn"]
    with pytest.raises(ValueError, match="test table has no entry for the figure 'barn'"):
        require_figures(missing, "test table")
    with pytest.raises(ValueError, match="'dragon', which is no figure"):
        require_figures({**names, "dragon": 2.0}, "test table")


def test_names_come_from_the_records_in_both_languages() -> None:
    assert figure_name("follower") == "follower" and held("abbey", 2) == "2 abbeys"
    assert expansion_title("abbey_mayor") == "Abbey & Mayor"
    with speaking("es"):
        assert figure_name("wagon") == "carromato"
        assert held("tokens", 1) == "1 ficha de túnel"
        assert expansion_title("king_robber") == "El Rey y el Ladrón"


@dataclass(frozen=True)
class Count:
    tiles: int = 0
    turns: int = 0
    owed: bool = False


def _count(game: GameState) -> Count:
    state = game.slots.get("sprint", Count())
    assert isinstance(state, Count)
    return state


def _tile_placed(game: GameState, turn: Turn) -> None:
    state = _count(game)
    roads = any(game.board.feature(n).kind is Kind.ROAD for n in turn.touched)
    put(game, "sprint", replace(state, tiles=state.tiles + 1, owed=roads and game.part == 1))


def _again(game: GameState) -> bool:
    state = _count(game)
    if state.owed:
        put(game, "sprint", replace(state, owed=False))
    return state.owed


def _turn_over(game: GameState) -> None:
    state = _count(game)
    put(game, "sprint", replace(state, turns=state.turns + 1))


def _double_roads(feat: Feature, final: bool, value: Value) -> Value:
    points, _reason, params = value
    return (2 * points, "sprint", params) if feat.kind is Kind.ROAD else value


SPRINT = Expansion("sprint", "Sprint", 99, 99, tile_placed=_tile_placed, again=_again,
                   turn_over=_turn_over, feature_value=_double_roads)


def _with(game: Game, record: Expansion) -> Game:
    game.rules = (*game.rules, record)
    game.hooks = hooks_of(game.rules)
    game.slots = {**game.slots, record.name: Count()}
    return game


def _turn(game: Game, tile: str, pos: tuple[int, int], rot: int) -> None:
    who = game.deciding
    assert who is not None
    game.place_tile(who, tile, pos, rot)
    game.end_turn(who)


def test_a_turn_in_two_parts_never_three() -> None:
    game = _with(Game(Setup(("Ana", "Ben"), seed=1)), SPRINT)
    _turn(game, "V", (1, 0), 0)  # a road: a second part is owed
    assert (game.current, game.part, game.phase) == (0, 2, Phase.TILE)
    assert result(game)["next"] == {"player": "Ana", "expects": ["tile"]}
    _turn(game, "U", (1, 1), 1)  # a road again, in the second part: no third
    assert (game.current, game.part) == (1, 1)
    assert _count(game) == Count(tiles=2, turns=1)
    _turn(game, "E", (0, -1), 2)  # no road: one part
    assert (game.current, _count(game).turns) == (0, 2)


def test_values_chain_through_the_feature_value_hooks() -> None:
    game = _with(Game(Setup(("Ana", "Ben"), seed=1)), SPRINT)
    game.place_tile(0, "W", (1, 0), 0)  # a junction: the road from D ends there
    game.deploy(0, "follower", "W")
    game.end_turn(0)
    _turn(game, "W", (-1, 0), 0)  # Ana's second part: the road of 3 tiles is completed
    scored = [e for e in game.events if e.kind == "score"]
    assert [(e.players, e.points, e.reason) for e in scored] == [((0,), 6, "sprint")]


def test_the_slot_is_copied_framed_and_taken_back() -> None:
    game = _with(Game(Setup(("Ana", "Ben"), frozenset({"river", "tunnel"}), seed=4)), SPRINT)
    rng = random.Random(4)
    for _ in range(40):
        moves = game.legal_moves()
        move = rng.choice(moves)
        check_push(game, move)
        if isinstance(move, Draw):
            check_push(game, rng.choice(game.legal_moves(game.draw())))
        copy = game.copy()
        if isinstance(move, EndTurn) or game.phase is Phase.TILE:
            assert _count(copy) == _count(game)
    assert _count(game).tiles > 10
    while game.frames:
        game.pop()
    assert _count(game) == Count() and fingerprint(game)[-5:] == fingerprint(
        _with(Game(game.setup), SPRINT))[-5:]


def test_a_linked_hook_sees_the_two_roads_before_the_tunnel_joins_them() -> None:
    seen: list[tuple[int, frozenset[tuple[int, int]], frozenset[tuple[int, int]]]] = []

    def linked(game: GameState, player: int, a: int, b: int) -> None:
        board = game.board
        assert board.find(a) != board.find(b)
        seen.append((player, board.feature(a).tiles, board.feature(b).tiles))

    record = Expansion("watch", "Watch", 98, 98, linked=linked)
    game = _with(Game(Setup(("Ana", "Ben"), frozenset({"tunnel"}), seed=1)), record)
    game.place_tile(0, "TU1", (1, 0), 0)  # the start road runs into TU1's W entrance
    game.place_token(0, (1, 0), "W", 0)
    game.end_turn(0)
    _turn(game, "W", (-1, 0), 0)
    game.place_tile(0, "W", (1, 1), 2)  # a road from TU1's S entrance down to a junction
    game.place_token(0, (1, 0), "S", 0)  # the pair's second token: the roads join
    assert seen == [(0, frozenset({(-1, 0), (0, 0), (1, 0)}), frozenset({(1, 0), (1, 1)}))]
    road = game.board.feature(game.board.tiles[(0, 0)].nodes[1])
    assert road.tiles == {(-1, 0), (0, 0), (1, 0), (1, 1)}
