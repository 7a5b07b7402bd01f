"""Uniformly random legal play, for benchmarks, property tests and the local demo."""

from __future__ import annotations

import random

from carca_bot.engine.game import Game, Phase
from carca_bot.engine.setup import Setup


def play_random_turn(game: Game, rng: random.Random) -> None:
    """Let whoever must act now make a uniformly random legal choice."""
    player = game.deciding
    assert player is not None
    if game.phase is Phase.WAGON:
        moves = game.legal_wagon_moves()
        choice = rng.randrange(len(moves) + 1)
        if choice == len(moves):
            game.move_wagon(player, None)
        else:
            game.move_wagon(player, *moves[choice])
        return
    if game.phase is Phase.ABBEY_ROUND:
        holes = game.abbey_squares()
        if rng.random() < 0.5:
            game.skip_abbey(player)
            return
        game.place_abbey(player, rng.choice(holes))
    elif game.can_place_abbey(player) and (not game.tiles_left or rng.random() < 0.1):
        # (with no tile left: the second part of a builder's double turn, abbey only)
        game.place_abbey(player, rng.choice(game.abbey_squares()))
    else:
        tile = game.draw()
        placements = game.legal_placements(tile)
        if not placements:
            game.discard(player, tile)
            return
        spot = rng.choice(placements)
        game.place_tile(player, tile, spot.pos, spot.rot)
    _figure_and_token(game, player, rng)
    game.end_turn(player)


def _figure_and_token(game: Game, player: int, rng: random.Random) -> None:
    tokens = game.legal_tokens()
    if tokens and rng.random() < 0.5:
        spot = rng.choice(tokens)
        game.place_token(player, spot.pos, spot.on, spot.pair)
    options = game.legal_deployments()
    choice = rng.randrange(len(options) + 2)
    if choice < len(options):
        game.deploy(player, options[choice].figure, options[choice].on)
    elif choice == len(options) and game.can_recall():
        game.recall(player)


def random_game(setup: Setup, rng: random.Random) -> Game:
    game = Game(setup)
    while not game.finished:
        play_random_turn(game, rng)
    return game
