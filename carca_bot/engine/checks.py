"""Checks before a step: is it this player's turn and this phase, may the tile lie there.

Each check raises `IllegalMove` with a reason code, or returns one unraised
(`*_problem`) so the caller can add where it happened; nothing here changes a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos
from carca_bot.engine.phase import Phase, Turn
from carca_bot.engine.placement import edge_problem, rotations_fitting
from carca_bot.engine.shapes import Shape, TileType

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def waiting(game: GameState) -> dict[str, object]:
    """What the game waits for: the phase and who must decide (parameters of a refusal)."""
    return {"waiting": game.phase.value, "player": game.deciding}


def check_turn(game: GameState, player: int, *phases: Phase) -> None:
    phase = game.phase
    if phase is Phase.FINISHED:
        raise IllegalMove("game_over")
    if phase not in phases:
        raise IllegalMove("wrong_phase", **waiting(game))
    # `game.deciding`, spelt out but for a wagon's owner: this runs at every step
    if player != (game.deciding if phase is Phase.WAGON else game.current):
        raise IllegalMove("not_your_turn", who=player, **waiting(game))


def placed_turn(game: GameState, player: int) -> Turn:
    """The turn in progress, if `player` may take its next step now."""
    check_turn(game, player, Phase.PLACED)
    assert game.turn is not None
    return game.turn


def placement_problem(game: GameState, tile: str, pos: Pos, rot: int) -> IllegalMove | None:
    """Why `tile` may not lie at `pos` turned `rot`: its edges, then the expansions' hooks.

    The edges are first asked of the cache `rotations_fitting` keeps; only a
    mismatch is worked out in detail, to say which edge is wrong.
    """
    tile_type = game.catalogue.tiles[tile]
    shape = tile_type.shapes[rot]
    key = game.board.frontier.get(pos)
    if key is None or rot not in rotations_fitting(tile_type, key):
        problem = edge_problem(game.board, pos, shape)
        if problem is not None:
            return problem
    return hook_problem(game, tile_type, pos, shape)


def hook_problem(game: GameState, tile_type: TileType, pos: Pos,
                 shape: Shape) -> IllegalMove | None:
    """The first reason an expansion's `placement` hook gives (tile or abbey), or None."""
    for hook in game.hooks.placement:
        problem = hook(game, tile_type, pos, shape)
        if problem is not None:
            return problem
    return None
