"""After a turn: wagons waiting for their owners, the next player, and the game's end.

When the supply runs out, Abbey & Mayor gives every player, from the next one
on, a last chance to place their abbey; then the final scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.events import Event
from carca_bot.engine.expansions.abbey_mayor import wagon_targets
from carca_bot.engine.outcome import apply
from carca_bot.engine.phase import Phase
from carca_bot.engine.turnscore import final_scoring

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def after_turn(game: GameState) -> None:
    if ask_wagons(game):
        return
    if game.ending:
        next_in_round(game)
    elif not any(game.supply.values()):  # `tiles_left == 0`, without the sum
        start_ending(game, first=(game.current + 1) % len(game.players))
    else:
        game.current = (game.current + 1) % len(game.players)
        game.phase = Phase.TILE


def ask_wagons(game: GameState) -> bool:
    """Move to the next wagon owner who has somewhere to go; True while one must decide."""
    while game.wagons:
        wagon = game.wagons[0]
        if wagon_targets(game.board, game.figures, wagon, game.setup.wagon_rule):
            game.phase = Phase.WAGON
            return True
        game.wagons.pop(0)
        game.hand[wagon.player]["wagon"] += 1
        game.events.append(Event("wagon_returned", (wagon.player,), reason="wagon_stuck"))
    return False


def start_ending(game: GameState, first: int) -> None:
    game.ending = True
    count = len(game.players)
    if game.setup.has("abbey_mayor"):
        game.round_queue = [(first + i) % count for i in range(count)]
    next_in_round(game)


def next_in_round(game: GameState) -> None:
    while game.round_queue:
        player = game.round_queue.pop(0)
        if game.can_place_abbey(player):
            game.current = player
            game.phase = Phase.ABBEY_ROUND
            return
    apply(game, final_scoring(game))
    game.phase = Phase.FINISHED
