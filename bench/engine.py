"""Engine speed, side by side with the engine before v2 (commit 8ef721f), in one run.

The old engine is taken from git (`git archive`) into a temporary directory and
imported as `baseline_engine`, so both run in the same process on the same
machine; games alternate between the engines so a busy machine slows both
alike, after a warm-up of both engines' caches (then `gc.freeze()`). Prints,
for each measure, the old time, the new time, the ratio and the target.
Run: python bench/engine.py [--games N] [--baseline COMMIT]
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, Draw, EndTurn, Move, PlaceTile, PlaceToken, Recall
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "8ef721f"
PLAYERS = ("P0", "P1")
EXPANSIONS = frozenset({"river", "abbot"})


def load_baseline(commit: str, where: Path) -> ModuleType:
    """The engine of `commit`, importable as `baseline_engine`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "carca_bot/engine"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    package = where / "baseline_engine"
    (where / "carca_bot" / "engine").rename(package)
    for source in package.rglob("*.py"):  # subpackages too (engine v2: expansions/)
        text = source.read_text("utf-8").replace("carca_bot.engine", "baseline_engine")
        source.write_text(text, "utf-8")
    sys.path.insert(0, str(where))
    return importlib.import_module("baseline_engine")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def random_move(game: Game, rng: random.Random) -> None:
    """One decision by `legal_moves()`, like the AI will make them (draws when it may)."""
    moves = game.legal_moves()
    if game.phase.value == "tile":
        move: Move = moves[0] if isinstance(moves[0], Draw) and rng.random() < 0.9 \
            else rng.choice(moves)
        if isinstance(move, Draw):
            move = rng.choice(game.legal_moves(game.draw()))
    elif game.phase.value == "placed":
        tokens = [m for m in moves if isinstance(m, PlaceToken)]
        figures = [m for m in moves if isinstance(m, Deploy | Recall)]
        if game.turn is not None and game.turn.token is None and tokens and rng.random() < 0.5:
            move = rng.choice(tokens)
        elif game.turn is not None and not (game.turn.deploy or game.turn.recall) and figures \
                and rng.random() < 0.6:
            move = rng.choice(figures)
        else:
            move = EndTurn()
    else:
        move = rng.choice(moves)
    game.push(move)


def new_game_by_moves(seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    game = Game(Setup(PLAYERS, EXPANSIONS, seed=seed))
    while not game.finished:
        random_move(game, rng)
    return time.perf_counter() - start


def game_by_steps(game_class: Any, setup_class: Any, play: Callable[..., None],
                  seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    game = game_class(setup_class(PLAYERS, EXPANSIONS, seed=seed))
    while not game.finished:
        play(game, rng)
    return time.perf_counter() - start


def late_game(game_class: Any, setup_class: Any, play: Callable[..., None], seed: int,
              tiles_left: int = 12) -> Any:
    """A position near the end: a tile about to be placed, `tiles_left` in the supply."""
    rng = random.Random(seed)
    game = game_class(setup_class(PLAYERS, EXPANSIONS, seed=seed))
    while not (game.tiles_left <= tiles_left and game.phase.value == "tile"):
        play(game, rng)
    return game


def timed(action: Callable[[], object], repeat: int) -> float:
    """Median seconds of one call, over `repeat` batches."""
    samples = []
    inner = 20
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            action()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def row(name: str, old: float, new: float, target: str) -> None:
    ratio = old / new if new else float("inf")
    print(f"{name:44} {old * 1e6:>12.1f} {new * 1e6:>12.1f} {ratio:>7.1f}x {target:>10}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--baseline", default=BASELINE)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = load_baseline(args.baseline, Path(tmp))
        old_game = importlib.import_module(f"{old.__name__}.game").Game
        old_setup = importlib.import_module(f"{old.__name__}.setup").Setup
        old_play = importlib.import_module(f"{old.__name__}.randomplay").play_random_turn
        seeds = range(args.games)
        print(f"2 players, base+River+Abbot, {args.games} games; times in µs "
              f"(baseline {args.baseline})")
        print(f"{'measure':44} {'old':>12} {'new':>12} {'ratio':>8} {'target':>10}")
        for seed in range(10):  # warm both engines' caches, then keep them out of the GC's way
            game_by_steps(old_game, old_setup, old_play, 1000 + seed)
            new_game_by_moves(1000 + seed)
        gc.collect()
        gc.freeze()
        old_times: list[float] = []
        step_times: list[float] = []
        move_times: list[float] = []
        for seed in seeds:  # interleaved, so a busy machine slows all three alike
            old_times.append(game_by_steps(old_game, old_setup, old_play, seed))
            step_times.append(game_by_steps(Game, Setup, play_random_turn, seed))
            move_times.append(new_game_by_moves(seed))
        old_games, steps, moves = (median_ms(t) for t in (old_times, step_times, move_times))
        row("random game, step API (median)", old_games / 1000, steps / 1000, "<= 8 ms")
        row("random game, legal_moves + push (median)", old_games / 1000, moves / 1000,
            "<= 8 ms")

        old_late = late_game(old_game, old_setup, old_play, 7)
        new_late = late_game(Game, Setup, play_random_turn, 7)
        tile = new_late.draw()
        assert tile == old_late.draw()
        spot = new_late.legal_placements(tile)[0]

        def old_place() -> None:
            old_late.place_tile(old_late.current, tile, spot.pos, spot.rot)
            options = old_late.legal_deployments()
            if options:
                old_late.deploy(old_late.current, options[0].figure, options[0].on)
            old_late.restore()

        def new_place() -> None:
            new_late.push(PlaceTile(tile, spot.pos, spot.rot))
            options = [m for m in new_late.legal_moves() if isinstance(m, Deploy)]
            if options:
                new_late.push(options[0])
                new_late.pop()
            new_late.pop()

        row("place + figure, then take back", timed(old_place, 5), timed(new_place, 50),
            "< 50 µs*")
        new_late.push(PlaceTile(tile, spot.pos, spot.rot))
        figure = [m for m in new_late.legal_moves() if isinstance(m, Deploy)][:1]
        new_late.pop()

        def new_push_pop() -> None:
            new_late.push(PlaceTile(tile, spot.pos, spot.rot))
            for move in figure:
                new_late.push(move)
            for _ in range(1 + len(figure)):
                new_late.pop()

        row("  push+pop only (no legal-move listing)", timed(old_place, 5),
            timed(new_push_pop, 200), "< 50 µs")
        row("copy of a late-game position (deepcopy old)",
            timed(lambda: copy.deepcopy(old_late), 20), timed(new_late.copy, 200), "< 200 µs")
        row("  copy(stack=False)", timed(lambda: copy.deepcopy(old_late), 20),
            timed(lambda: new_late.copy(stack=False), 200), "< 200 µs")
        row("legal moves for a late-game tile", timed(lambda: old_late.legal_placements(tile),
                                                      200),
            timed(lambda: new_late.legal_moves(tile), 200), "< 1000 µs")
        print("* old: place, deploy, then restore() (a replay); new: push, push, pop, pop")


if __name__ == "__main__":
    main()
