"""The engine's shortcuts give the answers of the plain rules they replace.

Speed work (issue 13) replaced a few plain computations with tables and direct
builds; each is checked here against the plain form, over seeded random games
that play every kind of move in varied orders.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import catalogue
from carca_bot.engine.deploying import deploy_problem
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.expansions.abbot import abbot_of
from carca_bot.engine.figures import CORNER_FIGURES, FIGURES
from carca_bot.engine.game import Game, Phase, Turn
from carca_bot.engine.geometry import AROUND
from carca_bot.engine.moves import (
    Deploy,
    Draw,
    EndTurn,
    Move,
    PlaceTile,
    PlaceToken,
    Recall,
    action_moves,
    turn_action,
)
from carca_bot.engine.placement import rotations_fitting
from carca_bot.engine.setup import Setup
from carca_bot.engine.turnscore import completed_features
from tests.engine.test_push_pop import MIXES

ALL = frozenset({"river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel"})


def play_by_moves(setup: Setup, rng: random.Random) -> Game:
    """A random game by `legal_moves`, the turn's steps in a random order."""
    game = Game(setup)
    while not game.finished:
        moves: list[Move] = game.legal_moves()
        if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
            game.push(moves[0])
            moves = game.legal_moves(game.draw())
        elif game.phase is Phase.PLACED:
            steps: list[Move] = [m for m in moves if not isinstance(m, EndTurn)]
            if steps and rng.random() < 0.7:
                moves = steps
        game.push(rng.choice(moves))
    return game


def test_history_is_what_turn_action_makes_of_the_steps() -> None:
    """The turn's record action is built directly: it must be `turn_action`'s, keys in order."""
    kinds: set[str] = set()
    for seed in range(6):
        game = play_by_moves(Setup(("A", "B", "C"), ALL, seed=seed), random.Random(seed))
        for action in game.history:
            rebuilt = turn_action(*action_moves(action))
            assert rebuilt == action
            assert list(rebuilt) == list(action)
            kinds.update(action)
    assert {"deploy", "token", "token_first", "recall", "abbey"} <= kinds


def plain_fits(tile_id: str, key: str) -> tuple[int, ...]:
    shapes = catalogue()[tile_id].shapes
    return tuple(r for r, shape in enumerate(shapes)
                 if all(k in ".*" or k == e for k, e in zip(key, shape.edges, strict=True)))


def test_rotations_fitting_is_the_plain_edge_match_for_every_key() -> None:
    for tile in catalogue().tiles.values():
        for letters in product(".CRFW*", repeat=4):
            key = "".join(letters)
            assert rotations_fitting(tile, key) == plain_fits(tile.id, key), (tile.id, key)


def plain_placements(game: Game, tile: str) -> list[tuple[tuple[int, int], int]]:
    """Every frontier square and rotation the game's own check accepts, in frontier order."""
    return [(pos, rot) for pos in game.board.frontier for rot in range(4)
            if game.placement_problem(tile, pos, rot) is None]


@pytest.mark.parametrize("mix", [frozenset(), frozenset({"river", "abbot"}),
                                 frozenset({"cult", "abbey_mayor"}), ALL])
def test_listed_placements_are_those_the_checks_accept(mix: frozenset[str]) -> None:
    rng = random.Random(len(mix))
    game = Game(Setup(("A", "B"), mix, seed=3))
    checked = 0
    while not game.finished:
        if game.phase is Phase.TILE and game.tiles_left:
            for tile in game.drawable()[:6]:
                plain = plain_placements(game, tile)
                assert [(p.pos, p.rot) for p in game.legal_placements(tile)] == plain
                listed = game.legal_moves(tile)
                if plain:
                    assert {(m.pos, m.rot) for m in listed if isinstance(m, PlaceTile)} \
                        == set(plain)
                    assert len(listed) == len(plain)
                checked += 1
        moves = game.legal_moves()
        if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
            game.push(moves[0])
            moves = game.legal_moves(game.draw())
        game.push(rng.choice(moves))
    assert checked > 50


def test_made_moves_are_ordinary_equal_and_hashable() -> None:
    """Listed moves are made without their dataclass __init__: the same objects still."""
    game = Game(Setup(("A", "B"), seed=1))
    for move in game.legal_moves("U"):
        assert isinstance(move, PlaceTile)
        again = PlaceTile(move.tile, move.pos, move.rot)
        assert move == again and hash(move) == hash(again) and repr(move) == repr(again)
    for spot in game.legal_placements("U"):
        assert (spot.pos, spot.rot) in {(m.pos, m.rot) for m in game.legal_moves("U")
                                        if isinstance(m, PlaceTile)}


def test_draws_are_random_choice_over_the_tiles_in_a_row() -> None:
    """The draw rule as first written: Random(f"{seed}:{drawn}").choice of every tile left."""
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(Setup(("A", "B"), frozenset({"river"}), seed=seed))
        while not game.finished:
            if game.phase is Phase.TILE and game.tiles_left:
                row = [tile for tile in game.drawable() for _ in range(game.supply[tile])]
                expected = random.Random(f"{seed}:{game.drawn}").choice(row)
                assert game.draw() == expected
            moves = game.legal_moves()
            if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
                game.push(moves[0])
                moves = game.legal_moves(game.draw())
            game.push(rng.choice(moves))


@pytest.mark.parametrize("mix", MIXES[::7])
def test_deployments_are_those_deploy_accepts(mix: frozenset[str]) -> None:
    """`legal_deployments` skips who-stands-where for one-tile features: same answers."""
    rng = random.Random(len(mix))
    game = Game(Setup(("A", "B", "C"), mix, seed=len(mix)))
    while not game.finished:
        if game.phase is Phase.PLACED and game.turn is not None and not game.turn.deploy \
                and not game.turn.recall:
            names = ("N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "C",
                     "G", "I1", "I2", "NW", "NE", "SE", "SW")
            accepted = set()
            for figure in FIGURES:
                for on in names:
                    trial = game.copy()
                    try:
                        trial.push(Deploy(figure, on))
                    except IllegalMove:
                        continue
                    placed = trial.board.tiles[game.turn.pos]
                    accepted.add((figure, placed.node_named(on)
                                  if figure not in CORNER_FIGURES else on))
            listed = {(d.figure, game.board.tiles[game.turn.pos].node_named(d.on)
                       if d.figure not in CORNER_FIGURES else d.on)
                      for d in game.legal_deployments()}
            assert listed == accepted
        moves = game.legal_moves()
        if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
            game.push(moves[0])
            moves = game.legal_moves(game.draw())
        elif game.phase is Phase.PLACED:
            moves = [m for m in moves if not isinstance(m, PlaceToken | Recall)] or moves
        game.push(rng.choice(moves))


def test_surrounded_is_eight_neighbours() -> None:
    rng = random.Random(2)
    game = play_by_moves(Setup(("A", "B"), frozenset({"abbot"}), seed=2), rng)
    board = game.board
    squares = {(x + dx, y + dy) for x, y in board.tiles for dx, dy in AROUND}
    assert any(board.surrounded(p) for p in squares)
    for pos in squares:
        assert board.surrounded(pos) == (board.neighbours(pos) == 8)


def test_phase_value_is_the_enum_value() -> None:
    """`Phase.value` is read in C (phase.py); it must stay the enum's own value."""
    for phase in Phase:
        assert phase.value == phase._value_ and isinstance(phase.value, str)
        assert Phase(phase.value) is phase
    assert Phase.TILE.value == "tile" and Phase.FINISHED.value == "finished"


def plain_completed(board: Board, turn: Turn) -> list[int]:
    """`completed_features` as first written: no set questions, `find` at every step."""
    roots: list[int] = []
    for node in turn.touched:
        feat = board.feature(node)
        if feat.open == 0 and board.find(node) not in roots \
                and feat.kind.value in ("city", "road"):
            roots.append(board.find(node))
    for dx, dy in ((0, 0), *AROUND):
        square = (turn.pos[0] + dx, turn.pos[1] + dy)
        placed = board.tiles.get(square)
        if placed is None or not board.surrounded(square):
            continue
        if square in board.buildings:
            roots.append(board.find(board.building_node(square)))
        if square in board.gardens and placed.shape is not None:
            assert placed.shape.garden is not None
            roots.append(board.find(placed.nodes[placed.shape.garden]))
    return roots


@pytest.mark.parametrize("mix", [frozenset({"river", "abbot"}), ALL])
def test_turn_shortcuts_give_the_plain_answers(mix: frozenset[str]) -> None:
    """The abbot from the hand, completions by set questions, occupancy by squares first."""
    rng = random.Random(7)
    game = Game(Setup(("A", "B", "C"), mix, seed=7))
    seen = {"abbot_out": 0, "completed": 0, "occupied": 0}
    while not game.finished:
        for player in range(3):
            plain = [f for f in game.figures if f.kind == "abbot" and f.player == player]
            assert abbot_of(game, player) is (plain[0] if plain else None)
            seen["abbot_out"] += bool(plain)
        turn = game.turn
        if game.phase is Phase.PLACED and turn is not None:
            completed = completed_features(game.board, turn)
            assert completed == plain_completed(game.board, turn)
            seen["completed"] += bool(completed)
            if not turn.deploy and not turn.recall and game.hand[turn.player]["follower"]:
                board = game.board
                shape = board.tiles[turn.pos].shape
                for name in (() if shape is None else shape.names):
                    node = board.tiles[turn.pos].node_named(name)
                    assert node is not None
                    occupied = any(board.find(f.node) == board.find(node) for f in game.figures)
                    problem, _ = deploy_problem(game, turn, "follower", name)
                    assert (problem is not None and problem.code == "feature_occupied") \
                        == occupied
                    seen["occupied"] += occupied
        moves = game.legal_moves()
        if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
            game.push(moves[0])
            moves = game.legal_moves(game.draw())
        game.push(rng.choice(moves))
    assert all(seen.values()), seen
    for pos in game.board.tiles:  # every square as if just placed: buildings and gardens
        as_placed = Turn(0, "", pos)
        assert completed_features(game.board, as_placed) == plain_completed(game.board, as_placed)


def test_a_garden_with_no_building_near_is_completed() -> None:
    """The set questions of `completed_features` look at gardens as well as buildings."""
    tiles = catalogue().tiles.values()
    garden = next(t for t in tiles if t.shapes[0].garden is not None
                  and t.shapes[0].building is None)
    plain = next(t for t in tiles if t.shapes[0].garden is None and t.shapes[0].building is None)
    index = garden.shapes[0].garden
    assert index is not None
    board = Board()
    board.place((0, 0), garden.shapes[0])
    for dx, dy in AROUND:
        board.place((dx, dy), plain.shapes[0])
    for dx, dy in ((0, 0), *AROUND):
        as_placed = Turn(0, "", (dx, dy))
        found = completed_features(board, as_placed)
        assert found == plain_completed(board, as_placed)
        assert board.find(board.tiles[(0, 0)].nodes[index]) in found
