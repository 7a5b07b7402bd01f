"""The victim of the kill -9 test: plays random moves in several games, forever.

    python -m tests.service.kill_child DB SEED

Prints "ready" once the database is open, then never stops on its own.
"""

from __future__ import annotations

import asyncio
import random
import sys

from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, User, Where

TABLES = 4


def seats(table: int) -> list[User]:
    return [User(f"user-{table}-{n}", f"P{n}") for n in range(2)]


async def one_move(service: GameService, table: int, rng: random.Random) -> None:
    where = Where("kill", f"table-{table}")
    users = seats(table)
    if await service.store.live_game(where.guild, where.channel) is None:
        await service.create(where, users[0], GameOptions(
            expansions=frozenset({"abbot", "abbey_mayor", "tunnel"}), seed=rng.randrange(999)))
    view = await service.status(where)
    if view.status == "lobby":  # killed while dealing: finish dealing
        seated = {s.user_id for s in view.seats}
        for user in users:
            if user.id not in seated:
                await service.join(where, user)
        view = await service.start(where, users[0])
    assert view.deciding is not None
    user = next(u for u in users if u.id == view.deciding.user_id)
    await play_random_move(service, where, user, rng)


async def main(path: str, seed: int) -> None:
    service = await GameService.open(path)
    rng = random.Random(seed)
    print("ready", flush=True)
    while True:
        await asyncio.gather(*(one_move(service, t, rng) for t in range(TABLES)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
