"""What the service's timers did, said in the game's channel: a reminder to the late
player, a turn played or skipped for them (on the card), a vote to expel opened, a
game that ended by it, a lobby that waited too long. Each message is delivered once
under its key (the game, the version the timer's step made, and what it says): the
game's end is an owed change (a catch-up after a crash finds the post rather than
repeat it); a notice is said once even if its delivery is tried again."""

from __future__ import annotations

import logging

import discord

from carca_bot.bot.components.rows import final_row, row_for
from carca_bot.bot.core.pictures import file_size
from carca_bot.bot.posts import endgame
from carca_bot.bot.posts.channel import post, posted, refresh_card
from carca_bot.bot.posts.sending import EXPIRED, NOTICE
from carca_bot.bot.posts.votes import post_vote
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain, speaking
from carca_bot.service import Note, TimerReport
from carca_bot.service.posts import PostKey

log = logging.getLogger("carca_bot.bot")
_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

BOARD_BYTES = 8 * 1024 * 1024  # within any server's upload limit


async def announce_timer(bot: Bot, report: TimerReport) -> None:
    """A reminder to the late player, or after an auto-played turn: what was played,
    the board, and who is next."""
    view = report.view
    if report.reason == "lobby_expired":
        await lobby_expired(bot, report)
        return
    if report.auto_played and not view.finished:  # on the card, the next player pinged
        await _played_for_late(bot, report)
        return
    if report.auto_played:  # the game ended: its card, and the end-of-game post
        await _ended_by_timer(bot, report)
        return
    if report.reason == "expel_vote":  # the vote's own message, with its buttons
        try:
            await post_vote(bot, report)
        except discord.HTTPException:
            log.warning("could not post the vote in channel %s", report.where.channel)
    with speaking(game_language(view)):
        reminder = _reminder(report)
        components = row_for(view, None, private=False)
    if report.reason in ("reminder", "clock_reminder"):  # the turn's ping, again
        await bot.pings.turn(view, reminder=reminder)
        return
    try:
        await post(bot, view.where, reminder, components,
                   [report.user_id] if report.user_id else [],
                   key=PostKey(view.game_id, view.version, NOTICE))
    except discord.HTTPException:
        log.warning("could not post the timer notice in channel %s", report.where.channel)
    if view.status == "active":  # e.g. a vote to expel opened: the card shows it
        await refresh_card(bot, view)


def late_words(report: TimerReport) -> str:
    """'⏰ Ana ran out of time, so the bot played the turn: …' (in the language spoken)."""
    late = f"**{safe_name(report.name)}**"
    done = report.view.done_by(report.name)
    said = text.describe(done) if done is not None else ""
    if said:
        return _("⏰ {name} ran out of time, so the bot played the turn: {move}").format(
            name=late, move=said)
    return _("⏰ {name} ran out of time, so the bot played the turn.").format(name=late)


async def _played_for_late(bot: Bot, report: TimerReport) -> None:
    """A turn played (or skipped) for a late player: the card shows it; the change is
    posted once the card has it, else it stays owed for the next period."""
    view = report.view
    with speaking(game_language(view)):
        last = "\n".join(line for line in (late_words(report), text.move_lines(view))
                         if line)
    try:
        await bot.cards.show(view, last)
    except discord.HTTPException as exc:
        log.warning("game %s: card not updated after a late turn (HTTP %s)",
                    view.game_id, exc.status)
        return
    await posted(bot, view)
    await bot.pings.turn(view)


async def _ended_by_timer(bot: Bot, report: TimerReport) -> None:
    """A turn played for a late player ended the game: its card, and the end-of-game
    post (the board, the summary and the replays), the change then posted."""
    view = report.view
    shown = await bot.service.public_view(view.game_id)
    rated = await endgame.rating_of(bot.service, view.game_id)
    with speaking(game_language(view)) as language:
        last = "\n".join(line for line in (late_words(report), text.move_lines(view)) if line)
        content = f"{late_words(report)}\n{text.public_update(view)}"
        files: list[discord.File] = []
        if shown.board is not None:
            board = await bot.pictures.board_file(shown.board, BOARD_BYTES, language, view,
                                                  shown.last)
            files.append(board)
            more, notes = await endgame.end_of_game(bot.pictures, view.game_id, shown.board,
                                                    language, BOARD_BYTES - file_size(board))
            files.extend(more)
            content = text.with_notes(content, [*endgame.rating_lines(rated), *notes])
        components = final_row(view.game_id) if view.finished else row_for(
            view, None, private=False)
    try:
        await bot.cards.show(view, last, board=shown.board, newest=shown.last)
        await post(bot, view.where, content, components, text.pinged(view), files,
                   shows=view)
    except discord.HTTPException:
        log.warning("could not post the timer notice in channel %s", report.where.channel)
    await bot.pings.turn(view)


def _reminder(report: TimerReport) -> str:
    """'⏰ Ana, the game is waiting for you: place a tile.' and the time left."""
    view = report.view
    who = text.mention(report.user_id, report.name)
    content = _("⏰ {who}, the game is waiting for you: {doing}.").format(
        who=who, doing=text.must_words(view))
    timer = text.timer_words(view)
    also = also_waiting(report)
    return content + (f" {timer}" if timer else "") + (f"\n{also}" if also else "")


def also_waiting(report: TimerReport) -> str:
    """A clock reminder's other games folded into it (the service's `also`: at most one
    message a day per player): 'Also waiting for you: game #12 in #channel, runs out
    in 3 hours; …'. Empty when there are none."""
    items = [item for told in report.view.events
             if isinstance(told, Note) and told.code == "clock_reminder"
             for item in told.params.get("also") or ()
             if str(item.get("channel", "")).isdigit() and item.get("deadline") is not None]
    # A public post names only this server's games: the others are counted, unnamed.
    here = [item for item in items if item.get("guild") == report.view.where.guild]
    said = [_("game #{game} in {channel}, runs out {when}").format(
        game=int(item["game"]), channel=f"<#{int(item['channel'])}>",
        when=f"<t:{int(item['deadline'])}:R>") for item in here]
    elsewhere = len(items) - len(here)
    if elsewhere:
        said.append(ngettext("{n} game on another server", "{n} games on other servers",
                             elsewhere).format(n=elsewhere))
    return _("Also waiting for you: {games}.").format(games="; ".join(said)) if said else ""


async def lobby_expired(bot: Bot, report: TimerReport) -> None:
    """A lobby nobody started was closed: said in its channel, pinging nobody."""
    lifetime = bot.service.limits.lobby_lifetime
    with speaking(game_language(report.view)):
        if lifetime >= 86400:
            days = round(lifetime / 86400, 1)
            waited = ngettext("{n} day", "{n} days", 1 if days == 1 else 2).format(
                n=f"{days:g}")
        else:
            hours = round(lifetime / 3600, 1)
            waited = ngettext("{n} hour", "{n} hours", 1 if hours == 1 else 2).format(
                n=f"{hours:g}")
        content = _("⌛ Game #{game}, opened by **{name}**, waited {time} without starting "
                    "and was closed. Open a new one with `/carc create`.").format(
            game=report.game_id, name=safe_name(report.name), time=waited)
    try:
        await post(bot, report.where, content,
                   key=PostKey(report.game_id, report.view.version, EXPIRED))
    except discord.HTTPException:
        log.warning("could not post the lobby expiry in channel %s", report.where.channel)
