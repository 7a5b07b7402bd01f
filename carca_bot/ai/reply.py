"""The medium level: one decision ahead, then the next player's answer to it.

Easy and a plain one-ply look value a plan by the position it leaves, which misses what
that position hands the player who moves next: a city left open for them to join, a
field to take, a monastery to crowd. Medium ranks the plans one decision ahead with the
full evaluation, keeps the best `WIDTH` of them (and only those within `SLACK` points
of the best: a plan that far behind is not rescued by a reply), and for each one lets
the next player answer `TILES` tiles sampled from the public counts. The sampled tiles
are the same for every plan (common random numbers: a lucky tile does not decide
between two plans), a tile drawn twice is answered once, and the next player takes the
answer best for them by the light evaluation. The plan is worth the mean of the full
evaluation after those answers.

Costs are fixed by those constants, not by a clock, so medium's choice depends only on
the position and the AI's seed; a position with many plans looks at fewer plans and
tiles (`shape`), so its cost stays near a plain one's. The answer leaves out tunnel
tokens (they multiply the plans and rarely decide a reply), and a decision between
drawing and placing the abbey keeps its one-ply ranking (what follows a draw is a tile
of one's own, not a reply). Only the next player answers: at a table of four that is
the one answer sure to come before the player's own next turn.
"""

from __future__ import annotations

import random
from collections import Counter

from carca_bot.ai import sampling
from carca_bot.ai.evaluate import rewards, values
from carca_bot.ai.oneply import scored
from carca_bot.ai.turns import Plan, plans, play, undo
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw, PlaceToken

WIDTH = 4  # plans kept from the one-decision ranking
TILES = 4  # tiles sampled for the next player's answer to each plan
SLACK = 12.0  # points behind the best one-ply plan beyond which a plan is not looked at
WORK = 1600  # answers x plans per answer (estimated by the plans open now) at most


def shape(options: int, width: int = WIDTH, tiles: int = TILES,
          work: int = WORK) -> tuple[int, int]:
    """How many plans to look at and tiles to answer, so a crowded position (every
    expansion, tunnel tokens, many figure kinds) costs about what a plain one does."""
    answers = max(1, work // max(1, options))
    tiles = min(tiles, max(1, answers // width))
    return min(width, max(1, answers // tiles)), tiles


def medium(game: Game, options: list[Plan], rng: random.Random, width: int = WIDTH,
           tiles: int = TILES, slack: float = SLACK) -> Plan:
    """The plan with the best mean value after the next player's answer (see above)."""
    player = game.deciding
    assert player is not None
    ranked = scored(game, options, False, rng, draws=3)
    seeds = [rng.getrandbits(32) for _ in range(tiles)]
    width, tiles = shape(len(options), width, tiles)
    seeds = seeds[:tiles]
    if any(isinstance(plan[0], Draw) for _, plan in ranked):
        return ranked[0][1]
    top = ranked[0][0]
    best_plan, best_worth = ranked[0][1], -float("inf")
    for worth_now, plan in ranked[:width]:
        if worth_now < top - slack:
            break
        count = play(game, plan)
        try:
            worth = answered(game, player, seeds)
        finally:
            undo(game, count)
        if worth > best_worth:
            best_plan, best_worth = plan, worth
    return best_plan


def answered(game: Game, player: int, seeds: list[int]) -> float:
    """`player`'s mean value once the next player has answered each sampled tile."""
    if game.finished or game.phase is not Phase.TILE or game.deciding == player:
        return rewards(values(game))[player]
    drawn: Counter[str] = Counter()
    for seed in seeds:
        tile = sampling.sample_tile(game, random.Random(seed))
        if tile is None:
            return rewards(values(game))[player]
        drawn[tile] += 1
    total = sum(n * _after_answer(game, player, tile) for tile, n in drawn.items())
    return total / len(seeds)


def _after_answer(game: Game, player: int, tile: str) -> float:
    """`player`'s value after the next player placed `tile` as is best for them."""
    replier = game.deciding
    assert replier is not None
    best_for_them, mine = -float("inf"), 0.0
    for plan in plans(game, tile):
        if any(isinstance(step, PlaceToken) for step in plan):
            continue
        count = play(game, plan)
        theirs = rewards(values(game, light=True))[replier]
        if theirs > best_for_them:
            best_for_them = theirs
            mine = rewards(values(game))[player]
        undo(game, count)
    if best_for_them == -float("inf"):  # no placement: the tile would be discarded
        return rewards(values(game))[player]
    return mine
