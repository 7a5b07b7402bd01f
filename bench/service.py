"""Many games at once through the service on one SQLite file.

    python bench/service.py [--games 50] [--players 2] [--expansions all] [--rate 200]

Every game is played to the end by random legal moves, step by step as a
player would (legal options, place, figure, token, confirm), all games
concurrently with asyncio.gather, in two rounds:

* flat out: every game sends its next command the moment the last one
  returns. This measures throughput (moves/s). Its latencies are mostly
  queueing: with 50 games each waiting on the one database, a move waits for
  the 49 others, so latency there is about games / throughput.
* paced: players think between moves (exponential, mean games / rate seconds),
  so the service gets --rate moves/s in all. This measures the latency a
  player sees at that load.

A move is one committed action: its latency runs from its first service call
to its last, including `mark_posted` (the front end confirms the public post,
one more transaction); a command is one service call (one button press). Targets on a
2-core machine, without rendering: >= 200 moves/s, p95 < 50 ms at 200 moves/s.

A last round imports --imports whole records at once (replayed in the service's
worker threads) and prints how long the event loop was held up meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.record import write_record
from carca_bot.engine.setup import Setup
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, Limits, TurnView, User, Where
from carca_bot.store import Store


class TimedService(GameService):
    """Records how long every command takes, lock wait included."""

    commands: list[float]

    async def _act_on(self, *args: Any, **kwargs: Any) -> TurnView:
        began = time.perf_counter()
        try:
            return await super()._act_on(*args, **kwargs)
        finally:
            self.commands.append(time.perf_counter() - began)


async def play_one(service: GameService, index: int, args: argparse.Namespace,
                   expansions: frozenset[str], moves: list[tuple[float, float]],
                   think: float) -> float:
    """Play one game to its end; `moves` gets (when it ended, how long it took) per move."""
    where = Where("bench", f"{think}-{index}")
    users = [User(f"user-{index}-{n}", f"P{n}") for n in range(args.players)]
    await service.create(where, users[0], GameOptions(expansions=expansions,
                                                      seed=args.seed + index))
    for user in users[1:]:
        await service.join(where, user)
    view = await service.start(where, users[0])
    by_id = {u.id: u for u in users}
    rng = random.Random(args.seed * 1000 + index)
    while not view.finished:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        assert view.deciding is not None and view.deciding.user_id is not None
        began = time.perf_counter()
        view, _ = await play_random_move(service, where, by_id[view.deciding.user_id], rng)
        await service.mark_posted(view.game_id, view.version)  # as the bot does once posted
        ended = time.perf_counter()
        moves.append((ended, ended - began))
    return time.perf_counter()


def ms(values: list[float], share: float) -> str:
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]:.1f} ms"


async def one_round(service: TimedService, args: argparse.Namespace,
                    expansions: frozenset[str], think: float) -> None:
    moves: list[tuple[float, float]] = []
    service.commands = []
    began = time.perf_counter()
    finished = await asyncio.gather(*(play_one(service, i, args, expansions, moves, think)
                                      for i in range(args.games)))
    elapsed = time.perf_counter() - began
    # Games end at different times; the load is the one asked for only while all run.
    all_ran = min(finished) - began
    during = sum(1 for ended, _ in moves if ended - began <= all_ran)
    latencies = [took for _, took in moves]
    label = "flat out" if not think else f"paced at {args.rate} moves/s"
    print(f"{label}: {len(moves)} moves in {elapsed:.1f} s = {len(moves) / elapsed:.0f} moves/s "
          f"({len(service.commands) / elapsed:.0f} commands/s; "
          f"{during / all_ran:.0f} moves/s while all {args.games} games ran)")
    print(f"  per move:    p50 {ms(latencies, 0.5)}, p95 {ms(latencies, 0.95)}, "
          f"max {ms(latencies, 1.0)}")
    print(f"  per command: p50 {ms(service.commands, 0.5)}, p95 {ms(service.commands, 0.95)}, "
          f"max {ms(service.commands, 1.0)}")


async def bench(args: argparse.Namespace, path: Path) -> None:
    expansions = (frozenset(EXPANSIONS) if args.expansions == "all"
                  else frozenset(e for e in args.expansions.split(",") if e))
    # Every bench game is in one server: lift the per-server limits.
    limits = Limits(lobbies_per_server=10**6, games_per_server=10**6)
    service = TimedService(await Store.open(path, synchronous=args.synchronous),
                           limits=limits)
    print(f"{args.games} games x {args.players} players at a time, expansions: "
          f"{','.join(sorted(expansions)) or 'none'}, synchronous={args.synchronous}")
    try:
        await one_round(service, args, expansions, 0.0)
        if args.rate:
            await one_round(service, args, expansions, args.games / args.rate)
        if args.imports:
            await imports_round(service, args.imports)
    finally:
        await service.close()
    games = 2 * args.games if args.rate else args.games
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    print(f"database: {size / 1024:.0f} KiB for {games} finished games, "
          f"{size / games / 1024:.1f} KiB per game")


async def imports_round(service: GameService, count: int) -> None:
    """Whole 6-player records imported at once while a ticker on the loop and another
    channel's status command measure how long the loop is held up."""
    record = write_record(random_game(Setup(tuple(f"P{i}" for i in range(6)),
                                            frozenset(EXPANSIONS), seed=1), random.Random(1)))
    raw = json.dumps(record).encode()
    await service.create(Where("bench", "bystander"), User("bystander", "By"), GameOptions())
    lags: list[float] = []
    statuses: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            began = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - began - 0.005)

    async def bystander() -> None:
        while not done.is_set():
            began = time.perf_counter()
            await service.status(Where("bench", "bystander"))
            statuses.append(time.perf_counter() - began)
            await asyncio.sleep(0.01)

    tasks = [asyncio.create_task(ticker()), asyncio.create_task(bystander())]
    await asyncio.sleep(0.02)
    began = time.perf_counter()
    await asyncio.gather(*(service.import_record(Where("bench", f"import-{n}"),
                                                 User(f"importer-{n}", "Imp"), raw)
                           for n in range(count)))
    elapsed = time.perf_counter() - began
    done.set()
    await asyncio.gather(*tasks)
    print(f"imports: {count} records of {len(record['actions'])} actions in {elapsed:.2f} s; "
          f"event loop held up at most {1000 * max(lags):.1f} ms; another channel's status "
          f"p95 {ms(statuses, 0.95)}, max {ms(statuses, 1.0)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expansions", default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=int, default=200,
                        help="moves/s offered in the paced round (0: no paced round)")
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"))
    parser.add_argument("--imports", type=int, default=20,
                        help="records imported at once in the last round (0: none)")
    parser.add_argument("--db", help="keep the database here (default: a temporary file)")
    args = parser.parse_args()
    if args.db:
        asyncio.run(bench(args, Path(args.db)))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args, Path(folder) / "bench.sqlite3"))
        for leftover in Path(folder).iterdir():
            os.remove(leftover)


if __name__ == "__main__":
    main()
