"""Commands in different games at once on PostgreSQL all land: none is refused as "busy".

With every write transaction SERIALIZABLE, PostgreSQL (which tracks reads by index page)
took the commands of different games on a small database for conflicts, and with six
games played at once some moves were refused after every retry. A command's write to
its game (guarded by the game's version) is REPEATABLE READ now; creating a game (a
limit checked over many rows) stays SERIALIZABLE.
"""

from __future__ import annotations

import asyncio
import random

from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, Limits, User, Where

GAMES = 10
MOVES = 12


async def test_moves_in_many_games_at_once_all_land(pg_url: str) -> None:
    limits = Limits(lobbies_per_server=100, games_per_server=100)
    service = await GameService.open(pg_url, limits=limits)
    try:
        games = []
        for n in range(GAMES):
            where = Where("1", f"c{n}")
            users = [User(f"{n}{k}", f"P{k}") for k in range(2)]
            await service.create(where, users[0], GameOptions(seed=n))
            await service.join(where, users[1])
            games.append((where, {u.id: u for u in users},
                           await service.start(where, users[0])))

        async def play(where: Where, users: dict[str, User], rng: random.Random) -> int:
            view = await service.status(where)
            for _ in range(MOVES):
                assert view.deciding is not None and view.deciding.user_id is not None
                view, _ = await play_random_move(service, where,
                                                 users[view.deciding.user_id], rng)
                await service.mark_posted(view.game_id, view.version)
            return view.moves

        done = await asyncio.gather(*(play(w, u, random.Random(i))
                                      for i, (w, u, _) in enumerate(games)))
        assert all(n >= MOVES for n in done)
    finally:
        await service.close()


async def test_creations_at_once_hold_the_limit(pg_url: str) -> None:
    """Creating stays SERIALIZABLE: of many lobbies opened at once by one user, no more
    than the limit are made (the others are refused, or busy after every retry)."""
    limits = Limits(lobbies_per_user=2)
    service = await GameService.open(pg_url, limits=limits)
    try:
        host = User("7", "Host")
        outcomes = await asyncio.gather(
            *(service.create(Where("1", f"c{n}"), host, GameOptions()) for n in range(6)),
            return_exceptions=True)
        made = [o for o in outcomes if not isinstance(o, BaseException)]
        assert 1 <= len(made) <= 2
        assert len(await service.store.stale_lobbies(10**12)) == len(made)
    finally:
        await service.close()
