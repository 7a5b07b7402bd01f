"""The Discord client, where the front end is put together: the command tree (every
command of `commands/`), the persistent components (`components.ids`), the card, pings,
pictures and the outbox, the turn timers' loop, the shards' leases (several processes
on one PostgreSQL), health and metrics (`carca_bot.observe`), and running until a
signal."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import re
import signal
from collections import deque
from collections.abc import Mapping
from pathlib import Path

import aiohttp
import discord
from discord import app_commands

from carca_bot.bot.commands import TOP_LEVEL
from carca_bot.bot.components.ids import (
    GameItem,
    UserItem,
    VoteItem,
    answer_unknown,
    is_ours,
)
from carca_bot.bot.config import Settings, shard_arguments
from carca_bot.bot.core.gate import Actions
from carca_bot.bot.core.pictures import Pictures
from carca_bot.bot.posts.cards import Cards
from carca_bot.bot.posts.events import event_timers
from carca_bot.bot.posts.outbox import OWED_POST_AGE, Outbox
from carca_bot.bot.posts.pings import Pings
from carca_bot.bot.posts.timers import announce_timer
from carca_bot.bot.seam import Bot, Interaction
from carca_bot.bot.translator import CommandTranslator
from carca_bot.bot.words.languages import private_language
from carca_bot.bot.words.safe import NO_PINGS
from carca_bot.observe import DiscordState, Observer
from carca_bot.service import GameService, TimerReport
from carca_bot.service.shards import RENEW, ShardLeases, spans

log = logging.getLogger("carca_bot.bot")
TIMER_PERIOD = 60.0  # seconds between checks of turn deadlines
# Seconds between renewals of this process's shard leases (`ShardLeases`): a dead
# process's shards are taken over within SHARD_LEASE + RENEW_PERIOD seconds (40 s), and
# their timers run at once then (docs/deploying-postgres.md, "Running the shards").
RENEW_PERIOD = RENEW
SHUTDOWN_GRACE = 20.0  # seconds commands in flight get to finish
TASK_GRACE = 5.0  # seconds a cancelled background loop gets to end


TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+")


class RedactTokens(logging.Filter):
    """Interaction tokens let anyone answer as the bot for 15 minutes: discord.py's DEBUG
    lines name them in every URL, so they are cut out before any handler sees them."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = TOKEN_IN_PATH.sub(r"\1<token>", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


REDACT = RedactTokens()
TOKEN_LOGGERS = ("discord.http", "discord.webhook.async_", "discord.interactions",
                 "discord.client", "discord.gateway", "discord.state")


def quiet_voice() -> None:
    """The bot never uses voice: no warning about the voice libraries at start-up."""
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False


class CarcaBot(discord.AutoShardedClient):
    """One process, one database; default intents only (no message content)."""

    # Our commands' latencies, shadowing discord.py's per-shard heartbeat `latencies`.
    latencies: deque[float] = deque()  # type: ignore[assignment]  # noqa: RUF012

    def __init__(self, settings: Settings, service: GameService | None = None) -> None:
        quiet_voice()
        for name in TOKEN_LOGGERS:
            logger = logging.getLogger(name)
            if REDACT not in logger.filters:
                logger.addFilter(REDACT)
        # Nothing pings unless a message names its users (`safe.pinging`).
        super().__init__(intents=discord.Intents.default(), allowed_mentions=NO_PINGS,
                         **shard_arguments(settings.shards))
        self.settings = settings
        self._service = service
        self.tree = app_commands.CommandTree(self)
        for command in TOP_LEVEL:
            self.tree.add_command(command)
        self.actions = Actions(settings.rate_limit)  # the commands in flight
        self.cards = Cards(self)  # each game's card, edited in place
        self.pings = Pings(self)  # one ping per turn
        self.outbox = Outbox(self, TIMER_PERIOD)  # posts a channel is owed
        self.pictures = Pictures(settings.render_threads, settings.workers)
        self._timer_task: asyncio.Task[None] | None = None
        self._guilds_checked = False  # the servers the bot is in, told once after a start
        self.keeper: ShardLeases | None = None  # the shards held, with CARCA_SHARDS
        self._keeper_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # the timers run now: the shards held changed
        self.observer: Observer | None = None  # health and metrics (`serve`, `watch`)
        self.caught_up = asyncio.Event()  # set once the posts owed at start-up were tried
        self.latencies: deque[float] = deque(maxlen=1000)

    @property
    def service(self) -> GameService:
        assert self._service is not None, "the service opens in setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = await GameService.open(self.settings.database,
                                                   limits=self.settings.limits)
        if self._service.thinker is None:  # the AI shares the pictures' worker processes
            self._service.thinker = self.pictures.thinker()
        await self._hold_shards()  # its shards' timers, AI turns and owed posts only
        self._service.privacy = self.settings.privacy  # servers left, games kept
        self.add_dynamic_items(GameItem, VoteItem, UserItem)
        # The service's own moves (AI seats) are posted as soon as they are stored.
        self.service.on_public_change = self.outbox.on_public_change
        await self.tree.set_translator(CommandTranslator())
        if self.settings.warm_up:
            await self.pictures.warm_up()
            await self.service.start_ai()
        await self.sync_commands()
        self._timer_task = asyncio.create_task(self._timers(), name="turn-timers")

    async def sync_commands(self) -> None:
        """Register the commands with Discord when they changed since the last start."""
        if self.settings.shards is not None and 0 not in self.settings.shards.ids:
            return  # commands are the bot's, not a shard's: shard 0's process registers
        guild = discord.Object(self.settings.test_guild) if self.settings.test_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator
                   else c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps([payload, self.settings.test_guild],
                                           sort_keys=True).encode()).hexdigest()
        marker = command_marker(self.settings.database)
        if marker.exists() and marker.read_text().strip() == digest:
            return
        await self.tree.sync(guild=guild)
        with contextlib.suppress(OSError):
            marker.write_text(digest)
        log.info("commands synced%s", f" to guild {guild.id}" if guild else " globally")

    async def close(self) -> None:
        """Stop taking commands, let those in flight finish, give the shards back, then
        close the database (its AI turns first) and the worker processes."""
        self.actions.accepting = False
        try:
            await asyncio.wait_for(self.actions.idle.wait(), timeout=SHUTDOWN_GRACE)
        except TimeoutError:
            log.warning("%d commands still running at shutdown", self.actions.in_flight)
        for task in (self._timer_task, self._keeper_task):
            if task is not None:
                await _stopped(task)
        if self.keeper is not None:  # a survivor need not wait for the leases to expire
            await self.keeper.give_back()
        await super().close()
        if self.observer is not None:
            await self.observer.close()
        try:  # the service's AI turns stop before the worker processes they think on
            if self._service is not None:
                await self._service.close()
        finally:
            await self.pictures.close()

    # -- shards, health and metrics ----------------------------------------------------

    async def _hold_shards(self) -> None:
        """With CARCA_SHARDS: hold the shards through leases (`ShardLeases`), so a
        survivor takes a dead process's over; renewed in the background."""
        preferred = self.settings.shards
        if preferred is None:  # one process: every shard is its own
            self.service.shards = None
            return
        service = self.service
        self.keeper = ShardLeases(preferred, service.store, service.holder, service.clock)
        try:
            await self.keeper.renew()
        except Exception:  # the next renewal tries again; until then nothing is held
            log.exception("could not take the shard leases at start-up")
        service.shards = self.keeper
        log.info("%s", self.keeper.describe())
        self._keeper_task = asyncio.create_task(self._keep_shards(), name="shard-leases")

    async def _keep_shards(self) -> None:
        """Renew the shard leases every RENEW_PERIOD seconds; when the shards held
        change (a dead process's taken over, or given back), the timers run at once."""
        keeper = self.keeper
        assert keeper is not None
        while True:
            await asyncio.sleep(RENEW_PERIOD)
            before = keeper.ids
            try:
                await keeper.renew()
            except Exception:  # `owns` runs out by itself meanwhile; the next one retries
                log.warning("%s could not renew its shard leases", keeper.holder,
                            exc_info=True)
            if keeper.ids != before:
                self._wake.set()

    def discord_state(self) -> DiscordState:
        """The health check's view of the gateway: every shard of this process up."""
        down = sorted(i for i, shard in self.shards.items() if shard.is_closed())
        latencies = [s.latency for s in self.shards.values() if math.isfinite(s.latency)]
        return DiscordState(self.is_ready() and not self.is_closed() and not down,
                            max(latencies) if latencies else None,
                            f"shards {spans(down)} down" if down else "")

    def observe_command(self, name: str, seconds: float,
                        failed: BaseException | None) -> None:
        """An interaction answered (`core.run`): `carca_commands_total{command="/name"}`
        and its latency, beside the service calls the observer counts itself."""
        if self.observer is not None:
            self.observer.metrics.observe_command(f"/{name}", seconds, failed)

    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer clicks on components no handler takes (a broken, forged or retired id):
        Discord would otherwise show "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if is_ours(custom_id, int(str(data.get("component_type", 0)))):
            return
        log.info("component=%r user=%s outcome=unknown_id", custom_id[:100],
                 interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await answer_unknown(interaction, private_language(interaction, None))

    # -- servers and users ------------------------------------------------------------

    async def on_ready(self) -> None:
        """Once per start, the servers this process's shards are in: the data of a server
        the bot left while it was off waits for deletion, and a server it is back in
        keeps its data (`service.guilds_present`, which keeps to this process's shards).
        Reconnections fire this again, and are not a start."""
        if self._guilds_checked:
            return
        self._guilds_checked = True
        try:
            left, back = await self.service.guilds_present({str(g.id) for g in self.guilds})
        except Exception:  # the next start tries again; the bot runs on meanwhile
            log.exception("the servers the bot is in could not be checked")
            return
        log.info("servers checked at start: %d left while away, %d back", len(left),
                 len(back))

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its games, events and settings go after the grace
        period (`PrivacySettings.guild_grace`), unless the bot is added back first."""
        try:
            when = await self.service.guild_left(str(guild.id))
        except Exception:  # the next start's check (`on_ready`) finds it gone
            log.warning("guild=%s left, not recorded now", guild.id, exc_info=True)
            return
        log.info("guild=%s left: its data is deleted at %.0f unless the bot returns",
                 guild.id, when)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server: a deletion waiting for it, if any, is cancelled."""
        try:
            if await self.service.guild_back(str(guild.id)):
                log.info("guild=%s back: its data is kept", guild.id)
        except Exception:  # the next start's check (`on_ready`) finds it back
            log.warning("guild=%s joined, not recorded now", guild.id, exc_info=True)

    def forget_user(self, user_id: str) -> None:
        """Drop what this process holds in memory about a user whose data was erased:
        their command rate and the note that their direct messages were closed."""
        if user_id.isdigit():
            self.actions.limit.forget(int(user_id))
        self.pings.forget(user_id)

    # -- the timers' loop -------------------------------------------------------------

    async def _timers(self) -> None:
        # Posts left owed by the last run are delivered at once: nothing of this process
        # can still be posting them.
        await self._deliver_quietly(min_age=0.0)
        self.caught_up.set()
        while True:
            with contextlib.suppress(TimeoutError):  # every period, or at once when the
                async with asyncio.timeout(TIMER_PERIOD):  # shards held changed
                    await self._wake.wait()
            if not self.actions.accepting:  # closing, even if the cancel was lost
                return
            self._wake.clear()
            try:
                for report in await self.service.check_timers():
                    await self.announce_timer(report)
                await event_timers(self)
            except Exception:  # keep the loop alive; the next period tries again
                log.exception("turn timer check failed")
            await self._deliver_quietly(OWED_POST_AGE)

    async def _deliver_quietly(self, min_age: float) -> None:
        try:
            await self.deliver_pending(min_age)
        except Exception:  # the next period tries again
            log.exception("delivering owed posts failed")

    async def deliver_pending(self, min_age: float = OWED_POST_AGE,
                              game_id: int | None = None) -> int:
        """Post the committed changes channels were not shown (`posts.outbox`)."""
        return await self.outbox.deliver(min_age, game_id)

    async def announce_timer(self, report: TimerReport) -> None:
        """Say in its channel what a timer did (`posts.timers`)."""
        await announce_timer(self, report)


async def _stopped(task: asyncio.Task[None]) -> None:
    """Cancel a background loop and wait for it, a bounded time. Python 3.11's
    `asyncio.timeout` can take a cancellation that races with its own expiry for a
    time-out, and a loop that then carries on would hang shutdown for ever."""
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=TASK_GRACE)
    if not done:
        log.warning("%s did not stop when cancelled; left behind", task.get_name())
    elif not task.cancelled() and task.exception() is not None:
        log.error("%s had failed", task.get_name(), exc_info=task.exception())


def _is_a_bot(bot: CarcaBot) -> Bot:
    """mypy checks here that the client is what the rest of the front end uses."""
    return bot


def command_marker(database: object) -> Path:
    """Where the digest of the last command sync is kept: beside a SQLite file, or in the
    working folder for a PostgreSQL URL (which names no folder; one per database)."""
    name = str(database)
    if name.startswith(("postgresql://", "postgres://")):
        return Path(f"carca-{hashlib.sha256(name.encode()).hexdigest()[:12]}.commands")
    return Path(name + ".commands")


class Unreachable(Exception):
    """Discord (or the metrics port) could not be reached; the message is the one line
    an admin sees."""


async def start(bot: CarcaBot, token: str) -> None:
    try:
        await bot.start(token)
    except (TimeoutError, OSError, aiohttp.ClientError, discord.GatewayNotFound) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise Unreachable(f"carca-bot: cannot reach Discord ({reason[:200]}); check the "
                          "network connection and any proxy or firewall, then start the bot "
                          "again.") from None


def watch(bot: CarcaBot) -> Observer:
    """The process's health checks and metrics (`carca_bot.observe`): the database, the
    event loop, the gateway (`discord_state`) and the picture workers; the service's
    calls are counted from now on. Started by `serve`, closed with the bot."""
    bot.observer = Observer(bot.service.store, bot.settings.observe,
                            discord=bot.discord_state, workers=bot.pictures.state,
                            service=bot.service)
    return bot.observer


async def serve(settings: Settings) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    assert settings.token is not None
    service = await GameService.open(settings.database, limits=settings.limits)
    bot = CarcaBot(settings, service)
    observer = watch(bot)
    try:
        await observer.start()  # serving from now: "discord" reconnecting until ready
    except OSError as exc:  # before Discord: nothing else to close
        await observer.close()
        await bot.pictures.close()
        await service.close()
        raise Unreachable(f"carca-bot: CARCA_METRICS_PORT: cannot listen on "
                          f"{settings.observe.host}:{settings.observe.port} "
                          f"({exc.strerror or exc}); choose a free port.") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(start(bot, settings.token), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="signals")
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stopper in done:
        log.info("shutting down on a signal")
    await bot.close()
    stopper.cancel()
    if runner in done:
        runner.result()  # a login failure or Unreachable surfaces here, for the CLI to word
    else:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
