"""Shard failover (issue 30): processes hold their shard ranges through leases; when one
stops renewing, a survivor takes its servers' timers, AI turns and owed posts over
within the lease time, and gives them back when it returns. The configured ranges are
a preference, not the only owner.

Every process here is a `ShardLeases` on one PostgreSQL database with a clock the test
moves; a process "dies" by no longer renewing (as a killed one does).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from carca_bot.service import GameOptions, GameService, TurnOrder, User, Where
from carca_bot.service.shards import RENEW, SHARD_LEASE, TIMER_LEASE, ShardLeases, Shards
from carca_bot.store import Store
from tests.service.helpers import Clock

GUILDS = {n: str((1000 + n) << 22) for n in range(4)}  # the server of shard n of 4 (and 2)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(pg_url)
    yield opened
    await opened.close()


def keeper(store: Store, clock: Clock, name: str, ids: set[int], count: int = 2) -> ShardLeases:
    return ShardLeases(Shards.of(ids, count), store, name, clock)


async def test_a_survivor_takes_a_dead_process_shards_and_gives_them_back(
        store: Store, clock: Clock) -> None:
    a, b = keeper(store, clock, "a", {0}), keeper(store, clock, "b", {1})
    await a.renew()
    await b.renew()  # a took b's shard before b was there: it gives it back now
    assert await a.renew() == {0} and await b.renew() == {1}
    assert a.owns(GUILDS[0]) and not a.owns(GUILDS[1]) and b.owns(GUILDS[1])
    # a dies: it renews no more. Until its leases run out, b leaves shard 0 alone.
    clock.now += RENEW
    assert await b.renew() == {1}
    clock.now += SHARD_LEASE - 2 * RENEW
    assert not a.owns(GUILDS[0]), "a would stop working before another may take over"
    assert await b.renew() == {1}
    clock.now += RENEW
    assert await b.renew() == {0, 1}, "the first renewal after a's lease ran out takes it"
    assert b.owns(GUILDS[0]) and b.everything
    assert "taken over: 0" in b.describe()
    # a comes back (a new process: a new holder) and says it prefers its shard
    a2 = keeper(store, clock, "a2", {0})
    assert await a2.renew() == frozenset()
    assert await b.renew() == {1}, "b gives shard 0 back at its next renewal"
    assert await a2.renew() == {0}
    assert await b.renew() == {1} and await a2.renew() == {0}  # and it stays so


async def test_a_process_leaves_the_shards_others_prefer_alone(store: Store,
                                                               clock: Clock) -> None:
    """Processes starting one after the other: the first does not take the second's
    shard if the second has said it prefers it, and gives it back if it had taken it."""
    a, b = keeper(store, clock, "a", {0}), keeper(store, clock, "b", {1})
    assert await a.renew() == {0, 1}  # alone: b's shard is free and nobody prefers it
    assert await b.renew() == frozenset()
    assert await a.renew() == {0}
    assert await b.renew() == {1}


async def test_a_shard_nobody_prefers_is_worked_by_someone(store: Store, clock: Clock) -> None:
    a = keeper(store, clock, "a", {0}, count=3)
    b = keeper(store, clock, "b", {1}, count=3)
    held = [await b.renew(), await a.renew(), await b.renew(), await a.renew()]
    # b alone took all; a arrived, b gave shard 0 back; shard 2, in nobody's range, b keeps
    assert held == [{0, 1, 2}, frozenset(), {1, 2}, {0}]


async def test_overlapping_ranges_have_one_holder_at_a_time(store: Store, clock: Clock) -> None:
    a, b = keeper(store, clock, "a", {0, 1}), keeper(store, clock, "b", {1})
    for _ in range(3):
        assert await a.renew() == {0, 1}
        assert await b.renew() == frozenset()
        clock.now += RENEW


async def test_a_dead_process_per_game_leases_go_with_it(store: Store, clock: Clock) -> None:
    """A timer step in flight when its process died holds its game for TIMER_LEASE; once
    the process's own `alive` lease has run out, a survivor takes the game at once."""
    a = keeper(store, clock, "a", {0})
    await a.renew()
    assert await store.take_lease("timer:7", "a", clock.now, TIMER_LEASE)
    assert not await store.take_lease("timer:7", "b", clock.now + 1, TIMER_LEASE)
    clock.now += SHARD_LEASE
    assert SHARD_LEASE < TIMER_LEASE
    assert await store.take_lease("timer:7", "b", clock.now, TIMER_LEASE)
    # a holder that never said it was alive (a process without shard leases) keeps its
    # lease until it expires, as before
    assert await store.take_lease("timer:8", "c", clock.now, TIMER_LEASE)
    assert not await store.take_lease("timer:8", "b", clock.now + TIMER_LEASE - 1, TIMER_LEASE)


async def test_a_process_cut_off_from_the_database_stops_working(store: Store,
                                                                 clock: Clock) -> None:
    a = keeper(store, clock, "a", {0, 1})
    await a.renew()
    assert a.owns(GUILDS[1])
    clock.now += SHARD_LEASE - RENEW  # no renewal got through since
    assert not a.owns(GUILDS[1]) and a.ids == frozenset()


async def test_give_back_on_a_clean_shutdown(store: Store, clock: Clock) -> None:
    a, b = keeper(store, clock, "a", {0}), keeper(store, clock, "b", {1})
    await a.renew()
    await b.renew()
    await a.give_back()
    assert await b.renew() == {0, 1}, "no lease to wait out"


async def test_one_process_on_sqlite_holds_its_range(tmp_path: Path, clock: Clock) -> None:
    store = await Store.open(tmp_path / "g.sqlite3")
    try:
        a = keeper(store, clock, "a", {1})
        assert await a.renew() == {1} and a.owns(GUILDS[1]) and not a.owns(GUILDS[0])
    finally:
        await store.close()


async def test_the_survivor_runs_the_dead_process_timers(pg_url: str, clock: Clock) -> None:
    """Through the service: a timed game on shard 0 falls due while its process is dead;
    the survivor's timers leave it alone while the dead one's lease lasts, then play it."""
    a = await GameService.open(pg_url, clock=clock)
    b = await GameService.open(pg_url, clock=clock)
    try:
        where = Where(GUILDS[0], "c")
        ana, ben = User("1", "Ana"), User("2", "Ben")
        await a.create(where, ana, GameOptions(seed=1, turn_timer=300, auto_play=True))
        await a.join(where, ben)
        view = await a.start(where, ana)
        a.shards = ShardLeases(Shards.of({0}, 2), a.store, a.holder, clock)
        b.shards = keeper_b = ShardLeases(Shards.of({1}, 2), b.store, b.holder, clock)
        await a.shards.renew()
        await keeper_b.renew()
        clock.now += 301  # the turn is overdue; a died just before
        assert await b.check_timers() == []
        clock.now += SHARD_LEASE
        await keeper_b.renew()
        (report,) = await b.check_timers()
        assert report.game_id == view.game_id and report.reason == "auto_played"
        assert [p.game_id for p in await b.pending_posts()] == [view.game_id]
    finally:
        await a.close()
        await b.close()


async def test_the_survivor_plays_the_dead_process_ai_turns(pg_url: str, clock: Clock) -> None:
    """An AI seat's turn on shard 0, left unplayed by the process that died (its task
    went with it): the survivor's timers resume it once they hold shard 0."""
    from tests.service.ai_helpers import Recording

    where = Where(GUILDS[0], "c")
    ana = User("1", "Ana")
    dead = await GameService.open(pg_url, clock=clock, thinker=Recording(gate=asyncio.Event()))
    await dead.create(where, ana, GameOptions(seed=2))
    await dead.add_ai(where, ana, "easy", "AI (easy)")
    view = await dead.start(where, ana)
    if view.deciding is not None and view.deciding.user_id == ana.id:
        x, y, rot = (await dead.legal_moves(where, ana)).placements[0]
        view = await dead.play_turn(where, ana, TurnOrder(at=(x, y), rot=rot))
    assert view.deciding is not None and view.deciding.user_id is None  # the AI's turn
    dead.shards = ShardLeases(Shards.of({0}, 2), dead.store, dead.holder, clock)
    await dead.shards.renew()
    await dead.close()  # killed while its AI was thinking (the gate never opened)
    survivor = await GameService.open(pg_url, clock=clock, thinker=Recording())
    try:
        survivor.shards = keeper_b = ShardLeases(Shards.of({1}, 2), survivor.store,
                                                 survivor.holder, clock)
        await keeper_b.renew()
        # (read from the store: any command on the game, even a look, wakes its AI)
        await survivor.check_timers()
        await survivor.wait_for_ai()
        row = await survivor.store.game(view.game_id)
        assert row is not None and row.version == view.version, "shard 0 is not its own yet"
        clock.now += SHARD_LEASE
        await keeper_b.renew()
        await survivor.check_timers()
        await survivor.wait_for_ai()
        row = await survivor.store.game(view.game_id)
        assert row is not None and row.version > view.version
        after = await survivor.status(where)
        assert after.deciding is not None and after.deciding.user_id == ana.id
    finally:
        await survivor.close()
