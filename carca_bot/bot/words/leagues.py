"""Leagues in words (`/carc-league`): a season's divisions and their leaders, who went up,
down, joined or left between seasons, and reading the players an organiser names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from carca_bot.bot.words.events import event_line
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import plain, safe_name
from carca_bot.i18n import Domain
from carca_bot.render.league import number
from carca_bot.service import EventInfo
from carca_bot.service.league_ops import Season

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

LEADERS = 8  # players of each division shown in a season's overview
MENTION = re.compile(r"<@!?(\d{15,21})>|(?<![\w:])(\d{15,21})(?!\w)")
MOST_NAMED = 50  # players named in one option


def division_line(info: EventInfo) -> str:
    """'Division 2: #6 **Premier** · Swiss · 6 players · taking sign-ups'."""
    return _("Division {n}: {event}").format(n=info.division, event=event_line(info))


def leaders(season: Season, division: int) -> str:
    """'1. Ana (3) · 2. Ben (2½) · …': a division's first places by points."""
    found = next(d for d in season.divisions if d.number == division)
    tables = found.event.config.format == "tables"
    rows = found.standings[:LEADERS]
    said = " · ".join(f"{r.place}. {safe_name(r.name)} ({number(r.placing if tables else r.wins)})"
                      for r in rows)
    more = len(found.standings) - len(rows)
    if more > 0:
        said += " · " + ngettext("… and {n} more", "… and {n} more", more).format(n=more)
    return said


def season_text(season: Season) -> str:
    """A season of a league: each division's event and its leaders."""
    lines = [_("**{league}**, season {season}:").format(
        league=safe_name(season.series, 80), season=season.number)]
    for d in season.divisions:
        lines.append(division_line(d.event))
        if d.event.event.started and d.standings:
            lines.append("   " + leaders(season, d.number))
    if season.finished:
        lines.append(_("Every division is over: make the next season with "
                       "`/carc-league next`."))
    else:
        lines.append(_("Each division's full standings: `/carc-event standings`."))
    return "\n".join(lines)


def moves_between(before: Season, after: Sequence[EventInfo]
                  ) -> tuple[dict[int, dict[str, list[str]]], list[str]]:
    """Who went up, down or joined, by new division; and who left the league (names)."""
    was = {e.player: d.number for d in before.divisions for e in d.event.event.entrants}
    names = {e.player: e.name for d in before.divisions for e in d.event.event.entrants}
    moved: dict[int, dict[str, list[str]]] = {}
    placed = set()
    for info in after:
        into = moved.setdefault(info.division, {"up": [], "down": [], "new": []})
        for e in info.event.entrants:
            placed.add(e.player)
            old = was.get(e.player)
            kind = "new" if old is None else "up" if old > info.division else (
                "down" if old < info.division else "")
            if kind:
                into[kind].append(e.name)
    gone = [names[p] for p in was if p not in placed]
    return moved, gone


def next_season_text(before: Season, after: Sequence[EventInfo]) -> str:
    """The new season: each division, who came up, went down or is new; who left."""
    moved, gone = moves_between(before, after)
    lines = [_("**{league}**: season {season} is made.").format(
        league=safe_name(before.series, 80), season=before.number + 1)]
    for info in after:
        lines.append("• " + division_line(info))
        lines += [f"   {words}" for words in _changes(moved.get(info.division, {}))]
    if gone:
        lines.append(_("Left the league: {names}.").format(
            names=", ".join(safe_name(n) for n in gone)))
    lines.append(_("Start it with `/carc-league start`."))
    return "\n".join(lines)


def _changes(moved: Mapping[str, list[str]]) -> list[str]:
    words = {"up": _("Up: {names}"), "down": _("Down: {names}"), "new": _("New: {names}")}
    return [words[kind].format(names=", ".join(safe_name(n) for n in moved[kind]))
            for kind in ("up", "down", "new") if moved.get(kind)]


def named_players(typed: str | None, option: str) -> list[str]:
    """The user ids named in `typed` (mentions, or ids), each once; refused when anything
    else is there."""
    if not typed or not typed.strip():
        return []
    found = [a or b for a, b in MENTION.findall(typed)]
    rest = MENTION.sub(" ", typed).replace(",", " ").strip()
    if rest or len(found) > MOST_NAMED:
        raise Refused(_("{option}: name players by mentioning them, e.g. @Ana @Ben (at "
                        "most {most}); I could not read '{rest}'").format(
            option=option, most=MOST_NAMED, rest=plain(rest, 40)))
    return list(dict.fromkeys(found))
