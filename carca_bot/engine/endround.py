"""After a turn: wagons waiting for their owners, the next player, and the game's end.

When the supply runs out, Abbey & Mayor gives every player, from the next one
on, a last chance to place their abbey; then the final scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.expansions.abbey_mayor import abbey_round, ask_wagons, next_abbey
from carca_bot.engine.outcome import apply
from carca_bot.engine.phase import Phase
from carca_bot.engine.turnscore import final_scoring

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def after_turn(game: GameState) -> None:
    """After a turn's part and its wagons: another part for the same player, the next
    player, the abbey round or the end."""
    if ask_wagons(game):
        return
    if not game.ending and _another_part(game):
        return
    if game.part != 1:
        game.part = 1
    for hook in game.hooks.turn_over:
        hook(game)
    if game.ending:
        next_in_round(game)
    elif not any(game.supply.values()):  # `tiles_left == 0`, without the sum
        start_ending(game, first=(game.current + 1) % len(game.players))
    else:
        game.current = (game.current + 1) % len(game.players)
        game.phase = Phase.TILE


def _another_part(game: GameState) -> bool:
    """Whether the same player plays a second part now (a builder's double turn): owed by
    an `again` hook, never a third, and only with a tile left or their abbey to place
    (docs/rules/RULES-inns-traders.md 2.17.2, section 4 item 18)."""
    hooks = game.hooks.again
    if not hooks:
        return False
    again = False
    for hook in hooks:  # each runs: it settles what it owed
        again = hook(game) or again
    if not again or game.part != 1:
        return False
    if not any(game.supply.values()) and not game.can_place_abbey(game.current):
        return False
    game.part = 2
    game.phase = Phase.TILE
    return True


def start_ending(game: GameState, first: int) -> None:
    game.ending = True
    if game.setup.has("abbey_mayor"):
        abbey_round(game, first)
    next_in_round(game)


def next_in_round(game: GameState) -> None:
    player = next_abbey(game)
    if player is not None:
        game.current = player
        game.phase = Phase.ABBEY_ROUND
        return
    apply(game, final_scoring(game))
    game.phase = Phase.FINISHED
