"""The Discord client: command tree, persistent components, rendering and turn timers."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from carca_bot.bot import text
from carca_bot.bot.actions import Actions
from carca_bot.bot.buttons import ChoiceSelect, GameButton, row_for
from carca_bot.bot.commands import build_group
from carca_bot.bot.config import Settings
from carca_bot.engine.game import Game
from carca_bot.service import GameService, TimerReport, Where

log = logging.getLogger("carca_bot.bot")
TIMER_PERIOD = 60.0  # seconds between checks of turn deadlines
SHUTDOWN_GRACE = 20.0  # seconds commands in flight get to finish


class CarcaBot(discord.Client):
    """One process, one database; default intents only (no message content)."""

    def __init__(self, settings: Settings, service: GameService | None = None) -> None:
        super().__init__(intents=discord.Intents.default())
        self.settings = settings
        self._service = service
        self.tree = app_commands.CommandTree(self)
        self.actions = Actions(self)
        # Rendering runs in threads (each keeps its own renderer) to keep the loop free.
        self._render_pool = ThreadPoolExecutor(max_workers=settings.render_threads,
                                               thread_name_prefix="render")
        self._timer_task: asyncio.Task[None] | None = None
        self.latencies: deque[float] = deque(maxlen=1000)
        self.tree.add_command(build_group(self))

    @property
    def service(self) -> GameService:
        assert self._service is not None, "the service opens in setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = await GameService.open(self.settings.database)
        self.add_dynamic_items(GameButton, ChoiceSelect)
        if self.settings.warm_up:  # in the render thread, so boards simply queue behind it
            from carca_bot.render.board import warm_up

            self._render_pool.submit(warm_up)
        await self.sync_commands()
        self._timer_task = asyncio.create_task(self._timers(), name="turn-timers")

    async def sync_commands(self) -> None:
        """Register the commands with Discord when they changed since the last start."""
        guild = discord.Object(self.settings.test_guild) if self.settings.test_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps([payload, self.settings.test_guild],
                                           sort_keys=True).encode()).hexdigest()
        marker = Path(str(self.settings.database) + ".commands")
        if marker.exists() and marker.read_text().strip() == digest:
            return
        await self.tree.sync(guild=guild)
        with contextlib.suppress(OSError):
            marker.write_text(digest)
        log.info("commands synced%s", f" to guild {guild.id}" if guild else " globally")

    async def close(self) -> None:
        """Stop taking commands, let those in flight finish, then close the database."""
        self.actions.accepting = False
        try:
            await asyncio.wait_for(self.actions.idle.wait(), timeout=SHUTDOWN_GRACE)
        except TimeoutError:
            log.warning("%d commands still running at shutdown", self.actions.in_flight)
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task
        await super().close()
        self._render_pool.shutdown(wait=True)
        if self._service is not None:
            await self._service.close()

    # -- rendering off the event loop ------------------------------------------------

    async def render_board(self, game: Game, max_bytes: int | None = None) -> bytes:
        from carca_bot.render.board import render_board

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._render_pool, lambda: render_board(
            game, max_bytes=max_bytes))

    async def render_your_tile(self, game: Game, tile: str) -> bytes:
        from carca_bot.render.board import render_your_tile

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._render_pool, render_your_tile, game, tile)

    # -- threads and timers ---------------------------------------------------------------

    async def new_thread(self, interaction: discord.Interaction[Any], host: str) -> Where:
        """A public thread under the channel, for a game that should not fill the channel."""
        channel_id = interaction.channel_id or 0
        data = await self.http.start_thread_without_message(
            channel_id, name=f"Carcassonne — {host}"[:100], auto_archive_duration=10080,
            type=discord.ChannelType.public_thread.value, reason="carca-bot game")
        return Where(str(interaction.guild_id or 0), str(data["id"]))

    async def _timers(self) -> None:
        while True:
            await asyncio.sleep(TIMER_PERIOD)
            try:
                for report in await self.service.check_timers():
                    await self.announce_timer(report)
            except Exception:  # keep the loop alive; the next period tries again
                log.exception("turn timer check failed")

    async def announce_timer(self, report: TimerReport) -> None:
        who = text.mention(report.user_id, report.name)
        if report.auto_played:
            content = f"⏰ {who} ran out of time, so the bot played the turn.\n"
            content += text.public_update(report.view)
        else:
            content = f"⏰ {who}, the game is waiting for you: {report.view.prompt}."
        channel = self.get_partial_messageable(int(report.where.channel))
        components = row_for(report.view, None, private=False)
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions(users=True)}
        if components is not None and components.children:
            kwargs["view"] = components
        try:
            await channel.send(text.clip(content), **kwargs)
        except discord.HTTPException:
            log.warning("could not post the timer notice in channel %s", report.where.channel)


async def serve(settings: Settings) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    assert settings.token is not None
    bot = CarcaBot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(settings.token), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="signals")
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stopper in done:
        log.info("shutting down on a signal")
    await bot.close()
    stopper.cancel()
    if runner in done:
        runner.result()  # a login failure surfaces here, with its message
    else:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
