"""Engine speed, side by side with the engine before v2 (commit 8ef721f), in one run.

The old engine is taken from git (`git archive`) into a temporary directory and
imported as `baseline_engine`, so both run in the same process on the same
machine; games alternate between the engines so a busy machine slows both
alike, after a warm-up of both engines' caches (then `gc.freeze()`). Prints,
for each measure, the old time, the new time, the ratio and the target.
When `carca_bot.engine` is the compiled build (`CARCA_COMPILE=1`, see setup.py), the
same source is also loaded as plain Python (`pure_engine`): "new" is then the pure
engine and a "compiled" column follows, all in the same run. `--also COMMIT` adds a
column for an earlier engine v2 (played the same way as "new"), to time a speed step
against where it started.
Run: python bench/engine.py [--games N] [--baseline COMMIT] [--also COMMIT]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
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

from carca_bot.engine import game as engine_game
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, Draw, EndTurn, Move, PlaceToken, Recall
from carca_bot.engine.setup import Setup

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "8ef721f"
PLAYERS = ("P0", "P1")
EXPANSIONS = frozenset({"river", "abbot"})


def _import_as(package: Path, name: str) -> ModuleType:
    """The engine copied to `package` (named `name`), its imports renamed to match."""
    for source in package.rglob("*.py"):  # subpackages too (engine v2: expansions/)
        text = source.read_text("utf-8").replace("carca_bot.engine", name)
        source.write_text(text, "utf-8")
    sys.path.insert(0, str(package.parent))
    return importlib.import_module(name)


def load_baseline(commit: str, where: Path, name: str = "baseline_engine") -> ModuleType:
    """The engine of `commit`, importable as `name`."""
    where.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "carca_bot/engine"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    package = where / name
    (where / "carca_bot" / "engine").rename(package)
    return _import_as(package, name)


def compiled() -> bool:
    """Whether `carca_bot.engine` is the mypyc build (extension modules, not .py files)."""
    return not str(engine_game.__file__).endswith(".py")


def load_pure(where: Path) -> ModuleType:
    """The running engine's own .py files as plain Python, importable as `pure_engine`."""
    source = Path(engine_game.__file__).parent
    package = where / "pure_engine"
    for path in source.rglob("*.py"):
        target = package / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    (package / "data").symlink_to(source / "data")
    return _import_as(package, "pure_engine")


@dataclasses.dataclass(frozen=True)
class Engine:
    """One engine's game, setup, step-API player and move classes."""

    game: Any
    setup: Any
    play: Callable[..., None]
    moves: Any

    @classmethod
    def of(cls, package: str) -> Engine:
        def part(name: str) -> Any:
            return importlib.import_module(f"{package}.{name}")
        return cls(part("game").Game, part("setup").Setup,
                   part("randomplay").play_random_turn, part("moves"))


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def random_move(game: Game, rng: random.Random, kinds: Any = None) -> None:
    """One decision by `legal_moves()`, like the AI will make them (draws when it may).

    `kinds`: the module of the move classes (another engine's), else this engine's.
    """
    draw, token, deploy, recall, end_turn = (Draw, PlaceToken, Deploy, Recall, EndTurn) \
        if kinds is None else (kinds.Draw, kinds.PlaceToken, kinds.Deploy, kinds.Recall,
                               kinds.EndTurn)
    moves = game.legal_moves()
    if game.phase.value == "tile":
        move: Move = moves[0] if isinstance(moves[0], draw) and rng.random() < 0.9 \
            else rng.choice(moves)
        if isinstance(move, draw):
            move = rng.choice(game.legal_moves(game.draw()))
    elif game.phase.value == "placed":
        tokens = [m for m in moves if isinstance(m, token)]
        figures = [m for m in moves if isinstance(m, deploy | recall)]
        if game.turn is not None and game.turn.token is None and tokens and rng.random() < 0.5:
            move = rng.choice(tokens)
        elif game.turn is not None and not (game.turn.deploy or game.turn.recall) and figures \
                and rng.random() < 0.6:
            move = rng.choice(figures)
        else:
            move = end_turn()
    else:
        move = rng.choice(moves)
    game.push(move)


def new_game_by_moves(seed: int, engine: Engine | None = None) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    if engine is None:
        game = Game(Setup(PLAYERS, EXPANSIONS, seed=seed))
        kinds = None
    else:
        game = engine.game(engine.setup(PLAYERS, EXPANSIONS, seed=seed))
        kinds = engine.moves
    while not game.finished:
        random_move(game, rng, kinds)
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


def row(name: str, old: float, news: list[float], target: str) -> None:
    """One measure: the old time, then each newer engine's time and its ratio to the old."""
    cells = "".join(f" {new * 1e6:>12.1f} {old / new if new else float('inf'):>7.1f}x"
                    for new in news)
    print(f"{name:44} {old * 1e6:>12.1f}{cells} {target:>10}")


def late_measures(engine: Engine, late: Any, tile: str, spot: Any) -> dict[str, float]:
    """Seconds per call of the small measures, on `late` (this engine's late game)."""
    kinds = engine.moves

    def place() -> None:
        late.push(kinds.PlaceTile(tile, spot.pos, spot.rot))
        options = [m for m in late.legal_moves() if isinstance(m, kinds.Deploy)]
        if options:
            late.push(options[0])
            late.pop()
        late.pop()

    late.push(kinds.PlaceTile(tile, spot.pos, spot.rot))
    figure = [m for m in late.legal_moves() if isinstance(m, kinds.Deploy)][:1]
    late.pop()

    def push_pop() -> None:
        late.push(kinds.PlaceTile(tile, spot.pos, spot.rot))
        for move in figure:
            late.push(move)
        for _ in range(1 + len(figure)):
            late.pop()

    return {"place": timed(place, 50), "push_pop": timed(push_pop, 200),
            "copy": timed(late.copy, 200), "copy_bare": timed(lambda: late.copy(stack=False), 200),
            "legal": timed(lambda: late.legal_moves(tile), 200)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--also", help="an earlier engine v2 commit, timed like the new one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = load_baseline(args.baseline, Path(tmp) / "old")
        old_game = importlib.import_module(f"{old.__name__}.game").Game
        old_setup = importlib.import_module(f"{old.__name__}.setup").Setup
        old_play = importlib.import_module(f"{old.__name__}.randomplay").play_random_turn
        engines = [Engine.of("carca_bot.engine")]  # "new", then "compiled" when built
        if compiled():
            engines.insert(0, Engine.of(load_pure(Path(tmp) / "pure").__name__))
        names = ["new", "compiled"][:len(engines)]
        if args.also:  # an earlier v2 first, so each ratio reads against the old engine
            engines.insert(0, Engine.of(
                load_baseline(args.also, Path(tmp) / "also", "also_engine").__name__))
            names.insert(0, args.also[:12])
        seeds = range(args.games)
        print(f"2 players, base+River+Abbot, {args.games} games; times in µs "
              f"(baseline {args.baseline}); engine: "
              f"{'pure Python and compiled (mypyc)' if compiled() else 'pure Python'}")
        heads = "".join(f" {name:>12} {'ratio':>8}" for name in names)
        print(f"{'measure':44} {'old':>12}{heads} {'target':>10}")
        for seed in range(10):  # warm the engines' caches, then keep them out of the GC's way
            game_by_steps(old_game, old_setup, old_play, 1000 + seed)
            for engine in engines:
                game_by_steps(engine.game, engine.setup, engine.play, 1000 + seed)
                new_game_by_moves(1000 + seed, engine)
        gc.collect()
        gc.freeze()
        old_times: list[float] = []
        step_times: list[list[float]] = [[] for _ in engines]
        move_times: list[list[float]] = [[] for _ in engines]
        for seed in seeds:  # interleaved, so a busy machine slows them all alike
            old_times.append(game_by_steps(old_game, old_setup, old_play, seed))
            for engine, steps, moves in zip(engines, step_times, move_times, strict=True):
                steps.append(game_by_steps(engine.game, engine.setup, engine.play, seed))
                moves.append(new_game_by_moves(seed, engine))
        old_median = median_ms(old_times) / 1000
        row("random game, step API (median)", old_median,
            [median_ms(t) / 1000 for t in step_times], "<= 8 ms")
        row("random game, legal_moves + push (median)", old_median,
            [median_ms(t) / 1000 for t in move_times], "<= 8 ms")

        old_late = late_game(old_game, old_setup, old_play, 7)
        lates = [late_game(e.game, e.setup, e.play, 7) for e in engines]
        tile = lates[0].draw()
        assert tile == old_late.draw()
        spot = lates[0].legal_placements(tile)[0]

        def old_place() -> None:
            old_late.place_tile(old_late.current, tile, spot.pos, spot.rot)
            options = old_late.legal_deployments()
            if options:
                old_late.deploy(old_late.current, options[0].figure, options[0].on)
            old_late.restore()

        new = [late_measures(e, late, tile, spot) for e, late in zip(engines, lates, strict=True)]
        old_place_time = timed(old_place, 5)
        old_copy = timed(lambda: copy.deepcopy(old_late), 20)
        row("place + figure, then take back", old_place_time, [n["place"] for n in new],
            "< 50 µs*")
        row("  push+pop only (no legal-move listing)", old_place_time,
            [n["push_pop"] for n in new], "< 50 µs")
        row("copy of a late-game position (deepcopy old)", old_copy, [n["copy"] for n in new],
            "< 200 µs")
        row("  copy(stack=False)", old_copy, [n["copy_bare"] for n in new], "< 200 µs")
        row("legal moves for a late-game tile",
            timed(lambda: old_late.legal_placements(tile), 200), [n["legal"] for n in new],
            "< 1000 µs")
        print("* old: place, deploy, then restore() (a replay); new: push, push, pop, pop")
        if not compiled():
            print("compiled engine: not built here (CARCA_COMPILE=1, see CONTRIBUTING.md)")


if __name__ == "__main__":
    main()
