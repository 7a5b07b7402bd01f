"""An event's standings as pictures (`carca_bot.render.league`, a page of PER_PAGE players
each, at most PICTURE_PAGES of them) drawn in the render threads in the language of the
post, with the CSV file of every row; the text table stands in for the pictures when
they cannot be drawn or do not fit the upload limit."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import discord

from carca_bot.bot.core.pictures import MARGIN, Pictures
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.words import text
from carca_bot.bot.words.events import standings_table
from carca_bot.bot.words.safe import file_name
from carca_bot.i18n import Domain, current
from carca_bot.render.league import PER_PAGE, StandingRow, render_standings
from carca_bot.service import EventInfo, Standing
from carca_bot.service import head_to_head as shared_places
from carca_bot.words.alt_league import standings_alt

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

BOARD_BYTES = 8 * 1024 * 1024
PICTURE_PAGES = 9  # standings pictures on one message (Discord takes 10 files: + the CSV)


def points_key(info: EventInfo) -> str:
    """What a player's points are: placing points at multiplayer tables, else wins."""
    return "placing" if info.config.format == "tables" else "wins"


def _chain(info: EventInfo) -> list[str]:
    return [str(getattr(k, "value", k)) for k in info.config.chain]


def picture_chain(info: EventInfo) -> list[str]:
    """The tie-break columns: the event's chain in order, less what the picture's fixed
    columns show already: the points, and wins (the won and drawn columns; a second
    column headed "W" would only puzzle)."""
    shown = {points_key(info), "wins"}
    return [k for k in _chain(info) if k not in shown]


def records(info: EventInfo) -> dict[str, tuple[int, int, int]]:
    """Each player's games won, drawn (a shared first place) and lost; byes are no game."""
    tally: dict[str, list[int]] = {e.player: [0, 0, 0] for e in info.event.entrants}
    for match in info.event.matches:
        if match.bye:
            continue
        for game in match.games:
            wins = game.wins()
            for p in game.players:
                won = wins.get(p, 0.0)
                tally.setdefault(p, [0, 0, 0])[0 if won == 1 else 1 if won > 0 else 2] += 1
    return {p: (w, d, lost) for p, (w, d, lost) in tally.items()}


def head_to_head(info: EventInfo, rows: Sequence[Standing], before: Sequence[str]
                 ) -> dict[str, float | str]:
    """Head-to-head as the chain used it: among players level on every tie-break before
    it, one for each time one placed above another in a game they shared (1/2 for the
    same place). A player level with nobody shows a dash."""
    groups: dict[tuple[float, ...], list[str]] = {}
    for r in rows:
        groups.setdefault(tuple(float(getattr(r, k)) for k in before), []).append(r.player)
    games = [g for m in info.event.matches if not m.bye for g in m.games]
    out: dict[str, float | str] = {}
    for members in groups.values():
        if len(members) < 2:
            out.update(dict.fromkeys(members, "—"))
        else:
            out.update(shared_places(members, games))
    return out


def standing_rows(info: EventInfo, rows: Sequence[Standing]) -> list[StandingRow]:
    """The event's standings as the picture draws them, the tie-breaks in chain order."""
    chain = picture_chain(info)
    played = records(info)
    h2h: dict[str, float | str] = {}
    if "head_to_head" in chain:
        before = _chain(info)[:_chain(info).index("head_to_head")]
        h2h = head_to_head(info, rows, [k for k in before if k != "head_to_head"])
    out = []
    for r in rows:
        won, drawn, lost = played.get(r.player, (0, 0, 0))
        values: list[float | str] = [h2h.get(r.player, "—") if key == "head_to_head"
                                     else float(getattr(r, key, 0)) for key in chain]
        out.append(StandingRow(rank=r.place, name=r.name, played=r.played, wins=won,
                               draws=drawn, losses=lost,
                               points=float(getattr(r, points_key(info))),
                               tiebreaks=tuple(values), withdrawn=r.withdrawn))
    return out


async def standings_pictures(pictures: Pictures, info: EventInfo, rows: Sequence[Standing],
                             room: int, round_no: int | None, final: bool
                             ) -> list[discord.File] | None:
    """The standings pages as PNG files (at most PICTURE_PAGES), in the language being
    spoken; None when they cannot be drawn or do not fit in `room` bytes."""
    drawn, chain, language = standing_rows(info, rows), picture_chain(info), current()
    rounds = info.event.total_rounds or None
    total = max(1, -(-len(drawn) // PER_PAGE))

    def page(n: int) -> Callable[[], bytes]:
        return lambda: render_standings(drawn, event=info.title, tiebreaks=chain,
                                        round_no=round_no, rounds=rounds, final=final,
                                        language=language, page=n).data

    files = []
    for number in range(1, min(total, PICTURE_PAGES) + 1):
        png = await pictures.fitting(page(number), room, "standings")
        if png is None:
            return None
        room -= len(png)
        name = f"standings-{info.id}.png" if number == 1 else f"standings-{info.id}-{number}.png"
        about = standings_alt(info.title, drawn[(number - 1) * PER_PAGE:number * PER_PAGE],
                              page=number, pages=total, round_no=round_no, rounds=rounds,
                              final=final)
        files.append(discord.File(io.BytesIO(png), filename=file_name(name),
                                  description=about))
    return files


async def standings_reply(pictures: Pictures, info: EventInfo, csv_text: str, heading: str,
                          limit: int = BOARD_BYTES, round_no: int | None = None,
                          final: bool | None = None) -> Reply:
    """Standings as pictures and the CSV file under `heading`; the text table instead of
    the pictures when they cannot go. `round_no` is the round they follow (by default
    the latest paired), `final` whether the event is over (by default its status)."""
    rows = info.event.standings()
    csv_bytes = csv_text.encode()
    data = discord.File(io.BytesIO(csv_bytes), filename=file_name(
        f"standings-{info.id}.csv"), description=_("The standings as CSV"))
    if round_no is None and info.event.started:
        round_no = len(info.event.rounds)
    drawn = await standings_pictures(pictures, info, rows, limit - len(csv_bytes) - MARGIN,
                                     round_no, info.status == "finished" if final is None
                                     else final)
    if drawn is None:
        table = standings_table(info, rows, picture_chain(info))
        return Reply(text.clip(f"{heading}\n{table}"), public=True, file=data)
    shown = min(len(rows), PICTURE_PAGES * PER_PAGE)
    line = (ngettext("The standings are in the picture; the CSV file has every row.",
                     "The standings are in the {n} pictures; the CSV file has every row.",
                     len(drawn)).format(n=len(drawn)) if shown == len(rows)
            else _("The pictures show the first {n} places; the CSV file has every row."
                   ).format(n=shown))
    return Reply(text.clip(f"{heading}\n{line}"), public=True, file=drawn[0],
                 more_files=[*drawn[1:], data])
