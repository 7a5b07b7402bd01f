"""The turn's phases, one step at a time: what each move does to a game.

A turn: place a tile (or an abbey), then optionally a figure (or recall the
abbot) and a tunnel token in either order, then end the turn, which scores.
Each step checks before it changes anything; `Game._push` also undoes a step
that fails half-way, so a refused move never leaves a trace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from carca_bot.engine import supply
from carca_bot.engine.board import ABBEY
from carca_bot.engine.checks import (
    check_turn,
    hook_problem,
    placed_turn,
    placement_problem,
    waiting,
)
from carca_bot.engine.deploying import deploy_problem
from carca_bot.engine.endround import after_turn, next_in_round, start_ending
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.expansions import river
from carca_bot.engine.expansions.abbey_mayor import pending_of, wagon_decided, wagon_refusal
from carca_bot.engine.expansions.abbot import recall
from carca_bot.engine.expansions.tunnel import place_token
from carca_bot.engine.moves import (
    DeclareEnd,
    Deploy,
    Discard,
    Draw,
    EndTurn,
    Move,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
)
from carca_bot.engine.outcome import apply
from carca_bot.engine.phase import Figure, Phase, Turn
from carca_bot.engine.rules import FIGURE_BY_NAME
from carca_bot.engine.shapes import ABBEY_SHAPE, ABBEY_TYPE
from carca_bot.engine.turnscore import TurnScorer, completed_features

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def play(game: GameState, move: Move, player: int) -> None:
    """Play one move for `player` (-1 for `DeclareEnd`, which is nobody's)."""
    step = STEPS.get(type(move))
    if step is not None:
        step(game, move, player)


def _draw(game: GameState, player: int) -> None:
    check_turn(game, player, Phase.TILE)
    if not any(game.supply.values()):  # `tiles_left`, without the sum
        raise IllegalMove("no_tiles_left")


def _by_fields(game: GameState, move: Move, player: int) -> None:
    """The step of `move`, its fields taken apart (the table below is the fast way in)."""
    match move:
        case PlaceTile(tile, pos, rot):
            place_tile(game, player, tile, pos, rot)
        case Deploy(figure, on):
            deploy(game, player, figure, on)
        case EndTurn():
            end_turn(game, player)
        case PlaceToken(pos, on, pair):
            place_token(game, player, pos, on, pair)
        case Recall():
            recall(game, player)
        case PlaceAbbey(pos):
            place_abbey(game, player, pos)
        case Draw():
            _draw(game, player)
        case Discard(tile):
            discard(game, player, tile)
        case MoveWagon(pos, on):
            move_wagon(game, player, pos, on)
        case ReturnWagon():
            return_wagon(game, player)
        case SkipAbbey():
            skip_abbey(game, player)
        case DeclareEnd():
            declare_end(game)


# -- the tile step ------------------------------------------------------------------


def place_tile(game: GameState, player: int, tile: str, pos: tuple[int, int], rot: int) -> None:
    check_turn(game, player, Phase.TILE)
    tile_type = game.catalogue.tiles.get(tile)
    if tile_type is None:
        raise IllegalMove("unknown_tile", tile=tile)
    if game.supply[tile] <= 0:
        raise IllegalMove("tile_not_in_supply", tile=tile)
    if not supply.may_draw(game, tile):
        raise IllegalMove("lake_last" if tile_type.is_river else "river_first")
    problem = placement_problem(game, tile, pos, rot)
    if problem is not None:
        problem.params.update(tile=tile, square=pos, rot=rot, fits=game.fits_somewhere(tile))
        raise problem
    shape = tile_type.shapes[rot]
    game.supply[tile] -= 1
    game.drawn += 1
    if tile_type.is_river:
        river.advance(game, pos, shape)
    touched = game.board.place(pos, shape)
    game.last_placed = (pos, player)
    turn = game.turn = Turn(player, tile, pos, rot, touched)
    game.phase = Phase.PLACED
    for hook in game.hooks.tile_placed:
        hook(game, turn)


def place_abbey(game: GameState, player: int, pos: tuple[int, int]) -> None:
    check_turn(game, player, Phase.TILE, Phase.ABBEY_ROUND)
    if game.hand[player].get("abbey", 0) <= 0:
        raise IllegalMove("no_abbey", who=player)
    if pos in game.board.tiles:
        raise IllegalMove("abbey_square_taken", square=pos)
    if pos not in game.board.holes():
        raise IllegalMove("abbey_not_hole", square=pos)
    problem = hook_problem(game, ABBEY_TYPE, pos, ABBEY_SHAPE)
    if problem:
        problem.params.update(abbey=True, square=pos)
        raise problem
    game.hand[player]["abbey"] -= 1
    touched = game.board.place_abbey(pos)
    game.last_placed = (pos, player)
    game.turn = Turn(player, ABBEY, pos, 0, tuple(touched))
    game.phase = Phase.PLACED


def skip_abbey(game: GameState, player: int) -> None:
    if game.phase is not Phase.ABBEY_ROUND:
        raise IllegalMove("skip_not_now")
    check_turn(game, player, Phase.ABBEY_ROUND)
    game.history.append({"by": game.players[player], "abbey": "skip"})
    next_in_round(game)


def discard(game: GameState, player: int, tile: str) -> None:
    check_turn(game, player, Phase.TILE)
    if game.supply[tile] <= 0:
        raise IllegalMove("tile_not_in_supply", tile=tile)
    if not supply.may_draw(game, tile):
        raise IllegalMove("not_drawable", tile=tile)
    if game.fits_somewhere(tile):
        raise IllegalMove("discard_fits", tile=tile)
    game.supply[tile] -= 1
    game.drawn += 1
    game.history.append({"by": game.players[player], "discard": tile})
    game.events.append(Event("discard", (player,), reason="discarded", params={"tile": tile}))
    if game.tiles_left == 0:
        start_ending(game, first=player)


def declare_end(game: GameState) -> None:
    """The supply is used up at this point (the `end` action)."""
    if game.phase is not Phase.TILE:
        raise IllegalMove("end_not_now", **waiting(game))
    game.history.append({"end": True})
    start_ending(game, first=game.current)


# -- the figure step ----------------------------------------------------------------


def deploy(game: GameState, player: int, figure: str, on: str) -> None:
    turn = placed_turn(game, player)
    if turn.deploy or turn.recall:
        raise IllegalMove("one_figure")
    problem, node = deploy_problem(game, turn, figure, on)
    if problem is not None:
        problem.params.update(figure=figure, on=on)
        raise problem
    kind = FIGURE_BY_NAME[figure]
    game.hand[player][figure] -= 1
    game.figures.append(Figure(player, figure, turn.pos, node, on, kind))
    game.turn = Turn(turn.player, turn.tile, turn.pos, turn.rot, turn.touched,
                     Deploy(figure, on), turn.recall, turn.token, turn.token is not None,
                     node if kind.corner else turn.barn_node)


# -- tunnel tokens ------------------------------------------------------------------


# -- ending a turn ------------------------------------------------------------------


def end_turn(game: GameState, player: int) -> None:
    """Score the turn and move on."""
    turn = placed_turn(game, player)
    game.history.append(_turn_action(game, turn))
    completed = completed_features(game.board, turn)
    hooks = game.hooks
    if completed or hooks.turn_scoring or hooks.turn_end:
        apply(game, TurnScorer(game, turn).score_turn(completed))
    game.turn = None
    after_turn(game)


def _turn_action(game: GameState, turn: Turn) -> dict[str, object]:
    """The record action of the turn: what `moves.turn_action` makes of its steps.

    Built directly, keys in the contract's order, as this runs at every turn's end
    (`tests/engine/test_fast_paths.py` holds the two to the same answer).
    """
    action: dict[str, object] = {"by": game.players[turn.player]}
    if turn.tile == ABBEY:
        action["abbey"] = list(turn.pos)
    else:
        action["tile"] = turn.tile
        action["at"] = list(turn.pos)
        action["rot"] = turn.rot * 90
    deployed = turn.deploy
    if deployed is not None:
        action["deploy"] = {"figure": deployed.figure, "on": deployed.on}
    if turn.recall:
        action["recall"] = True
    token = turn.token
    if token is not None:
        action["token"] = {"at": list(token.pos), "on": token.on, "pair": token.pair}
        if turn.token_first and deployed is not None:
            action["token_first"] = True
    return action


def move_wagon(game: GameState, player: int, pos: tuple[int, int], on: str) -> None:
    check_turn(game, player, Phase.WAGON)
    board = game.board
    placed = board.tiles.get(pos)
    node = placed.node_named(on) if placed is not None else None
    legal = {(p, board.tiles[p].node_named(n)) for p, n in game.legal_wagon_moves()}
    if node is None or (pos, node) not in legal:  # any name of the segment will do
        problem = wagon_refusal(board, game.figures, pending_of(game).wagons[0], pos, on,
                                game.setup.wagon_rule)
        problem.params.update(on=on, square=pos)
        raise problem
    game.figures.append(Figure(player, "wagon", pos, node, on, FIGURE_BY_NAME["wagon"]))
    game.events.append(Event("wagon_moved", (player,), tiles=(pos,), reason="wagon_moved",
                             params={"on": on, "square": pos}))
    game.history.append({"by": game.players[player], "wagon": {"at": list(pos), "on": on}})
    wagon_decided(game)
    after_turn(game)


def return_wagon(game: GameState, player: int) -> None:
    check_turn(game, player, Phase.WAGON)
    game.hand[player]["wagon"] += 1
    game.events.append(Event("wagon_returned", (player,), reason="wagon_returned"))
    game.history.append({"by": game.players[player], "wagon": "return"})
    wagon_decided(game)
    after_turn(game)


def _place_tile_step(game: GameState, move: Move, player: int) -> None:
    assert isinstance(move, PlaceTile)
    place_tile(game, player, move.tile, move.pos, move.rot)


def _end_turn_step(game: GameState, move: Move, player: int) -> None:
    end_turn(game, player)


def _draw_step(game: GameState, move: Move, player: int) -> None:
    _draw(game, player)


# The moves of every turn go straight to their step; the others through `_by_fields`.
# `Game._push` calls these directly (what `play` does, one call fewer at every move).
STEPS: dict[type, Callable[[GameState, Move, int], None]] = {
    kind: _by_fields for kind in (Deploy, PlaceToken, Recall, PlaceAbbey, Discard, MoveWagon,
                                  ReturnWagon, SkipAbbey, DeclareEnd)}
STEPS.update({PlaceTile: _place_tile_step, EndTurn: _end_turn_step, Draw: _draw_step})
