"""The one place a message of the bot's own goes to a channel: the card, pings, lobby and
end-of-game posts, votes, the timers' and events' notices.

A message that tells players a change of a game (issue 30: "each public post exactly
once as players see it") is delivered through the service's `deliver` under its
`PostKey`, as a `ChannelPost` (or, for an interaction's public answer, a `ReplyPost`):
the attempt is recorded before the send; the send carries the key's nonce (discord.py
sends it with `enforce_nonce`, so Discord answers a repeated send within a few minutes
with the first message) and the key's marker, where a fresh process reading the
channel's history finds it: a last subtext line (Discord's small grey text; on a
Components V2 message, a text display of its own) holding the game's number and the
version, `-# #12·34`, and for another kind than a change's post the kind's number
(`#12·0·1`: the card): no words, so nothing a player reads needs translating. The
marker is read back from the bot's own messages only, from the attempt's start on
(`find`).

Reading the history needs the Read Message History permission; where the bot lacks it,
a post whose sender died before it heard Discord's answer may be posted a second time
(never lost), and the log says so once per channel.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

import discord

from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.safe import NO_PINGS
from carca_bot.service.posts import CARD, POST, Delivered, PostKey

log = logging.getLogger("carca_bot.bot")
MARK = "-# "  # Discord's subtext: the marker's line
HISTORY = 50  # messages read after an attempt's start, looking for its marker
DISCORD_EPOCH = 1420070400.0  # no message is older (seconds since 1970)
_no_history: set[str] = set()  # channels whose history was refused (logged once)
NOTICE = "notice"  # a timer's notice in a game's channel (a vote opened, ...)
EXPIRED = "expired"  # a lobby closed for waiting too long
KINDS = (POST, CARD, NOTICE, EXPIRED)  # every kind of message delivered; never reorder


async def send_message(bot: Bot, channel: str | int, content: str | None = None, *,
                       view: discord.ui.View | discord.ui.LayoutView | None = None,
                       files: list[discord.File] | None = None,
                       mentions: discord.AllowedMentions = NO_PINGS,
                       nonce: str | None = None) -> discord.Message:
    """Send to a channel or thread by its id; pings only whom `mentions` names.
    Components are sent only when there are some; raises `discord.HTTPException` when
    Discord refuses (the caller decides whether the post stays owed). `nonce`: a
    delivery's (`ChannelPost`), else discord.py's random one."""
    kwargs: dict[str, Any] = {"allowed_mentions": mentions}
    if content is not None:
        kwargs["content"] = content
    if view is not None and view.children:
        kwargs["view"] = view
    if files:
        kwargs["files"] = files
    if nonce is not None:
        kwargs["nonce"] = nonce
    return await bot.get_partial_messageable(int(channel)).send(**kwargs)


def marker_line(marker: str) -> str:
    """The line a key's marker ("post-12-34", `PostKey.marker`) is written as:
    "-# #12·34"; another kind than `POST` adds its place in `KINDS` ("-# #12·0·1")."""
    kind, game, version = marker.split("-")
    number = KINDS.index(kind)  # ValueError: a kind this front end does not deliver
    return f"{MARK}#{game}·{version}" + (f"·{number}" if number else "")


def marked(content: str, marker: str) -> str:
    """`content` (clipped to fit) with the marker's subtext as its last line."""
    return text.with_notes(content, [marker_line(marker)])


def _walk(components: Iterable[Any]) -> Iterator[Any]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def carries(message: discord.Message, marker: str) -> bool:
    """Whether one of the bot's messages carries `marker` (its subtext line, or a text
    display saying just that)."""
    line = marker_line(marker)
    if line in message.content.splitlines():
        return True
    return any(getattr(c, "content", None) == line for c in _walk(message.components))


class ChannelPost:
    """One message for one channel as the service's `deliver` drives it (a
    `PostChannel`): `content` (a classic message) or a `LayoutView` (Components V2), with
    attachments; both carry the marker. With no words, it only looks (`find`), as the
    catch-up does before it knows what to post."""

    def __init__(self, bot: Bot, channel: str, marker: str = "", content: str | None = None,
                 *, view: discord.ui.View | discord.ui.LayoutView | None = None,
                 files: list[discord.File] | None = None,
                 mentions: discord.AllowedMentions = NO_PINGS, gone: str | None = None) -> None:
        self.bot, self.channel, self.mentions = bot, channel, mentions
        self.gone = gone  # a message just found not editable: not tried again
        self.files = files or []
        self.view = view
        self.content = None if content is None or not marker else marked(content, marker)
        if isinstance(view, discord.ui.LayoutView) and marker:
            view.add_item(discord.ui.TextDisplay(marker_line(marker)))

    def _files(self) -> list[discord.File]:
        """The attachments, rewound: a send after a failed edit uses them again."""
        for file in self.files:
            file.reset()
        return self.files

    async def send(self, nonce: str) -> str:
        message = await send_message(self.bot, self.channel, self.content, view=self.view,
                                     files=self._files(), mentions=self.mentions,
                                     nonce=nonce)
        return str(message.id)

    async def edit(self, message_id: str) -> bool:
        """Show this on message `message_id` instead; False when it is gone or not ours
        to edit (a new one is then sent)."""
        if message_id == self.gone:
            return False
        message = self.bot.get_partial_messageable(int(self.channel)).get_partial_message(
            int(message_id))
        kwargs: dict[str, Any] = {"attachments": self._files(),
                                  "allowed_mentions": self.mentions}
        if not isinstance(self.view, discord.ui.LayoutView):
            kwargs["content"] = self.content
        kwargs["view"] = self.view if self.view is not None and self.view.children else None
        try:
            await message.edit(**kwargs)
        except (discord.NotFound, discord.Forbidden) as exc:
            log.info("channel=%s message %s not editable (HTTP %s)", self.channel,
                     message_id, exc.status)
            return False
        return True

    async def find(self, marker: str, since: float) -> str | None:
        return await find_marked(self.bot, self.channel, marker, since)

    async def discard(self, message_id: str) -> None:
        """Delete a second copy this process sent (another process's was recorded
        first). Any refusal is logged, not raised: the post is delivered either way."""
        try:
            await self._delete(int(message_id))
        except discord.HTTPException as exc:
            log.info("channel=%s second copy %s not deleted (HTTP %s)", self.channel,
                     message_id, exc.status)
            return
        log.info("channel=%s second copy %s deleted: another process's was recorded "
                 "first", self.channel, message_id)

    async def _delete(self, message_id: int) -> None:
        channel = self.bot.get_partial_messageable(int(self.channel))
        await channel.get_partial_message(message_id).delete()


class ReplyPost(ChannelPost):
    """An interaction's public answer (a lobby's or a game's news, in the channel the
    command came from), sent as its follow-up: Discord takes no nonce there, so only the
    record and the marker keep it from being repeated."""

    def __init__(self, bot: Bot, channel: str, followup: discord.Webhook, marker: str,
                 content: str, *, view: discord.ui.View | None = None,
                 files: list[discord.File] | None = None,
                 mentions: discord.AllowedMentions = NO_PINGS) -> None:
        super().__init__(bot, channel, marker, content, view=view, files=files,
                         mentions=mentions)
        self.followup = followup

    async def send(self, nonce: str) -> str:
        kwargs: dict[str, Any] = {"files": self._files(), "allowed_mentions": self.mentions}
        if self.view is not None and self.view.children:
            kwargs["view"] = self.view
        sent = await self.followup.send(self.content or "", wait=True, **kwargs)
        return str(sent.id)

    async def _delete(self, message_id: int) -> None:
        """A follow-up is the interaction's webhook's message: deleted through it."""
        await self.followup.delete_message(message_id)


async def find_marked(bot: Bot, channel: str, marker: str, since: float) -> str | None:
    """The id of the bot's own message in `channel` carrying `marker`, among the first
    `HISTORY` messages posted from `since` (seconds since 1970) on; None when there is
    none, or the history may not be read (logged once per channel). Any other refusal
    raises: the catch-up is tried again later rather than risk a second post."""
    me = bot.user
    if me is None:
        return None
    after = datetime.fromtimestamp(max(since, DISCORD_EPOCH), tz=UTC)
    channel_of = bot.get_partial_messageable(int(channel))
    try:
        async for message in channel_of.history(after=after, limit=HISTORY,
                                                oldest_first=True):
            if message.author.id == me.id and carries(message, marker):
                return str(message.id)
    except discord.Forbidden:
        if channel not in _no_history:
            _no_history.add(channel)
            log.warning("channel=%s: the bot may not read its message history (Read "
                        "Message History), so a post cut off by a restart may be "
                        "repeated there", channel)
    return None


async def deliver(bot: Bot, key: PostKey, post: ChannelPost, *, posted: int | None = None,
                  update: bool = False) -> Delivered:
    """`post` delivered once under `key` (see the module and `GameService.deliver`);
    `posted`: the game's public changes up to that version are then no longer owed."""
    done = await bot.service.deliver(key, post.channel, post, posted=posted, update=update)
    if done.how != "sent":
        log.info("game=%s post %s already in channel %s as %s (%s)", key.game_id, key.marker,
                 post.channel, done.message_id, done.how)
    return done
