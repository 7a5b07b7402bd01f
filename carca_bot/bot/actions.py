"""What each command and button does: service calls in, messages out. No rule is decided here.

Every interaction is deferred first (Discord wants an answer within 3 seconds),
then the service acts, the board is rendered off the event loop, and a follow-up
carries the result. Refusals and previews are ephemeral; confirmed moves are public.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from carca_bot.bot import endgame, languages, text
from carca_bot.bot.buttons import (
    HISTORY,
    ChoiceSelect,
    final_row,
    history_row,
    hole_options,
    page_row,
    row_for,
)
from carca_bot.bot.card import stats_text
from carca_bot.bot.history import moment, moment_text, pile_text
from carca_bot.bot.languages import Prefs
from carca_bot.bot.parse import square, square_and_name
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import NO_PINGS, pinging, plain, safe_name, sentence
from carca_bot.bot.vote_ids import ask_button
from carca_bot.engine.game import Game
from carca_bot.i18n import Domain, current, speaking
from carca_bot.service import (
    Choices,
    GameMovedOn,
    ServiceError,
    TurnView,
    User,
    Where,
)
from carca_bot.words import say
from carca_bot.workers import PoolError

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

log = logging.getLogger("carca_bot.commands")
_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext


@dataclass
class Reply:
    """What to send back: words, and optionally the board, a "your tile" image, a file."""

    content: str
    public: bool = False
    board: Game | None = None
    your_tile: tuple[Game, str] | None = None
    view: TurnView | None = None  # the state the components are built for
    choices: Choices | None = None
    file: discord.File | None = None
    pings: list[str] = field(default_factory=list)  # user ids this message may ping
    components: discord.ui.View | None = None  # instead of the ones built for `view`
    # What the components and file descriptions speak: the language the content was
    # written in (set by `in_language`); None: the language of the reply cycle.
    language: str | None = None
    final: Game | None = None  # a finished game: attach its card and replays
    more_files: list[discord.File] = field(default_factory=list)  # after `file`
    notes: list[str] = field(default_factory=list)  # said at the end of the content
    edit: bool = False  # replace the message the clicked button is on (a private one)
    picture: tuple[str, str, bytes] | None = None  # (file name, description, PNG) made already
    # A change of a started game: shown on its card (edited in place) with `last` as the
    # last move, the player to act pinged; the actor hears `content` privately.
    card: bool = False
    last: str = ""
    tile: str | None = None  # the tile the player to act drew (shown to all)
    said: str = ""  # `content` as the move made it: what a command puts before it goes on top
    undoable: bool = False  # the actor's own move: their answer offers to take it back


@contextmanager
def public(view: TurnView) -> Iterator[str]:
    """Speak the game's language: for what everyone in its channel reads."""
    with speaking(languages.game_language(view)) as language:
        yield language


def in_language(reply: Reply) -> Reply:
    """Note that `reply` was written in the language spoken now (its buttons follow)."""
    reply.language = current()
    return reply


def who(interaction: discord.Interaction[Any]) -> User:
    """The user as the service knows them: the display name cleaned of invisible
    characters and clipped (it is escaped again wherever it is shown)."""
    user = interaction.user
    return User(str(user.id), plain(getattr(user, "display_name", None) or user.name,
                                    NAME_STORED))


def where(interaction: discord.Interaction[Any]) -> Where:
    return Where(str(interaction.guild_id or 0), str(interaction.channel_id or 0))


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


Work = Callable[[], Awaitable[Reply]]
NAME_STORED = 64  # characters of a display name handed to the service


def last_action_by(game: Game | None, actor: str | None) -> dict[str, Any] | None:
    """The move just confirmed, to say what it was (automatic discards are skipped)."""
    if game is None or actor is None:
        return None
    for action in reversed(game.history):
        if "discard" in action:
            continue
        return action if action.get("by") == actor else None
    return None


class RateLimit:
    """At most `burst` commands per user in any `window` seconds (autocomplete is not counted)."""

    def __init__(self, burst: int = 8, window: float = 10.0) -> None:
        self.burst, self.window = burst, window
        self._seen: dict[int, deque[float]] = {}

    def allow(self, user_id: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        recent = self._seen.setdefault(user_id, deque())
        while recent and now - recent[0] >= self.window:
            recent.popleft()
        if len(recent) >= self.burst:
            return False
        recent.append(now)
        if len(self._seen) > 10_000:  # forget idle users now and then
            self._seen = {u: q for u, q in self._seen.items() if q and now - q[-1] < self.window}
        return True


class Actions:
    def __init__(self, bot: CarcaBot) -> None:
        self.bot = bot
        self.limit = RateLimit(bot.settings.rate_limit)
        self.accepting = True  # False while shutting down
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()

    @property
    def service(self) -> Any:
        return self.bot.service

    # -- the reply cycle ----------------------------------------------------------

    async def run(self, interaction: discord.Interaction[Any], name: str, work: Work, *,
                  public: bool, update: bool = False) -> None:
        """Defer, do the work, answer; log one line with the outcome and latency.
        `update`: the answer replaces the (private) message of the clicked button.
        A command that changes a started game shows it on the game's card, so its own
        answer is private (`CARD_COMMANDS`)."""
        started = time.perf_counter()
        if not self.accepting:
            with speaking(languages.private_language(interaction, None)):
                await interaction.response.send_message(
                    _("carca-bot is restarting: try again in a minute. Your game is safe."),
                    ephemeral=True, allowed_mentions=NO_PINGS)
            return
        if not self.limit.allow(interaction.user.id):
            log.info("command=%s user=%s outcome=rate_limited", name, interaction.user.id)
            with speaking(languages.private_language(interaction, None)):
                await interaction.response.send_message(
                    _("Easy there! That was a lot of commands at once: wait a few seconds "
                      "and try again."), ephemeral=True, allowed_mentions=NO_PINGS)
            return
        outcome = "ok"
        game_id: int | None = None
        self.in_flight += 1
        self.idle.clear()
        # Everything is said in the user's language unless a public post speaks its game's.
        language = languages.private_language(interaction, None)
        try:
            if update:
                await interaction.response.defer()
            else:
                public = public and name not in CARD_COMMANDS
                await interaction.response.defer(ephemeral=not public, thinking=True)
            language = languages.private_language(interaction, await self.prefs(interaction))
            with speaking(language):
                reply = await work()
                game_id = reply.view.game_id if reply.view else None
                await self.send(interaction, reply, public=public and not update)
        except GameMovedOn as exc:
            outcome = "moved_on"
            with speaking(language):
                moved = _("The game moved on while your command was on its way, so it was "
                          "not carried out. The game now:\n\n{status}").format(
                    status=text.status_text(exc.view))
                await self.refuse(interaction, public and not update, moved)
        except Refused as exc:  # worded when raised, in the language of this reply
            outcome = "Refused"
            await self.refuse(interaction, public and not update, sentence(exc.text))
        except ServiceError as exc:
            outcome = type(exc).__name__
            with speaking(language):
                await self.refuse(interaction, public and not update, sentence(say(exc)))
        except Exception:
            outcome = "error"
            log.exception("command=%s failed", name)
            with contextlib.suppress(discord.HTTPException), speaking(language):
                await interaction.followup.send(
                    _("Something went wrong on our side. Check the game with `/carc status` "
                      "before trying again."), ephemeral=True, allowed_mentions=NO_PINGS)
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self.idle.set()
            log.info("command=%s user=%s guild=%s channel=%s game=%s outcome=%s ms=%.1f",
                     name, interaction.user.id, interaction.guild_id, interaction.channel_id,
                     game_id, outcome, (time.perf_counter() - started) * 1000)
            self.bot.latencies.append(time.perf_counter() - started)

    async def prefs(self, interaction: discord.Interaction[Any]) -> Prefs:
        """The user's and the server's language overrides (none if they cannot be read:
        a reply in the client's language is better than no reply)."""
        guild = str(interaction.guild_id) if interaction.guild_id else None
        try:
            found = await self.service.language_prefs(str(interaction.user.id), guild)
        except ServiceError:
            log.warning("language preferences of user %s unreadable", interaction.user.id)
            return Prefs()
        return Prefs(found.user, found.guild)

    async def refuse(self, interaction: discord.Interaction[Any], public: bool,
                     message: str) -> None:
        if public:  # the "thinking" placeholder is public: remove it, answer privately
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(text.clip(message), ephemeral=True,
                                        allowed_mentions=NO_PINGS)

    async def _files(self, interaction: discord.Interaction[Any],
                     reply: Reply) -> list[discord.File]:
        limit = interaction.filesize_limit
        files: list[discord.File] = []
        jobs: list[tuple[str, str, Awaitable[bytes]]] = []
        language = current()
        if reply.board is not None:
            jobs.append(("board.png", _("The board"),
                         self.bot.render_board(reply.board, limit, language)))
        if reply.your_tile is not None:
            jobs.append(("your-tile.png", _("Your tile and where it fits"),
                         self.bot.render_your_tile(*reply.your_tile, language=language)))
        # One render thread (or worker) each.
        images = await asyncio.gather(*(job for _name, _about, job in jobs),
                                      return_exceptions=True)
        for (name, description, _job), png in zip(jobs, images, strict=True):
            if isinstance(png, PoolError):  # the worker processes are overloaded
                log.warning("picture %s left out: %s", name, png)
                if not reply.notes or reply.notes[-1] != busy_note():
                    reply.notes.append(busy_note())
                continue
            if isinstance(png, BaseException):
                raise png
            files.append(discord.File(io.BytesIO(png), filename=name, description=description))
        if reply.picture is not None:
            name, description, png = reply.picture
            files.append(discord.File(io.BytesIO(png), filename=name, description=description))
        if reply.file is not None:
            files.append(reply.file)
        files.extend(reply.more_files)
        if reply.final is not None and reply.view is not None:
            # What is attached already counts against the limit; the rest is the pictures'.
            used = sum(_size(f) for f in files)
            more, notes = await endgame.end_of_game(self.bot, reply.view.game_id, reply.final,
                                                    language, limit - used)
            files.extend(more)
            reply.notes.extend(notes)
        return files

    async def send(self, interaction: discord.Interaction[Any], reply: Reply,
                   public: bool = False) -> None:
        """The answer; a public post about a game in another channel (a game's thread,
        from a button in its parent channel) goes to that channel, and the clicker is
        told where. `public`: the interaction was deferred publicly."""
        if reply.card and reply.view is not None:
            await self.to_card(interaction, reply, public)
            return
        language = reply.language or current()
        with speaking(language):
            files = await self._files(interaction, reply)
            components = reply.components
            if components is None and reply.view is not None:
                components = row_for(reply.view, reply.choices, private=not reply.public)
        content = text.with_notes(reply.content, reply.notes)
        if reply.edit:  # a private message stepped in place (history, a turn's steps)
            await self.private_edit(interaction, content, files, components)
            return
        kwargs: dict[str, Any] = {"files": files, "allowed_mentions": pinging(*reply.pings)}
        if components is not None and components.children:
            kwargs["view"] = components
        shown = reply.view if reply.public else None
        elsewhere = (shown is not None
                     and shown.where.channel != str(interaction.channel_id or 0))
        try:
            if elsewhere:
                assert shown is not None
                channel = self.bot.get_partial_messageable(int(shown.where.channel))
                await channel.send(content, **kwargs)
            else:
                await interaction.followup.send(content, ephemeral=not reply.public, **kwargs)
        except discord.HTTPException as exc:
            if shown is None:
                raise
            await self.not_posted(interaction, shown, exc)
            return
        if shown is not None:
            await self.bot.posted(shown)
            if shown.status != "lobby":
                await self.refresh_card(shown)
        if elsewhere:
            assert shown is not None
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            await interaction.followup.send(
                _("Done: game #{game} is played in {channel}.").format(
                    game=shown.game_id, channel=f"<#{shown.where.channel}>"),
                ephemeral=True, allowed_mentions=NO_PINGS)

    async def private_edit(self, interaction: discord.Interaction[Any], content: str,
                           files: list[discord.File],
                           components: discord.ui.View | None) -> None:
        """Replace the private message whose button was clicked. Discord lets a private
        message be edited for 15 minutes only (and not once it is dismissed): then the
        answer comes as a new private message."""
        try:
            await interaction.edit_original_response(
                content=content, attachments=files, view=components,
                allowed_mentions=NO_PINGS)
            return
        except discord.HTTPException as exc:
            log.info("user=%s private message not editable (HTTP %s): sent anew",
                     interaction.user.id, exc.status)
        for file in files:
            file.reset()
        kwargs: dict[str, Any] = {"files": files, "allowed_mentions": NO_PINGS}
        if components is not None and components.children:
            kwargs["view"] = components
        await interaction.followup.send(content, ephemeral=True, **kwargs)

    async def to_card(self, interaction: discord.Interaction[Any], reply: Reply,
                      public: bool) -> None:
        """A change of a started game: on its card (and, at the end, the final post), the
        player to act pinged; the change counts as posted once the card has it. The
        actor is answered privately."""
        view = reply.view
        assert view is not None
        # What the command said before the move's words ("Ana resigned.", "imported").
        added = (reply.content[:-len(reply.said)].strip()
                 if reply.said and reply.content.endswith(reply.said) else "")
        last = "\n".join(line for line in (added, reply.last) if line)
        try:
            await self.bot.cards.show(view, last, tile=reply.tile, choices=reply.choices,
                                      board=reply.board)
            if reply.final is not None:
                await self.final_post(interaction, reply)
        except discord.HTTPException as exc:
            await self.not_posted(interaction, view, exc)
            return
        await self.bot.posted(view)
        # The ping never raises (a failure is logged): it goes out while the actor is told.
        await asyncio.gather(self.bot.pings.turn(view, reply.tile),
                             self._card_done(interaction, reply, public))

    async def _card_done(self, interaction: discord.Interaction[Any], reply: Reply,
                         public: bool) -> None:
        view = reply.view
        assert view is not None
        if view.where.channel != str(interaction.channel_id or 0):
            said = _("Done: game #{game} is played in {channel}, where its card is up to "
                     "date.").format(game=view.game_id, channel=f"<#{view.where.channel}>")
        else:
            said = _("Done: the card of game #{game} is up to date.").format(
                game=view.game_id)
        offer = take_back_offer(view) if reply.undoable else None
        if reply.edit:  # the private turn message the confirm was on
            await self.private_edit(interaction, said, [], offer)
            return
        if public:  # a public "thinking" placeholder: replaced by a private answer
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
        if offer is not None:
            kwargs["view"] = offer
        await interaction.followup.send(said, ephemeral=True, **kwargs)

    async def final_post(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        """The end-of-game post (ranking, scoring file, replays) in the game's channel."""
        view = reply.view
        assert view is not None
        with speaking(reply.language or current()):
            files = await self._files(interaction, reply)
        channel = self.bot.get_partial_messageable(int(view.where.channel))
        kwargs: dict[str, Any] = {"files": files, "allowed_mentions": NO_PINGS}
        if reply.components is not None and reply.components.children:
            kwargs["view"] = reply.components
        await channel.send(text.with_notes(reply.content, reply.notes), **kwargs)

    async def refresh_card(self, view: TurnView, last: str | None = None) -> bool:
        """After a public post about a started game that is not a move (a player removed,
        the game cancelled): the card follows, best effort (a failure leaves it for the
        next change). `last` (in the game's language): what the card says happened,
        instead of the view's events. Returns whether the card has it."""
        try:
            if last is None:
                with public(view):
                    last = text.move_lines(view)
            await self.bot.cards.show(view, last)
        except discord.HTTPException as exc:
            log.warning("game %s: card not refreshed (HTTP %s)", view.game_id, exc.status)
            return False
        await self.bot.pings.turn(view)
        return True

    async def show_change(self, interaction: discord.Interaction[Any], view: TurnView,
                          last: str) -> None:
        """A change of a started game made by no move (a take-back accepted, a vote to
        expel): on its card at once, the player to act pinged (a game it ended: its result,
        and the end-of-game post), and marked posted once the channel has it; if Discord
        refuses, the change stays owed and the timer loop shows it later."""
        if view.status != "finished":
            if await self.refresh_card(view, last):
                await self.bot.posted(view)
            return
        reply = await self.public_move(view, None)
        reply.last = "\n".join(line for line in (last, reply.last) if line)
        try:
            await self.bot.cards.show(view, reply.last, board=reply.board)
            if reply.final is not None:
                await self.final_post(interaction, reply)
        except discord.HTTPException as exc:
            log.warning("game %s: its end not posted (HTTP %s)", view.game_id, exc.status)
            return
        await self.bot.posted(view)
        await self.bot.pings.turn(view)  # nobody's turn: the last ping goes

    async def not_posted(self, interaction: discord.Interaction[Any], view: TurnView,
                         exc: discord.HTTPException) -> None:
        """The command was stored but Discord refused its public post: say so privately;
        a change the channel is owed is posted later by the timer loop."""
        log.warning("game %s: public post refused (HTTP %s)", view.game_id, exc.status)
        owed = any(p.game_id == view.game_id for p in await self.service.pending_posts(500))
        if owed:
            said = _("Your command was saved (game #{game}), but I could not post it in the "
                     "channel just now. It will be posted there as soon as Discord takes it. "
                     "Do not repeat it.")
        else:
            said = _("Your command was saved (game #{game}), but I could not post it in the "
                     "channel just now. Check the game with `/carc status`. Do not repeat it.")
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
        await interaction.followup.send(said.format(game=view.game_id), ephemeral=True,
                                        allowed_mentions=NO_PINGS)

    # -- building replies -----------------------------------------------------------

    async def public_move(self, view: TurnView, actor: str | None) -> Reply:
        """After a confirmed move: the board, what happened, who is next."""
        board = await self.service.game(view.where, view.game_id)
        choices = await self._choices_of_next(view)
        action = last_action_by(board, actor)
        with public(view):
            tile = await self._next_tile(view)
            if view.status == "finished" and board is not None:
                reply = in_language(self._final(view, board, action))
            else:
                reply = in_language(Reply(text.public_update(view, actor, action, tile),
                                          public=True, view=view, choices=choices,
                                          pings=text.pinged(view), board=board))
            reply.card, reply.last, reply.tile = True, text.move_lines(view, actor, action), tile
            reply.said = reply.content
            # The mover's own move (automatic turns of expelled players may follow it).
            reply.undoable = actor is not None and view.status == "active"
            return reply

    def _final(self, view: TurnView, board: Game, action: dict[str, Any] | None) -> Reply:
        """The last post: winner and ranking first, the whole scoring in a text file."""
        names = list(board.players)
        gardens = "abbot" in view.options.expansions
        said = text.describe_action(action) if action else ""
        content = text.final_post(view, said, list(board.events), names, gardens)
        full = text.full_scoring(view, board.events, names, gardens).encode()
        file = discord.File(io.BytesIO(full), filename=f"game-{view.game_id}-scores.txt",
                            description=_("Every scoring of the game"))
        return Reply(content, public=True, board=board, view=view, file=file, final=board,
                     components=final_row(view.game_id))

    async def _next_tile(self, view: TurnView) -> str | None:
        """The tile the next player drew, shown to all as at the table (not before a
        draw-or-abbey choice: then the service has drawn nothing yet)."""
        if view.must != "place" or view.deciding is None:
            return None
        try:
            tile: str | None = await self.service.next_public_tile(view.game_id)
        except ServiceError:
            return None
        return tile

    async def _choices_of_next(self, view: TurnView) -> Choices | None:
        """The wagon owner's targets, so the public post can carry a wagon menu."""
        if view.must != "wagon" or view.deciding is None or view.deciding.user_id is None:
            return None
        try:
            result: Choices = await self.service.legal_moves(
                view.where, User(view.deciding.user_id, view.deciding.name))
        except ServiceError:
            return None
        return result

    async def private_step(self, interaction: discord.Interaction[Any], view: TurnView) -> Reply:
        """After a step of one's own turn: a private preview with rotate/confirm/undo."""
        board = await self.service.game(view.where, view.game_id)
        choices = None
        if view.must == "finish":
            choices = await self.service.legal_moves(view.where, who(interaction))
        if view.must == "place" and view.tile:
            return await self.your_tile(interaction, view)
        return Reply(text.private_update(view), board=board, view=view, choices=choices)

    async def your_tile(self, interaction: discord.Interaction[Any], view: TurnView) -> Reply:
        game = await self.service.game(view.where, view.game_id)
        if view.tile is None or game is None:
            return Reply(text.private_update(view), view=view)
        content = _("Your tile is **{tile}**. The marked squares are where it fits; place it "
                    "with `/carc place` (square and rotation).").format(tile=view.tile)
        timer = text.timer_words(view)
        return Reply(content + (f" {timer}" if timer else ""), your_tile=(game, view.tile),
                     view=view)

    async def after(self, interaction: discord.Interaction[Any], view: TurnView,
                    actor: str) -> Reply:
        """Public post when the command ended a move, else the actor's private preview."""
        if view.must in ("finish",) or (view.must == "place" and view.tile is not None):
            return await self.private_step(interaction, view)
        return await self.public_move(view, actor)

    # -- buttons and menus ------------------------------------------------------------

    async def place_of(self, interaction: discord.Interaction[Any], game_id: int,
                       action: str = "") -> Where:
        """Where the button's game lives. A button acts on its own game: in its channel,
        or, for the lobby buttons (a thread's Join and Start are also posted in the
        parent channel) and for looking, from another channel of the same server, as
        long as that game is still the game of its channel."""
        here = where(interaction)
        view: TurnView = await self.service.status(here, str(interaction.user.id), game_id)
        if view.where.guild != here.guild:
            raise Refused(_("there is no game #{game} in this server").format(game=game_id))
        if view.where != here and action not in FROM_ANOTHER_CHANNEL:
            raise Refused(_("this button belongs to game #{game}, which is played in "
                               "{channel}: use the buttons there").format(
                game=game_id, channel=f"<#{view.where.channel}>"))
        now: TurnView = await self.service.status(view.where, str(interaction.user.id))
        if now.game_id != game_id:
            raise Refused(_("this button belongs to game #{game}, which is no longer the "
                               "game in its channel").format(game=game_id))
        return view.where

    async def button(self, interaction: discord.Interaction[Any], action: str, game_id: int,
                     version: int) -> None:
        user, svc = who(interaction), self.service
        posts = action in ("confirm", "join", "start", "skip", "return", "resign")
        # History and turn steps replace the private message they are on; from a public
        # post (the card, the last post) they open a private one.
        message = interaction.message
        update = (action in (*HISTORY, *TURN_STEPS) and message is not None
                  and message.flags.ephemeral)

        async def work() -> Reply:
            if action in HISTORY:
                reply = await self.history_step(interaction, action, game_id, version)
                reply.edit = update
                return reply
            reply = await act()
            reply.edit = update
            return reply

        async def act() -> Reply:
            if action == "page":
                return await self.score_details(interaction, version, game_id)
            place = await self.place_of(interaction, game_id, action)
            if action == "board":
                view = await svc.status(place, user.id)
                board = await svc.game(place, view.game_id)
                return in_language(Reply(text.status_text(view), board=board))
            if action == "status":
                return Reply(stats_text(await svc.status(place, user.id)))
            if action == "tile":
                return await self.your_tile(interaction, await svc.begin_turn(place, user))
            if action == "draw":
                return await self.your_tile(interaction, await svc.draw(place, user, version))
            if action == "abbey":
                return await self.abbey_menu(place, user)
            if action == "confirm":
                return await self.public_move(await svc.confirm(place, user, version),
                                              user.name)
            if action == "undo":
                return await self.private_step(interaction, await svc.undo(place, user, version))
            if action == "rotate":
                return await self.private_step(interaction, await svc.rotate(place, user,
                                                                             version))
            if action == "join":
                view = await svc.join(place, user)
                with public(view):
                    return in_language(Reply(joined(user.name, view), public=True, view=view))
            if action == "start":
                view = await svc.start(place, user)
                return await self.public_move(view, None)
            if action == "skip":
                return await self.public_move(await svc.skip_abbey(place, user, version),
                                              user.name)
            if action == "return":
                return await self.public_move(await svc.return_wagon(place, user, version),
                                              user.name)
            if action == "resign":
                view = await svc.resign(place, user)
                reply = await self.public_move(view, None)
                with speaking(reply.language):
                    said = _("**{name}** resigned.").format(name=safe_name(user.name))
                reply.content = text.clip(f"{said}\n{reply.content}")
                return reply
            if action == "keep":
                return Reply(_("Good: you are still in the game. Nothing was changed."))
            raise Refused(_("that button does nothing any more"))

        await self.run(interaction, f"button:{action}", work, public=posts, update=update)

    async def abbey_menu(self, place: Where, user: User) -> Reply:
        """'Place my abbey': a menu of the holes, nearest the last tile first."""
        choices: Choices = await self.service.legal_moves(place, user)
        view: TurnView = await self.service.status(place, user.id)
        if choices.must not in ("choose", "abbey_round"):
            raise Refused(_("the abbey goes in a hole at the start of a turn, instead of "
                               "drawing a tile"))
        options = hole_options(choices)
        if not options:
            raise Refused(_("there is no hole for your abbey on the board just now (a hole "
                               "is an empty square with tiles on all four sides)"))
        ui = discord.ui.View(timeout=None)
        ui.add_item(ChoiceSelect("hole", view.game_id, view.version, options))
        more = len(choices.abbey_squares) - len(options)
        if more > 0:
            said = ngettext("Choose a hole for your abbey ({n} more: use `/carc abbey`).",
                            "Choose a hole for your abbey ({n} more: use `/carc abbey`).",
                            more).format(n=more)
        else:
            said = _("Choose a hole for your abbey.")
        return Reply(said, components=ui)

    async def select(self, interaction: discord.Interaction[Any], action: str, game_id: int,
                     version: int, value: str) -> None:
        user, svc = who(interaction), self.service
        message = interaction.message
        update = (action in TURN_STEPS and message is not None and message.flags.ephemeral)

        async def work() -> Reply:
            reply = await act()
            reply.edit = update
            return reply

        async def act() -> Reply:
            place = await self.place_of(interaction, game_id)
            if action == "pick":
                figure, _, on = value.partition(":")
                if figure == "recall":
                    view = await svc.recall(place, user, version)
                else:
                    view = await svc.deploy(place, user, figure, on, version)
                return await self.private_step(interaction, view)
            if action == "hole":
                x, y = square(value)
                view = await svc.place_abbey(place, user, x, y, version)
                return await self.private_step(interaction, view)
            if value == "return":
                return await self.public_move(await svc.return_wagon(place, user, version),
                                              user.name)
            x, y, on = square_and_name(value)
            return await self.public_move(await svc.move_wagon(place, user, x, y, on, version),
                                          user.name)

        await self.run(interaction, f"select:{action}", work, public=action == "wagon",
                       update=update)

    # -- whole-game replies -------------------------------------------------------------

    async def export(self, interaction: discord.Interaction[Any]) -> Reply:
        record = await self.service.export(where(interaction))
        data = await asyncio.to_thread(lambda: json.dumps(record, indent=1).encode())
        view: TurnView = await self.service.status(where(interaction), str(interaction.user.id))
        name = f"carcassonne-game-{view.game_id}.json"
        reply = Reply(_("The record of game #{game} (`carca-record/1`): replay it with "
                        "`carca-bot replay {file}`, or load it in another channel with "
                        "`/carc import`. The .html file shows the game move by move in any "
                        "web browser.").format(game=view.game_id, file=name),
                      file=discord.File(io.BytesIO(data), filename=name))
        game = await self.service.game(view.where, view.game_id)
        if game is not None:  # the page is built from the committed moves, never the seed
            page, note = await endgame.export_page(self.bot, view.game_id, game, current(),
                                                   interaction.filesize_limit - len(data))
            if page is not None:
                reply.more_files.append(page)
            if note:
                reply.notes.append(note)
        return reply

    # -- the past: history and the pile -------------------------------------------------

    async def past_game(self, interaction: discord.Interaction[Any], game_id: int | None
                        ) -> tuple[TurnView, Game]:
        """A game of this channel (the given one, else the running one, else the last) and
        its private copy; only its public part is ever shown."""
        here = where(interaction)
        view: TurnView = await self.service.status(here, str(interaction.user.id), game_id)
        if view.where != here:
            raise Refused(_("there is no game #{game} in this channel").format(
                game=view.game_id))
        game = await self.service.game(here, view.game_id)
        if game is None:
            raise Refused(_("game #{game} has not started yet: its history begins with its "
                            "first move").format(game=view.game_id))
        return view, game

    async def history(self, interaction: discord.Interaction[Any], game_id: int | None,
                      move: int | None) -> Reply:
        """`/carc-history`: the table after `move` (the newest by default), privately."""
        view, game = await self.past_game(interaction, game_id)
        total = len(game.history)
        if move is not None and move > total:
            raise Refused(ngettext("game #{game} has no move {move}: it has {n} move so far",
                                   "game #{game} has no move {move}: it has {n} moves so far",
                                   total).format(game=view.game_id, move=move, n=total))
        return await self._moment(view, game, total if move is None else move)

    async def history_step(self, interaction: discord.Interaction[Any], action: str,
                           game_id: int, shown: int) -> Reply:
        """A click on ⏮ ◀ ▶ ⏭ (or the last post's button). The id names the move shown;
        one the game does not have can only be forged, and is refused."""
        view, game = await self.past_game(interaction, game_id)
        total = len(game.history)
        target = {"hfirst": 0, "hback": shown - 1, "hnext": shown + 1, "hlast": total,
                  "hist": min(shown, total)}[action]
        if shown > total or not 0 <= target <= total:
            raise Refused(_("that button does not match game #{game}'s history (it has "
                            "{n} moves). Nothing was changed: use `/carc-history` to step "
                            "through it.").format(game=game_id, n=total))
        return await self._moment(view, game, target)

    async def _moment(self, view: TurnView, game: Game, move: int) -> Reply:
        found = await self.bot.in_render_pool(lambda: moment(game, move))
        return Reply(moment_text(view.game_id, found), board=found.table,
                     components=history_row(view.game_id, found.number, found.total,
                                            found.finished))

    async def tiles(self, interaction: discord.Interaction[Any]) -> Reply:
        """`/carc-tiles`: what is left in the pile, counted by kind (never its order)."""
        from carca_bot.render.pile import render_pile
        from carca_bot.service.history import pile

        view, game = await self.past_game(interaction, None)
        language = current()
        tunnel = game.setup.has("tunnel")

        def draw() -> tuple[tuple[tuple[str, int], ...], bytes]:
            counts = pile(game)
            return counts, render_pile(counts, tunnel, language)

        counts, png = await self.bot.in_render_pool(draw)
        return Reply(pile_text(view.game_id, counts),
                     picture=("tiles-left.png", _("The tiles left in the pile, by kind"), png))

    async def score_details(self, interaction: discord.Interaction[Any],
                            page: int | None = None, game_id: int | None = None) -> Reply:
        """Scores by kind and player, then the scorings, SCORE_PAGE to a page (the last
        page, the newest, unless one is asked for); features nobody held are left out."""
        place = where(interaction)
        if game_id is not None:
            place = await self.place_of(interaction, game_id, "page")
        view: TurnView = await self.service.status(place, str(interaction.user.id))
        game = await self.service.game(place, view.game_id)
        if game is None:
            return Reply(_("The game has not started yet."))
        names = list(game.players)
        listed = text.scorings(game.events, "abbot" in view.options.expansions)
        pages = max(1, -(-len(listed) // SCORE_PAGE))
        page = pages - 1 if page is None else min(max(page, 0), pages - 1)
        lines = [_("Scores: {scores}").format(scores=text.scores_line(view))]
        lines.extend(text.grouped(listed, names))
        lines.append(_("**Scorings, page {page} of {pages}:**").format(page=page + 1,
                                                                        pages=pages))
        shown = listed[page * SCORE_PAGE:(page + 1) * SCORE_PAGE]
        lines.extend(f"• {sentence(say(e, names), names)}" for e in shown)
        if not shown:
            lines.append(_("• no points scored yet"))
        return Reply(text.clip("\n".join(lines)),
                     components=page_row(view.game_id, page, pages))


def busy_note() -> str:
    """Said instead of a picture the worker processes had no time for."""
    return _("(The picture is left out: the bot is busy drawing. `/carc board` shows it "
             "in a moment.)")


def _size(file: discord.File) -> int:
    """Bytes of an attachment made in memory (all of the bot's are)."""
    fp = file.fp
    return len(fp.getbuffer()) if isinstance(fp, io.BytesIO) else 0


SCORE_PAGE = 12
# A player's own turn, step by step, in one private message: these buttons and menus
# edit the message they are on.
TURN_STEPS = ("rotate", "undo", "confirm", "pick", "hole", "skip", "return")
# Commands whose public result is a change of a started game: it goes on the game's card
# (edited in place), so the command's own answer is private.
CARD_COMMANDS = frozenset({
    "start", "place", "abbey", "wagon", "confirm", "import",
    *(f"button:{a}" for a in ("confirm", "start", "skip", "return", "resign")),
    "select:wagon",
})
FROM_ANOTHER_CHANNEL = ("join", "start", "board", "page")  # see Actions.place_of


def take_back_offer(view: TurnView) -> discord.ui.View | None:
    """"Take back my move" for the mover's private answer after a move, while a human
    is to act next (an AI seat answers at once, so a take-back would come too late); the
    service decides whether a click may still ask."""
    nxt = view.deciding
    if view.status != "active" or nxt is None or nxt.ai is not None or nxt.user_id is None:
        return None
    offer = discord.ui.View(timeout=None)
    offer.add_item(ask_button(view.game_id))
    return offer


def joined(name: str, view: TurnView) -> str:
    """'**Ana** joined. Waiting for ...' in the lobby post."""
    said = _("**{name}** joined.").format(name=safe_name(name))
    return f"{said} {text.next_line(view)}"
