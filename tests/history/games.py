"""Games for the history tests: finished and running, base only and every expansion,
and a running game with an unconfirmed turn (a tile drawn and placed, not confirmed)."""

from __future__ import annotations

import dataclasses
import random
import zlib
from functools import cache

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn, random_game
from carca_bot.engine.setup import Setup

NAMES = ("Ana", "Bo", "Chen", "Dee", "Eve", "Farid")
KINDS = ("base2", "all6", "all3")


def setup_of(kind: str, seed: int = 7) -> Setup:
    if kind == "base2":
        return Setup(NAMES[:2], frozenset(), seed=seed)
    players = int(kind[-1])
    return Setup(NAMES[:players], frozenset(EXPANSIONS), seed=seed)


@cache
def finished(kind: str) -> Game:
    # crc32, not hash(): str hashes change with every process (PYTHONHASHSEED).
    return random_game(setup_of(kind), random.Random(zlib.crc32(kind.encode())))


@cache
def running(kind: str, turns: int = 30) -> Game:
    """A game part way through, between two turns."""
    game = Game(setup_of(kind))
    rng = random.Random(5)
    for _ in range(turns):
        play_random_turn(game, rng)
    return game


def with_unconfirmed_turn(game: Game) -> tuple[Game, str]:
    """A copy where the player to act has drawn a tile and placed it, not confirmed;
    returns the game and the drawn tile."""
    copy = game.copy()
    tile = copy.draw()
    spots = copy.legal_placements(tile)
    assert spots, "pick another game: the drawn tile fits nowhere"
    who = copy.deciding
    assert who is not None
    copy.place_tile(who, tile, spots[0].pos, spots[0].rot)
    deploys = copy.legal_deployments()
    if deploys:
        copy.deploy(who, deploys[0].figure, deploys[0].on)
    return copy, tile


def reseeded(game: Game, seed: int) -> Game:
    """The same committed actions under another seed: another pile order, same table."""
    return Game.replay(dataclasses.replace(game.setup, seed=seed),
                       [dict(a) for a in game.history])
