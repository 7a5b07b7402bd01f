"""The Discord client: command tree, persistent components, rendering and turn timers."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import io
import json
import logging
import re
import signal
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import discord
from discord import app_commands

from carca_bot.bot import endgame, languages, league_commands, profile_commands, text
from carca_bot.bot.actions import Actions, last_action_by, public
from carca_bot.bot.ai_commands import build_ai_group, build_hint_command, public_change_hook
from carca_bot.bot.away import build_away_command
from carca_bot.bot.buttons import ChoiceSelect, GameButton, final_row, is_ours, row_for
from carca_bot.bot.card import Cards
from carca_bot.bot.commands import (
    build_group,
    build_history_command,
    build_language_command,
    build_tiles_command,
)
from carca_bot.bot.config import Settings, shard_arguments
from carca_bot.bot.notify import build_notify_command
from carca_bot.bot.ping import Pings
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import NO_PINGS, pinging, plain, safe_name
from carca_bot.bot.translator import CommandTranslator
from carca_bot.bot.vote_ids import VoteButton, is_vote_id
from carca_bot.bot.votes import build_takeback_command, post_vote, settle_votes
from carca_bot.engine.game import Game
from carca_bot.i18n import Domain, speaking
from carca_bot.service import (
    GameService,
    ServiceError,
    TimerReport,
    TurnView,
    Where,
)
from carca_bot.workers import (
    Pool,
    Position,
    render_board_job,
    render_card_job,
    render_tile_job,
    warm_up_job,
)

log = logging.getLogger("carca_bot.bot")
T = TypeVar("T")
_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext
TIMER_PERIOD = 60.0  # seconds between checks of turn deadlines
SHUTDOWN_GRACE = 20.0  # seconds commands in flight get to finish
TIMER_BOARD_BYTES = 8 * 1024 * 1024  # within any server's upload limit
OWED_POST_AGE = 30.0  # seconds a command has to post its own result before the timer does


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


PICTURE_QUEUE = 32  # pictures waiting for a worker; one more is refused (workers.Busy)
PICTURE_SECONDS = 30.0  # a picture not drawn by then is abandoned (workers.Overtime)


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
        self.actions = Actions(self)
        self.cards = Cards(self)  # each game's card, edited in place
        self.pings = Pings(self)  # one ping per turn
        # Rendering runs in threads (each keeps its own renderer) to keep the loop free.
        self._render_pool = ThreadPoolExecutor(max_workers=settings.render_threads,
                                               thread_name_prefix="render")
        # CARCA_WORKERS=processes: boards, cards and tile pictures in worker processes.
        self.pictures = (Pool("processes", settings.render_threads, queue=PICTURE_QUEUE)
                         if settings.workers == "processes" else None)
        self._timer_task: asyncio.Task[None] | None = None
        self._owed_failures: set[int] = set()  # games whose owed post failed (logged once)
        self.caught_up = asyncio.Event()  # set once the posts owed at start-up were tried
        self.latencies: deque[float] = deque(maxlen=1000)
        self.tree.add_command(build_group(self))
        self.tree.add_command(build_language_command(self))
        # `/carc` holds the 25 subcommands Discord allows a group: the history and the
        # pile are commands of their own.
        self.tree.add_command(build_history_command(self))
        self.tree.add_command(build_tiles_command(self))
        self.tree.add_command(league_commands.build_event_group(self))
        self.tree.add_command(profile_commands.build_profile_command(self))
        self.tree.add_command(profile_commands.build_leaderboard_command(self))
        self.tree.add_command(build_ai_group(self))
        self.tree.add_command(build_hint_command(self))
        self.tree.add_command(build_takeback_command(self))
        self.tree.add_command(build_away_command(self))
        self.tree.add_command(build_notify_command(self))

    @property
    def service(self) -> GameService:
        assert self._service is not None, "the service opens in setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = await GameService.open(self.settings.database,
                                                   limits=self.settings.limits)
        self._service.shards = self.settings.shards  # its timers and owed posts only
        self.add_dynamic_items(GameButton, ChoiceSelect, VoteButton)
        # The service's own moves (AI seats) are posted as soon as they are stored.
        self.service.on_public_change = public_change_hook(self)
        await self.tree.set_translator(CommandTranslator())
        if self.settings.warm_up:  # in the render thread, so boards simply queue behind it
            from carca_bot.render.board import warm_up

            self._render_pool.submit(warm_up)
            if self.pictures is not None:
                await self.pictures.start()
                await asyncio.gather(*(self.pictures.submit(warm_up_job)
                                       for _ in range(self.pictures.size)))
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
        if self.pictures is not None:
            await self.pictures.close()
        if self._service is not None:
            await self._service.close()

    # -- rendering off the event loop ------------------------------------------------

    # The pictures' words are drawn in a thread, which does not see this task's language:
    # it is passed along.

    async def in_render_pool(self, work: Callable[[], T]) -> T:
        """Any CPU work (a replay, a picture) in the render threads. `work` runs without
        this task's language: pass the language to it explicitly."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._render_pool, work)

    async def render_board(self, game: Game, max_bytes: int | None = None,
                           language: str = "en") -> bytes:
        from carca_bot.render.board import render_board

        if self.pictures is not None:
            return await self.pictures.submit(render_board_job, Position.of(game), max_bytes,
                                              language, budget_seconds=PICTURE_SECONDS)
        return await self.in_render_pool(lambda: render_board(
            game, max_bytes=max_bytes, language=language))

    async def render_card(self, game: Game, tile: str | None, language: str) -> bytes:
        """The picture on a game's card. `tile`: the tile the player to act drew (shown to
        all), for a picture that marks where it fits."""
        from carca_bot.render.focus import render_focus

        if self.pictures is not None:
            return await self.pictures.submit(render_card_job, Position.of(game), tile,
                                              language, budget_seconds=PICTURE_SECONDS)
        return await self.in_render_pool(lambda: render_focus(
            game, tile, language=language))

    async def render_your_tile(self, game: Game, tile: str, language: str = "en") -> bytes:
        from carca_bot.render.board import render_your_tile

        if self.pictures is not None:
            return await self.pictures.submit(render_tile_job, Position.of(game), tile,
                                              language, budget_seconds=PICTURE_SECONDS)
        return await self.in_render_pool(lambda: render_your_tile(
            game, tile, language=language))

    # -- threads and timers ---------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks on components no handler takes (a broken, forged or retired id):
        Discord would otherwise show "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if is_ours(custom_id) or is_vote_id(custom_id):
            return
        log.info("component=%r user=%s outcome=unknown_id", custom_id[:100],
                 interaction.user.id)
        with contextlib.suppress(discord.HTTPException), speaking(
                languages.private_language(interaction, None)):
            await interaction.response.send_message(
                _("That button or menu does not belong to any game I know (it may come from "
                  "an older version of the bot). Nothing was changed: use `/carc status` to "
                  "see the game in this channel."), ephemeral=True, allowed_mentions=NO_PINGS)

    async def new_thread(self, interaction: discord.Interaction[Any], host: str,
                         language: str = "en") -> Where:
        """A public thread under the channel, for a game that should not fill the channel;
        named in the game's language."""
        channel_id = interaction.channel_id or 0
        with speaking(language):
            # TRANSLATORS: the name of a game's thread.
            name = _("Carcassonne — {host}").format(host=host)
        try:
            data = await self.http.start_thread_without_message(
                channel_id, name=plain(name, 100),
                auto_archive_duration=10080, type=discord.ChannelType.public_thread.value,
                reason="carca-bot game")
        except discord.HTTPException as exc:
            log.info("could not open a thread in channel %s: %s", channel_id, exc.status)
            raise Refused(_("I could not open a thread here (I need the Create Public "
                               "Threads and Send Messages in Threads permissions): create the "
                               "game without `thread`, or ask an admin")) from None
        return Where(str(interaction.guild_id or 0), str(data["id"]))

    async def post(self, place: Where, content: str, view: discord.ui.View | None = None,
                   pings: list[str] | None = None,
                   files: list[discord.File] | None = None,
                   shows: TurnView | None = None) -> None:
        """A message of the bot's own in a game's channel or thread; once sent, the game
        as `shows` is marked posted (its changes are no longer owed to the channel)."""
        channel = self.get_partial_messageable(int(place.channel))
        kwargs: dict[str, Any] = {"allowed_mentions": pinging(*(pings or []))}
        if view is not None and view.children:
            kwargs["view"] = view
        if files:
            kwargs["files"] = files
        await channel.send(text.clip(content), **kwargs)
        if shows is not None:
            await self.posted(shows)

    async def posted(self, view: TurnView) -> None:
        """The channel saw the game at `view.version`: nothing before it is owed. Vote
        messages the change overtook are closed."""
        try:
            await self.service.mark_posted(view.game_id, view.version)
        except ServiceError:  # posted twice at worst, never lost
            log.warning("game %s: could not note post of version %s", view.game_id,
                        view.version)
        try:
            await settle_votes(self, view.game_id)
        except (discord.HTTPException, ServiceError):  # closed at the next change
            log.warning("game %s: could not close its vote messages", view.game_id)

    async def _timers(self) -> None:
        # Posts left owed by the last run are delivered at once: nothing of this process
        # can still be posting them.
        await self._deliver_quietly(min_age=0.0)
        self.caught_up.set()
        while True:
            await asyncio.sleep(TIMER_PERIOD)
            try:
                for report in await self.service.check_timers():
                    await self.announce_timer(report)
                await league_commands.event_timers(self)
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
        """Post the committed changes a channel was not shown (a refused or lost post),
        oldest first; those only `min_age` seconds old are left to the command still
        posting them (`game_id`: that game's only). A failed send stays owed for the next
        period. Returns posts sent."""
        sent = 0
        now = self.service.clock()
        for owed in await self.service.pending_posts():
            if now - owed.since < min_age or game_id not in (None, owed.game_id):
                continue
            try:
                catch = await self.service.events_since(owed.game_id, owed.posted_version)
            except ServiceError as exc:
                self._failed_once(owed.game_id, f"cannot be read ({exc})")
                continue
            view = catch.view
            try:
                if view.status == "lobby":
                    await self._catch_up_post(view, catch.lines, catch.played)
                else:
                    await self._catch_up_card(view, catch.lines, catch.played)
            except discord.HTTPException as exc:
                self._failed_once(owed.game_id, f"could not be posted (HTTP {exc.status})")
                continue
            await self.service.mark_posted(view.game_id, catch.version)
            self._owed_failures.discard(view.game_id)
            sent += 1
            log.info("game=%s outcome=owed_post_delivered version=%s", view.game_id,
                     catch.version)
            if view.status != "lobby":
                await self.pings.turn(view)
        return sent

    async def _catch_up_card(self, view: TurnView, lines: tuple[Any, ...],
                             played: tuple[dict[str, Any], ...]) -> None:
        """A started game's owed change: on its card; a finished game's result is also
        posted, as the end-of-game post would have been."""
        with public(view):
            said = [d for d in (text.describe_action(a) for a in played) if d]
            now = dataclasses.replace(view, events=tuple(lines))
            last = "\n".join([*said, text.move_lines(now)])
        await self.cards.show(view, last)
        if view.finished:
            await self._catch_up_post(view, lines, played)

    async def _catch_up_post(self, view: TurnView, lines: tuple[Any, ...],
                             played: tuple[dict[str, Any], ...]) -> None:
        files: list[discord.File] = []
        board = await self.service.game(view.where, view.game_id)
        with public(view) as language:
            if board is not None:
                png = await self.render_board(board, TIMER_BOARD_BYTES, language)
                files.append(discord.File(io.BytesIO(png), filename="board.png",
                                          description=_("The board")))
            content = text.catch_up(view, lines, played)
            components = (final_row(view.game_id) if view.finished
                          else row_for(view, None, private=False))
        await self.post(view.where, content, components, [], files)

    def _failed_once(self, game_id: int, why: str) -> None:
        """One warning per game, not one every period while Discord refuses."""
        if game_id not in self._owed_failures:
            self._owed_failures.add(game_id)
            log.warning("game %s: an owed public post %s; retrying every %.0f s", game_id,
                        why, TIMER_PERIOD)

    async def announce_timer(self, report: TimerReport) -> None:
        """A reminder to the late player, or after an auto-played turn: what was played,
        the board, and who is next."""
        view = report.view
        if report.reason == "lobby_expired":
            await self.lobby_expired(report)
            return
        if report.auto_played and not view.finished:  # on the card, the next player pinged
            await self._played_for_late(report)
            return
        with public(view) as language:
            content, pings, files = await self._timer_notice(report, language)
            components = (final_row(view.game_id) if view.finished and report.auto_played
                          else row_for(view, None, private=False))
        if report.reason == "expel_vote":  # the vote's own message, with its buttons
            try:
                await post_vote(self, report)
            except discord.HTTPException:
                log.warning("could not post the vote in channel %s", report.where.channel)
        if report.reason in ("reminder", "clock_reminder"):  # the turn's ping, again
            await self.pings.turn(view, reminder=content)
            return
        try:
            if report.auto_played:  # the game ended: its card, and the end-of-game post
                with public(view):
                    last = self._late_words(report, await self.service.game(
                        view.where, view.game_id))
                await self.cards.show(view, last)
            await self.post(view.where, content, components, pings, files,
                            shows=view if report.auto_played else None)
        except discord.HTTPException:
            log.warning("could not post the timer notice in channel %s", report.where.channel)
        if report.auto_played:
            await self.pings.turn(view)
        elif view.status == "active":  # e.g. a vote to expel opened: the card shows it
            await self.actions.refresh_card(view)

    def _late_words(self, report: TimerReport, board: Game | None) -> str:
        """'⏰ Ana ran out of time, so the bot played the turn: …' and what it scored."""
        late = f"**{safe_name(report.name)}**"
        action = last_action_by(board, report.name)
        said = text.describe_action(action) if action else ""
        if said:
            head = _("⏰ {name} ran out of time, so the bot played the turn: {move}").format(
                name=late, move=said)
        else:
            head = _("⏰ {name} ran out of time, so the bot played the turn.").format(name=late)
        return "\n".join(line for line in (head, text.move_lines(report.view)) if line)

    async def _played_for_late(self, report: TimerReport) -> None:
        """A turn played (or skipped) for a late player: the card shows it; the change is
        posted once the card has it, else it stays owed for the next period."""
        view = report.view
        with public(view):
            last = self._late_words(report, await self.service.game(view.where, view.game_id))
        try:
            await self.cards.show(view, last)
        except discord.HTTPException as exc:
            log.warning("game %s: card not updated after a late turn (HTTP %s)",
                        view.game_id, exc.status)
            return
        await self.posted(view)
        await self.pings.turn(view)

    async def _timer_notice(self, report: TimerReport, language: str
                            ) -> tuple[str, list[str], list[discord.File]]:
        """The words, pings and board of a timer notice, in the game's language."""
        view = report.view
        late = f"**{safe_name(report.name)}**"
        files: list[discord.File] = []
        if report.auto_played:
            board = await self.service.game(view.where, view.game_id)
            action = last_action_by(board, report.name)
            said = text.describe_action(action) if action else ""
            if said:
                content = _("⏰ {name} ran out of time, so the bot played the turn: {move}"
                            ).format(name=late, move=said)
            else:
                content = _("⏰ {name} ran out of time, so the bot played the turn.").format(
                    name=late)
            content += "\n" + text.public_update(view)
            if board is not None:
                png = await self.render_board(board, TIMER_BOARD_BYTES, language)
                files.append(discord.File(io.BytesIO(png), filename="board.png",
                                          description=_("The board")))
                if view.finished:
                    more, notes = await endgame.end_of_game(
                        self, view.game_id, board, language, TIMER_BOARD_BYTES - len(png))
                    files.extend(more)
                    content = text.with_notes(content, notes)
            return content, text.pinged(view), files
        who = text.mention(report.user_id, report.name)
        content = _("⏰ {who}, the game is waiting for you: {doing}.").format(
            who=who, doing=text.must_words(view))
        timer = text.timer_words(view)
        content += f" {timer}" if timer else ""
        return content, [report.user_id] if report.user_id else [], files

    async def lobby_expired(self, report: TimerReport) -> None:
        """A lobby nobody started was closed: said in its channel, pinging nobody."""
        lifetime = self.service.limits.lobby_lifetime
        with public(report.view):
            if lifetime >= 86400:
                days = round(lifetime / 86400, 1)
                waited = ngettext("{n} day", "{n} days", 1 if days == 1 else 2).format(
                    n=f"{days:g}")
            else:
                hours = round(lifetime / 3600, 1)
                waited = ngettext("{n} hour", "{n} hours", 1 if hours == 1 else 2).format(
                    n=f"{hours:g}")
            content = _("⌛ Game #{game}, opened by **{name}**, waited {time} without starting "
                        "and was closed. Open a new one with `/carc create`.").format(
                game=report.game_id, name=safe_name(report.name), time=waited)
        try:
            await self.post(report.where, content)
        except discord.HTTPException:
            log.warning("could not post the lobby expiry in channel %s", report.where.channel)


def command_marker(database: object) -> Path:
    """Where the digest of the last command sync is kept: beside a SQLite file, or in the
    working folder for a PostgreSQL URL (which names no folder; one per database)."""
    name = str(database)
    if name.startswith(("postgresql://", "postgres://")):
        return Path(f"carca-{hashlib.sha256(name.encode()).hexdigest()[:12]}.commands")
    return Path(name + ".commands")


class Unreachable(Exception):
    """Discord could not be reached; the message is the one line an admin sees."""


async def start(bot: CarcaBot, token: str) -> None:
    try:
        await bot.start(token)
    except (TimeoutError, OSError, aiohttp.ClientError, discord.GatewayNotFound) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise Unreachable(f"carca-bot: cannot reach Discord ({reason[:200]}); check the "
                          "network connection and any proxy or firewall, then start the bot "
                          "again.") from None


async def serve(settings: Settings) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    assert settings.token is not None
    bot = CarcaBot(settings)
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
