"""Standings: every player's record, ordered by a chain of tie-breaks, and as CSV.

Decisions where the issue is silent:
- a duel won counts 1, a tied duel 1/2 to each; at a table the winner counts 1 and tied
  winners share it. A bye in a Swiss event counts as a win (no points, no opponent);
  byes elsewhere count nothing.
- an opponent's points are their wins (placing points at multiplayer tables), as their
  records stand now; a withdrawn opponent's played games stand as they are.
- Buchholz adds up the points of every opponent met in a game (a no-show's opponent
  included: they were paired; at a table each other player counts). A bye counts as an
  opponent with no points, so Buchholz cut-1 (less the weakest opponent) drops the bye
  first and every player's sum covers as many rounds; median Buchholz drops the
  strongest too.
- Sonneborn-Berger adds up each opponent's points times one's result against them: 1
  for placing above them in the game, 1/2 for the same place, 0 below.
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

from carca_bot.league.brackets import double_places, knockout_places
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
    buchholz_cut1: float = 0.0
    median: float = 0.0
    sonneborn_berger: float = 0.0
    head_to_head: float | None = None  # among the players level with them before it in
    # the event's chain (None: it was not needed, or is not in the chain)

    def value(self, tiebreak: Tiebreak) -> float | None:
        """This row's value of a tie-break of the menu."""
        found: float | None = getattr(self, tiebreak.value)
        return found


@dataclass
class _Tally:
    played: int = 0
    wins: float = 0.0
    byes: int = 0
    difference: float = 0.0
    scored: int = 0
    placing: float = 0.0
    # (opponent, one's result against them) for every opponent of every game, and a
    # None opponent for each bye.
    faced: list[tuple[str | None, float]] | None = None


def _games(matches: Sequence[Match]) -> list[Result]:
    return [g for m in matches if not m.bye for g in m.games]


def _tallies(entrants: Sequence[Entrant], matches: Sequence[Match],
             config: EventConfig) -> tuple[dict[str, _Tally], dict[str, list[str]]]:
    tally = {e.player: _Tally() for e in entrants}
    met: dict[str, list[str]] = defaultdict(list)
    for t in tally.values():
        t.faced = []
    for m in matches:
        if m.bye:
            tally[m.seats[0]].byes += 1
            _faced(tally[m.seats[0]]).append((None, 0.0))
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
        places = game.places()
        for p in game.players:
            _faced(tally[p]).extend(
                (q, 1.0 if places[p][0] < places[q][0] else
                 0.5 if places[p][0] == places[q][0] else 0.0)
                for q in game.players if q != p)
    return tally, met


def _faced(t: _Tally) -> list[tuple[str | None, float]]:
    assert t.faced is not None
    return t.faced


def _opponents(tally: dict[str, _Tally], config: EventConfig
               ) -> dict[str, tuple[float, float, float, float]]:
    """Each player's Buchholz, Buchholz cut-1, median Buchholz and Sonneborn-Berger."""
    tables = config.format is Format.TABLES

    def points(p: str | None) -> float:
        if p is None:
            return 0.0
        return tally[p].placing if tables else tally[p].wins

    out = {}
    for p, t in tally.items():
        seen = sorted(points(q) for q, _ in _faced(t))
        total = sum(seen)
        cut1 = total - seen[0] if seen else 0.0
        median = total - seen[0] - seen[-1] if len(seen) > 2 else 0.0
        sb = sum(points(q) * share for q, share in _faced(t))
        out[p] = (total, cut1, median, sb)
    return out


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
    tally, _ = _tallies(entrants, matches, config)
    opp = _opponents(tally, config)
    games = _games(matches)
    value: dict[Tiebreak, Callable[[str], float]] = {
        Tiebreak.WINS: lambda p: tally[p].wins,
        Tiebreak.BUCHHOLZ: lambda p: opp[p][0],
        Tiebreak.BUCHHOLZ_CUT1: lambda p: opp[p][1],
        Tiebreak.MEDIAN: lambda p: opp[p][2],
        Tiebreak.SONNEBORN_BERGER: lambda p: opp[p][3],
        Tiebreak.DIFFERENCE: lambda p: tally[p].difference,
        Tiebreak.SCORED: lambda p: tally[p].scored,
        Tiebreak.PLACING: lambda p: tally[p].placing,
    }
    h2h: dict[str, float] = {}
    if config.bracket:
        seeds = [e.player for e in entrants]
        out = {e.player for e in entrants if e.withdrawn}
        places = (knockout_places(seeds, matches) if config.format is Format.KNOCKOUT
                  else double_places(seeds, matches, out, config.bracket_reset))
        blocks = [[e.player for e in players if places[e.player] == k]
                  for k in sorted({places[e.player] for e in players})]
    else:
        blocks = [[e.player for e in players]]
        for rule in config.chain:
            blocks = [part for block in blocks
                      for part in _split(block, rule, value, games, h2h)]
    index = {e.player: (-e.seed, i) for i, e in enumerate(entrants)}
    by_id = {e.player: e for e in entrants}
    rows: list[StandingRow] = []
    for block in blocks:
        place = len(rows) + 1
        for p in sorted(block, key=lambda p: index[p]):
            t = tally[p]
            rows.append(StandingRow(
                place, p, by_id[p].name, _group_of(p, matches), t.played, t.wins, t.byes,
                opp[p][0], round(t.difference, 6), t.scored, t.placing, by_id[p].withdrawn,
                opp[p][1], opp[p][2], opp[p][3], h2h.get(p)))
    return tuple(rows)


def _split(block: list[str], rule: Tiebreak, value: dict[Tiebreak, Callable[[str], float]],
           games: Sequence[Result], h2h: dict[str, float]) -> list[list[str]]:
    """A tied block split by one tie-break, best first (head-to-head values kept in `h2h`)."""
    if len(block) < 2:
        return [block]
    if rule is Tiebreak.HEAD_TO_HEAD:
        among = head_to_head(block, games)
        h2h.update(among)
        key: Callable[[str], float] = lambda p: among[p]  # noqa: E731
    else:
        key = value[rule]
    levels = sorted({round(key(p), 9) for p in block}, reverse=True)
    return [[p for p in block if round(key(p), 9) == level] for level in levels]


def _group_of(player: str, matches: Sequence[Match]) -> str:
    for m in matches:
        if player in m.seats:
            return m.group
    return ""


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """Text a spreadsheet shows as text: a leading formula character gets a quote."""
    return f"'{text}" if text.startswith(_FORMULA) else text


def _number(x: float) -> str:
    return f"{x:g}"


CSV_HEADER = ("place", "name", "player", "group", "played", "wins", "byes")


def to_csv(rows: Sequence[StandingRow], chain: Sequence[Tiebreak] = ()) -> str:
    """The standings as CSV text (comma separated, a header line, \\r\\n line ends): who,
    their games, wins and byes, then the event's tie-breaks in the order they apply
    (head-to-head: blank where it was not needed), then whether they withdrew."""
    shown = [t for t in chain if t is not Tiebreak.WINS]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*CSV_HEADER, *(t.value for t in shown), "withdrawn"])
    for r in rows:
        values = [r.value(t) for t in shown]
        writer.writerow([r.place, _cell(r.name), _cell(r.player), _cell(r.group), r.played,
                         _number(r.wins), r.byes,
                         *("" if v is None else _number(v) for v in values),
                         "yes" if r.withdrawn else ""])
    return out.getvalue()
