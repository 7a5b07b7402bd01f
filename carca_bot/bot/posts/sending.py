"""The one place a message of the bot's own goes to a channel: the card, pings, lobby and
end-of-game posts, votes, the timers' and events' notices. Whatever every public post
needs (a nonce so a post retried after a crash is not doubled, a metric) goes here."""

from __future__ import annotations

from typing import Any

import discord

from carca_bot.bot.seam import Bot
from carca_bot.bot.words.safe import NO_PINGS


async def send_message(bot: Bot, channel: str | int, content: str | None = None, *,
                       view: discord.ui.View | discord.ui.LayoutView | None = None,
                       files: list[discord.File] | None = None,
                       mentions: discord.AllowedMentions = NO_PINGS) -> discord.Message:
    """Send to a channel or thread by its id; pings only whom `mentions` names.
    Components are sent only when there are some; raises `discord.HTTPException` when
    Discord refuses (the caller decides whether the post stays owed)."""
    kwargs: dict[str, Any] = {"allowed_mentions": mentions}
    if content is not None:
        kwargs["content"] = content
    if view is not None and view.children:
        kwargs["view"] = view
    if files:
        kwargs["files"] = files
    return await bot.get_partial_messageable(int(channel)).send(**kwargs)
