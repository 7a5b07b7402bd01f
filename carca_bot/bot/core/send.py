"""Sending a `Reply`: its pictures drawn off the event loop, then the follow-up, the card
or the edit of the clicked message. A public post about a game in another channel (a
thread's game, from a button in its parent channel) goes to that channel."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from carca_bot.bot.components.rows import row_for, take_back_offer
from carca_bot.bot.core.pictures import BOARD, file_size
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.posts import endgame
from carca_bot.bot.posts.channel import posted, refresh_card, settle
from carca_bot.bot.posts.sending import ChannelPost, ReplyPost, deliver
from carca_bot.bot.seam import Bot, Interaction
from carca_bot.bot.words import text
from carca_bot.bot.words.safe import NO_PINGS, pinging
from carca_bot.i18n import Domain, current, speaking
from carca_bot.service import TurnView
from carca_bot.service.posts import PostKey
from carca_bot.words import alt
from carca_bot.workers import PoolError

if TYPE_CHECKING:
    from carca_bot.engine.game import Game

log = logging.getLogger("carca_bot.commands")
_T = Domain("bot")
_ = _T.gettext


async def send(bot: Bot, interaction: Interaction, reply: Reply, public: bool = False) -> None:
    """The answer. `public`: the interaction was deferred publicly."""
    if reply.card and reply.view is not None:
        await to_card(bot, interaction, reply, public)
        return
    with speaking(reply.language or current()):
        files = await files_of(bot, interaction.filesize_limit, reply)
        components = reply.components
        if components is None and reply.view is not None:
            components = row_for(reply.view, reply.choices, private=not reply.public)
    content = text.with_notes(reply.content, reply.notes)
    if reply.edit:  # a private message stepped in place (history, a turn's steps)
        await private_edit(interaction, content, files, components)
        return
    shown = reply.view if reply.public else None
    try:
        await _post(bot, interaction, reply, content, files, components)
    except discord.HTTPException as exc:
        if shown is None:
            raise
        await not_posted(bot, interaction, shown, exc)
        return
    if shown is not None:
        await _after_public_post(bot, interaction, shown)


def _elsewhere(interaction: Interaction, view: TurnView | None) -> bool:
    """Whether the game is played in another channel than the interaction's."""
    return view is not None and view.where.channel != str(interaction.channel_id or 0)


async def _post(bot: Bot, interaction: Interaction, reply: Reply, content: str,
                files: list[discord.File], components: discord.ui.View | None) -> None:
    """The follow-up; a public post about a game played in another channel goes there.
    A public post about a game tells its change: delivered once under its key (after a
    crash the catch-up finds it in the channel rather than post it again), the game
    then marked posted up to it."""
    shown = reply.view if reply.public else None
    mentions = pinging(*reply.pings)
    if shown is None:
        await interaction.followup.send(content, ephemeral=not reply.public,
                                        **_message(files, components, mentions))
        return
    key, channel = PostKey(shown.game_id, shown.version), shown.where.channel
    if _elsewhere(interaction, shown):
        message = ChannelPost(bot, channel, key.marker, content, view=components,
                              files=files, mentions=mentions)
    else:
        message = ReplyPost(bot, channel, interaction.followup, key.marker, content,
                            view=components, files=files, mentions=mentions)
    done = await deliver(bot, key, message, posted=shown.version)
    if done.how != "sent" and not _elsewhere(interaction, shown):
        with contextlib.suppress(discord.HTTPException):  # the channel has it already
            await interaction.delete_original_response()


def _message(files: list[discord.File], components: discord.ui.View | None,
             mentions: discord.AllowedMentions) -> dict[str, Any]:
    """A message's keywords for discord.py (components only when there are some)."""
    kwargs: dict[str, Any] = {"files": files, "allowed_mentions": mentions}
    if components is not None and components.children:
        kwargs["view"] = components
    return kwargs


async def _after_public_post(bot: Bot, interaction: Interaction, shown: TurnView) -> None:
    """A public post went out (the game counts it as posted): vote messages it overtook
    close, its card follows, and a clicker in another channel is told where the game
    is."""
    await settle(bot, shown)
    if shown.status != "lobby":
        await refresh_card(bot, shown)
    if _elsewhere(interaction, shown):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
        await interaction.followup.send(
            _("Done: game #{game} is played in {channel}.").format(
                game=shown.game_id, channel=f"<#{shown.where.channel}>"),
            ephemeral=True, allowed_mentions=NO_PINGS)


async def private_edit(interaction: Interaction, content: str, files: list[discord.File],
                       components: discord.ui.View | None) -> None:
    """Replace the private message whose button was clicked. Discord lets a private
    message be edited for 15 minutes only (and not once it is dismissed): then the
    answer comes as a new private message."""
    try:
        await interaction.edit_original_response(
            content=content, attachments=files, view=components, allowed_mentions=NO_PINGS)
        return
    except discord.HTTPException as exc:
        log.info("user=%s private message not editable (HTTP %s): sent anew",
                 interaction.user.id, exc.status)
    for file in files:
        file.reset()
    await interaction.followup.send(content, ephemeral=True,
                                    **_message(files, components, NO_PINGS))


async def files_of(bot: Bot, limit: int, reply: Reply) -> list[discord.File]:
    """The reply's attachments within `limit` bytes, each with its description: its
    pictures drawn (in parallel, off the loop), made ones, files, and a finished game's
    card and replays."""
    files: list[discord.File] = []
    language = current()
    jobs: list[tuple[str, Awaitable[str], Awaitable[bytes]]] = []
    if reply.board is not None:
        jobs.append((BOARD, _said(reply.board_alt),
                     bot.pictures.board(reply.board, limit, language)))
    if reply.your_tile is not None:
        game, tile = reply.your_tile
        jobs.append(("your-tile.png", your_tile_alt(bot, reply, game, tile),
                     bot.pictures.your_tile(game, tile, language)))
    made = await asyncio.gather(*(asyncio.gather(about, job) for _name, about, job in jobs),
                                return_exceptions=True)
    for (name, _about, _job), done in zip(jobs, made, strict=True):
        if isinstance(done, PoolError):  # the worker processes are overloaded
            log.warning("picture %s left out: %s", name, done)
            if not reply.notes or reply.notes[-1] != busy_note():
                reply.notes.append(busy_note())
            continue
        if isinstance(done, BaseException):
            raise done
        description, png = done
        files.append(discord.File(io.BytesIO(png), filename=name, description=description))
    files.extend(_made(reply))
    if reply.final is not None and reply.view is not None:
        # What is attached already counts against the limit; the rest is the pictures'.
        more, notes = await endgame.end_of_game(bot.pictures, reply.view.game_id,
                                                reply.final, language,
                                                limit - sum(map(file_size, files)))
        files.extend(more)
        reply.notes.extend(notes)
    return files


async def _said(description: str) -> str:
    return description


async def your_tile_alt(bot: Bot, reply: Reply, game: Game, tile: str) -> str:
    """"My tile"'s description: the tile, where it fits, whose turn, the last move (in
    the language spoken; where it fits is worked out off the loop)."""
    squares, best = await bot.pictures.fits(game, tile)
    return alt.your_tile_alt(reply.view, reply.newest, tile, squares, best)


def _made(reply: Reply) -> list[discord.File]:
    """The attachments the reply holds already: a picture, a file, more files."""
    made: list[discord.File] = []
    if reply.picture is not None:
        name, description, png = reply.picture
        made.append(discord.File(io.BytesIO(png), filename=name, description=description))
    if reply.file is not None:
        made.append(reply.file)
    return [*made, *reply.more_files]


def busy_note() -> str:
    """Said instead of a picture the worker processes had no time for."""
    return _("(The picture is left out: the bot is busy drawing. `/carc board` shows it "
             "in a moment.)")


# -- a change of a started game: on its card --------------------------------------------


async def to_card(bot: Bot, interaction: Interaction, reply: Reply, public: bool) -> None:
    """A change of a started game: on its card (and, at the end, the final post), the
    player to act pinged; the change counts as posted once the card has it. The actor is
    answered privately."""
    view = reply.view
    assert view is not None
    # What the command said before the move's words ("Ana resigned.", "imported").
    added = (reply.content[:-len(reply.said)].strip()
             if reply.said and reply.content.endswith(reply.said) else "")
    last = "\n".join(line for line in (added, reply.last) if line)
    try:
        await bot.cards.show(view, last, tile=reply.tile, choices=reply.choices,
                             board=reply.board, newest=reply.newest)
        if reply.final is not None:
            await final_post(bot, interaction.filesize_limit, reply)
    except discord.HTTPException as exc:
        await not_posted(bot, interaction, view, exc)
        return
    await posted(bot, view)
    # The ping never raises (a failure is logged): it goes out while the actor is told.
    await asyncio.gather(bot.pings.turn(view, reply.tile),
                         _card_done(interaction, reply, public))


async def _card_done(interaction: Interaction, reply: Reply, public: bool) -> None:
    view = reply.view
    assert view is not None
    if view.where.channel != str(interaction.channel_id or 0):
        said = _("Done: game #{game} is played in {channel}, where its card is up to "
                 "date.").format(game=view.game_id, channel=f"<#{view.where.channel}>")
    else:
        said = _("Done: the card of game #{game} is up to date.").format(game=view.game_id)
    offer = take_back_offer(view) if reply.undoable else None
    if reply.edit:  # the private turn message the confirm was on
        await private_edit(interaction, said, [], offer)
        return
    if public:  # a public "thinking" placeholder: replaced by a private answer
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(said, ephemeral=True, **_message([], offer, NO_PINGS))


async def final_post(bot: Bot, limit: int, reply: Reply) -> None:
    """The end-of-game post (ranking, scoring file, replays) in the game's channel: it
    tells the game's last change, so it is delivered once under its key."""
    view = reply.view
    assert view is not None
    with speaking(reply.language or current()):
        files = await files_of(bot, limit, reply)
    key = PostKey(view.game_id, view.version)
    message = ChannelPost(bot, view.where.channel, key.marker,
                          text.with_notes(reply.content, reply.notes),
                          view=reply.components, files=files)
    await deliver(bot, key, message, posted=view.version)


async def not_posted(bot: Bot, interaction: Interaction, view: TurnView,
                     exc: discord.HTTPException) -> None:
    """The command was stored but Discord refused its public post: say so privately;
    a change the channel is owed is posted later by the timer loop."""
    log.warning("game %s: public post refused (HTTP %s)", view.game_id, exc.status)
    if await bot.service.owes_post(view.game_id):
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
