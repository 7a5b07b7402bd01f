"""Shard failover through the Discord front end (issue 30): two bots (the real client,
`CarcaBot`, against the fake Discord of tests/bot) on one PostgreSQL database, shards 0
and 1 of 2, holding their shards through `ShardLeases` (CARCA_SHARDS).

A bot "dies" as a killed process does: nothing of it runs any more and its leases are
not given back. The service clock is the test's, so the 30 s leases pass at once; the
renewals run every few milliseconds of real time (`client.RENEW_PERIOD`) and the
timers' own period is an hour (`client.TIMER_PERIOD`), so only the keeper's news that
the shards changed can make a bot run its timers within the test.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from carca_bot.bot import client
from carca_bot.bot.client import CarcaBot
from carca_bot.bot.config import Settings
from carca_bot.service import GameOptions, GameService, TimerReport, Where
from carca_bot.service.shards import RENEW, SHARD_LEASE, Shards
from tests.bot.conftest import BotHarness
from tests.bot.fake_discord import FakeDiscord
from tests.service.helpers import Clock, started

GUILDS = {n: str((1000 + n) << 22) for n in range(2)}  # the server of shard n of 2
CHANNEL = "810000000000000101"


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(client, "RENEW_PERIOD", 0.02)
    monkeypatch.setattr(client, "TIMER_PERIOD", 3600.0)
    monkeypatch.chdir(tmp_path)  # shard 0's bot notes its command sync here


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    discord = FakeDiscord()
    await discord.start()
    with discord.routed():
        yield discord
    await discord.stop()


@asynccontextmanager
async def bot(url: str, clock: Clock, shard: int) -> AsyncIterator[CarcaBot]:
    service = await GameService.open(url, clock=clock)
    settings = Settings(token="test-token", database=url, rate_limit=10_000, warm_up=False,
                        shards=Shards.of({shard}, 2))
    made = CarcaBot(settings, service=service)
    await made.login("test-token")
    try:
        yield made
    finally:
        await made.close()


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def held(b: CarcaBot) -> frozenset[int]:
    assert b.keeper is not None
    return b.keeper.ids


def killed(b: CarcaBot) -> None:
    """SIGKILL: its timers and renewals stop; its leases stay until they run out."""
    for task in (b._timer_task, b._keeper_task):
        assert task is not None
        task.cancel()


async def test_a_survivor_runs_a_dead_bots_timers_as_soon_as_it_takes_the_shard(
        pg_url: str, fake: FakeDiscord) -> None:
    clock = Clock()
    async with bot(pg_url, clock, 0) as a, bot(pg_url, clock, 1) as b:
        await until(lambda: held(a) == {0} and held(b) == {1}, "each holds its own")
        assert a.service.shards is a.keeper and b.service.shards is b.keeper
        reports: list[TimerReport] = []

        async def announce(report: TimerReport) -> None:
            reports.append(report)

        b.announce_timer = announce  # type: ignore[method-assign]
        view = await started(a.service, options=GameOptions(seed=7, turn_timer=60,
                                                             auto_play=True),
                             where=Where(GUILDS[0], CHANNEL))
        killed(a)
        clock.now += SHARD_LEASE + RENEW + 61  # a's leases ran out; the player is late
        await until(lambda: 0 in held(b), "b takes a's shard")
        await until(lambda: any(r.game_id == view.game_id for r in reports),
                    "b runs the timers of a's server at once")
        assert "taken over: 0" in b.keeper.describe()  # type: ignore[union-attr]


async def test_a_bot_shut_down_gives_its_shards_back_at_once(pg_url: str,
                                                             fake: FakeDiscord) -> None:
    """A clean shutdown (SIGTERM) releases the leases: the other bot takes the shard at
    its next renewal, without waiting for them to run out (the clock stands still)."""
    clock = Clock()
    async with bot(pg_url, clock, 1) as b:
        async with bot(pg_url, clock, 0) as a:
            await until(lambda: held(a) == {0} and held(b) == {1}, "each holds its own")
        await until(lambda: held(b) == {0, 1}, "b takes shard 0 once a is gone")


async def test_one_process_holds_no_leases(harness: BotHarness) -> None:
    """Without CARCA_SHARDS the bot runs every shard itself: no keeper, no leases."""
    assert harness.bot.keeper is None and harness.bot.service.shards is None
