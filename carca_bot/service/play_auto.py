"""Moves the service makes for a player: for a seat that resigned or ran out of time."""

from __future__ import annotations

from carca_bot.engine.game import Game, Phase


def auto_move(game: Game, player: int) -> None:
    """The plainest legal move: no figure, the first legal square, wagons home, abbeys kept.

    A turn already begun keeps the player's own steps and is confirmed as it is.
    A drawn tile that fits nowhere is discarded and the next one is drawn. A tile step
    with no tile left to draw (a builder's second part) places the abbey in the first
    hole: the only move there (docs/rules/RULES-inns-traders.md section 4 item 18).
    """
    if game.phase is Phase.WAGON:
        game.move_wagon(player, None)
    elif game.phase is Phase.ABBEY_ROUND:
        game.skip_abbey(player)
    elif game.phase is Phase.PLACED:
        game.end_turn(player)
    elif game.phase is Phase.TILE and game.tiles_left == 0:
        game.place_abbey(player, game.abbey_squares()[0])
        game.end_turn(player)
    else:
        while game.phase is Phase.TILE and game.current == player:
            tile = game.draw()
            placements = game.legal_placements(tile)
            if placements:
                game.place_tile(player, tile, placements[0].pos, placements[0].rot)
                game.end_turn(player)
                return
            game.discard(player, tile)
