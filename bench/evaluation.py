"""The strong evaluation alone, one decision ahead, at tables of four against three easy.

    python bench/evaluation.py [--games N] [--offset K] [--try SET ...]
                               [--reward lead|mix] [--procs P]

A search multiplies whatever its leaf gets right or wrong, and a search's games are
slow (a minute each at the bot's budget); one decision ahead the same evaluation plays
a 4-player game in about two seconds, so a change to it can be measured on hundreds of
seeds. Each candidate takes, for its own tile, the plan whose position the strong
evaluation (`estimate.estimates`) values most for it, with each `--try` set of its
weights in turn (`estimate.Weights`: `as-is`, or `name=value,name=value` changed);
its choice between drawing and placing the abbey, and the other three seats, are the
easy level's. Game g is seeded as `bench/ai.py`'s 4-player game g (the same mixes,
the candidate in seat g % 4), so every set plays the same deals. `--reward` is the
value compared: `lead`, the lead over the best of the others (the search's leaf), or
`mix`, its mean with the lead over the others' mean.

Prints one line per set: its win share with the Wilson 95% interval (fair 25%) and
its mean margin to the best of the others.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai import wilson
from ai_think import MIXES, ROTATED

from carca_bot.ai import estimate, sampling
from carca_bot.ai.arena import play_game
from carca_bot.ai.evaluate import rewards
from carca_bot.ai.players import plan_turn
from carca_bot.ai.turns import Plan, plans, play, undo
from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup

PLAYERS = 4
Job = tuple[estimate.Weights, str, int]  # weights, reward, game number


def _reward(values: list[float], kind: str) -> list[float]:
    lead = rewards(values)
    if kind == "lead":
        return lead
    total = sum(values)
    over_mean = [v - (total - v) / (len(values) - 1) for v in values]
    return [(a + b) / 2 for a, b in zip(lead, over_mean, strict=True)]


def weights(text: str) -> estimate.Weights:
    """`as-is`, or `name=value,...`: the committed weights with those changed."""
    if text == "as-is":
        return estimate.WEIGHTS
    changes = {}
    for pair in text.split(","):
        name, _, value = pair.partition("=")
        if name not in estimate.Weights.__dataclass_fields__ or not value:
            raise SystemExit(f"--try: {pair!r} is not name=value of estimate.Weights")
        changes[name] = float(value)
    return replace(estimate.WEIGHTS, **changes)


def _pick(game: Game, tile: str, chosen: estimate.Weights, kind: str) -> Plan:
    """The plan of `tile` the strong evaluation values most for whoever decides."""
    work = sampling.public_copy(game)
    player = work.deciding
    assert player is not None
    best: Plan | None = None
    best_worth = -float("inf")
    for plan in plans(work, tile):
        count = play(work, plan)
        worth = _reward(estimate.estimates(work, chosen), kind)[player]
        undo(work, count)
        if worth > best_worth:
            best, best_worth = plan, worth
    if best is None:
        raise ValueError(f"no legal move with tile {tile!r}")
    return best


def play_one(job: Job) -> tuple[float, int]:
    """One game: the candidate's win (a tie for first shared) and margin to the best other."""
    chosen, kind, number = job
    seat = number % PLAYERS
    setup = Setup(tuple(f"P{i}" for i in range(PLAYERS)),
                  MIXES[ROTATED[number % len(ROTATED)]], seed=10_000 + number)

    def candidate(game: Game, tile: str | None, rng: random.Random) -> Plan:
        if tile is None:  # drawing or placing the abbey: the easy level's choice
            return plan_turn("easy", game, None, rng)
        return _pick(game, tile, chosen, kind)

    levels = tuple("evaluation" if s == seat else "easy" for s in range(PLAYERS))
    scores = play_game(setup, levels, number, planners={seat: candidate}).scores
    top = max(scores)
    win = 1.0 / scores.count(top) if scores[seat] == top else 0.0
    return win, scores[seat] - max(v for i, v in enumerate(scores) if i != seat)


def summary(text: str, kind: str, outcomes: Sequence[tuple[float, int]]) -> str:
    n = len(outcomes)
    wins = sum(w for w, _ in outcomes)
    low, high = wilson(wins, n)
    margin = sum(m for _, m in outcomes) / n
    return (f"strong evaluation one decision ahead, weights {text}, reward {kind}, "
            f"against three easy at 4 players: n={n} win {wins / n:6.1%} "
            f"[{low:.1%}, {high:.1%}] margin {margin:+.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--try", dest="sets", nargs="+", default=["as-is"])
    parser.add_argument("--reward", choices=("lead", "mix"), default="lead")
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args(argv)
    games = range(args.offset, args.offset + args.games)
    with ProcessPoolExecutor(args.procs) as pool:
        for text in args.sets:
            jobs = [(weights(text), args.reward, g) for g in games]
            outcomes = list(pool.map(play_one, jobs, chunksize=4))
            print(summary(text, args.reward, outcomes), flush=True)


if __name__ == "__main__":
    main()
