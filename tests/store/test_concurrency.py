"""Two stores on one database, as two bot processes would have: whatever they send at
once, one move lands once, and a limit checked in a transaction holds across both.

On SQLite the two are two connections to one file; on PostgreSQL two connection pools
to one server, writing SERIALIZABLE, where a transaction that loses to the other is run
again by the store (then meeting the real conflict, or the limit).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from carca_bot.store import Conflict, SeatRow, Store, Usage, UsageCheck

HOST = SeatRow(0, "u1", "Ana", 0)
TILE = {"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0}
ROUNDS = 8


@pytest.fixture
async def two(db_target: str) -> AsyncIterator[tuple[Store, Store]]:
    first = await Store.open(db_target)
    second = await Store.open(db_target)
    yield first, second
    await first.close()
    await second.close()


async def _outcomes(*writes: asyncio.Future[int] | asyncio.Task[int]) -> list[str]:
    done = await asyncio.gather(*writes, return_exceptions=True)
    for result in done:
        if isinstance(result, BaseException) and not isinstance(result, Conflict):
            raise result
    return sorted("conflict" if isinstance(r, Conflict) else "won" for r in done)


async def test_the_same_move_from_two_processes_lands_once(two: tuple[Store, Store]) -> None:
    first, second = two
    for n in range(ROUNDS):
        game = await first.create_game("g", f"c{n}", HOST, {}, 1, 1.0)
        outcome = await _outcomes(
            asyncio.ensure_future(first.append(game, 0, 0, "u1", TILE, 2.0, {"deadline": 5.0})),
            asyncio.ensure_future(second.append(game, 0, 0, "u1", TILE, 2.0,
                                                {"deadline": 6.0})))
        assert outcome == ["conflict", "won"]
        data = await second.load(game)
        assert data is not None and data.game.version == 1 and len(data.actions) == 1


async def test_two_different_moves_at_one_version_land_once(two: tuple[Store, Store]) -> None:
    """Not the same action number this time: the version alone must stop the second."""
    first, second = two
    for n in range(ROUNDS):
        game = await first.create_game("g", f"c{n}", HOST, {}, 1, 1.0)
        outcome = await _outcomes(
            asyncio.ensure_future(first.update(game, 0, 2.0, {"pending": {"by": "first"}})),
            asyncio.ensure_future(second.put_seats(game, 0, 2.0, [HOST, SeatRow(1, "u2", "B",
                                                                                1)])))
        assert outcome == ["conflict", "won"]
        row = await first.game(game)
        assert row is not None and row.version == 1


class TooMany(Exception):
    pass


def _one_lobby(usage: Usage) -> None:
    if usage.lobbies_hosted >= 1:
        raise TooMany


async def test_a_limit_holds_across_two_processes(two: tuple[Store, Store]) -> None:
    """One open lobby per user: two creations at once, in two processes, in two
    channels: one is made, the other refused by the limit, never both."""
    check = UsageCheck(threads_since=0.0, imports_since=0.0, forget_before=0.0,
                       check=_one_lobby)
    first, second = two
    for n in range(ROUNDS):
        user = SeatRow(0, f"user{n}", "Ana", 0)
        made = await asyncio.gather(
            first.create_game("g", f"a{n}", user, {}, 1, 1.0, check=check),
            second.create_game("g", f"b{n}", user, {}, 1, 1.0, check=check),
            return_exceptions=True)
        assert sorted(type(m).__name__ for m in made) == ["TooMany", "int"], made
        usage = await first.usage("g", f"user{n}", 0.0, 0.0)
        assert usage.lobbies_hosted == 1


async def test_many_games_written_at_once_all_land(two: tuple[Store, Store]) -> None:
    """Writers of different games never refuse each other (no false conflicts)."""
    first, second = two
    games = [await first.create_game("g", f"c{n}", HOST, {}, 1, 1.0) for n in range(12)]
    writes = [(first if n % 2 else second).append(game, 0, 0, "u1", TILE, 2.0)
              for n, game in enumerate(games)]
    assert await asyncio.gather(*writes) == [1] * len(games)
    for game in games:
        row = await first.game(game)
        assert row is not None and row.version == 1
