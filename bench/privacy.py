"""Time of the players'-data operations on a database where one player has many games:
`/carc-privacy show` (its size too), the erasure (its plan, then the whole of it), and
forgetting a server.

The games are duels of the erased player against others, played out through the
service with random legal moves (so each has its seats, log, results and ratings),
half of them on a second server, which is then forgotten.
Run: python bench/privacy.py [--games 100] [--db PATH_OR_URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, User, Where
from carca_bot.words.privacy import former_player

ERASED = User("100000000000000071", "Zoë Quill")
RIVALS = [User(f"10000000000000008{i}", name) for i, name in enumerate(("Ben", "Cy", "Dee"))]
SERVERS = ("111111111111111111", "222222222222222222")
T = TypeVar("T")


async def build(service: GameService, games: int) -> int:
    """Play the duels; returns the moves the erased player made."""
    rng, moves = random.Random(1), 0
    for number in range(games):
        where = Where(SERVERS[number % 2], f"duel-{number}")
        rival = RIVALS[number % len(RIVALS)]
        await service.create(where, ERASED, GameOptions(seed=number + 1))
        await service.join(where, rival)
        view = await service.start(where, ERASED)
        people = {ERASED.id: ERASED, rival.id: rival}
        while not view.finished:
            assert view.deciding is not None and view.deciding.user_id is not None
            mover = people[view.deciding.user_id]
            moves += mover == ERASED
            view, _ = await play_random_move(service, where, mover, rng)
    return moves


async def timed(work: Awaitable[T]) -> tuple[float, T]:
    began = time.perf_counter()
    result = await work
    return time.perf_counter() - began, result


async def main(games: int, target: str) -> None:
    service = await GameService.open(target, synchronous="NORMAL")  # SQLite: no fsync per move
    try:
        began = time.perf_counter()
        moves = await build(service, games)
        print(f"privacy: {games} finished duels ({moves} moves of the erased player's), "
              f"played in {time.perf_counter() - began:.1f} s on {service.store.backend}")
        seconds, shown = await timed(service.privacy_export(ERASED.id))
        size = len(json.dumps(shown, ensure_ascii=False).encode())
        rows = sum(len(r) for r in shown["tables"].values())
        print(f"show: {seconds * 1000:.0f} ms, {rows} rows, {size / 1024:.0f} KiB of JSON")
        plan_seconds, plan = await timed(service.erase_plan(ERASED.id))
        seconds, done = await timed(service.erase_user(ERASED.id, plan.token, former_player))
        print(f"erase: {seconds * 1000:.0f} ms (its plan {plan_seconds * 1000:.0f} ms), "
              f"{done.rewritten} rows rewritten, {done.deleted} deleted")
        seconds, counts = await timed(service.forget_guild(SERVERS[1]))
        print(f"forget-guild: {seconds * 1000:.0f} ms for {counts.get('games', 0)} games, "
              f"{sum(counts.values())} rows")
    finally:
        await service.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--db", help="a PostgreSQL URL or a SQLite path (default: a new "
                        "SQLite file in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(main(args.games, args.db or str(Path(folder) / "bench.sqlite3")))
