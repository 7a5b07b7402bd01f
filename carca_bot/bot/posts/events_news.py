"""The events' news, posted in the event's channel: a result amended after the end (with
the standings as they are now), a match forfeited at its round's deadline, a match
forfeited or a player withdrawn after repeated time-outs, and the organisers' digest of
late games, which pings the organiser role and the event's creator and nobody else.

Who is named comes from the service as ids; an id that is not a Discord user's (an
erased player's `former:N`) is written as a name, never as a broken mention
(`words.text.mention`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from carca_bot.bot.posts.channel import post
from carca_bot.bot.posts.sending import send_message
from carca_bot.bot.posts.standings import BOARD_BYTES, standings_reply
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import text
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain
from carca_bot.service import EventInfo, EventNotice, Where

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

NOTE_LIMIT = 200  # characters of an organiser's note shown


def name_of(info: EventInfo, player: str) -> str:
    """A player's name in the event (their id if they are not in it)."""
    return next((e.name for e in info.event.entrants if e.player == player), player)


def named(info: EventInfo, player: str) -> str:
    """A player as a mention when they are a Discord user, else their name in bold."""
    return text.mention(player, name_of(info, player))


def digits(ids: Iterable[str]) -> list[str]:
    """The ids that are Discord users' or roles' (snowflakes), each once."""
    return list(dict.fromkeys(i for i in ids if i.isdigit()))


def title(info: EventInfo) -> str:
    return f"**{safe_name(info.title, 80)}**"


async def amended(bot: Bot, notice: EventNotice) -> None:
    """A result changed after the end: what changed, who moved, and the standings now."""
    info, news = notice.event, notice.news
    by = news.get("by")
    head = (_("{title}: the result of {match} (round {round}) was amended by {who}.")
            if by else _("{title}: the result of {match} (round {round}) was amended.")
            ).format(title=title(info), match=safe_name(str(news.get("match", "?"))),
                     round=notice.round, who=text.mention(str(by), _("an organiser")))
    lines = [head]
    note = str(news.get("note") or "")
    if note and note not in ("appeal", "deadline", "time-outs"):
        lines.append(_("Note: {note}").format(note=safe_name(note, NOTE_LIMIT)))
    lines.append(moves_line(info, news.get("moves") or ()))
    if news.get("rated"):
        lines.append(_("The ratings of its games were counted again."))
    lines.append(_("The final standings now:"))
    reply = await standings_reply(bot.pictures, info, await bot.service.standings_csv(info.id),
                                  "\n".join(lines), BOARD_BYTES, len(info.event.rounds), True)
    files = [f for f in (reply.file, *reply.more_files) if f is not None]
    await post(bot, Where(info.guild, info.channel), reply.content, files=files)


def moves_line(info: EventInfo, moves: Sequence[Sequence[object]]) -> str:
    """'Places changed: Ana 2 → 1, Ben 1 → 2.' or that none did."""
    said = [_("{name} {before} → {after}").format(name=safe_name(name_of(info, str(p))),
                                                  before=was, after=now)
            for p, was, now in (tuple(m) for m in moves if len(m) == 3)]
    if not said:
        return _("No place changed.")
    return _("Places changed: {moves}.").format(moves=", ".join(said))


async def deadline_forfeit(bot: Bot, notice: EventNotice) -> None:
    info, news = notice.event, notice.news
    absent = [str(p) for p in news.get("absent") or ()]
    content = ngettext(
        "{title}: {match} was still open at its round's deadline, so {players} loses it "
        "by forfeit (the game was waiting for them).",
        "{title}: {match} was still open at its round's deadline, so {players} lose it "
        "by forfeit (the game was waiting for them).", len(absent)).format(
        title=title(info), match=safe_name(str(news.get("match", "?"))),
        players=", ".join(named(info, p) for p in absent))
    await post(bot, Where(info.guild, info.channel), content, pings=digits(absent))


async def timeout_forfeit(bot: Bot, notice: EventNotice) -> None:
    info, news = notice.event, notice.news
    player, times = str(news.get("player", "?")), int(news.get("timeouts", 0))
    content = ngettext(
        "{title}: {name} ran out of time {n} time in their game of {match}, and loses the "
        "match by forfeit.",
        "{title}: {name} ran out of time {n} times in their game of {match}, and loses the "
        "match by forfeit.", times).format(
        title=title(info), name=named(info, player), n=times,
        match=safe_name(str(news.get("match", "?"))))
    await post(bot, Where(info.guild, info.channel), content, pings=digits([player]))


async def timeout_expelled(bot: Bot, notice: EventNotice) -> None:
    info, news = notice.event, notice.news
    player, times = str(news.get("player", "?")), int(news.get("timeouts", 0))
    content = ngettext(
        "{title}: {name} ran out of time {n} time in the event's games, and is withdrawn "
        "from the event.",
        "{title}: {name} ran out of time {n} times in the event's games, and is withdrawn "
        "from the event.", times).format(title=title(info), name=named(info, player),
                                          n=times)
    await post(bot, Where(info.guild, info.channel), content, pings=digits([player]))


def organisers(notice: EventNotice) -> tuple[str, discord.AllowedMentions]:
    """The digest's greeting (the organiser role and the event's creator, as mentions)
    and the mentions it may ping: exactly those roles and users."""
    roles, users = digits(notice.ping_roles), digits(notice.ping_users)
    who = [f"<@&{r}>" for r in roles] + [f"<@{u}>" for u in users]
    allowed = discord.AllowedMentions(
        everyone=False, replied_user=False, roles=[discord.Object(int(r)) for r in roles],
        users=[discord.Object(int(u)) for u in users])
    return " ".join(who), allowed


async def late_digest(bot: Bot, notice: EventNotice) -> None:
    """The late games, for the organisers (pinged)."""
    info = notice.event
    greeting, allowed = organisers(notice)
    head = (_("{organisers}, late games in {title}:") if greeting
            else _("Late games in {title}:")).format(organisers=greeting, title=title(info))
    lines = [head]
    lines += [_("• {match}: {players}, {days} days late").format(
        match=g.match_id, players=", ".join(safe_name(name_of(info, p)) for p in g.players),
        days=round(g.overdue / 86400, 1)) for g in notice.games]
    await send_message(bot, info.channel, text.clip("\n".join(lines)), mentions=allowed)
