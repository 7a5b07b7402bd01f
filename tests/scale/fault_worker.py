"""One bot process of the multi-process fault test (`test_kill_processes.py`), run as
`python -m tests.scale.fault_worker CONFIG.json`, killed with SIGKILL at random moments.

It does what `carca_bot/bot/` does around the service, with the fake Discord of
`fake_discord_http.py` instead of Discord's:

- its players: the human seats of the games of its preferred shards (Discord sends a
  shard's interactions to the process connected to it) move every `STEP` seconds; each
  move the service accepted is written to the journal (the player has seen it
  acknowledged), then its post delivered once (`deliver`, marked posted with it);
- its background work, every `PERIOD` seconds, for the shards it holds
  (`ShardLeases`, renewed every RENEW of the service's clock): the timers
  (`check_timers`: players out of time played for, AI turns resumed), whose moves it
  posts, and the owed posts (`pending_posts`, `catch_up`, `deliver`);
- the AI seats' moves (an in-process AI at the random level).

Its clock is the service clock shared by every process: `t0 + (time() - r0) * speed`.
The journal (JSON lines, appended with one write each) is what the test checks
against the database and the fake Discord. Once the file `stop` appears beside the
journal, it stops playing and running timers, and only delivers what is owed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from carca_bot.ai.players import DEFAULT_BUDGET, Budget, plan_turn
from carca_bot.ai.pool import Position
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Move
from carca_bot.service import (
    GameOptions,
    GameService,
    Limits,
    ServiceError,
    TurnOrder,
    TurnView,
    User,
    Where,
)
from carca_bot.service.posts import PostKey
from carca_bot.service.shards import RENEW, ShardLeases, Shards, shard_of
from carca_bot.store import StoreError
from tests.scale.fake_discord_http import HttpPost

STEP = 0.15  # real seconds between this process's players' moves
PERIOD = 0.25  # real seconds between rounds of background work
OWED_AGE = 20.0  # service seconds a command has to post its own result
LIMITS = Limits(lobbies_per_server=10**6, games_per_server=10**6, games_per_user=10**6,
                lobbies_per_user=10**6)


@dataclass(frozen=True)
class Config:
    url: str
    discord: str
    name: str  # "a", "b": the same across restarts
    preferred: tuple[int, ...]
    count: int
    t0: float
    r0: float
    speed: float
    journal: str
    games: tuple[tuple[str, str, bool], ...]  # (guild, channel, with an AI seat)
    seed: int

    def clock(self) -> float:
        return self.t0 + (time.time() - self.r0) * self.speed


class QuickAI:
    """The AI in this process, at the random level: moves in no time."""

    async def think(self, game: Game, level: str, tile: str | None, seed: int,
                    budget: Budget = DEFAULT_BUDGET) -> tuple[Move, ...]:
        return plan_turn("random", Position.of(game).game(), tile, random.Random(seed), budget)


class Journal:
    def __init__(self, path: str, holder: str, clock: Any) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.holder, self.clock = holder, clock

    def write(self, kind: str, **fields: Any) -> None:
        line = {"t": kind, "holder": self.holder, "at": self.clock(), **fields}
        os.write(self.fd, (json.dumps(line) + "\n").encode())


def players(guild: str, channel: str) -> tuple[User, User]:
    return (User(f"{channel}-host", "Host"), User(f"{channel}-guest", "Guest"))


class Worker:
    def __init__(self, config: Config, service: GameService, keeper: ShardLeases,
                 session: aiohttp.ClientSession, journal: Journal) -> None:
        self.config, self.service, self.keeper = config, service, keeper
        self.session, self.journal = session, journal
        self.rng = random.Random(config.seed)
        self.stop = Path(config.journal).with_name("stop")

    def post(self, game_id: int, channel: str, versions: list[int], key: PostKey) -> HttpPost:
        content = json.dumps({"game": game_id, "versions": versions})
        return HttpPost(self.session, self.config.discord, channel, content, key.marker)

    async def deliver(self, view_game: int, channel: str, version: int,
                      versions: list[int], why: str) -> None:
        """A post of the change(s) `versions`, once, marking the game posted up to
        `version`; a failure leaves it owed (the catch-up delivers it)."""
        key = PostKey(view_game, version)
        try:
            done = await self.service.deliver(key, channel, self.post(view_game, channel,
                                                                       versions, key),
                                              posted=version)
        except (ServiceError, StoreError, aiohttp.ClientError, OSError) as exc:
            self.journal.write("post_failed", game=view_game, version=version, why=str(exc))
            return
        self.journal.write("post", game=view_game, version=version, versions=versions,
                           how=done.how, why=why, message=done.message_id)

    async def renewals(self) -> None:
        while True:
            try:
                held = await self.keeper.renew()
                self.journal.write("renew", now=self.keeper.last_renewal, held=sorted(held))
            except StoreError as exc:
                self.journal.write("renew_failed", why=str(exc))
            await asyncio.sleep(RENEW / self.config.speed)

    async def background(self) -> None:
        while True:
            await asyncio.sleep(PERIOD)
            try:
                if not self.stop.exists():
                    for report in await self.service.check_timers():
                        self.journal.write("timer", game=report.game_id, reason=report.reason,
                                           version=report.view.version,
                                           played=list(report.actions))
                        if report.actions:
                            await self.deliver(report.game_id, report.where.channel,
                                               report.view.version, [report.view.version],
                                               "timer")
                await self.owed()
            except (ServiceError, StoreError, aiohttp.ClientError, OSError) as exc:
                self.journal.write("background_failed", why=str(exc))

    async def owed(self) -> None:
        for owed in await self.service.pending_posts(min_age=OWED_AGE):
            finder = HttpPost(self.session, self.config.discord, owed.channel_id, "", "")
            catch = await self.service.catch_up(owed, finder)
            if catch is None:  # the channel had it: a post whose sender died unanswered
                self.journal.write("settled", game=owed.game_id, version=owed.version)
            else:
                await self.deliver(owed.game_id, owed.channel_id, catch.version,
                                   list(catch.changes), "catch_up")

    async def play(self) -> None:
        mine = [g for g in self.config.games
                if shard_of(g[0], self.config.count) in self.config.preferred]
        while not self.stop.exists():
            for guild, channel, ai in mine:
                await asyncio.sleep(STEP)
                if self.stop.exists():
                    return
                try:
                    await self.move(Where(guild, channel), ai)
                except (ServiceError, StoreError) as exc:
                    self.journal.write("refused", channel=channel, why=str(exc))

    async def move(self, where: Where, ai: bool) -> None:
        view = await self.service.status(where)
        if view.finished:
            await self.new_game(where, ai)
            return
        if view.deciding is None or view.deciding.user_id is None:
            return  # the AI's turn: it plays itself
        user = next(u for u in players(where.guild, where.channel)
                    if u.id == view.deciding.user_id)
        legal = await self.service.legal_moves(where, user)
        if legal.must != "place" or not legal.placements:
            return
        x, y, rot = self.rng.choice(legal.placements)
        done = await self.service.play_turn(where, user, TurnOrder(at=(x, y), rot=rot),
                                            expect=view.version)
        self.journal.write("ack", game=done.game_id, before=view.version, version=done.version,
                           moves=done.moves, played=list(done.played))
        await self.deliver(done.game_id, where.channel, done.version, [done.version], "move")

    async def new_game(self, where: Where, ai: bool) -> TurnView:
        host, guest = players(where.guild, where.channel)
        options = GameOptions(seed=self.rng.randrange(10**6), turn_timer=60, auto_play=True)
        await self.service.create(where, host, options)
        if ai:
            await self.service.add_ai(where, host, "random", "AI")
        else:
            await self.service.join(where, guest)
        view = await self.service.start(where, host)
        self.journal.write("new_game", game=view.game_id, channel=where.channel)
        return view


async def run(config: Config) -> None:
    service = await GameService.open(config.url, clock=config.clock, limits=LIMITS,
                                     thinker=QuickAI())
    keeper = ShardLeases(Shards.of(config.preferred, config.count), service.store,
                         service.holder, config.clock)
    service.shards = keeper
    journal = Journal(config.journal, service.holder, config.clock)

    async def told(game_id: int, after: int) -> None:
        journal.write("ai", game=game_id, after=after)

    service.on_public_change = told
    journal.write("started", name=config.name, preferred=list(config.preferred))
    async with aiohttp.ClientSession() as session:
        worker = Worker(config, service, keeper, session, journal)
        await keeper.renew()
        journal.write("renew", now=keeper.last_renewal, held=sorted(keeper.ids))
        await asyncio.gather(worker.renewals(), worker.background(), worker.play())
        while True:  # stopped playing: the background work goes on until killed
            await asyncio.sleep(3600)


def main() -> None:
    raw = json.loads(Path(sys.argv[1]).read_text())
    raw["preferred"] = tuple(raw["preferred"])
    raw["games"] = tuple(tuple(g) for g in raw["games"])
    asyncio.run(run(Config(**raw)))


if __name__ == "__main__":
    main()
