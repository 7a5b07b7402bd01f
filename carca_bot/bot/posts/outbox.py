"""Posts a channel is owed: a committed change whose public post Discord refused, or that
a restart cut off, is posted later by the timer loop (and at once after an AI seat's
move), oldest first, from what the service kept.

Each owed entry is delivered once as players see it (issue 30): the loop leases only
the entries it will deliver (`pending_posts(min_age=...)`), asks the service what is
still to be posted (`catch_up`: a post an earlier process made before it died is found
in the channel by its marker, and the changes it told count as posted), and delivers
the rest under the catch-up's key (`sending.deliver`). A started game's change goes on
its card (one message, edited); a finished game's result and a lobby's news are new
messages, headed with the game's number, and, when another game has begun in the
channel since, saying so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import discord

from carca_bot.bot.components.rows import final_row, row_for
from carca_bot.bot.posts import endgame
from carca_bot.bot.posts.sending import ChannelPost, deliver
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
        posting them, and not leased (`game_id`: that game's only, leasing no other). A
        failed send stays owed for the next period. Returns posts delivered."""
        if game_id is not None:
            owed = await self.bot.service.pending_post(game_id)
            return 0 if owed is None else await self._deliver_one(owed)
        sent = 0
        for owed in await self.bot.service.pending_posts(min_age=min_age):
            sent += await self._deliver_one(owed)
        return sent

    async def on_public_change(self, game_id: int, after: int) -> None:
        """The service's `on_public_change`: post an AI seat's move at once.

        The service calls it after storing a change it made itself, `after` being the
        game's version before it. The post of the change before (a player's move, which
        their own command is still posting) is waited for first, looking without a
        lease, so the catch-up post holds only the new moves; then the game's owed post
        goes out as the timer loop would send it (other games' are left to their
        commands and the timer loop). One delivery at a time, so no owed post goes out
        twice.
        """
        loop = asyncio.get_running_loop()
        waited_until = loop.time() + PREVIOUS_POST_WAIT
        while loop.time() < waited_until:
            owed = await self.bot.service.pending_post(game_id, take=False)
            if owed is None:
                return  # posted already (the timer loop, or an earlier call)
            if owed.posted_version >= after:
                break
            await asyncio.sleep(0.1)
        async with self._delivering:  # this game's only: another's may still be posting
            await self.deliver(min_age=0.0, game_id=game_id)

    async def _deliver_one(self, owed: PendingPost) -> int:
        finder = ChannelPost(self.bot, owed.channel_id)  # looks in the channel, sends nothing
        try:
            catch = await self.bot.service.catch_up(owed, finder)
        except ServiceError as exc:
            self._failed_once(owed.game_id, f"cannot be read ({exc})")
            return 0
        except discord.HTTPException as exc:
            self._failed_once(owed.game_id, f"could not be looked for (HTTP {exc.status})")
            return 0
        if catch is None:  # the channel had it: a post whose sender died unanswered
            log.info("game=%s outcome=owed_post_found version=%s", owed.game_id,
                     owed.version)
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
        self._failed.discard(view.game_id)
        log.info("game=%s outcome=owed_post_delivered version=%s", view.game_id,
                 catch.version)
        if view.status != "lobby":
            await self.bot.pings.turn(view)
        return 1

    async def _catch_up_card(self, catch: CatchUp) -> None:
        """A started game's owed change: on its card (then marked posted: an edit makes
        no message to repeat); a finished game's result is also posted, as the
        end-of-game post would have been, delivered once under the catch-up's key."""
        view = catch.view
        with speaking(game_language(view)):
            said = [d for d in map(text.describe, played(catch.played)) if d]
            # What the changes told and did: the card's words and its picture's.
            now = dataclasses.replace(view, events=tuple(catch.lines), played=catch.played)
            last = "\n".join([*said, text.move_lines(now)])
        await self.bot.cards.show(now, last)
        if view.finished:
            await self._catch_up_post(catch)
        else:
            await self.bot.service.mark_posted(view.game_id, catch.version)

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
            content = text.with_notes(text.catch_up(view, catch.lines, played(catch.played),
                                                    later_game=catch.other_game),
                                      endgame.rating_lines(rated))
            components = (final_row(view.game_id) if view.finished
                          else row_for(view, None, private=False))
        message = ChannelPost(self.bot, view.where.channel, catch.key.marker, content,
                              view=components, files=files)
        await deliver(self.bot, catch.key, message, posted=catch.version)

    def _failed_once(self, game_id: int, why: str) -> None:
        """One warning per game, not one every period while Discord refuses."""
        if game_id not in self._failed:
            self._failed.add(game_id)
            log.warning("game %s: an owed public post %s; retrying every %.0f s", game_id,
                        why, self.retry_seconds)
