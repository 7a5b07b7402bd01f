"""AI against AI: one seeded game played to the end, for the benchmark and the tests.

The referee here does what the service does: it draws the tile (the game's secret
seed decides it) only after the player chose to draw, then asks for the plan of that
tile. Each seat has its own random generator, seeded from the game's number. A seat
may be played by a `Planner` instead of a level (`bench/evaluation.py` seats an
evaluation one decision ahead that way), so every measure plays under the same referee.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from carca_bot.ai.mcts import Config
from carca_bot.ai.players import DEFAULT_BUDGET, STRONG, Budget, plan_turn
from carca_bot.ai.turns import Plan
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Draw
from carca_bot.engine.setup import Setup

# the steps a seat plays from this decision to the end of the action, given the game,
# the tile just drawn (None before the draw) and the seat's random generator
Planner = Callable[[Game, str | None, random.Random], Plan]


@dataclass
class Result:
    levels: tuple[str, ...]
    scores: list[int]
    think: dict[str, list[float]] = field(default_factory=dict)  # seconds per action
    moves: int = 0  # steps pushed
    # seconds per decision (an action is one, or two when the choice between drawing
    # and placing the abbey came first): what a budget of seconds bounds
    decisions: dict[str, list[float]] = field(default_factory=dict)

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [seat for seat, score in enumerate(self.scores) if score == best]


def play_game(setup: Setup, levels: tuple[str, ...], seed: int,
              budget: Budget = DEFAULT_BUDGET, strong: Config = STRONG,
              planners: Mapping[int, Planner] | None = None) -> Result:
    """Play a whole game; seat i is played by `levels[i]` (`strong`: the strong level's
    search settings), or by `planners[i]` if given (`levels[i]` then only names it)."""
    if len(levels) != len(setup.players):
        raise ValueError("one level per player")
    game = Game(setup)
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    own = dict(planners or {})

    def plan_of(seat: int, tile: str | None) -> Plan:
        planner = own.get(seat)
        if planner is not None:
            return planner(game, tile, rngs[seat])
        return plan_turn(levels[seat], game, tile, rngs[seat], budget, strong)

    result = Result(levels, [], {level: [] for level in levels}, 0,
                    {level: [] for level in levels})
    while not game.finished:
        seat = game.deciding
        assert seat is not None
        level = levels[seat]
        started = time.perf_counter()
        plan = plan_of(seat, None)
        if isinstance(plan[0], Draw):
            if game.can_place_abbey(seat):  # else drawing was no choice: nothing to time
                result.decisions[level].append(time.perf_counter() - started)
            tile = game.draw()  # the referee's draw, never the AI's
            second = time.perf_counter()
            plan = plan_of(seat, tile)
            result.decisions[level].append(time.perf_counter() - second)
        else:
            result.decisions[level].append(time.perf_counter() - started)
        result.think[level].append(time.perf_counter() - started)
        for move in plan:
            game.push(move)
        result.moves += len(plan)
    result.scores = list(game.scores)
    return result
