"""The game card: one Components V2 message per game, edited in place after every
public change (the board, the scores, whose turn it is and until when, the last move,
the clocks), instead of a new picture in the channel after every move.

This module lays the card out; `posts.cards` puts it in the channel.
"""

from __future__ import annotations

from typing import Any

import discord

from carca_bot.bot.components.ids import GameItem
from carca_bot.bot.components.menus import wagon_options
from carca_bot.bot.components.rows import card_actions
from carca_bot.bot.core.pictures import BOARD
from carca_bot.bot.words import text
from carca_bot.bot.words.safe import clip, safe_name
from carca_bot.i18n import Domain
from carca_bot.service import Choices, SeatView, TurnView

_T = Domain("bot")
_ = _T.gettext

PICTURE = BOARD  # the card's picture, attached under this name
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
                choices: Choices | None = None, alt: str = "") -> discord.ui.LayoutView:
    """The card for `view`, in the language spoken now; `last` is the last move and what
    it scored (already safe), `picture` whether the board is attached as PICTURE, `alt`
    its description (`words.alt.card_alt`)."""
    ui = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[Any] = discord.ui.Container()
    box.add_item(discord.ui.TextDisplay(
        _("**Carcassonne · game #{game}**").format(game=view.game_id)))
    if picture:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{PICTURE}", description=alt or None)))
    if last:
        box.add_item(discord.ui.TextDisplay(clip(last, LAST_MOVE_CHARS)))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.TextDisplay(seats_block(view)))
    box.add_item(discord.ui.TextDisplay(turn_block(view, tile)))
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for action, label in card_actions(view):
        row.add_item(GameItem.button(action, view.game_id, view.version, label=label))
    box.add_item(row)
    if view.must == "wagon" and choices is not None and not view.finished:
        menu: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        menu.add_item(GameItem.menu("wagon", view.game_id, view.version,
                                    wagon_options(choices)))
        box.add_item(menu)
    ui.add_item(box)
    return ui


def stats_text(view: TurnView, status: str) -> str:
    """The game's status (`status`, said already), then each player's median time to
    move: what the card's Status button shows."""
    lines = [status, "", _("**Median time to move**")]
    for seat in view.seats:
        lines.append(_("• {name}: {time}").format(name=safe_name(seat.name),
                                                  time=pace(seat.median_move_seconds)))
    return text.clip("\n".join(lines))
