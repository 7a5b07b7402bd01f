"""The game card in its channel: one Components V2 message per game, edited in place
after every public change, instead of a new picture after every move
(`components.card` lays it out).

The card's message id is stored with the game (`service.set_card_message`), so a
restart edits the same card. It is created through the exactly-once delivery (key
`card-<game>-0`, `sending.deliver`), so a process that died while Discord was making it
leaves the next one to find it rather than post a second card. A card Discord no longer
has (deleted, or one the bot may not edit) is posted again and remembered; any other
refusal is raised, so the change stays owed (`service.pending_posts`) and the timer
loop shows it later.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from carca_bot.bot.components.card import PICTURE, card_layout
from carca_bot.bot.posts.sending import ChannelPost, deliver
from carca_bot.bot.seam import Bot
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import NO_PINGS
from carca_bot.i18n import Domain, speaking
from carca_bot.service import Choices, Played, TurnView
from carca_bot.service.posts import CARD, PostKey
from carca_bot.words import alt

if TYPE_CHECKING:
    from carca_bot.engine.game import Game

log = logging.getLogger("carca_bot.card")
_T = Domain("bot")
_ = _T.gettext


class Cards:
    """Shows games on their cards; one update at a time per game, never an older one over
    a newer."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}  # game -> version on its card (this process)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def show(self, view: TurnView, last: str, *, tile: str | None = None,
                   choices: Choices | None = None, board: Game | None = None,
                   newest: Played | None = None) -> None:
        """Put `view` on the game's card (edit it, or post it when there is none to edit).
        Returns once Discord has it; raises `discord.HTTPException` when it refused both.
        `last` is written in the game's language; `board`: the game to draw, with
        `newest` its newest action (`Shown.last`: what the picture's description names
        when `view` made no move), when the caller has them already (from the service's
        public view); else they are asked for."""
        async with self._lock(view.game_id):
            if self._shown.get(view.game_id, -1) > view.version:
                return  # a newer change is on the card already
            if board is None:
                shown = await self.bot.service.public_view(view.game_id)
                board, newest = shown.board, shown.last
            language = game_language(view)
            png, beyond = None, 0
            if board is not None:
                png, beyond = await asyncio.gather(
                    self.bot.pictures.card(board, tile, language),
                    self.bot.pictures.beyond(board, tile))
            with speaking(language):
                description = alt.card_alt(view, newest, tile, beyond)
                layout = card_layout(view, last, picture=png is not None, tile=tile,
                                     choices=choices, alt=description)
            await self._put(view, layout, png, description)
            self._shown[view.game_id] = view.version

    async def _put(self, view: TurnView, layout: discord.ui.LayoutView, png: bytes | None,
                   description: str) -> None:
        def files() -> list[discord.File]:
            if png is None:
                return []
            return [discord.File(io.BytesIO(png), filename=PICTURE, description=description)]

        saved = await self.bot.service.game_messages(view.game_id)
        channel = view.where.channel
        gone = None
        if saved.card_id is not None and saved.card_channel == channel:
            message = self.bot.get_partial_messageable(int(channel)).get_partial_message(
                int(saved.card_id))
            try:
                await message.edit(view=layout, attachments=files(),
                                   allowed_mentions=NO_PINGS)
                return
            except (discord.NotFound, discord.Forbidden) as exc:
                log.info("game=%s card %s cannot be edited (HTTP %s): posting a new one",
                         view.game_id, saved.card_id, exc.status)
                gone = saved.card_id
        # Created once (`sending.deliver`): a card whose process died before it heard
        # Discord's answer is found in the channel, and edited, not posted again.
        key = PostKey(view.game_id, 0, CARD)
        card = ChannelPost(self.bot, channel, key.marker, view=layout, files=files(),
                           gone=gone)
        done = await deliver(self.bot, key, card, update=True)
        if done.message_id != saved.card_id or saved.card_channel != channel:
            await self.bot.service.set_card_message(view.game_id, channel, done.message_id)
        log.info("game=%s card %s as message %s", view.game_id, done.how, done.message_id)
