"""One bot process of the fault test through real bot processes (`test_kill_bots.py`), run
as `python -m tests.fault.bot_process CONFIG.json` and killed with SIGKILL at random.

It is the bot: `carca_bot.bot.client.CarcaBot`, the front end's real code (the
commands, the card, the outbox, the exactly-once delivery, the shard keeper, the
timers' loop), logged in to the shared fake Discord (`shared_discord.py`) over HTTP.
What differs from `carca-bot run`, and why:

- no gateway websocket: interactions come from the fake Discord's `/gateway/<name>`
  (a long poll) and go in through discord.py's own parser, as in tests/bot;
- the service clock runs `speed` times faster than real time (every process and the
  test share it), so the timers' minute, the leases' tens of seconds and the turn
  timers pass in seconds; the timers' period and the keeper's renewals are scaled to
  match (`client.TIMER_PERIOD`, `client.RENEW_PERIOD`);
- the AI plays at the random level in this process (`QuickAI`), and the pictures are a
  fixed small PNG: drawing is not what is tested, and two cores are shared by every
  process of the test.

The journal (JSON lines, one write each) says what this incarnation did, for the test
to check: its renewals and the shards they held, each timer run, what the timers did
and the AI seats' moves it posted. Once the file `stop` appears beside it, the
timers play for no one any more (their checks find nothing), so the games stand still
while what is owed is delivered.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from discord import http as discord_http

from carca_bot.bot import client
from carca_bot.bot.client import CarcaBot
from carca_bot.bot.config import Settings
from carca_bot.service import GameService, TimerReport
from carca_bot.service.shards import RENEW, Shards
from tests.scale.fault_worker import LIMITS, QuickAI

# A 1x1 PNG: what every picture is here.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")


@dataclass(frozen=True)
class Config:
    url: str
    discord: str  # the fake Discord's API base, http://127.0.0.1:PORT/api/v10
    name: str  # "a", "b": the same across restarts (Discord's shard connection)
    preferred: tuple[int, ...]
    count: int
    t0: float
    r0: float
    speed: float
    journal: str

    def clock(self) -> float:
        return self.t0 + (time.time() - self.r0) * self.speed


class Journal:
    def __init__(self, path: str, clock: Callable[[], float]) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.clock = clock

    def write(self, kind: str, **fields: Any) -> None:
        line = {"t": kind, "at": self.clock(), **fields}
        os.write(self.fd, (json.dumps(line) + "\n").encode())


def quick_pictures(bot: CarcaBot) -> None:
    async def picture(*args: Any, **kwargs: Any) -> bytes:
        return PNG

    for name in ("card", "board", "your_tile"):
        setattr(bot.pictures, name, picture)


def journaled(bot: CarcaBot, journal: Journal, stop: Path) -> None:
    """What this incarnation does, written down as it does it (see the module)."""
    service, keeper = bot.service, bot.keeper
    assert keeper is not None
    renew, check = keeper.renew, service.check_timers
    announce: Callable[[TimerReport], Awaitable[None]] = bot.announce_timer
    told = service.on_public_change
    assert told is not None

    async def renewed() -> frozenset[int]:
        held = await renew()
        journal.write("renew", now=keeper.last_renewal, held=sorted(held))
        return held

    async def timers(now: float | None = None) -> list[TimerReport]:
        if stop.exists():
            return []
        journal.write("timers", held=sorted(keeper.ids))
        return await check(now)

    async def announced(report: TimerReport) -> None:
        journal.write("timer", game=report.game_id, reason=report.reason,
                      played=list(report.actions))
        await announce(report)

    async def ai_moved(game_id: int, after: int) -> None:
        journal.write("ai", game=game_id, after=after)
        await told(game_id, after)

    keeper.renew = renewed  # type: ignore[method-assign]
    service.check_timers = timers  # type: ignore[method-assign]
    bot.announce_timer = announced  # type: ignore[method-assign]
    service.on_public_change = ai_moved


async def gateway(bot: CarcaBot, config: Config) -> None:
    """Discord's gateway, as far as interactions go: each one, as it arrives."""
    url = config.discord.removesuffix("/api/v10") + f"/gateway/{config.name}"
    async with aiohttp.ClientSession() as session:
        while True:
            try:
                async with session.get(url) as answer:
                    payloads = await answer.json()
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)
                continue
            for payload in payloads:
                bot._connection.parse_interaction_create(payload)


async def run(config: Config) -> None:
    client.TIMER_PERIOD = 60.0 / config.speed
    client.RENEW_PERIOD = RENEW / config.speed
    discord_http.Route.BASE = config.discord
    journal = Journal(config.journal, config.clock)
    service = await GameService.open(config.url, clock=config.clock, limits=LIMITS,
                                     thinker=QuickAI())
    settings = Settings(token="test-token", database=config.url, rate_limit=10**6,
                        warm_up=False, render_threads=1, limits=LIMITS,
                        shards=Shards.of(config.preferred, config.count))
    bot = CarcaBot(settings, service=service)
    quick_pictures(bot)
    journal.write("starting", name=config.name, holder=service.holder)
    await bot.login("test-token")  # the service's shards, timers and outbox start here
    journaled(bot, journal, Path(config.journal).with_name("stop"))
    assert bot.keeper is not None
    journal.write("ready", held=sorted(bot.keeper.ids))
    await gateway(bot, config)


def main() -> None:
    raw = json.loads(Path(sys.argv[1]).read_text())
    raw["preferred"] = tuple(raw["preferred"])
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("discord").setLevel(logging.WARNING)
    asyncio.run(run(Config(**raw)))


if __name__ == "__main__":
    main()
