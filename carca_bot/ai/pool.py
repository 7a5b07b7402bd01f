"""The AI's side of the worker pool: what crosses to a worker, and what comes back.

A `Position` is what crosses to a worker process: the setup without its seed, the
record actions so far and the steps of the turn under way, so the worker rebuilds the
game (`Game.replay`) and can learn nothing of the tiles still to come. The worker plans
(`think_job`) and sends back a `Thought`: the plan, and for the strong level what its
search learnt of each plan at the root, so that a second search of the same position on
the other core (`spare_job`, root parallelism) adds its visits to the first's
(`decide`). The pool itself, its time-out and its back-pressure rule are
`carca_bot.workers`; `carca_bot.workers.Thinker` puts these jobs on it.

Time: a decision has its budget of seconds from when it was asked (`asked_at`, the
caller's wall clock), time spent waiting for a worker included, so a busy pool shortens
the search rather than the game's wait. A budget of iterations alone has no clock; a
game must still not wait on it forever: such a search stops at `CEILING` seconds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from carca_bot.ai import sampling
from carca_bot.ai.mcts import RootStats, Search
from carca_bot.ai.players import STRONG, Budget, limits, plan_turn
from carca_bot.ai.turns import Plan, plans
from carca_bot.engine.board import ABBEY
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Move, PlaceAbbey, PlaceTile, PlaceToken, Recall
from carca_bot.engine.setup import Setup

GRACE = 1.0  # seconds a worker may overrun its budget before the fallback answers
CEILING = 30.0  # seconds a search with a budget of iterations alone may take at most
SPARE_SEED = 0x5A5A5A5A  # the spare search's seed: the decision's, mixed with this


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


@dataclass(frozen=True)
class Thought:
    """A worker's answer: the plan, and the strong search's root statistics (None for
    the other levels, or a position with one plan)."""

    plan: Plan
    stats: RootStats | None = None
    iterations: int = 0


def within(budget: Budget, asked_at: float) -> Budget:
    """The budget left of a decision asked at `asked_at` (see the module's docstring)."""
    if budget.seconds is None:
        return replace(budget, seconds=CEILING)
    waited = max(0.0, time.time() - asked_at)
    return replace(budget, seconds=max(0.05, budget.seconds - waited))


def _search(game: Game, tile: str | None, seed: int, budget: Budget,
            stop: Callable[[], bool] | None) -> Thought | None:
    """The strong level's search, or None where it has nothing to search."""
    work = sampling.public_copy(game)
    if work.finished:
        raise ValueError("the game is over: nobody decides")
    if work.phase is not Phase.TILE:
        tile = None
    if len(plans(work, tile)) <= 1:
        return None
    search = Search(work, tile, random.Random(seed), STRONG)
    seconds, iterations = limits(budget, work)
    search.run(seconds, iterations, stop)
    stats = search.stats()
    return Thought(stats.best(), stats, search.iterations)


def think_job(position: Position, level: str, tile: str | None, seed: int, budget: Budget,
              asked_at: float) -> Thought:
    """The worker's side of one decision: rebuild the game and plan (see the module)."""
    game = position.game()
    budget = within(budget, asked_at)
    if level == "strong":
        found = _search(game, tile, seed, budget, None)
        if found is not None:
            return found
    return Thought(plan_turn(level, game, tile, random.Random(seed), budget))


def spare_job(position: Position, tile: str | None, seed: int, budget: Budget,
              asked_at: float, give_way: Callable[[], bool]) -> Thought | None:
    """A second strong search of the same position on an idle worker, stopped early when
    another job wants the worker (`give_way`); None when there is nothing to search."""
    return _search(position.game(), tile, seed ^ SPARE_SEED, within(budget, asked_at),
                   give_way)


def decide(main: Thought, spare: Thought | None) -> Plan:
    """The plan of a decision, the spare search's visits added to the main one's."""
    if main.stats is None or spare is None or spare.stats is None:
        return main.plan
    return main.stats.merged(spare.stats).best()


def fallback(position: Position, tile: str | None, seed: int) -> Plan:
    """A random legal plan, when no worker answered in time."""
    return plan_turn("random", position.game(), tile, random.Random(seed))


def warm_job() -> str:
    """Import the AI in a worker, so its first decision costs no more than the next."""
    return STRONG.__class__.__name__
