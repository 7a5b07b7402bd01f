"""The levels that look one decision ahead: greedy and easy (and medium's first look).

greedy: the plan that gains its player the most points right now (a completed
feature scores as it would this turn); ties are broken at random, drawing first.
easy: the plan whose resulting position is worth the most to its player over the
best of the others (`evaluate.rewards`), with the light evaluation (the board as if
the game ended now). `scored` with the full evaluation (chances of completion,
figures in hand) is medium's first ranking, before it looks at the next player's
answer (`reply.py`). Drawing a tile rather than placing the abbey is worth
the best plan of a few tiles sampled from the public counts.
"""

from __future__ import annotations

import random

from carca_bot.ai import sampling
from carca_bot.ai.evaluate import rewards, values
from carca_bot.ai.turns import Plan, plans, play, undo
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Draw


def greedy(game: Game, options: list[Plan], rng: random.Random) -> Plan:
    player = game.deciding
    assert player is not None
    before = game.scores[player]
    best: list[Plan] = []
    top = -1
    for plan in options:
        count = play(game, plan)
        gained = game.scores[player] - before
        undo(game, count)
        if gained > top:
            top, best = gained, [plan]
        elif gained == top:
            best.append(plan)
    drawing = [p for p in best if isinstance(p[0], Draw)]
    return drawing[0] if drawing else rng.choice(best)


def scored(game: Game, options: list[Plan], light: bool, rng: random.Random,
           draws: int) -> list[tuple[float, Plan]]:
    """Each plan with its worth to the player deciding now, best first."""
    player = game.deciding
    assert player is not None
    out: list[tuple[float, int, Plan]] = []
    for index, plan in enumerate(options):
        if isinstance(plan[0], Draw):
            worth = _draw_worth(game, player, light, rng, draws)
        else:
            count = play(game, plan)
            worth = rewards(values(game, light))[player]
            undo(game, count)
        out.append((worth, index, plan))
    out.sort(key=lambda item: (-item[0], item[1]))
    return [(worth, plan) for worth, _, plan in out]


def best(game: Game, options: list[Plan], light: bool, rng: random.Random,
         draws: int = 3) -> Plan:
    return scored(game, options, light, rng, draws)[0][1]


def _draw_worth(game: Game, player: int, light: bool, rng: random.Random,
                draws: int) -> float:
    """What drawing is worth: the mean of the best plan for a few sampled tiles."""
    total = 0.0
    for _ in range(draws):
        tile = sampling.sample_tile(game, rng)
        if tile is None:
            return rewards(values(game, light))[player]
        worths = []
        for plan in plans(game, tile):
            count = play(game, plan)
            worths.append(rewards(values(game, light))[player])
            undo(game, count)
        total += max(worths)
    return total / draws
