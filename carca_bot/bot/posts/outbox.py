"""Posts a channel is owed: a committed change whose public post Discord refused, or that
a restart cut off, is posted later by the timer loop (and at once after an AI seat's
move), oldest first, from what the service kept (`pending_posts`, `events_since`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import discord

from carca_bot.bot.components.rows import final_row, row_for
from carca_bot.bot.posts import endgame
from carca_bot.bot.posts.channel import post
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import game_language
from carca_bot.i18n import Domain, speaking
from carca_bot.service import CatchUp, PendingPost, ServiceError, played

log = logging.getLogger("carca_bot.bot")
_T = Domain("bot")
_ = _T.gettext

OWED_POST_AGE = 30.0  # seconds a command has to post its own result before the timer does
PREVIOUS_POST_WAIT = 15.0  # seconds an AI's post waits for the post of the move before it
BOARD_BYTES = 8 * 1024 * 1024  # within any server's upload limit


class Outbox:
    """Delivers owed posts; remembers which games failed, to warn once per game."""

    def __init__(self, bot: Bot, retry_seconds: float) -> None:
        self.bot, self.retry_seconds = bot, retry_seconds
        self._failed: set[int] = set()  # games whose owed post failed (logged once)
        self._delivering = asyncio.Lock()  # one AI delivery at a time (`on_public_change`)

    async def deliver(self, min_age: float = OWED_POST_AGE, game_id: int | None = None) -> int:
        """Post the committed changes a channel was not shown (a refused or lost post),
        oldest first; those only `min_age` seconds old are left to the command still
        posting them (`game_id`: that game's only). A failed send stays owed for the next
        period. Returns posts sent."""
        sent = 0
        now = self.bot.service.clock()
        for owed in await self.bot.service.pending_posts():
            if now - owed.since < min_age or game_id not in (None, owed.game_id):
                continue
            sent += await self._deliver_one(owed)
        return sent

    async def on_public_change(self, game_id: int, after: int) -> None:
        """The service's `on_public_change`: post an AI seat's move at once.

        The service calls it after storing a change it made itself, `after` being the
        game's version before it. The post of the change before (a player's move, which
        their own command is still posting) is waited for first, so the catch-up post
        holds only the new moves; then the game's owed post goes out as the timer loop
        would send it (other games' are left to their commands and the timer loop). One
        delivery at a time, so no owed post goes out twice.
        """
        loop = asyncio.get_running_loop()
        waited_until = loop.time() + PREVIOUS_POST_WAIT
        while loop.time() < waited_until:
            owed = next((p for p in await self.bot.service.pending_posts()
                         if p.game_id == game_id), None)
            if owed is None:
                return  # posted already (the timer loop, or an earlier call)
            if owed.posted_version >= after:
                break
            await asyncio.sleep(0.1)
        async with self._delivering:  # this game's only: another's may still be posting
            await self.deliver(min_age=0.0, game_id=game_id)

    async def _deliver_one(self, owed: PendingPost) -> int:
        try:
            catch = await self.bot.service.events_since(owed.game_id, owed.posted_version)
        except ServiceError as exc:
            self._failed_once(owed.game_id, f"cannot be read ({exc})")
            return 0
        view = catch.view
        try:
            if view.status == "lobby":
                await self._catch_up_post(catch)
            else:
                await self._catch_up_card(catch)
        except discord.HTTPException as exc:
            self._failed_once(owed.game_id, f"could not be posted (HTTP {exc.status})")
            return 0
        await self.bot.service.mark_posted(view.game_id, catch.version)
        self._failed.discard(view.game_id)
        log.info("game=%s outcome=owed_post_delivered version=%s", view.game_id,
                 catch.version)
        if view.status != "lobby":
            await self.bot.pings.turn(view)
        return 1

    async def _catch_up_card(self, catch: CatchUp) -> None:
        """A started game's owed change: on its card; a finished game's result is also
        posted, as the end-of-game post would have been."""
        view = catch.view
        with speaking(game_language(view)):
            said = [d for d in map(text.describe, played(catch.played)) if d]
            # What the changes told and did: the card's words and its picture's.
            now = dataclasses.replace(view, events=tuple(catch.lines), played=catch.played)
            last = "\n".join([*said, text.move_lines(now)])
        await self.bot.cards.show(now, last)
        if view.finished:
            await self._catch_up_post(catch)

    async def _catch_up_post(self, catch: CatchUp) -> None:
        view = catch.view
        files: list[discord.File] = []
        shown = await self.bot.service.public_view(view.game_id)
        rated = await endgame.rating_of(self.bot.service, view.game_id)
        now = dataclasses.replace(view, events=tuple(catch.lines), played=catch.played)
        with speaking(game_language(view)) as language:
            if shown.board is not None:
                files.append(await self.bot.pictures.board_file(
                    shown.board, BOARD_BYTES, language, now, shown.last))
            content = text.with_notes(text.catch_up(view, catch.lines, played(catch.played)),
                                      endgame.rating_lines(rated))
            components = (final_row(view.game_id) if view.finished
                          else row_for(view, None, private=False))
        await post(self.bot, view.where, content, components, [], files)

    def _failed_once(self, game_id: int, why: str) -> None:
        """One warning per game, not one every period while Discord refuses."""
        if game_id not in self._failed:
            self._failed.add(game_id)
            log.warning("game %s: an owed public post %s; retrying every %.0f s", game_id,
                        why, self.retry_seconds)
