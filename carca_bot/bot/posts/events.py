"""What events post: a thread and a game for each pairing (its first message pinging its
players), and what the events' timers found (rounds over, reminders, games still to
open; the organisers' digest and the events' news are in `events_news.py`). The
client's timer loop calls `event_timers`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import discord

from carca_bot.bot.components.rows import row_for
from carca_bot.bot.posts import events_news as news
from carca_bot.bot.posts.channel import post
from carca_bot.bot.posts.standings import BOARD_BYTES, standings_reply
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.events import players_line, thread_name
from carca_bot.bot.words.languages import game_language, ours
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain, speaking
from carca_bot.service import EventInfo, EventNotice, Pairing, ServiceError, TurnView, Where
from carca_bot.words import say

log = logging.getLogger("carca_bot.bot")
_T = Domain("bot")
_ = _T.gettext

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: a round's game may take that long


async def open_games(bot: Bot, info: EventInfo, pairings: Sequence[Pairing],
                     channel: str) -> list[str]:
    """A thread and a game for each pairing under `channel`; lines saying what happened
    (a pairing whose thread or game could not be made is said, and offered again by
    the event timers later)."""
    said: list[str] = []
    for p in pairings:
        try:
            data = await bot.http.start_thread_without_message(
                int(channel), name=thread_name(info, p),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value, reason="carca-bot event game")
        except discord.HTTPException as exc:
            log.info("event %s: no thread for %s (%s)", info.id, p.match_id, exc.status)
            said.append(_("{players}: I could not open a thread (I need the Create Public "
                          "Threads permission); I will try again later.").format(
                players=players_line(p)))
            continue
        place = Where(info.guild, str(data["id"]))
        try:
            view = await bot.service.open_event_game(info.id, p, place)
        except ServiceError as exc:
            said.append(f"{players_line(p)}: {say(exc)}")
            continue
        await first_post(bot, info, p, view)
        said.append(_("{players}: game #{game} in {thread}").format(
            players=players_line(p), game=view.game_id, thread=f"<#{place.channel}>"))
    return said


async def first_post(bot: Bot, info: EventInfo, pairing: Pairing, view: TurnView) -> None:
    """The game's first message in its thread, in the game's language, pinging its players."""
    board = (await bot.service.public_view(view.game_id)).board
    with speaking(game_language(view)) as language:
        head = _("**{event}**, round {round}: {players}. Good luck!").format(
            event=safe_name(info.title, 80), round=pairing.round,
            players=", ".join(text.mention(u.id, u.name) for u in pairing.players))
        content = f"{head}\n\n{text.status_text(view)}"
        files = []
        if board is not None:
            files.append(await bot.pictures.board_file(board, BOARD_BYTES, language, view))
        components = row_for(view, None, private=False)
    try:
        await post(bot, view.where, content, components, [u.id for u in pairing.players],
                   files, shows=view)
    except discord.HTTPException as exc:  # owed: the outbox posts it later
        log.info("game %s: first event post failed (%s)", view.game_id, exc.status)


async def event_timers(bot: Bot) -> int:
    """Post what the events' timers found (rounds over, reminders, the organisers'
    digest) and open the games still missing; returns notices handled."""
    notices = await bot.service.check_events()
    for notice in notices:
        try:
            await announce(bot, notice)
        except discord.HTTPException as exc:
            log.info("event %s: notice %s not posted (%s)", notice.event.id, notice.kind,
                     exc.status)
    return len(notices)


def event_language(info: EventInfo) -> str:
    """An event's public posts speak its games' language."""
    return ours(info.options.language) or "en"


async def announce(bot: Bot, notice: EventNotice) -> None:
    """Post one notice of the events' timers in the event's channel, in its language."""
    said = ANNOUNCE.get(notice.kind)
    if said is None:
        log.warning("event %s: notice %s has no words", notice.event.id, notice.kind)
        return
    with speaking(event_language(notice.event)):
        await said(bot, notice)


async def _open_games(bot: Bot, notice: EventNotice) -> None:
    info = notice.event
    lines = await open_games(bot, info, notice.pairings, info.channel)
    head = _("**{title}**: games opened.").format(title=safe_name(info.title, 80))
    await post(bot, Where(info.guild, info.channel),
               text.clip("\n".join([head, *(f"• {x}" for x in lines)])),
               pings=[u.id for p in notice.pairings for u in p.players])


async def _standings(bot: Bot, notice: EventNotice) -> None:
    info = notice.event
    heading = (_("**{title}** is over. Final standings:") if notice.kind == "finished"
               else _("**{title}**: round {round} is over. Standings:")).format(
        title=safe_name(info.title, 80), round=notice.round)
    reply = await standings_reply(bot.pictures, info, await bot.service.standings_csv(info.id),
                                  heading, BOARD_BYTES, notice.round, notice.kind == "finished")
    files = [f for f in (reply.file, *reply.more_files) if f is not None]
    await post(bot, Where(info.guild, info.channel), reply.content, files=files)


async def _still_to_play(bot: Bot, notice: EventNotice) -> None:
    info = notice.event
    lines = [_("**{title}**: the round ends {when}. Still to play:").format(
        title=safe_name(info.title, 80), when=f"<t:{int(notice.games[0].deadline)}:R>")]
    lines += [f"• {g.match_id}: " + ", ".join(news.named(info, p) for p in g.players)
              for g in notice.games]
    await post(bot, Where(info.guild, info.channel), text.clip("\n".join(lines)),
               pings=[p for g in notice.games for p in g.players])


ANNOUNCE: dict[str, Callable[[Bot, EventNotice], Awaitable[None]]] = {
    "round_over": _standings, "finished": _standings, "reminder": _still_to_play,
    "open_games": _open_games, "late_digest": news.late_digest, "amended": news.amended,
    "deadline_forfeit": news.deadline_forfeit, "timeout_forfeit": news.timeout_forfeit,
    "timeout_expelled": news.timeout_expelled}
