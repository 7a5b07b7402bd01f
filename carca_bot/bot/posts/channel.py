"""The bot's own messages in a game's channel, and the bookkeeping after them: a change
the channel saw is no longer owed (`posted`; a message telling it is delivered once,
`post(shows=...)`), vote messages it overtook are closed, and the card follows a public
change that was no move (`refresh_card`)."""

from __future__ import annotations

import logging

import discord

from carca_bot.bot.posts.sending import ChannelPost, deliver, send_message
from carca_bot.bot.posts.votes import settle_votes
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import pinging
from carca_bot.i18n import speaking
from carca_bot.service import ServiceError, TurnView, Where
from carca_bot.service.posts import PostKey

log = logging.getLogger("carca_bot.bot")


async def post(bot: Bot, place: Where, content: str, view: discord.ui.View | None = None,
               pings: list[str] | None = None, files: list[discord.File] | None = None,
               shows: TurnView | None = None, key: PostKey | None = None) -> None:
    """A message of the bot's own in a game's channel or thread. `shows`: it tells the
    game's change at `shows.version`: delivered once under that key (`sending.deliver`),
    the game then marked posted up to it. `key`: another message of a game's own (a
    timer's notice), delivered once under it."""
    mentions = pinging(*(pings or []))
    if shows is not None:
        key = PostKey(shows.game_id, shows.version)
    if key is None:
        await send_message(bot, place.channel, text.clip(content), view=view, files=files,
                           mentions=mentions)
        return
    message = ChannelPost(bot, place.channel, key.marker, content, view=view, files=files,
                          mentions=mentions)
    await deliver(bot, key, message, posted=None if shows is None else shows.version)
    if shows is not None:
        await settle(bot, shows)


async def posted(bot: Bot, view: TurnView) -> None:
    """The channel saw the game at `view.version`: nothing before it is owed. Vote
    messages the change overtook are closed."""
    try:
        await bot.service.mark_posted(view.game_id, view.version)
    except ServiceError:  # posted twice at worst, never lost
        log.warning("game %s: could not note post of version %s", view.game_id,
                    view.version)
    await settle(bot, view)


async def settle(bot: Bot, view: TurnView) -> None:
    """Close the vote messages a change shown in the channel overtook."""
    try:
        await settle_votes(bot, view.game_id)
    except (discord.HTTPException, ServiceError):  # closed at the next change
        log.warning("game %s: could not close its vote messages", view.game_id)


async def refresh_card(bot: Bot, view: TurnView, last: str | None = None) -> bool:
    """After a public post about a started game that is not a move (a player removed,
    the game cancelled): the card follows, best effort (a failure leaves it for the
    next change). `last` (in the game's language): what the card says happened,
    instead of the view's events. Returns whether the card has it."""
    try:
        if last is None:
            with speaking(game_language(view)):
                last = text.move_lines(view)
        await bot.cards.show(view, last)
    except discord.HTTPException as exc:
        log.warning("game %s: card not refreshed (HTTP %s)", view.game_id, exc.status)
        return False
    await bot.pings.turn(view)
    return True
