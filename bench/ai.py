"""AI levels against each other: win rates with Wilson 95% intervals, margins, think time.

    python bench/ai.py [--games 200] [--budget 2.0] [--procs 2] [--pairings ...]
                       [--tables4 ...] [--mixes rotate]

A pairing `a:b` plays --games seeded 2-player games, a and b swapping seats on each
seed (game 2k and 2k+1 share a seed), so both see the same tiles. A 4-player table
`a:b` seats one `a` against three `b`, the seat of `a` rotating. A game's winner has
the highest score; a shared win counts as that fraction of a win. Margin: the first
level's score minus the best (2 players) or the mean (tables) of the others'.
Expansion mixes rotate over the games (--mixes), so every pairing sees them all.
Think time: wall time of one action (the draw-or-abbey choice and the plan of the
tile), median per level over all games. --budget is the strong level's seconds per
decision. Games run in --procs processes.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from carca_bot.ai.arena import Result, play_game
from carca_bot.ai.players import LEVELS, Budget
from carca_bot.engine.setup import Setup

MIXES: dict[str, frozenset[str]] = {
    "base": frozenset(),
    "river+abbot": frozenset({"river", "abbot"}),
    "abbey_mayor": frozenset({"abbey_mayor"}),
    "king_robber+cult": frozenset({"king_robber", "cult"}),
    "tunnel": frozenset({"tunnel"}),
    "all": frozenset({"river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel"}),
}
PAIRINGS = ("strong:random", "strong:greedy", "greedy:random", "easy:greedy",
            "medium:easy", "strong:medium")
TABLES4 = ("strong:medium", "medium:greedy")
Job = tuple[tuple[str, ...], str, int, float | None]  # levels, mix, seed, budget


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _one(args: Job) -> Result:
    levels, mix, seed, seconds = args
    players = tuple(f"P{i}" for i in range(len(levels)))
    setup = Setup(players, MIXES[mix], seed=seed)
    return play_game(setup, levels, seed, Budget(seconds=seconds))


def _jobs(first: str, other: str, players: int, games: int, mixes: Sequence[str],
          budget: float) -> list[Job]:
    jobs: list[Job] = []
    for g in range(games):
        seed = g // 2 if players == 2 else g
        seat = g % players
        levels = tuple(first if s == seat else other for s in range(players))
        jobs.append((levels, mixes[seed % len(mixes)], 10_000 + seed, budget))
    return jobs


def _summary(name: str, first: str, results: list[Result], players: int,
             think: dict[str, list[float]], wall: float) -> str:
    wins = 0.0
    margins: list[float] = []
    for res in results:
        seat = res.levels.index(first)
        winners = res.winners()
        if seat in winners:
            wins += 1 / len(winners)
        others = [s for i, s in enumerate(res.scores) if i != seat]
        rest = max(others) if players == 2 else statistics.mean(others)
        margins.append(res.scores[seat] - rest)
        for level, times in res.think.items():
            think.setdefault(level, []).extend(times)
    n = len(results)
    low, high = wilson(wins, n)
    return (f"{name:<22} {players}p n={n:<4} {first} wins {wins / n:6.1%} "
            f"[{low:5.1%}, {high:5.1%}]  margin mean {statistics.mean(margins):+6.1f} "
            f"median {statistics.median(margins):+6.1f}  ({wall:.0f} s)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--tables", type=int, default=None,
                        help="games per 4-player table (default: --games)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="the strong level's seconds per decision")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--pairings", nargs="*", default=list(PAIRINGS))
    parser.add_argument("--tables4", nargs="*", default=list(TABLES4))
    parser.add_argument("--mixes", nargs="*", default=list(MIXES),
                        help=f"expansion mixes, rotating: {', '.join(MIXES)}")
    args = parser.parse_args(argv)
    for spec in [*args.pairings, *args.tables4]:
        for level in spec.split(":"):
            if level not in LEVELS:
                parser.error(f"unknown level {level!r} in {spec!r}; one of {LEVELS}")
    think: dict[str, list[float]] = {}
    tables = args.games if args.tables is None else args.tables
    print(f"games per pairing {args.games}, per 4-player table {tables}, strong budget "
          f"{args.budget} s/decision, {args.procs} processes, mixes {' '.join(args.mixes)}",
          flush=True)
    with ProcessPoolExecutor(args.procs) as pool:
        for players, specs, count in ((2, args.pairings, args.games),
                                      (4, args.tables4, tables)):
            for spec in specs:
                first, other = spec.split(":")
                jobs = _jobs(first, other, players, count, args.mixes, args.budget)
                started = time.perf_counter()
                results = list(pool.map(_one, jobs))
                line = _summary(spec, first, results, players, think,
                                time.perf_counter() - started)
                print(line, flush=True)
    print("median think time per action (all games, all mixes):")
    for level in LEVELS:
        times = think.get(level)
        if times:
            print(f"  {level:<7} median {statistics.median(times) * 1000:8.1f} ms  "
                  f"p95 {sorted(times)[int(0.95 * (len(times) - 1))] * 1000:8.1f} ms  "
                  f"max {max(times) * 1000:8.1f} ms  over {len(times)} actions")


if __name__ == "__main__":
    main()
