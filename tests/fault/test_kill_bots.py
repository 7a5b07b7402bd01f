"""Real bot processes on one PostgreSQL with a shared fake Discord, one of them killed
(SIGKILL) at random moments at least 20 times (issue 30's fault test, through the bot).

Each bot process (`bot_process.py`) is `CarcaBot`, the Discord front end's own code,
logged in to tests/bot's fake Discord served over HTTP (`shared_discord.py`), with
CARCA_SHARDS 0 and 1 of 2. The players are the test: for each game channel, the player
to act sends `/carc place ... confirm` (and now and then the host cancels, or the
player resigns with the button) as an interaction to the process connected to the
channel's shard, and a move counts as acknowledged once the bot's answer "Done" came.
New games are opened in the same channels as old ones end, so late posts land among
a newer game's messages. The test kills one process, at a random moment or just as
Discord is making one of its public posts (before the bot hears back), leaves it dead
briefly or long enough for the other to take its shard over, and starts it again;
then lets both deliver what is owed and checks:

- no acknowledged move lost or doubled: each is in its game's log once, where and by
  whom it was made; every game replays, the outbox is consistent (`check_postgres`);
- no public post shown twice: no two messages in the channels carry the same post's
  marker, each game has one card at most (every card message is the one its game
  recorded), nothing is left owed; and some posts did reach the channel unanswered
  (found there after the kill, not posted again), so the case was tested;
- the dead process's timers and AI turns taken over within the documented lease
  time: in each long outage, the survivor held its shard by its first renewal after
  the dead process's lease ran out (SHARD_LEASE, renewals every RENEW: the 40 s of
  docs/deploying-postgres.md), its timers ran at once then (within half their
  period, not at its end), and it played for the dead shard's late players and AI
  seats.

The service clock runs SPEED times faster than real time in every process.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from carca_bot.bot.client import TIMER_PERIOD
from carca_bot.bot.posts.outbox import OWED_POST_AGE
from carca_bot.pgops import check_postgres
from carca_bot.service import GameOptions, GameService, ServiceError, TurnView, User, Where
from carca_bot.service.shards import RENEW, SHARD_LEASE, shard_of
from carca_bot.store import Store, StoreError
from tests.bot.fake_discord import Interactions, texts
from tests.fault.bot_process import Config
from tests.fault.shared_discord import SharedDiscord
from tests.scale.fault_worker import LIMITS, QuickAI
from tests.store.pg_server import PgServer, create_database, drop_database

ROOT = Path(__file__).resolve().parents[2]
SPEED = 20.0  # service seconds per real second
KILLS = 20
SHARDS = 2
GUILDS = {0: (1000 << 22), 1: (1001 << 22)}
CHANNELS = 3  # per shard; every other game has an AI seat
PREFERRED = {"a": (0,), "b": (1,)}
STEP = 0.3  # real seconds between a channel's actions
ENDING = 0.05  # the share of actions that end the game (cancel or resign)
ANSWER = 10.0  # real seconds an interaction's answer is waited for
READY = 120.0  # real seconds a process may take to start
SETTLE = 120.0  # real seconds the survivors get to deliver what is owed
# Real seconds dead: long enough for the lease to run out (1.5 s, renewals every 0.5 s),
# a player's turn timer (3 s) too, and the survivor's timers to run once more (every 3 s).
LONG_DEAD = (6.5, 8.0)
SHORT_DEAD = (0.05, 1.0)
MARKER = re.compile(r"^-# #(\d+)·(\d+)(?:·(\d+))?$")


@dataclass
class Channel:
    shard: int
    where: Where
    ai: bool
    host: tuple[int, str]
    guest: tuple[int, str]
    make: Interactions

    def user(self, user_id: str) -> tuple[int, str]:
        return self.host if str(self.host[0]) == user_id else self.guest


@dataclass
class Ack:
    game: int
    moves: int  # the log's length before the move
    by: str
    at: list[int]
    rot: int


@dataclass
class Kill:
    victim: str
    at: float  # service clock
    long: bool
    restarted: float = 0.0


@dataclass
class Bots:
    """The bot processes, by the shard connection they stand for ("a", "b")."""

    base: Config
    folder: Path
    shared: SharedDiscord
    running: dict[str, asyncio.subprocess.Process] = field(default_factory=dict)
    journals: dict[str, list[Path]] = field(default_factory=lambda: defaultdict(list))

    async def start(self, name: str) -> None:
        number = len(self.journals[name]) + 1
        journal = self.folder / f"journal-{name}-{number}.jsonl"
        config = {**asdict(self.base), "name": name, "preferred": list(PREFERRED[name]),
                  "journal": str(journal)}
        path = self.folder / f"config-{name}.json"
        path.write_text(json.dumps(config))
        self.shared.forget(name)  # interactions sent to the dead connection are lost
        with open(self.folder / f"log-{name}-{number}.txt", "wb") as log:
            self.running[name] = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.fault.bot_process", str(path), cwd=self.folder,
                env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.DEVNULL,
                stderr=log)
        self.journals[name].append(journal)
        give_up = time.monotonic() + READY
        while not any(line["t"] == "ready" for line in read(journal)):
            process = self.running[name]
            if process.returncode is not None or time.monotonic() > give_up:
                log_text = (self.folder / f"log-{name}-{number}.txt").read_text()
                raise AssertionError(f"bot {name} did not start: {log_text[-3000:]}")
            await asyncio.sleep(0.05)

    async def kill(self, name: str) -> None:
        process = self.running.pop(name)
        process.send_signal(signal.SIGKILL)
        await process.wait()

    async def kill_all(self) -> None:
        for name in list(self.running):
            await self.kill(name)


def read(path: Path) -> list[dict[str, Any]]:
    """A journal's lines (a line cut short by a kill is not one)."""
    lines = []
    for raw in path.read_text().splitlines() if path.exists() else []:
        try:
            lines.append(json.loads(raw))
        except ValueError:
            continue
    return lines


@dataclass
class Play:
    """The players: every channel's, as Discord's users (see the module)."""

    service: GameService  # reads the games (what a player sees), opens new ones
    shared: SharedDiscord
    bots: Bots
    channels: list[Channel]
    rng: random.Random
    acks: list[Ack] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)
    stopping: asyncio.Event = field(default_factory=asyncio.Event)

    async def play(self, channel: Channel) -> None:
        name = next(n for n, shards in PREFERRED.items() if channel.shard in shards)
        while not self.stopping.is_set():
            await asyncio.sleep(STEP)
            if name not in self.bots.running:
                continue  # Discord has nobody to send this shard's interactions to
            try:
                await self.act(channel, name)
            except (ServiceError, StoreError):
                continue

    async def act(self, channel: Channel, name: str) -> None:
        view = await self.service.status(channel.where)
        if view.finished:
            await new_game(self.service, channel, self.rng.randrange(10**6))
            self.done["new games"] += 1
            return
        deciding = view.deciding
        if deciding is None or deciding.user_id is None:
            return  # the AI's turn: it plays itself
        player = channel.user(deciding.user_id)
        if self.rng.random() < ENDING:
            await self.end(channel, name, view, player)
            return
        legal = await self.service.legal_moves(channel.where, User(str(player[0]),
                                                                   player[1]))
        if legal.must != "place" or not legal.placements:
            return
        x, y, rot = self.rng.choice(legal.placements)
        payload = channel.make.command(player, "place", square=f"{x},{y}", rotation=rot,
                                       confirm=True)
        said = await self.shared.interact(name, payload, ANSWER)
        self.done["moves answered" if said else "moves unanswered"] += 1
        if said is not None and said.startswith("Done"):
            self.acks.append(Ack(view.game_id, view.moves, player[1], [x, y], rot))

    async def end(self, channel: Channel, name: str, view: TurnView,
                  player: tuple[int, str]) -> None:
        """The host cancels (a public answer to the command), or the player to act
        resigns with the button (the card, and the end-of-game post)."""
        if self.rng.random() < 0.5:
            payload = channel.make.command(channel.host, "cancel")
            what = "cancels"
        else:
            payload = channel.make.component(player, f"carc:resign:{view.game_id}:"
                                                     f"{view.version}")
            what = "resigns"
        said = await self.shared.interact(name, payload, ANSWER)
        self.done[f"{what} answered" if said else f"{what} unanswered"] += 1


async def new_game(service: GameService, channel: Channel, seed: int) -> TurnView:
    """A game opened, joined and started in the channel (by the service: the players'
    lobby is not what is tested); its start is owed to the channel, card and all."""
    host = User(str(channel.host[0]), channel.host[1])
    await service.create(channel.where, host, GameOptions(seed=seed, turn_timer=60,
                                                          auto_play=True))
    if channel.ai:
        await service.add_ai(channel.where, host, "random", "AI")
    else:
        await service.join(channel.where, User(str(channel.guest[0]), channel.guest[1]))
    return await service.start(channel.where, host)


async def set_up(service: GameService, shared: SharedDiscord,
                 rng: random.Random) -> list[Channel]:
    """The channels, each with a game started (its card still to be posted)."""
    channels = []
    for shard, guild in GUILDS.items():
        for n in range(CHANNELS):
            channel_id = 820000000000000000 + 100 * shard + n
            make = Interactions(shared.fake, channel_id=channel_id, guild_id=guild)
            users = 200000000000000000 + 1000 * shard + 10 * n
            channels.append(Channel(shard, Where(str(guild), str(channel_id)), n % 2 == 1,
                                    (users + 1, f"H{shard}{n}"), (users + 2, f"G{shard}{n}"),
                                    make))
    for channel in channels:
        await new_game(service, channel, rng.randrange(10**6))
    await service.wait_for_ai()
    return channels


async def kill_loop(bots: Bots, shared: SharedDiscord, clock: Any,
                    rng: random.Random) -> list[Kill]:
    kills: list[Kill] = []
    for number in range(KILLS):
        victim = "ab"[number % 2]
        if rng.random() < 0.5:  # just as Discord makes one of its posts, before it answers
            channels = {str(820000000000000000 + 100 * s + n) for s in PREFERRED[victim]
                        for n in range(CHANNELS)}
            await shared.posted_in(channels, timeout=5.0)
        else:
            await asyncio.sleep(rng.uniform(0.2, 2.5))
        await bots.kill(victim)
        kill = Kill(victim, clock(), rng.random() < 0.5)
        await asyncio.sleep(rng.uniform(*(LONG_DEAD if kill.long else SHORT_DEAD)))
        kill.restarted = clock()
        await bots.start(victim)
        kills.append(kill)
    return kills


async def owed(store: Store) -> int:
    return len(await store.unposted(1000))


async def settle(bots: Bots, store: Store) -> None:
    """Stop playing and timing; wait until nothing is owed."""
    (bots.folder / "stop").write_text("")
    await asyncio.sleep((SHARD_LEASE + 3 * RENEW) / SPEED)
    give_up = time.monotonic() + SETTLE
    while await owed(store):
        assert time.monotonic() < give_up, "owed posts were never delivered"
        await asyncio.sleep(0.5)
    await asyncio.sleep(2 * RENEW / SPEED)


async def test_killing_bot_processes_loses_nothing_and_posts_nothing_twice(
        pg_server: PgServer, tmp_path: Path) -> None:
    url = await create_database(pg_server)
    t0 = r0 = time.time()

    def clock() -> float:
        return t0 + (time.time() - r0) * SPEED

    rng = random.Random(30)
    shared = SharedDiscord(clock, delay=0.3, nonce_window=OWED_POST_AGE / 2)
    await shared.start()
    service = await GameService.open(url, clock=clock, limits=LIMITS, thinker=QuickAI())
    began = time.monotonic()
    bots = Bots(Config(url, shared.base, "", (), SHARDS, t0, r0, SPEED, ""), tmp_path, shared)
    try:
        play = Play(service, shared, bots, await set_up(service, shared, rng), rng)
        await bots.start("a")
        await bots.start("b")
        players = asyncio.gather(*(play.play(c) for c in play.channels))
        kills = await kill_loop(bots, shared, clock, rng)
        play.stopping.set()
        await players
        await settle(bots, service.store)
        await bots.kill_all()
        await check(url, service.store, shared, bots, play, kills)
        print(f"wall time {time.monotonic() - began:.0f} s; {dict(play.done)}")
    finally:
        await bots.kill_all()
        await service.close()
        await shared.stop()
        await drop_database(pg_server, url)


async def check(url: str, store: Store, shared: SharedDiscord, bots: Bots, play: Play,
                kills: list[Kill]) -> None:
    report = await check_postgres(url)
    assert report.ok, report.lines()
    assert await owed(store) == 0
    games = await store.game_ids()
    logs = {}
    for game_id in games:
        data = await store.load(game_id)
        assert data is not None
        logs[game_id] = [a.action for a in data.actions]
    checked_moves(play.acks, logs)
    cards, found = await checked_posts(store, shared, games, bots)
    guilds = await store.guilds_of(games)
    shards = {g: shard_of(guilds[g], SHARDS) for g in games}
    gaps = checked_takeovers(bots, kills, shards)
    print(f"{len(kills)} kills ({sum(k.long for k in kills)} long, {len(gaps)} takeovers "
          f"checked: timers run {max(gaps):.0f} service s at most after taking the shard, "
          f"against a {TIMER_PERIOD:.0f} s period), {len(play.acks)} moves acknowledged, "
          f"{len(games)} games, {cards} cards; {found} posts found in the channel after a "
          f"kill instead of posted "
          f"again; Discord answered {shared.fake.deduplicated} sends with the message "
          f"their nonce had made")


def checked_moves(acks: list[Ack], logs: dict[int, list[Any]]) -> None:
    """Each acknowledged move is in its game's log once, after where it was asked."""
    assert len(acks) > 40, f"only {len(acks)} moves acknowledged: not a test"
    for ack in acks:
        log = logs[ack.game]
        placed = [i for i, action in enumerate(log) if action.get("at") == ack.at]
        assert len(placed) == 1, f"acknowledged move lost or doubled: {ack}"
        action = log[placed[0]]
        assert placed[0] >= ack.moves and action.get("rot") == ack.rot \
            and action.get("by") == ack.by, f"acknowledged move not as made: {ack} {action}"


def markers(message: dict[str, Any]) -> list[tuple[int, int, int]]:
    """The post markers a message carries: (game, version, kind's number)."""
    lines = [*str(message.get("content") or "").splitlines(),
             *texts(message.get("components") or [])]
    return [(int(m[1]), int(m[2]), int(m[3] or 0)) for line in lines
            if (m := MARKER.match(line))]


async def checked_posts(store: Store, shared: SharedDiscord, games: list[int],
                        bots: Bots) -> tuple[int, int]:
    """No two messages carry one post's marker; every card message is its game's one
    recorded card; some posts were found in the channel after a kill."""
    fake = shared.fake
    shown = [*fake.messages.values(), *fake.replies.values()]
    seen = Counter(m for message in shown for m in markers(message))
    twice = sorted(k for k, n in seen.items() if n > 1)
    assert not twice, f"posts shown twice (game, version, kind): {twice[:10]}"
    cards = {str(m["id"]) for m in fake.messages.values() if m["flags"] & (1 << 15)}
    recorded = {saved.card_id for g in games
                if (saved := await store.game_messages(g)).card_id is not None}
    assert cards == recorded, f"cards no game recorded: {sorted(cards - recorded)}"
    logs = "\n".join(p.read_text() for p in bots.folder.glob("log-*.txt"))
    found = len(re.findall(r"already in channel .* \(found\)|outcome=owed_post_found", logs))
    assert found, "no post reached the channel unanswered: the case was not tested"
    return len(cards), found


def checked_takeovers(bots: Bots, kills: list[Kill], shards: dict[int, int]) -> list[float]:
    """See the module: in each long outage, the survivor took the shard no later than
    its first renewal after the dead process's lease ran out, ran its timers at once
    (well within their period), and played for it. Returns how long after taking the
    shard each first timer run came (service seconds)."""
    gaps = []
    for kill in kills:
        survivor = "b" if kill.victim == "a" else "a"
        expiry = kill.at + SHARD_LEASE  # its last renewal began before the kill
        if kill.restarted < expiry + 2 * RENEW:
            continue  # back before the other could take over: nothing to check
        mine = incarnation_at(bots.journals[survivor], kill.at)
        renewals = [line for line in mine if line["t"] == "renew"
                    and kill.at < line["at"] < kill.restarted]
        late = [line for line in renewals if line["now"] >= expiry]
        if not late:
            continue  # the survivor did not renew in the gap (starved): nothing to judge
        wanted = set(PREFERRED[kill.victim])
        took = next((line for line in renewals if wanted <= set(line["held"])), None)
        assert took is not None and took["now"] <= late[0]["now"], (
            f"{survivor} did not take {kill.victim}'s shard once its lease ran out: "
            f"{late[0]}")
        ran = next((line for line in mine if line["t"] == "timers"
                    and line["at"] >= took["at"] and wanted <= set(line["held"])), None)
        assert ran is not None, f"{survivor} never ran the timers of the shard it took"
        gaps.append(ran["at"] - took["at"])
        assert gaps[-1] <= TIMER_PERIOD / 2, (
            f"{survivor}'s timers waited for their period after it took the shard: "
            f"{took}, {ran}")
        worked = [line for line in mine if line["t"] in ("ai", "timer")
                  and took["at"] <= line["at"] < kill.restarted
                  and (line["t"] == "ai" or line["played"])
                  and shards.get(line["game"]) in wanted]
        if kill.long:
            assert worked, f"{survivor} did none of {kill.victim}'s timers or AI turns"
    assert len(gaps) >= KILLS // 4, f"only {len(gaps)} outages long enough to check"
    return gaps


def incarnation_at(journals: list[Path], at: float) -> list[dict[str, Any]]:
    """The journal of the incarnation running at service time `at`: the last to start
    before it."""
    started = [lines for path in journals if (lines := read(path)) and lines[0]["at"] <= at]
    return max(started, key=lambda lines: float(lines[0]["at"])) if started else []
