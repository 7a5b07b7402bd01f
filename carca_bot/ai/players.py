"""The AI levels and the one call the rest of the bot needs: what to play now.

Levels, each clearly above the one below (measured by `bench/ai.py`):

- `random`: a uniformly random legal step.
- `greedy`: the plan with the most points right now (`oneply.greedy`).
- `easy`: one decision ahead, the board valued as if the game ended now.
- `medium`: the best few plans one decision ahead by the full evaluation (chances,
  figures in hand), each judged after the next player's answer to a few sampled tiles
  (`reply.py`); its cost is fixed by counts, not by a clock.
- `strong`: information-set MCTS within the time budget (`mcts.py`), every seat playing
  for itself (max^n), its leaves valued by the strong evaluation (`estimate.py`: each
  open feature read from every player's side) and its iterations steered by a
  progressive bias from that evaluation (`STRONG`); at three or more players every
  sample runs through each opponent's answer to the player's own next decision.

A *plan* is a decision and the steps that finish it (`turns.py`): `plan_turn` returns
the whole plan, `choose` its first step. Both read the game and leave it unchanged;
neither draws: at the start of a turn without `tile` the answer is `Draw()` or an
abbey; the caller draws and asks again with the tile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from carca_bot.ai import estimate, oneply, reply, sampling
from carca_bot.ai.mcts import Config, Search
from carca_bot.ai.turns import Plan, plans
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import CLOSING, Draw, Move

LEVELS = ("random", "greedy", "easy", "medium", "strong")


@dataclass(frozen=True)
class Budget:
    """How long the strong level may think: seconds, iterations, or both (the first spent).

    A budget of iterations only makes the choice independent of the machine's speed
    (tests use it). `placed_share` is the part of it used after the tile is down,
    where the choices left are few.
    """

    seconds: float | None = 2.0
    iterations: int | None = None
    placed_share: float = 0.25


DEFAULT_BUDGET = Budget()
# The strong level's search (see `mcts.Config`; `bench/ai.py --strong` measures others).
# At three or more players every sample runs to the player's own next decision (a
# rollout through each opponent's answer): measured at four players against three
# easy, 30 iterations on the same seeds, the search stopping after the next player's
# answer won 38.7% and this one 57.3% (BENCHMARKS.md).
STRONG = Config(leaf=estimate.leaf, bias=1.0, depth_many=5, rollout=True)


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; one of {', '.join(LEVELS)}")
    return level


def choose(level: str, game: Game, tile: str | None, rng: random.Random,
           budget: Budget = DEFAULT_BUDGET) -> Move:
    """The move `level` makes for whoever decides now (`tile`: the tile they drew)."""
    return plan_turn(level, game, tile, rng, budget)[0]


def plan_turn(level: str, game: Game, tile: str | None, rng: random.Random,
              budget: Budget = DEFAULT_BUDGET, strong: Config = STRONG) -> Plan:
    """The steps `level` plays from this decision to the end of the action (`strong`:
    the strong level's search)."""
    check_level(level)
    if game.finished:
        raise ValueError("the game is over: nobody decides")
    work = sampling.public_copy(game)
    if work.phase is not Phase.TILE:
        tile = None
    if level == "random":
        return _random_plan(work, tile, rng)
    options = plans(work, tile)
    if not options:
        raise ValueError(f"no legal move with tile {tile!r}")
    if len(options) == 1:
        return options[0]
    if level == "greedy":
        return oneply.greedy(work, options, rng)
    if level == "easy":
        return oneply.best(work, options, light=True, rng=rng, draws=1)
    if level == "medium":
        return reply.medium(work, options, rng)
    search = Search(work, tile, rng, strong)
    search.run(*limits(budget, work))
    return search.best()


def limits(budget: Budget, game: Game) -> tuple[float | None, int | None]:
    """The strong level's seconds and iterations for this decision: the budget, or its
    `placed_share` once the tile is down."""
    share = budget.placed_share if game.phase is Phase.PLACED else 1.0
    seconds = None if budget.seconds is None else budget.seconds * share
    iterations = None if budget.iterations is None else max(1, int(budget.iterations * share))
    return seconds, iterations


def _random_plan(game: Game, tile: str | None, rng: random.Random) -> Plan:
    """Uniformly random legal steps until the action closes (or the tile must be drawn)."""
    steps: list[Move] = []
    while True:
        moves = game.legal_moves(tile if game.phase is Phase.TILE else None)
        if not moves:
            raise ValueError(f"no legal move with tile {tile!r}")
        move = rng.choice(moves)
        steps.append(move)
        if isinstance(move, (Draw, *CLOSING)):
            return tuple(steps)
        game.push(move)
