"""`/carc-league`: leagues of divisions over seasons (`service.seasons`), run by organisers:
`create` (season 1 from a sign-up event's players, split by rating), `start` and `pair`
(every division at once; each division's games open in threads under this channel,
and a division that cannot be paired says why), `season` (a season's divisions and
leaders) and `next` (the next season: promotions, relegations, players leaving and
joining). League names are offered by autocomplete from the server's leagues."""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, actor
from carca_bot.bot.commands.events.rounds import round_lines
from carca_bot.bot.commands.suggest import Choice as Suggested
from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import NAME_STORED, Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction, bot_of
from carca_bot.bot.words import text
from carca_bot.bot.words.leagues import (
    division_line,
    named_players,
    next_season_text,
    season_text,
)
from carca_bot.bot.words.pairings import fitting
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import plain, safe_name
from carca_bot.i18n import Domain
from carca_bot.service import ServiceError, User
from carca_bot.service.league_ops import SeasonRound
from carca_bot.words import say

_T = Domain("bot")
_ = _T.gettext
pgettext = _T.pgettext

leagues = top_level(app_commands.Group(name="carc-league", description="Leagues: divisions "
                                                                       "over seasons",
                                       guild_only=True))
LeagueName = app_commands.Range[str, 1, 80]
SUGGESTIONS = 25


async def league_names(interaction: Interaction, current: str) -> list[Suggested]:
    """The server's leagues whose name holds what was typed (names are data)."""
    try:
        found = await bot_of(interaction).service.leagues(str(interaction.guild_id or 0))
    except ServiceError:
        return []
    typed = current.strip().lower()
    return [Suggested(name=plain(n), value=n[:100]) for n in found
            if typed in n.lower()][:SUGGESTIONS]


@leagues.command(name="create", description="Make a league's first season from a sign-up "
                                            "event's players (organisers)")
@app_commands.describe(name="The league's name", from_event="The sign-up event whose players "
                       "it takes (closed: they are in the league now)",
                       divisions="Divisions, split by rating (strongest on top)")
async def create_command(interaction: Interaction, name: LeagueName, from_event: EventNumber,
                         divisions: app_commands.Range[int, 1, 12] = 2) -> None:
    await run(interaction, "league-create",
              lambda act: create(act, name, from_event, divisions), public=True)


async def create(act: Act, name: str, event: int, divisions: int) -> Reply:
    made = await act.service.create_season_from_event(act.here, actor(act), name, event,
                                                      divisions)
    lines = [_("League **{league}** is made: season 1, from event #{event}, whose sign-ups "
               "are closed.").format(league=safe_name(made[0].series, 80), event=event)]
    lines += [f"• {division_line(info)}" for info in made]
    lines.append(_("Start it with `/carc-league start`."))
    return Reply(text.clip("\n".join(lines)), public=True)


@leagues.command(name="start", description="Start every division of a league's season "
                                           "(organisers)")
@app_commands.describe(league="The league's name")
@app_commands.autocomplete(league=league_names)
async def start_command(interaction: Interaction, league: LeagueName) -> None:
    await run(interaction, "league-start", lambda act: start(act, league), public=True)


async def start(act: Act, league: str) -> Reply:
    done = await act.service.start_season(act.here.guild, actor(act), league)
    if not done.paired and not done.refused:
        raise Refused(_("every division of this season has started: pair their next round "
                        "with `/carc-league pair`"))
    return await divisions_paired(act, league, done)


@leagues.command(name="pair", description="Pair the next round of every division whose "
                                          "round is over (organisers)")
@app_commands.describe(league="The league's name")
@app_commands.autocomplete(league=league_names)
async def pair_command(interaction: Interaction, league: LeagueName) -> None:
    await run(interaction, "league-pair", lambda act: pair(act, league), public=True)


async def pair(act: Act, league: str) -> Reply:
    done = await act.service.pair_season(act.here.guild, actor(act), league)
    if not done.paired and not done.refused:
        raise Refused(_("no division of this season has a round to pair: it has not "
                        "started (`/carc-league start`), or it is over (`/carc-league "
                        "next`)"))
    return await divisions_paired(act, league, done)


async def divisions_paired(act: Act, league: str, done: SeasonRound) -> Reply:
    """Each paired division's games opened (a line per game, byes, deadline); each
    division that could not be paired, and why."""
    lines: list[str] = []
    for info, pairings in done.paired:
        lines.append(_("Division {n}: round {round} is paired.").format(
            n=info.division, round=len(info.event.rounds)))
        lines += await round_lines(act, info, pairings)
    for division, code in done.refused:
        lines.append(_("Division {n} is not paired: {why}.").format(
            n=division, why=say(ServiceError(code))))
    head = _("**{league}**:").format(league=safe_name(league, 80))
    return Reply(fitting([head], lines), public=True,
                 pings=[u.id for _info, ps in done.paired for p in ps for u in p.players])


@leagues.command(name="season", description="A league's season: its divisions and leaders")
@app_commands.describe(league="The league's name", season="The season (by default the latest)")
@app_commands.autocomplete(league=league_names)
async def season_command(interaction: Interaction, league: LeagueName,
                         season: app_commands.Range[int, 1, 999] | None = None) -> None:
    await run(interaction, "league-season", lambda act: season_of(act, league, season),
              public=True)


async def season_of(act: Act, league: str, season: int | None) -> Reply:
    found = await act.service.season_overview(act.here.guild, league, season)
    return Reply(text.clip(season_text(found)), public=True)


@leagues.command(name="next", description="Make a league's next season once every division "
                                          "is over (organisers)")
@app_commands.describe(league="The league's name",
                       moves="Players going up and down between neighbouring divisions",
                       leaving="Players leaving the league (mentions)",
                       joining="New players, in the bottom division (mentions)")
@app_commands.autocomplete(league=league_names)
async def next_command(interaction: Interaction, league: LeagueName,
                       moves: app_commands.Range[int, 0, 20] = 1,
                       leaving: app_commands.Range[str, 0, 1500] | None = None,
                       joining: app_commands.Range[str, 0, 1500] | None = None) -> None:
    await run(interaction, "league-next",
              lambda act: next_season(act, league, moves, leaving, joining), public=True)


async def next_season(act: Act, league: str, moves: int, leaving: str | None,
                      joining: str | None) -> Reply:
    # The options' names as the user's Discord shows them (`translator.py`'s catalogue).
    gone = named_players(leaving, pgettext("option name", "leaving"))
    new = named_players(joining, pgettext("option name", "joining"))
    before = await act.service.season_overview(act.here.guild, league)
    members = {e.player for d in before.divisions for e in d.event.event.entrants}
    stranger = next((p for p in gone if p not in members), None)
    if stranger is not None:
        raise Refused(_("the user with id {id} is not in this league: only its players can "
                        "leave it").format(id=stranger))
    users = [await member(act, user_id) for user_id in new if user_id not in members]
    after = await act.service.next_season_of(act.here, actor(act), league, moves,
                                             leaving=gone, joining=users)
    return Reply(text.clip(next_season_text(before, after)), public=True)


async def member(act: Act, user_id: str) -> User:
    """A member of this server by id, with the name the server shows (refused if they
    are not a member)."""
    try:
        data = await act.bot.http.get_member(int(act.here.guild), int(user_id))
    except discord.HTTPException:
        raise Refused(_("the user with id {id} is not a member of this server").format(
            id=user_id)) from None
    user = data.get("user") or {}
    name = data.get("nick") or user.get("global_name") or user.get("username") or user_id
    return User(user_id, plain(str(name), NAME_STORED))
