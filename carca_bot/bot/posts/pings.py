"""One ping per turn: a short message naming the player to act, which replaces the
previous one (deleted), so a game's channel gets one notification per turn.

Each user chooses how they are told (`/carc-notify`): a mention in the game's channel
(the default), a direct message, or nothing; and whether to hear when the player
before them starts their turn. A direct message Discord refuses (the user closed
their DMs) falls back to the mention, logged once per user.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

import discord

from carca_bot.bot.posts.sending import send_message
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import NO_PINGS, pinging, safe_name
from carca_bot.i18n import Domain, speaking
from carca_bot.service import NotifyPref, SeatView, ServiceError, TurnView

log = logging.getLogger("carca_bot.ping")
_T = Domain("bot")
_ = _T.gettext

TURN_STARTS = ("choose", "place")  # what a game waits for when a new turn begins


def after(view: TurnView, seat: SeatView) -> SeatView | None:
    """The player still in the game who plays after `seat` (None if nobody else)."""
    order = list(view.seats)
    for step in range(1, len(order)):
        found = order[(seat.seat + step) % len(order)]
        if not found.resigned and found.user_id != seat.user_id:
            return found
    return None


@dataclass
class Plan:
    """What to send for one turn: the channel message's lines and whom it pings; the
    direct messages (user id, words)."""

    lines: list[str] = field(default_factory=list)
    pings: list[str] = field(default_factory=list)
    direct: list[tuple[str, str]] = field(default_factory=list)


class Pings:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._dm_closed: set[str] = set()  # users whose closed DMs were logged

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def forget(self, user_id: str) -> None:
        """Nothing kept about this user any more (their data was erased)."""
        self._dm_closed.discard(user_id)

    async def turn(self, view: TurnView, tile: str | None = None,
                   reminder: str | None = None) -> None:
        """Tell the player to act that it is their turn, once per turn, deleting the last
        ping; `reminder` (already worded) is sent even when the turn was told already.
        Discord refusing any of it is logged, never raised: the card shows the turn."""
        try:
            async with self._lock(view.game_id):
                await self._turn(view, tile, reminder)
        except (discord.HTTPException, ServiceError) as exc:
            log.warning("game=%s turn ping failed: %s", view.game_id, exc)

    async def _turn(self, view: TurnView, tile: str | None, reminder: str | None) -> None:
        svc = self.bot.service
        saved = await svc.game_messages(view.game_id)
        acting = view.deciding if view.status == "active" else None
        user = acting.user_id if acting is not None else None
        if acting is None or user is None or not user.isdigit():
            await self._forget(view.game_id, saved.ping_channel, saved.ping_id)
            return
        if reminder is None and saved.ping_user == user and (
                saved.ping_moves == view.moves or view.part == 2):
            return  # this turn was told already (a builder's second part is the same turn)
        nxt = after(view, acting) if view.must in TURN_STARTS and reminder is None else None
        wanted = [user] + ([nxt.user_id] if nxt is not None and nxt.user_id else [])
        prefs = await svc.notify_prefs(wanted)
        with speaking(game_language(view)):
            plan = self._plan(view, acting, prefs[user], tile, reminder)
            if nxt is not None and nxt.user_id and nxt.user_id.isdigit():
                self._early(view, acting, nxt, prefs[nxt.user_id], plan)
        await self._forget(view.game_id, saved.ping_channel, saved.ping_id)
        kept: tuple[str, str] | None = None
        for user_id, words in plan.direct:
            sent = await self._direct(user_id, words)
            if sent is None:  # closed DMs: the mention in the channel after all
                with speaking(game_language(view)):
                    self._fallback(view, user_id, acting, nxt, tile, reminder, plan)
            elif kept is None:
                kept = sent
        if plan.lines:
            message = await send_message(self.bot, view.where.channel,
                                         text.clip("\n".join(plan.lines)),
                                         mentions=pinging(*plan.pings))
            kept = (view.where.channel, str(message.id))
        await svc.set_ping_message(view.game_id, kept[0] if kept else None,
                                   kept[1] if kept else None, user, view.moves)

    def _plan(self, view: TurnView, acting: SeatView, pref: NotifyPref, tile: str | None,
              reminder: str | None) -> Plan:
        plan = Plan()
        assert acting.user_id is not None
        if pref.mode == "channel":
            plan.lines.append(reminder or text.next_line(view, tile, picture_below=False))
            plan.pings.append(acting.user_id)
        elif pref.mode == "dm":
            plan.direct.append((acting.user_id, reminder or self.dm_words(view)))
        return plan

    def _early(self, view: TurnView, acting: SeatView, nxt: SeatView, pref: NotifyPref,
               plan: Plan) -> None:
        """'You are next': for a player who asked to hear when the one before them starts."""
        if not pref.early or pref.mode == "none":
            return
        assert nxt.user_id is not None
        if pref.mode == "dm":
            plan.direct.append((nxt.user_id, _(
                "You are next in game #{game} ({channel}): **{name}** has started their "
                "turn.").format(game=view.game_id, channel=f"<#{view.where.channel}>",
                                name=safe_name(acting.name))))
            return
        plan.lines.append(_("{who}, you are next after **{name}**.").format(
            who=text.mention(nxt.user_id, nxt.name), name=safe_name(acting.name)))
        plan.pings.append(nxt.user_id)

    def _fallback(self, view: TurnView, user_id: str, acting: SeatView,
                  nxt: SeatView | None, tile: str | None, reminder: str | None,
                  plan: Plan) -> None:
        if user_id == acting.user_id:
            plan.lines.insert(0, reminder or text.next_line(view, tile, picture_below=False))
        elif nxt is not None:
            plan.lines.append(_("{who}, you are next after **{name}**.").format(
                who=text.mention(nxt.user_id, nxt.name), name=safe_name(acting.name)))
        plan.pings.append(user_id)

    @staticmethod
    def dm_words(view: TurnView) -> str:
        """The direct message that it is your turn (the game's channel named)."""
        line = _("Your turn in game #{game} ({channel}): {doing}.").format(
            game=view.game_id, channel=f"<#{view.where.channel}>", doing=text.must_words(view))
        timer = text.timer_words(view)
        if view.options.clock is not None and view.deadline is not None:
            timer = _("⏳ Your time runs out {when}.").format(when=f"<t:{int(view.deadline)}:R>")
        return line + (f" {timer}" if timer else "")

    async def _direct(self, user_id: str, words: str) -> tuple[str, str] | None:
        """A direct message; (channel id, message id), or None when Discord refused it."""
        try:
            dm = await self.bot.create_dm(discord.Object(int(user_id)))
            sent = await dm.send(text.clip(words), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            if user_id not in self._dm_closed:
                self._dm_closed.add(user_id)
                log.info("user=%s takes no direct messages (HTTP %s): mentioned in the "
                         "channel instead", user_id, exc.status)
            return None
        self._dm_closed.discard(user_id)
        return str(dm.id), str(sent.id)

    async def _forget(self, game_id: int, channel: str | None, message: str | None) -> None:
        """Delete the last ping (already gone is fine) and forget it."""
        if channel is None or message is None:
            return
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await self.bot.get_partial_messageable(int(channel)).get_partial_message(
                int(message)).delete()
        await self.bot.service.set_ping_message(game_id, None, None)
