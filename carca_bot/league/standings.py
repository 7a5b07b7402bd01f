"""Standings: every player's record, ordered by a chain of tie-breaks, and as CSV.

Decisions where the issue is silent:
- a duel won counts 1, a tied duel 1/2 to each; at a table the winner counts 1 and tied
  winners share it. A bye in a Swiss event counts as a win (no points, no opponent);
  byes elsewhere count nothing.
- Buchholz adds up the wins of every opponent met in a game (a no-show's opponent
  included: they were paired), as the opponents' records stand now; a bye adds nothing,
  and a withdrawn opponent's played games stand as they are.
- point difference is own score minus the average score of the other players present;
  a forfeited game scores 0 and moves no difference.
- head-to-head counts, among the players still tied, each time one placed above another
  in a game they shared (1/2 for the same place).
- players tied on the whole chain share the place; they are listed by seed, then in
  sign-up order.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from carca_bot.league.model import (
    Entrant,
    EventConfig,
    Format,
    Match,
    Result,
    Tiebreak,
)


@dataclass(frozen=True)
class StandingRow:
    place: int
    player: str
    name: str
    group: str
    played: int  # games (a series counts each game)
    wins: float
    byes: int
    buchholz: float
    difference: float
    scored: int
    placing: float
    withdrawn: bool


@dataclass
class _Tally:
    played: int = 0
    wins: float = 0.0
    byes: int = 0
    difference: float = 0.0
    scored: int = 0
    placing: float = 0.0


def _games(matches: Sequence[Match]) -> list[Result]:
    return [g for m in matches if not m.bye for g in m.games]


def _tallies(entrants: Sequence[Entrant], matches: Sequence[Match],
             config: EventConfig) -> tuple[dict[str, _Tally], dict[str, list[str]]]:
    tally = {e.player: _Tally() for e in entrants}
    met: dict[str, list[str]] = defaultdict(list)
    for m in matches:
        if m.bye:
            tally[m.seats[0]].byes += 1
            if config.format is Format.SWISS:
                tally[m.seats[0]].wins += 1
    for game in _games(matches):
        wins = game.wins()
        placing = game.placing(config.placing_points)
        present = [p for p in game.players if p not in game.absent]
        for p in game.players:
            t = tally[p]
            t.played += 1
            t.wins += wins[p]
            t.placing += placing[p]
            t.scored += game.score(p)
            others = [game.score(q) for q in present if q != p]
            if p not in game.absent and others:
                t.difference += game.score(p) - sum(others) / len(others)
            met[p] += [q for q in game.players if q != p]
    return tally, met


def head_to_head(group: Sequence[str], games: Sequence[Result]) -> dict[str, float]:
    """Among `group`: one point each time a player placed above another in a game they
    shared, half for the same place (the head-to-head tie-break)."""
    inside = set(group)
    score = dict.fromkeys(group, 0.0)
    for game in games:
        here = [p for p in game.players if p in inside]
        if len(here) < 2:
            continue
        places = game.places()
        for p in here:
            for q in here:
                if p != q and places[p][0] < places[q][0]:
                    score[p] += 1
                elif p != q and places[p][0] == places[q][0]:
                    score[p] += 0.5
    return score


def standings(entrants: Sequence[Entrant], matches: Sequence[Match], config: EventConfig,
              group: str | None = None) -> tuple[StandingRow, ...]:
    """The standings of one group (None: everyone) after `matches`."""
    players = [e for e in entrants if group is None or _group_of(e.player, matches) == group]
    tally, met = _tallies(entrants, matches, config)
    buchholz = {p: sum(tally[o].wins for o in met[p]) for p in tally}
    games = _games(matches)
    value: dict[Tiebreak, Callable[[str], float]] = {
        Tiebreak.WINS: lambda p: tally[p].wins,
        Tiebreak.BUCHHOLZ: lambda p: buchholz[p],
        Tiebreak.DIFFERENCE: lambda p: tally[p].difference,
        Tiebreak.SCORED: lambda p: tally[p].scored,
        Tiebreak.PLACING: lambda p: tally[p].placing,
    }
    if config.format is Format.KNOCKOUT:
        places = _knockout_places(entrants, matches)
        blocks = [[e.player for e in players if places[e.player] == k]
                  for k in sorted({places[e.player] for e in players})]
    else:
        blocks = [[e.player for e in players]]
        for rule in config.chain:
            blocks = [part for block in blocks for part in _split(block, rule, value, games)]
    index = {e.player: (-e.seed, i) for i, e in enumerate(entrants)}
    by_id = {e.player: e for e in entrants}
    rows: list[StandingRow] = []
    for block in blocks:
        place = len(rows) + 1
        for p in sorted(block, key=lambda p: index[p]):
            t = tally[p]
            rows.append(StandingRow(place, p, by_id[p].name, _group_of(p, matches), t.played,
                                    t.wins, t.byes, buchholz[p], round(t.difference, 6),
                                    t.scored, t.placing, by_id[p].withdrawn))
    return tuple(rows)


def _split(block: list[str], rule: Tiebreak, value: dict[Tiebreak, Callable[[str], float]],
           games: Sequence[Result]) -> list[list[str]]:
    """A tied block split by one tie-break, best first."""
    if len(block) < 2:
        return [block]
    if rule is Tiebreak.HEAD_TO_HEAD:
        h2h = head_to_head(block, games)
        key: Callable[[str], float] = lambda p: h2h[p]  # noqa: E731
    else:
        key = value[rule]
    levels = sorted({round(key(p), 9) for p in block}, reverse=True)
    return [[p for p in block if round(key(p), 9) == level] for level in levels]


def _group_of(player: str, matches: Sequence[Match]) -> str:
    for m in matches:
        if player in m.seats:
            return m.group
    return ""


def _knockout_places(entrants: Sequence[Entrant], matches: Sequence[Match]) -> dict[str, int]:
    """The place each player is sure of: 1 the champion, 2 the finalist, 3 the semi-finalists...

    A player still in the bracket is shown at the place of the round they reached.
    """
    total = 0
    while 2 ** total < len(entrants):
        total += 1
    out: dict[str, int] = {}
    for e in entrants:
        last = max((m for m in matches if e.player in m.seats), key=lambda m: m.round,
                   default=None)
        if last is None:
            out[e.player] = 2 ** total + 1
        elif last.winner == e.player and last.decided:
            out[e.player] = 2 ** (total - last.round - 1) + 1 if last.round < total else 1
        else:
            out[e.player] = 2 ** (total - last.round) + 1
    return out


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """Text a spreadsheet shows as text: a leading formula character gets a quote."""
    return f"'{text}" if text.startswith(_FORMULA) else text


def _number(x: float) -> str:
    return f"{x:g}"


CSV_HEADER = ("place", "name", "player", "group", "played", "wins", "byes", "buchholz",
              "difference", "scored", "placing", "withdrawn")


def to_csv(rows: Sequence[StandingRow]) -> str:
    """The standings as CSV text (comma separated, a header line, \\r\\n line ends)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for r in rows:
        writer.writerow([r.place, _cell(r.name), _cell(r.player), _cell(r.group), r.played,
                         _number(r.wins), r.byes, _number(r.buchholz),
                         _number(r.difference), r.scored, _number(r.placing),
                         "yes" if r.withdrawn else ""])
    return out.getvalue()
