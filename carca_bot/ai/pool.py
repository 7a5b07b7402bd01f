"""Thinking away from the event loop: the AI in a process pool, with a time limit.

A `Position` is what crosses to a worker process: the setup without its seed, the
record actions so far and the steps of the turn under way, so the worker rebuilds the
game (`Game.replay`) and can learn nothing of the tiles still to come. `think` awaits
the plan of a worker (`loop.run_in_executor`); should a worker not answer within the
budget and a grace period, a random legal plan is made in a thread instead, so the
caller always gets a legal answer in bounded time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from carca_bot.ai.players import DEFAULT_BUDGET, Budget, check_level, plan_turn
from carca_bot.ai.turns import Plan
from carca_bot.engine.board import ABBEY
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Move, PlaceAbbey, PlaceTile, PlaceToken, Recall
from carca_bot.engine.setup import Setup

GRACE = 1.0  # seconds a worker may overrun its budget before the fallback answers
# A budget of iterations alone has no clock; a game must still not wait on it forever.
CEILING = 30.0


@dataclass(frozen=True)
class Position:
    """A game as a worker needs it: picklable, and without the secret seed."""

    setup: Setup
    history: tuple[dict[str, Any], ...]
    pending: tuple[Move, ...]  # steps of the turn under way (after the tile)

    @classmethod
    def of(cls, game: Game) -> Position:
        return cls(replace(game.setup, seed=None), tuple(game.history), _pending(game))

    def game(self) -> Game:
        game = Game.replay(self.setup, list(self.history))
        for move in self.pending:
            game.push(move)
        return game


def _pending(game: Game) -> tuple[Move, ...]:
    """The steps of the turn under way, from the game's turn record (frames may be gone)."""
    turn = game.turn
    if game.phase is not Phase.PLACED or turn is None:
        return ()
    steps: list[Move] = [PlaceAbbey(turn.pos) if turn.tile == ABBEY
                         else PlaceTile(turn.tile, turn.pos, turn.rot)]
    token = None if turn.token is None else PlaceToken(turn.token.pos, turn.token.on,
                                                       turn.token.pair)
    if token is not None and turn.token_first:
        steps.append(token)
    if turn.deploy is not None:
        steps.append(turn.deploy)
    if turn.recall:
        steps.append(Recall())
    if token is not None and not turn.token_first:
        steps.append(token)
    return tuple(steps)


def plan_in_worker(position: Position, level: str, tile: str | None, seed: int,
                   budget: Budget) -> Plan:
    """The worker's side: rebuild the game and plan, within `CEILING` at most."""
    if budget.seconds is None:  # stop the search itself: nothing kills a busy worker
        budget = replace(budget, seconds=CEILING)
    return plan_turn(level, position.game(), tile, random.Random(seed), budget)


def _fallback(position: Position, tile: str | None, seed: int) -> Plan:
    return plan_turn("random", position.game(), tile, random.Random(seed))


class Thinker:
    """A pool of AI worker processes (spawned: safe beside an event loop's threads)."""

    def __init__(self, processes: int = 2) -> None:
        self.processes = processes
        self.pool = ProcessPoolExecutor(processes,
                                        mp_context=multiprocessing.get_context("spawn"))

    async def think(self, game: Game, level: str, tile: str | None, seed: int,
                    budget: Budget = DEFAULT_BUDGET) -> Plan:
        """The plan `level` makes for whoever decides in `game` (see `players.plan_turn`).

        Reads `game` now, on the caller's side; returns within the budget plus
        `GRACE` seconds (plus the worker's start, the first time). A budget of
        iterations only is held to `CEILING` seconds.
        """
        check_level(level)
        position = Position.of(game)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.pool, plan_in_worker, position, level, tile,
                                      seed, budget)
        limit = (CEILING if budget.seconds is None else budget.seconds) + GRACE
        try:
            return await asyncio.wait_for(future, limit)
        except TimeoutError:
            return await asyncio.to_thread(_fallback, position, tile, seed)

    async def warm_up(self) -> None:
        """Start the workers now rather than on the first move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.pool, check_level, "random")
                               for _ in range(self.processes)))

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
