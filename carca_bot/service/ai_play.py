"""The AI as the service uses it: whose seed, how long to think, and playing its plan.

The thinking itself runs in the worker processes of `carca_bot.workers.Thinker`, never
on the event loop. What a worker is given is the game without its seed and only the
tile the player holds (see `carca_bot.ai.pool.Position`): the AI can no more learn
the tiles to come than a player can. Its own randomness comes from `ai_seed`: the
game's secret seed and the point of the game, hashed, so a decision can be made again
the same way (after a restart) but nobody can work the game's seed out of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Protocol

from carca_bot.ai.players import LEVELS, Budget
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Move

log = logging.getLogger(__name__)

Plan = tuple[Move, ...]

AI_LEVELS = LEVELS
# Seconds an AI seat thinks per decision unless the game says otherwise; only the
# strong level searches for as long as it is given, the others answer in far less.
LEVEL_SECONDS = {"strong": 2.0, "medium": 1.0}
OTHER_SECONDS = 0.5
# The stand-in for a player out of time: quick and sensible, not clever.
STAND_IN_LEVEL, STAND_IN_SECONDS = "easy", 0.5
# A hint: a good move, within a short wait.
HINT_LEVEL, HINT_SECONDS = "medium", 1.0
GRACE = 1.5  # seconds past the budget after which a stand-in or a hint gives up


class Thinks(Protocol):
    """What the service needs of the AI: `carca_bot.workers.Thinker` (tests may pass
    another with the same call)."""

    async def think(self, game: Game, level: str, tile: str | None, seed: int,
                    budget: Budget = ...) -> Plan: ...


def seat_seconds(level: str, chosen: float | None) -> float:
    """How long an AI seat of `level` thinks: the game's choice, else the level's default."""
    return chosen if chosen is not None else LEVEL_SECONDS.get(level, OTHER_SECONDS)


def ai_seed(game_seed: int | None, seq: int, steps: int, purpose: str) -> int:
    """The AI's seed for one decision: reproducible, and no clue to the game's seed.

    `seq` is the log length and `steps` the unconfirmed steps (or 1 after the choice to
    draw), so each decision of a game gets its own; `purpose` keeps a hint, a stand-in
    and an AI seat apart.
    """
    text = f"carca-ai:{purpose}:{game_seed}:{seq}:{steps}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


async def plan_within(thinker: Thinks, game: Game, level: str, tile: str | None, seed: int,
                      seconds: float) -> Plan | None:
    """The AI's plan, or None if it failed or did not answer within `seconds` + GRACE.

    `game` is read when this is called (the worker gets a copy), so it may be the live
    game under its lock.
    """
    try:
        return await asyncio.wait_for(
            thinker.think(game, level, tile, seed, Budget(seconds=seconds)), seconds + GRACE)
    except TimeoutError:
        log.warning("the AI (%s) did not answer within %.1f s", level, seconds + GRACE)
    except Exception:  # a dead worker, a bug: the caller has a plainer way
        log.exception("the AI (%s) failed", level)
    return None


def play_plan(game: Game, plan: Plan) -> bool:
    """Push every step of `plan`, all or none; False (the game unchanged) if one is refused."""
    depth = len(game.frames)
    try:
        for move in plan:
            game.push(move)
    except (IllegalMove, ValueError, KeyError):
        log.error("the AI's plan %r was refused", plan)
        while len(game.frames) > depth:
            game.pop()
        return False
    return True
