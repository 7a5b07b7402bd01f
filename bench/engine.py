"""Engine speed: complete random games, legal moves enumerated every turn.

Prints games per second and the median time per game for each configuration.
Run: python bench/engine.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup

CONFIGS: list[tuple[str, tuple[str, ...], int, float]] = [
    ("base+river+abbot", ("river", "abbot"), 2, 25.0),
    ("base+river+abbot", ("river", "abbot"), 5, 0.0),
    ("base+river+abbot+abbey_mayor", ("river", "abbot", "abbey_mayor"), 2, 40.0),
    ("all expansions", EXPANSIONS, 2, 0.0),
    ("all expansions", EXPANSIONS, 6, 0.0),
]


def time_games(expansions: tuple[str, ...], players: int, games: int) -> list[float]:
    times = []
    for seed in range(games):
        rng = random.Random(seed)
        setup = Setup(tuple(f"P{i}" for i in range(players)), frozenset(expansions), seed=seed)
        start = time.perf_counter()
        game = Game(setup)
        while not game.finished:
            play_random_turn(game, rng)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    games = parser.parse_args().games
    print(f"{'configuration':32} {'players':>7} {'games/s':>8} {'median ms':>10} {'target':>8}")
    for name, expansions, players, target in CONFIGS:
        times = time_games(expansions, players, games)
        median = statistics.median(times) * 1000
        goal = f"<{target:.0f} ms" if target else "-"
        print(f"{name:32} {players:>7} {len(times) / sum(times):>8.1f} {median:>10.2f} {goal:>8}")


if __name__ == "__main__":
    main()
