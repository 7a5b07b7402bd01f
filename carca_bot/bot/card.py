"""The game card: one Components V2 message per game, edited in place after every
public change (the board, the scores, whose turn it is and until when, the last move,
the clocks), instead of a new picture in the channel after every move.

The card's message id is stored with the game (`service.set_card_message`), so a
restart edits the same card. A card Discord no longer has (deleted, or one the bot may
not edit) is posted again and remembered; any other refusal is raised, so the change
stays owed (`service.pending_posts`) and the timer loop shows it later.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from carca_bot.bot import languages, text
from carca_bot.bot.buttons import ChoiceSelect, GameButton, card_actions, wagon_options
from carca_bot.bot.safe import NO_PINGS, clip, safe_name
from carca_bot.engine.game import Game
from carca_bot.i18n import Domain, speaking
from carca_bot.service import Choices, SeatView, TurnView

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

log = logging.getLogger("carca_bot.card")
_T = Domain("bot")
_ = _T.gettext

PICTURE = "board.png"
CARD_BYTES = 8 * 1024 * 1024  # within any server's upload limit
LAST_MOVE_CHARS = 1200  # the card's words stay well inside Discord's 4,000 per message
SEATS_CHARS = 1200
TURN_CHARS = 900


def pace(seconds: float | None) -> str:
    """A median time to move: '3 h 10 min', '12 min', 'under a minute'; '—' before any."""
    if seconds is None:
        return "—"
    if seconds < 60:
        return _("under a minute")
    return text.duration(int(seconds))


def seat_line(view: TurnView, seat: SeatView) -> str:
    """'▶ **Ana** 12 · ⏳ 23 h left · 🌴 on vacation': a player on the card."""
    acting = view.deciding is not None and seat.seat == view.deciding.seat and not view.finished
    parts = [f"{'▶' if acting else '•'} **{safe_name(seat.name)}** {seat.score}"]
    if seat.expelled:
        parts.append(_("expelled"))
    elif seat.resigned:
        parts.append(_("resigned"))
    elif view.options.clock is not None and seat.bank is not None and not view.finished:
        # TRANSLATORS: the time a player has left in their clock's bank, e.g. "23 h left".
        parts.append(_("⏳ {time} left").format(time=text.duration(max(0, int(seat.bank)))))
    if seat.on_vacation and not view.finished:
        parts.append(_("🌴 on vacation"))
    return " · ".join(parts)


def seats_block(view: TurnView) -> str:
    lines = [seat_line(view, s) for s in (view.standings if view.finished else view.seats)]
    if view.status == "active":
        lines.append(_("Tiles left: {tiles}").format(tiles=view.tiles_left))
    return clip("\n".join(lines), SEATS_CHARS)


def turn_block(view: TurnView, tile: str | None) -> str:
    """Who acts now and until when; the result once the game is over."""
    if view.finished:
        return text.final_line(view)
    lines = [text.next_line(view, tile, picture_below=False)]
    if view.options.clock is not None and view.deadline is not None:
        lines.append(_("⏳ Their time runs out {when}.").format(
            when=f"<t:{int(view.deadline)}:R>"))
    vote = view.expel_vote
    if vote is not None:
        lines.append(_("🗳 Vote to expel **{name}**: {votes} of {needed} votes.").format(
            name=safe_name(vote.target), votes=len(vote.voters), needed=vote.needed))
    return clip("\n".join(line for line in lines if line), TURN_CHARS)


def card_layout(view: TurnView, last: str, *, picture: bool, tile: str | None = None,
                choices: Choices | None = None) -> discord.ui.LayoutView:
    """The card for `view`, in the language spoken now; `last` is the last move and what
    it scored (already safe), `picture` whether the board is attached as PICTURE."""
    ui = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[Any] = discord.ui.Container()
    box.add_item(discord.ui.TextDisplay(
        _("**Carcassonne · game #{game}**").format(game=view.game_id)))
    if picture:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{PICTURE}", description=_("The board"))))
    if last:
        box.add_item(discord.ui.TextDisplay(clip(last, LAST_MOVE_CHARS)))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.TextDisplay(seats_block(view)))
    box.add_item(discord.ui.TextDisplay(turn_block(view, tile)))
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for action, label in card_actions(view):
        row.add_item(GameButton(action, view.game_id, view.version, label=label))
    box.add_item(row)
    if view.must == "wagon" and choices is not None and not view.finished:
        menu: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        menu.add_item(ChoiceSelect("wagon", view.game_id, view.version,
                                   wagon_options(choices)))
        box.add_item(menu)
    ui.add_item(box)
    return ui


def stats_text(view: TurnView) -> str:
    """The card's status view: the game's status, then each player's median time to move."""
    lines = [text.status_text(view), "", _("**Median time to move**")]
    for seat in view.seats:
        lines.append(_("• {name}: {time}").format(name=safe_name(seat.name),
                                                  time=pace(seat.median_move_seconds)))
    return text.clip("\n".join(lines))


class Cards:
    """Shows games on their cards; one update at a time per game, never an older one over
    a newer."""

    def __init__(self, bot: CarcaBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}  # game -> version on its card (this process)

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def show(self, view: TurnView, last: str, *, tile: str | None = None,
                   choices: Choices | None = None, board: Game | None = None) -> None:
        """Put `view` on the game's card (edit it, or post it when there is none to edit).
        Returns once Discord has it; raises `discord.HTTPException` when it refused both.
        `last` is written in the game's language; `board`: the game as `view` shows it,
        when the caller has it already (a copy costs a snapshot)."""
        async with self._lock(view.game_id):
            if self._shown.get(view.game_id, -1) > view.version:
                return  # a newer change is on the card already
            if board is None:
                board = await self.bot.service.game(view.where, view.game_id)
            language = languages.game_language(view)
            png = None
            if board is not None:
                png = await self.bot.render_card(board, tile, language)
            with speaking(language):
                layout = card_layout(view, last, picture=png is not None, tile=tile,
                                     choices=choices)
                description = _("The board")
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
        sent = await self.bot.get_partial_messageable(int(channel)).send(
            view=layout, files=files(), allowed_mentions=NO_PINGS)
        await self.bot.service.set_card_message(view.game_id, channel, str(sent.id))
        log.info("game=%s card posted as message %s", view.game_id, sent.id)
