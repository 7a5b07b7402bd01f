"""AI levels against each other: win rates with Wilson 95% intervals, margins, think time.

    python bench/ai.py [--games 200] [--tables N] [--budget 2.0] [--iterations N]
                       [--procs 2] [--offset 0] [--pairings a:b ...]
                       [--tables4 a:b a:b:c:d ...] [--mixes ...] [--late N]

A pairing `a:b` plays --games seeded 2-player games, a and b swapping seats on each
seed (game 2k and 2k+1 share a seed), so both see the same tiles. A 4-player table
`a:b` seats one `a` against three `b`, the seat of `a` rotating; a table `a:b:c:d`
seats four levels, mixed, their seats rotating from game to game. A game's winner has
the highest score; a shared win counts as that fraction of a win. Tables print each
level's win share (a fair share is 25%) with its Wilson interval and its mean place
(1 = first, shared places averaged) with a 95% normal interval. Margin: the first
level's score minus the best (2 players) or the mean (tables) of the others'.
Expansion mixes rotate over the games (--mixes), so every pairing sees them all.
Think time: wall time of one action (the draw-or-abbey choice and the plan of the
tile), median per level over all games. The strong level's budget per decision is
--budget seconds and/or --iterations; with --iterations alone (`--budget 0`) a seeded
game plays the same moves however loaded the machine is. Games run in --procs
processes; --offset starts at another game number, so runs on different seeds add up.
--save FILE appends each finished game to FILE as a JSON line (its pairing, game number,
budget, levels, scores and think times), so a run stopped early keeps its games, and
--pooled FILE ... prints the summaries of the saved games instead of playing: slices
run with different --offset values (even on different days) add up to one arena, each
game counted once. --bot plays the strong seats through the bot's own pool of two
workers, as an idle bot plays them (root parallelism, `bench/ai_bot.py`), one game at a
time; its saved games say so (`bot=...`) and pool apart from one-core games.
--late N first times the strong level alone on N late-game positions (15 tiles left)
at the budget, with the iterations its search managed (under load, a time budget buys
fewer iterations), then medium and easy there, in wall and CPU time. --rate N does the
same for the strong search on N positions spread over whole games (2 and 4 players):
the median iterations it reaches is the iteration budget that stands for the time
budget in a reproducible arena. Think time is printed per action (the draw-or-abbey
choice and the plan of the tile) and per decision (what a budget of seconds bounds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/ai_think.py beside it

from ai_bot import BotSeats
from ai_think import MIXES, ROTATED, late_think, parallel, rate

from carca_bot.ai import estimate
from carca_bot.ai.arena import Result, play_game
from carca_bot.ai.mcts import Config, light_leaf, plain_leaf
from carca_bot.ai.players import LEVELS, STRONG, Budget
from carca_bot.engine import game as game_module
from carca_bot.engine.setup import Setup

PAIRINGS = ("strong:random", "strong:greedy", "greedy:random", "easy:greedy",
            "medium:easy", "strong:medium")
TABLES4 = ("strong:medium", "medium:easy", "strong:medium:easy:greedy")
Job = tuple[tuple[str, ...], str, int, Budget, Config]  # levels, mix, seed, strong's
# budget and search settings
LEAVES = {"estimate": estimate.leaf, "shared": plain_leaf,  # --strong leaf=...
          "win": estimate.win_leaf, "light": light_leaf}


def strong_config(pairs: Sequence[str]) -> tuple[Config, dict[str, str]]:
    """The strong level's settings with `--strong key=value` overrides (`mcts.Config`'s
    fields; `leaf` names one of `LEAVES`), and all of its settings in words (what a
    saved game keeps, so games pool by the search that played them)."""
    config = STRONG
    for key, text in (pair.split("=", 1) for pair in pairs):
        if key == "leaf":
            config = replace(config, leaf=LEAVES[text])
        elif key == "paranoid":
            config = replace(config, paranoid=_yes(text))
        elif key == "rollout":
            config = replace(config, rollout=_yes(text))
        elif key == "depth":
            config = replace(config, depth=int(text))
        elif key == "depth_many":
            config = replace(config, depth_many=int(text))
        elif key == "explore":
            config = replace(config, explore=float(text))
        elif key == "bias":
            config = replace(config, bias=float(text))
        elif key == "widen_base":
            config = replace(config, widen_base=float(text))
        elif key == "widen_power":
            config = replace(config, widen_power=float(text))
        else:
            raise ValueError(f"no such search setting: {key!r}")
    return config, settings(config)


def _yes(text: str) -> bool:
    return text in ("1", "true", "yes")


def settings(config: Config) -> dict[str, str]:
    """A search's settings in words (`--strong`'s keys), and the strong evaluation's
    weights (`estimate.WEIGHTS`; games saved before they were kept have no such word,
    so games of each evaluation pool apart). A compiled build (setup.py, mypyc: the
    same code, about three times the iterations in a budget of seconds) adds
    `build=mypyc`; the pure build adds nothing, as before."""
    leaf = next((name for name, fn in LEAVES.items() if fn is config.leaf), "other")
    words = {"leaf": leaf, "weights": estimate.WEIGHTS.words(),
             "bias": f"{config.bias:g}", "explore": f"{config.explore:g}",
             "widen_base": f"{config.widen_base:g}", "widen_power": f"{config.widen_power:g}",
             "depth": str(config.depth), "depth_many": str(config.depth_many),
             "paranoid": "1" if config.paranoid else "0"}
    if config.rollout:  # games before it was a setting have no such word: as without
        words["rollout"] = "1"
    if compiled():
        words["build"] = "mypyc"
    return words


def compiled() -> bool:
    """Whether the strong search runs compiled: its evaluation and the engine's game
    imported from C extensions rather than .py files."""
    return not all(module.__file__ and module.__file__.endswith(".py")
                   for module in (estimate, game_module))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _save(path: Path, spec: str, players: int, number: int, budget: Budget,
          result: Result, strong: dict[str, str]) -> None:
    """One finished game as a JSON line: enough to pool it with other runs later."""
    record = {"spec": spec, "players": players, "game": number,
              "seconds": budget.seconds, "iterations": budget.iterations, "strong": strong,
              "levels": list(result.levels), "scores": result.scores,
              "think": result.think, "decisions": result.decisions}
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


MANY_ONLY = ("depth_many", "rollout")  # settings that play no part at two players


def at_table(words: dict[str, str], players: int) -> dict[str, str]:
    """A search's settings in words as they bear on a table of `players`: at two, the
    settings of three or more are left out, so two-player games of searches that differ
    only there pool together."""
    if players > 2:
        return words
    return {k: v for k, v in words.items() if k not in MANY_ONLY}


def pooled(paths: Sequence[Path]) -> list[str]:
    """The summaries of saved games, per pairing or table and budget, each game once.

    A game number played twice (an overlapping --offset) is the same seeded game, so the
    later copy is dropped rather than counted again.
    """
    groups: dict[tuple[str, int, object, object, str], dict[int, Result]] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            words = at_table(rec.get("strong", {}), rec["players"])
            key = (rec["spec"], rec["players"], rec["seconds"], rec["iterations"],
                   ",".join(f"{k}={v}" for k, v in sorted(words.items())))
            result = Result(tuple(rec["levels"]), rec["scores"], rec["think"], 0,
                            rec.get("decisions", {}))
            groups.setdefault(key, {}).setdefault(rec["game"], result)
    lines: list[str] = []
    think: dict[str, list[float]] = {}
    for (spec, players, seconds, iterations, settings), games in groups.items():
        numbers = sorted(games)
        results = [games[n] for n in numbers]
        levels = spec.split(":")
        clock = "no time limit" if seconds is None else f"{seconds} s"
        count = "no iteration cap" if iterations is None else f"{iterations} iterations"
        tuned = f", search {settings}" if settings else ""
        lines.append(f"[strong: {clock}, {count} per decision{tuned}; games "
                     f"{_ranges(numbers)}]")
        if len(levels) == 2:
            lines.append(_summary(spec, levels[0], results, players, think, None))
        if players == 4:
            if len(levels) == 4:
                _collect(results, think)
            lines.extend(_table_summary(spec, results, None))
    lines.append("median think time per action (pooled games, wall time as played):")
    lines.extend(_think_lines(think))
    decided = _decisions([r for games in groups.values() for r in games.values()])
    if decided:
        lines.append("think time per decision (pooled games that recorded it):")
        lines.extend(_think_lines(decided, "decisions"))
    return lines


def _ranges(numbers: list[int]) -> str:
    """Game numbers as compact ranges: 0-39, 100-199."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def _think_lines(think: dict[str, list[float]], unit: str = "actions") -> list[str]:
    lines = []
    for level in LEVELS:
        times = think.get(level)
        if times:
            lines.append(f"  {level:<7} median {statistics.median(times) * 1000:8.1f} ms  "
                         f"p95 {sorted(times)[int(0.95 * (len(times) - 1))] * 1000:8.1f} ms  "
                         f"max {max(times) * 1000:8.1f} ms  over {len(times)} {unit}")
    return lines


def _setup(levels: tuple[str, ...], mix: str, seed: int) -> Setup:
    """The seeded game of a job, played in this process or on the bot's pool."""
    return Setup(tuple(f"P{i}" for i in range(len(levels))), MIXES[mix], seed=seed)


def _one(args: Job) -> Result:
    levels, mix, seed, budget, strong = args
    return play_game(_setup(levels, mix, seed), levels, seed, budget, strong)


def _jobs(spec: list[str], players: int, games: int, mixes: Sequence[str],
          budget: Budget, offset: int = 0, strong: Config = STRONG) -> list[Job]:
    """The seeded games of one pairing or table (see the module's docstring)."""
    jobs: list[Job] = []
    for g in range(offset, offset + games):
        seed = g // 2 if players == 2 else g
        seat = g % players
        if len(spec) == players:  # every seat its own level, rotating
            levels = tuple(spec[(s + seat) % players] for s in range(players))
        else:
            first, other = spec
            levels = tuple(first if s == seat else other for s in range(players))
        jobs.append((levels, mixes[seed % len(mixes)], 10_000 + seed, budget, strong))
    return jobs


def places(scores: list[int]) -> list[float]:
    """Each seat's place, 1 for the highest score; tied seats share the mean place."""
    out = []
    for score in scores:
        above = sum(1 for s in scores if s > score)
        tied = sum(1 for s in scores if s == score)
        out.append(above + (tied + 1) / 2)
    return out


def _table_summary(name: str, results: list[Result], wall: float | None) -> list[str]:
    """Per level at a 4-player table: its share of the wins and its mean place.

    A level with k seats at each table counts per game (the wins of any of its seats,
    the mean place of its seats), so its interval is over games, and its fair share of
    the wins is k/4.
    """
    won: dict[str, list[float]] = {}
    placed: dict[str, list[float]] = {}
    seats: dict[str, int] = {}
    for res in results:
        winners = res.winners()
        spots = places(res.scores)
        for level in dict.fromkeys(res.levels):
            mine = [seat for seat, lv in enumerate(res.levels) if lv == level]
            seats[level] = len(mine)
            won.setdefault(level, []).append(
                sum(1 / len(winners) for seat in mine if seat in winners))
            placed.setdefault(level, []).append(statistics.mean(spots[s] for s in mine))
    n = len(results)
    lines = [f"{name:<22} 4p n={n:<4}{_took(wall)}"]
    for level, got in won.items():
        low, high = wilson(sum(got), n)
        mean = statistics.mean(placed[level])
        half = 1.96 * statistics.stdev(placed[level]) / math.sqrt(n) if n > 1 else math.nan
        lines.append(f"    {level:<7} x{seats[level]} win share {sum(got) / n:6.1%} "
                     f"[{low:5.1%}, {high:5.1%}] (fair {seats[level] / 4:.0%})  mean place "
                     f"{mean:4.2f} [{mean - half:4.2f}, {mean + half:4.2f}]")
    return lines


def _summary(name: str, first: str, results: list[Result], players: int,
             think: dict[str, list[float]], wall: float | None) -> str:
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
    _collect(results, think)
    n = len(results)
    low, high = wilson(wins, n)
    return (f"{name:<22} {players}p n={n:<4} {first} wins {wins / n:6.1%} "
            f"[{low:5.1%}, {high:5.1%}]  margin mean {statistics.mean(margins):+6.1f} "
            f"median {statistics.median(margins):+6.1f}{_took(wall)}")


def _took(wall: float | None) -> str:
    """The run's wall time; pooled games (None) ran at other times and say nothing."""
    return "" if wall is None else f"  ({wall:.0f} s)"


def _progress(spec: str, results: list[Result], wall: float) -> None:
    """A running tally on stderr, so a long run stopped early still says something."""
    first = spec.split(":")[0]
    wins = sum(1 / len(r.winners()) for r in results
               if r.levels.index(first) in r.winners())
    low, high = wilson(wins, len(results))
    print(f"  .. {spec} after {len(results)} games: {first} wins {wins / len(results):.1%} "
          f"[{low:.1%}, {high:.1%}] ({wall:.0f} s)", file=sys.stderr, flush=True)


def _decisions(results: Sequence[Result]) -> dict[str, list[float]]:
    """Seconds per decision, per level (what a budget of seconds bounds)."""
    out: dict[str, list[float]] = {}
    for res in results:
        for level, times in res.decisions.items():
            out.setdefault(level, []).extend(times)
    return out


def _collect(results: list[Result], think: dict[str, list[float]]) -> None:
    for res in results:
        for level, times in res.think.items():
            think.setdefault(level, []).extend(times)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--tables", type=int, default=None,
                        help="games per 4-player table (default: --games)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="the strong level's seconds per decision (0: no time limit)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="the strong level's iterations per decision (a cap beside "
                             "--budget; with --budget 0 the only limit: reproducible)")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--offset", type=int, default=0,
                        help="number of the first game (even): runs with different offsets "
                             "play different seeds, so their counts add up")
    parser.add_argument("--pairings", nargs="*", default=list(PAIRINGS))
    parser.add_argument("--tables4", nargs="*", default=list(TABLES4))
    parser.add_argument("--progress", type=int, default=0,
                        help="print a running tally to stderr every this many games")
    parser.add_argument("--late", type=int, default=0,
                        help="first time the strong level on this many late-game "
                             "positions (15 tiles left), one at a time, at the budget")
    parser.add_argument("--rate", type=int, default=0,
                        help="first time the strong search alone on this many positions "
                             "spread over whole games, at the budget: the iterations it "
                             "reaches (the iteration count that matches a time budget)")
    parser.add_argument("--parallel", type=int, default=0,
                        help="first play the strong level on this many positions through "
                             "the bot's pool of two workers (root parallelism), at --budget")
    parser.add_argument("--mixes", nargs="*", default=list(ROTATED), choices=list(MIXES),
                        help=f"expansion mixes, rotating (default {' '.join(ROTATED)})")
    parser.add_argument("--strong", nargs="*", default=[], metavar="KEY=VALUE",
                        help="the strong level's search settings, changed for this run "
                             "(carca_bot/ai/mcts.py Config: explore, bias, widen_base, "
                             "widen_power, depth, depth_many, paranoid, rollout; "
                             "leaf=estimate|shared|win|light)")
    parser.add_argument("--bot", action="store_true",
                        help="play the strong seats through the bot's pool of two workers "
                             "(root parallelism, as an idle bot), one game at a time")
    parser.add_argument("--save", type=Path, default=None,
                        help="append each finished game to this file (JSON lines)")
    parser.add_argument("--pooled", type=Path, nargs="+", default=None,
                        help="summarise games saved with --save instead of playing")
    return parser


def _checked(parser: argparse.ArgumentParser, args: argparse.Namespace
             ) -> tuple[Budget, Config, dict[str, str]]:
    """The strong level's budget and search settings, once the levels are known good."""
    for spec in [*args.pairings, *args.tables4]:
        for level in spec.split(":"):
            if level not in LEVELS:
                parser.error(f"unknown level {level!r} in {spec!r}; one of {LEVELS}")
    for spec in args.pairings:
        if len(spec.split(":")) != 2:
            parser.error(f"a pairing is two levels, a:b, not {spec!r}")
    for spec in args.tables4:
        if len(spec.split(":")) not in (2, 4):
            parser.error(f"a table is a:b (one a, three b) or a:b:c:d, not {spec!r}")
    seconds = args.budget if args.budget > 0 else None
    if seconds is None and args.iterations is None:
        parser.error("--budget 0 needs --iterations")
    try:
        strong, given = strong_config(args.strong)
    except (ValueError, KeyError) as exc:
        parser.error(f"--strong: {exc}")
    if args.bot:
        if args.strong or seconds is None:
            parser.error("--bot plays the bot's own strong level: a --budget in seconds, "
                         "no --strong changes")
        given = {**given, "bot": "2 workers"}
    return Budget(seconds=seconds, iterations=args.iterations), strong, given


def _arenas(args: argparse.Namespace, budget: Budget, strong: Config,
            given: dict[str, str]) -> None:
    """Play every pairing and table, printing each one's summary, then think times."""
    think: dict[str, list[float]] = {}
    played: list[Result] = []
    tables = args.games if args.tables is None else args.tables
    bot = BotSeats() if args.bot else None
    with ProcessPoolExecutor(args.procs) as pool:
        for players, specs, count in ((2, args.pairings, args.games),
                                      (4, args.tables4, tables)):
            for spec in specs:
                levels = spec.split(":")
                jobs = _jobs(levels, players, count, args.mixes, budget, args.offset, strong)
                started = time.perf_counter()
                results = []
                games = (pool.map(_one, jobs) if bot is None else
                         bot.results([(lv, _setup(lv, mix, seed), seed, b)
                                      for lv, mix, seed, b, _ in jobs]))
                for number, result in enumerate(games, args.offset):
                    results.append(result)
                    if args.save:
                        _save(args.save, spec, players, number, budget, result, given)
                    if args.progress and len(results) % args.progress == 0:
                        _progress(spec, results, time.perf_counter() - started)
                wall = time.perf_counter() - started
                played.extend(results)
                if len(levels) == 2:
                    print(_summary(spec, levels[0], results, players, think, wall), flush=True)
                if players == 4:
                    if len(levels) == 4:
                        _collect(results, think)
                    print("\n".join(_table_summary(spec, results, wall)), flush=True)
    print("median think time per action (all games, all mixes):")
    print("\n".join(_think_lines(think)))
    print("think time per decision (all games, all mixes):")
    print("\n".join(_think_lines(_decisions(played), "decisions")))
    if bot is not None and bot.searched:
        print(bot.summary())


def main(argv: Sequence[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.pooled:
        print("\n".join(pooled(args.pooled)))
        return
    budget, strong, given = _checked(parser, args)
    seconds = budget.seconds
    tables = args.games if args.tables is None else args.tables
    where = "strong on the bot's pool of 2" if args.bot else str(args.procs)
    print(f"games per pairing {args.games}, per 4-player table {tables}, strong budget "
          f"{seconds} s and {args.iterations} iterations per decision, {where} "
          f"processes, first game {args.offset}, mixes {' '.join(args.mixes)}", flush=True)
    if args.late:
        print(f"think on late-game positions, strong at {seconds} s / {args.iterations} "
              "iterations:", flush=True)
        print("\n".join(late_think(args.late, args.mixes, budget, strong)), flush=True)
    if args.parallel and seconds is not None:
        print("\n".join(asyncio.run(parallel(args.parallel, args.mixes, seconds))),
              flush=True)
    if args.rate:
        print(f"iterations the strong search reaches in {seconds} s:", flush=True)
        print("\n".join(rate(args.rate, args.mixes, budget, strong)), flush=True)
    _arenas(args, budget, strong, given)


if __name__ == "__main__":
    main()
