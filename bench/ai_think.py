"""Think time and speed of the strong level, for bench/ai.py: late positions, the
iterations its search reaches within a budget, and root parallelism on the bot's pool."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from carca_bot.ai.mcts import Config, Search
from carca_bot.ai.players import STRONG, Budget, plan_turn
from carca_bot.ai.sampling import public_copy
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw
from carca_bot.engine.setup import Setup
from carca_bot.workers import Thinker

# The expansion mixes the arenas rotate over (bench/ai.py --mixes).
MIXES: dict[str, frozenset[str]] = {
    "base": frozenset(),
    "river+abbot": frozenset({"river", "abbot"}),
    "abbey_mayor": frozenset({"abbey_mayor"}),
    "king_robber+cult": frozenset({"king_robber", "cult"}),
    "tunnel": frozenset({"tunnel"}),
    "all": frozenset({"river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel"}),
    # Inns & Cathedrals and Traders & Builders: chosen with --mixes, not rotated by
    # default, so an arena resumed with --offset keeps the rotation it began with.
    "inns_cathedrals": frozenset({"inns_cathedrals"}),
    "traders_builders": frozenset({"traders_builders"}),
    "every": frozenset({"river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel",
                        "inns_cathedrals", "traders_builders"}),
}
ROTATED = ("base", "river+abbot", "abbey_mayor", "king_robber+cult", "tunnel", "all")

def late_positions(count: int, mixes: Sequence[str], left: int = 15) -> list[tuple[Game, str]]:
    """Late-game positions (`left` tiles in the pile) of greedy 2-player games, each
    with the tile just drawn: where the strong level's search is costliest (a big board,
    many placements)."""
    out = []
    for i in range(count):
        seed = 20_000 + i
        game = Game(Setup(("P0", "P1"), MIXES[mixes[i % len(mixes)]], seed=seed))
        rng = random.Random(seed)
        while not game.finished and not (game.phase is Phase.TILE and game.tiles_left <= left):
            plan = plan_turn("greedy", game, None, rng)
            if isinstance(plan[0], Draw):
                plan = plan_turn("greedy", game, game.draw(), rng)
            for move in plan:
                game.push(move)
        if not game.finished:
            out.append((game, game.draw()))
    return out


def late_think(count: int, mixes: Sequence[str], budget: Budget,
               strong: Config = STRONG) -> list[str]:
    """Think time on late-game positions: the strong level (wall time, which the budget
    bounds, and its search's iterations), then medium and easy (wall and CPU time:
    their work is fixed by counts, so CPU time is their cost on an idle core)."""
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    lines = []
    for game, tile in late_positions(count, mixes):
        started, used = time.perf_counter(), time.process_time()
        search = Search(public_copy(game), tile, random.Random(1), strong)
        search.run(budget.seconds, budget.iterations)
        took = time.perf_counter() - started
        wall.setdefault("strong", []).append(took)
        cpu.setdefault("strong", []).append(time.process_time() - used)
        lines.append(f"  {', '.join(sorted(game.setup.expansions)) or 'base':<58} tile "
                     f"{tile:<6} {len(search.root.plans):>4} plans {search.iterations:>5} "
                     f"iterations  {took * 1000:7.0f} ms")
        for level in ("medium", "easy"):
            started, used = time.perf_counter(), time.process_time()
            plan_turn(level, game, tile, random.Random(1), budget)
            wall.setdefault(level, []).append(time.perf_counter() - started)
            cpu.setdefault(level, []).append(time.process_time() - used)
    for level, times in wall.items():
        lines.append(f"  {level:<7} on {len(times)} late positions: wall median "
                     f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} "
                     f"ms; CPU median {statistics.median(cpu[level]) * 1000:.0f} ms, max "
                     f"{max(cpu[level]) * 1000:.0f} ms")
    return lines


def rate_positions(count: int, mixes: Sequence[str]) -> list[tuple[Game, str]]:
    """Positions spread over whole games (2 and 4 players in turn, 5 to 64 tiles left),
    played by easy, each with the tile just drawn."""
    out = []
    for i in range(count):
        seed = 30_000 + i
        players = 2 if i % 2 == 0 else 4
        game = Game(Setup(tuple(f"P{k}" for k in range(players)),
                          MIXES[mixes[i % len(mixes)]], seed=seed))
        left = 5 + (i * 13) % 60
        rng = random.Random(seed)
        while not game.finished and not (game.phase is Phase.TILE and game.tiles_left <= left):
            plan = plan_turn("easy", game, None, rng)
            if isinstance(plan[0], Draw):
                plan = plan_turn("easy", game, game.draw(), rng)
            for move in plan:
                game.push(move)
        if not game.finished:
            out.append((game, game.draw()))
    return out


def rate(count: int, mixes: Sequence[str], budget: Budget,
         strong: Config = STRONG) -> list[str]:
    """How many iterations the strong search reaches within the budget, one search at a
    time, on positions spread over whole games (`rate_positions`). Beside the count each
    search reached on the wall clock, the count one whole core would reach: iterations
    per second of the process's own CPU time, times the budget (on an idle machine the
    two agree; under load only the second is the machine's speed)."""
    reached: list[int] = []
    per_core: list[float] = []
    lines = []
    for game, tile in rate_positions(count, mixes):
        started, used = time.perf_counter(), time.process_time()
        search = Search(public_copy(game), tile, random.Random(1), strong)
        search.run(budget.seconds, budget.iterations)
        took, cpu = time.perf_counter() - started, time.process_time() - used
        reached.append(search.iterations)
        seconds = budget.seconds if budget.seconds is not None else took
        per_core.append(search.iterations * seconds / max(cpu, 1e-6))
        mix = ", ".join(sorted(game.setup.expansions)) or "base"
        lines.append(f"  {len(game.players)}p {mix:<58} {game.tiles_left:>3} left "
                     f"{len(search.root.plans):>4} plans {search.iterations:>5} iterations "
                     f"{took * 1000:7.0f} ms (CPU {cpu * 1000:.0f} ms)")
    reached.sort()
    per_core.sort()
    n = len(reached)
    lines.append(f"strong reaches a median of {statistics.median(reached):.0f} iterations "
                 f"(p10 {reached[n // 10]}, p90 {reached[n * 9 // 10]}) in {budget.seconds} s "
                 f"over {n} positions; one whole core: a median of "
                 f"{statistics.median(per_core):.0f} (p10 {per_core[n // 10]:.0f}, "
                 f"p90 {per_core[n * 9 // 10]:.0f})")
    return lines


async def parallel(count: int, mixes: Sequence[str], seconds: float) -> list[str]:
    """The bot's strong decision on its pool of two workers, alone on the machine: the
    main search's iterations and the spare search's (root parallelism)."""
    thinker = Thinker(processes=2)
    alone: list[int] = []
    both: list[int] = []
    try:
        await thinker.warm_up()
        for i, (game, tile) in enumerate(rate_positions(count, mixes)):
            await thinker.think(game, "strong", tile, i, Budget(seconds=seconds))
            alone.append(thinker.searched[0])
            both.append(sum(thinker.searched))
    finally:
        await thinker.close()
    return [f"root parallelism: the main search reached a median of "
            f"{statistics.median(alone):.0f} iterations in {seconds} s, with the spare "
            f"search {statistics.median(both):.0f} ({len(both)} positions, pool of 2)"]
