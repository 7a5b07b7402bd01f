"""Many games at once through the service, on one SQLite file or one PostgreSQL database.

    python bench/service.py [--games 50] [--players 2] [--expansions all] [--rate 200]
    python bench/service.py --db postgresql://USER@HOST/DB [--processes 2]
    python bench/service.py --backend both      # SQLite, then PostgreSQL with 1 and 2
                                                # processes, side by side

With a PostgreSQL URL (`--db postgresql://...`, a database the bench may fill: use an
empty one) or `--backend postgresql` (no URL: the bench starts a throwaway server with
the tests' code, tests/store/pg_server.py, with PostgreSQL's durable defaults, fsync
and synchronous_commit on, and removes it afterwards), --processes bot processes (2 by
default; SQLite 1) each play --games games at once on the one database, as sharded bot
processes do; the figures are for all processes together. `--backend both` runs SQLite
(one process, as SQLite is run), then PostgreSQL with one process and with two (or
with --processes only, if given), each on a new database of one throwaway server, and
prints the three side by side at the end.

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
import multiprocessing
import os
import queue
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.record import write_record
from carca_bot.engine.setup import Setup
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import (
    GameOptions,
    GameService,
    Limits,
    TurnView,
    Unavailable,
    User,
    Where,
)
from carca_bot.store import Store
from carca_bot.store.driver import is_postgres_url


class TimedService(GameService):
    """Records how long every command takes, lock wait included."""

    commands: list[float]

    async def _act_on(self, *args: Any, **kwargs: Any) -> TurnView:
        began = time.perf_counter()
        try:
            return await super()._act_on(*args, **kwargs)
        finally:
            self.commands.append(time.perf_counter() - began)


# Games are set up one at a time per process (their set-up is not measured): on
# PostgreSQL, creations at once conflict (the limits' counts read every game, so
# SERIALIZABLE lets one of them commit) and the losers are run again. A new lock for
# each run (`process_rounds`): a lock belongs to the event loop that first used it.
SETTING_UP = asyncio.Lock()
SET_UP_ATTEMPTS = 20


async def play_one(service: GameService, index: int, args: argparse.Namespace,
                   expansions: frozenset[str], moves: list[tuple[float, float]],
                   think: float) -> float:
    """Play one game to its end; `moves` gets (when it ended, how long it took) per move."""
    where = Where("bench", f"{args.process}-{think}-{index}")
    users = [User(f"user-{args.process}-{index}-{n}", f"P{n}") for n in range(args.players)]
    async with SETTING_UP:
        for attempt in range(SET_UP_ATTEMPTS):
            try:
                await service.create(where, users[0], GameOptions(expansions=expansions,
                                                                  seed=args.seed + index))
                break
            except Unavailable:  # the other process's creation won: try again
                if attempt + 1 == SET_UP_ATTEMPTS:
                    raise
                await asyncio.sleep(0.05)
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


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(values: list[float], share: float) -> str:
    return f"{1000 * quantile(values, share):.1f} ms"


@dataclass
class Round:
    """What one process measured in one round: (when each move ended, how long it took),
    in wall-clock seconds so that processes' rounds can be put together."""

    label: str
    began: float
    all_ran: float  # when the first of its games ended: all ran until then
    ended: float
    moves: list[tuple[float, float]]
    commands: list[float]


async def one_round(service: TimedService, args: argparse.Namespace,
                    expansions: frozenset[str], think: float) -> Round:
    moves: list[tuple[float, float]] = []
    service.commands = []
    began, clock = time.time(), time.perf_counter()
    finished = await asyncio.gather(*(play_one(service, i, args, expansions, moves, think)
                                      for i in range(args.games)))
    wall = began - clock  # perf_counter to wall-clock seconds
    label = "flat out" if not think else f"paced at {args.rate} moves/s"
    return Round(label, began, min(finished) + wall, time.time(),
                 [(ended + wall, took) for ended, took in moves], service.commands)


def report(rounds: list[Round], games: int) -> dict[str, float]:
    """One round of every process, as one: prints it, returns moves/s and p95 (ms)."""
    began = min(r.began for r in rounds)
    elapsed = max(r.ended for r in rounds) - began
    all_ran = min(r.all_ran for r in rounds) - began
    moves = [m for r in rounds for m in r.moves]
    commands = [c for r in rounds for c in r.commands]
    during = sum(1 for ended, _ in moves if ended - began <= all_ran)
    latencies = [took for _, took in moves]
    who = f"{len(rounds)} processes x " if len(rounds) > 1 else ""
    print(f"{rounds[0].label}: {len(moves)} moves in {elapsed:.1f} s = "
          f"{len(moves) / elapsed:.0f} moves/s ({len(commands) / elapsed:.0f} commands/s; "
          f"{during / all_ran:.0f} moves/s while all {who}{games} games ran)")
    print(f"  per move:    p50 {ms(latencies, 0.5)}, p95 {ms(latencies, 0.95)}, "
          f"max {ms(latencies, 1.0)}")
    print(f"  per command: p50 {ms(commands, 0.5)}, p95 {ms(commands, 0.95)}, "
          f"max {ms(commands, 1.0)}")
    return {"moves/s": len(moves) / elapsed, "p95": 1000 * quantile(latencies, 0.95)}


async def process_rounds(args: argparse.Namespace, target: str, start: Any = None
                         ) -> list[Round]:
    """One process's share: its games, flat out then paced; `start` (a barrier) lines
    the processes up before each round."""
    global SETTING_UP
    SETTING_UP = asyncio.Lock()
    expansions = (frozenset(EXPANSIONS) if args.expansions == "all"
                  else frozenset(e for e in args.expansions.split(",") if e))
    # Every bench game is in one server: lift the per-server limits.
    limits = Limits(lobbies_per_server=10**6, games_per_server=10**6)
    service = TimedService(await Store.open(target, synchronous=args.synchronous),
                           limits=limits)
    rounds: list[Round] = []
    try:
        paced = args.games * args.processes / args.rate if args.rate else None
        for think in (0.0, paced) if paced else (0.0,):
            if start is not None:
                start.wait(600)
            rounds.append(await one_round(service, args, expansions, think))
        if args.imports and args.processes == 1:
            await imports_round(service, args.imports)
    finally:
        await service.close()
    return rounds


def _child(args: argparse.Namespace, target: str, start: Any, results: Any) -> None:
    results.put((args.process, asyncio.run(process_rounds(args, target, start))))


def run_processes(args: argparse.Namespace, target: str) -> list[dict[str, float]]:
    """--processes processes at once on `target`; prints each round for them all."""
    kind = "PostgreSQL" if is_postgres_url(target) else "SQLite"
    print(f"{kind}: {args.processes} process(es) x {args.games} games x {args.players} "
          f"players at a time, expansions: {args.expansions or 'none'}"
          + ("" if kind == "PostgreSQL" else f", synchronous={args.synchronous}"))
    if args.processes == 1:
        rounds = [[r] for r in asyncio.run(process_rounds(args, target))]
    else:
        spawn = multiprocessing.get_context("spawn")
        start, results = spawn.Barrier(args.processes), spawn.Queue()
        procs = [spawn.Process(target=_child, args=(
            argparse.Namespace(**{**vars(args), "process": n}), target, start, results))
            for n in range(args.processes)]
        for proc in procs:
            proc.start()
        got: dict[int, list[Round]] = {}
        while len(got) < len(procs):
            try:
                number, result = results.get(timeout=2)
                got[number] = result
            except queue.Empty:
                if any(p.exitcode not in (None, 0) for p in procs):
                    for proc in procs:
                        proc.kill()
                    raise SystemExit("a bench process failed (its error is above)") from None
        for proc in procs:
            proc.join()
        rounds = [list(r) for r in zip(*got.values(), strict=True)]
    figures = [report(r, args.games) for r in rounds]
    if kind == "SQLite":
        path = Path(target)
        games = len(rounds) * args.games * args.processes
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
        print(f"database: {size / 1024:.0f} KiB for {games} finished games, "
              f"{size / games / 1024:.1f} KiB per game")
    return figures


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


def sqlite_figures(args: argparse.Namespace) -> list[dict[str, float]]:
    sqlite_args = argparse.Namespace(**{**vars(args), "processes": args.processes or 1})
    if args.db and not is_postgres_url(args.db):
        return run_processes(sqlite_args, args.db)
    with tempfile.TemporaryDirectory() as folder:
        try:
            return run_processes(sqlite_args, str(Path(folder) / "bench.sqlite3"))
        finally:
            for leftover in Path(folder).iterdir():
                os.remove(leftover)


def postgres_figures(args: argparse.Namespace, counts: tuple[int, ...]
                     ) -> dict[int, list[dict[str, float]]]:
    """PostgreSQL's figures with each number of processes in `counts`, each run on a new
    database (of --db's server, or of a throwaway one)."""
    if args.db and is_postgres_url(args.db):
        if len(counts) > 1:
            raise SystemExit("--db names one database: give --processes to say how many "
                             "processes run on it")
        pg_args = argparse.Namespace(**{**vars(args), "processes": counts[0]})
        return {counts[0]: run_processes(pg_args, args.db)}
    from tests.store import pg_server

    # The tests' server runs with fsync off; the bench measures PostgreSQL as deployed.
    pg_server.SETTINGS = "-c max_connections=200 -c listen_addresses=127.0.0.1"
    server = pg_server.PgServer.start()
    try:
        print(f"(a throwaway PostgreSQL server on port {server.port}, fsync on)")
        figures = {}
        for count in counts:
            url = asyncio.run(pg_server.create_database(server, f"bench{count}"))
            pg_args = argparse.Namespace(**{**vars(args), "processes": count})
            figures[count] = run_processes(pg_args, url)
        return figures
    finally:
        server.stop()


def side_by_side(figures: dict[str, list[dict[str, float]]]) -> None:
    print("\nside by side (all processes together):")
    width = max(len(name) for name in figures)
    for name, rounds in figures.items():
        print(f"  {name:<{width}}  " + "; ".join(
            f"{label} {r['moves/s']:.0f} moves/s, p95 {r['p95']:.1f} ms"
            for label, r in zip(("flat out", "paced"), rounds, strict=False)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50, help="games at once per process")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expansions", default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=int, default=200,
                        help="moves/s offered in the paced round, by all processes together "
                             "(0: no paced round)")
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"))
    parser.add_argument("--imports", type=int, default=20,
                        help="records imported at once in the last round, with one process "
                             "(0: none)")
    parser.add_argument("--db", help="a SQLite file to keep, or a postgresql:// URL (default: "
                                     "a temporary file, or a throwaway server)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"),
                        help="default: what --db names, else sqlite")
    parser.add_argument("--processes", type=int, default=0,
                        help="bot processes at once (default: 2 on PostgreSQL, 1 on SQLite)")
    args = parser.parse_args()
    args.process = 0
    backend = args.backend or ("postgresql" if is_postgres_url(args.db) else "sqlite")
    figures: dict[str, list[dict[str, float]]] = {}
    if backend in ("sqlite", "both"):
        figures["SQLite"] = sqlite_figures(args)
    if backend in ("postgresql", "both"):
        counts = (args.processes,) if args.processes else (1, 2) if backend == "both" else (2,)
        for count, rounds in postgres_figures(args, counts).items():
            figures[f"PostgreSQL, {count} process{'es' if count > 1 else ''}"] = rounds
    if len(figures) > 1:
        side_by_side(figures)


if __name__ == "__main__":
    main()
