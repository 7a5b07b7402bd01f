"""One tournament or league, from sign-up to final standings, as an immutable value.

Every command returns a new `Event` or raises `LeagueError` and changes nothing; time
comes in as numbers (seconds), so a test drives the clock. The service stores the
event (`codec.event_to_json`) and opens one game per match the bot should play.

Decisions where the issue is silent:
- withdrawing stops a player's pairings from the next round on; their played games
  stand. An open duel or series of theirs in the current round is forfeited at once;
  at a table the others play on and the withdrawn player is recorded absent.
- a round robin's bye (odd count, or an opponent who withdrew) counts nothing; a Swiss
  bye counts as a win. A knockout bye advances.
- a knockout game that ends tied is played again (it counts for nobody); a knockout
  match from an earlier round can no longer be changed once the next round is paired.
- late entries (Swiss and tables only) join from the next round with no points.
- every round keeps why each of its matches was made (`Round.why`), for the organiser.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from carca_bot.league.brackets import (
    depth,
    double_round,
    double_rounds,
    key_of,
    knockout_round,
    needs_reset,
)
from carca_bot.league.model import (
    BRACKETS,
    Entrant,
    EventConfig,
    Format,
    LeagueError,
    Match,
    Result,
    Round,
    Ruling,
    Source,
    Why,
)
from carca_bot.league.schedule import circle_rounds, snake, table_sizes
from carca_bot.league.standings import StandingRow, standings
from carca_bot.league.swiss import SwissInput, pair_swiss
from carca_bot.league.tables import seat_tables

Paired = tuple[list[Match], list[Why]]

MAX_ENTRANTS = 512
MAX_NAME = 64


@dataclass(frozen=True)
class LateGame:
    """A match not finished by its round's deadline, for the organisers' digest."""

    match_id: str
    round: int
    players: tuple[str, ...]
    deadline: float
    overdue: float  # seconds past the deadline (negative: not yet due, in `due_soon`)


@dataclass(frozen=True)
class Event:
    config: EventConfig
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    # Fixed at the start: round-robin groups, or the knockout's seeding (one tuple).
    groups: tuple[tuple[str, ...], ...] = ()

    # --- reading ------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def matches(self) -> tuple[Match, ...]:
        return tuple(m for r in self.rounds for m in r.matches)

    @property
    def total_rounds(self) -> int:
        """Rounds the event will have (for round robins and knockouts: fixed at the start)."""
        fmt = self.config.format
        if fmt in (Format.SWISS, Format.TABLES):
            return self.config.rounds
        if not self.groups:
            return 0
        if fmt is Format.KNOCKOUT:
            return depth(len(self.groups[0]))
        if fmt is Format.DOUBLE_ELIMINATION:
            seeds = self.groups[0]
            final = next((m for m in self.matches if key_of(m) == "GF"), None)
            again = self.config.bracket_reset and needs_reset(final, seeds, self.matches)
            return double_rounds(len(seeds), again)
        return max(len(circle_rounds(g)) for g in self.groups)

    @property
    def finished(self) -> bool:
        return (self.started and len(self.rounds) >= self.total_rounds
                and all(r.complete for r in self.rounds))

    def entrant(self, player: str) -> Entrant:
        for e in self.entrants:
            if e.player == player:
                return e
        raise LeagueError("not_entered", "that player is not in this event")

    def match(self, match_id: str) -> Match:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise LeagueError("no_match", f"there is no match {match_id!r} in this event")

    def standings(self, group: str | None = None) -> tuple[StandingRow, ...]:
        return standings(self.entrants, self.matches, self.config, group)

    def open_matches(self, player: str | None = None) -> tuple[Match, ...]:
        """Matches still to be played (a player's own, if named)."""
        return tuple(m for m in self.matches if not m.decided
                     and (player is None or player in m.seats))

    def late_games(self, now: float) -> tuple[LateGame, ...]:
        """Unfinished matches whose round's deadline has passed: the organisers' digest."""
        return tuple(g for g in self._unfinished(now) if g.overdue > 0)

    def due_soon(self, now: float, within: float) -> tuple[LateGame, ...]:
        """Unfinished matches due within `within` seconds: who to remind."""
        return tuple(g for g in self._unfinished(now) if -within <= g.overdue <= 0)

    def _unfinished(self, now: float) -> list[LateGame]:
        return [LateGame(m.id, r.number, m.seats, r.deadline, now - r.deadline)
                for r in self.rounds for m in r.matches if not m.decided]

    # --- sign-ups -------------------------------------------------------------------------

    def sign_up(self, player: str, name: str, seed: float = 0.0) -> Event:
        """Enter a player; after the start only as a late entry, into the next round."""
        if any(e.player == player for e in self.entrants):
            raise LeagueError("already_entered", "you are already signed up")
        if len(self.entrants) >= MAX_ENTRANTS:
            raise LeagueError("event_full", f"this event is full ({MAX_ENTRANTS} players)")
        name = " ".join(name.split())[:MAX_NAME] or player[:MAX_NAME]
        if self.started:
            if not self.config.takes_late_entries:
                raise LeagueError("no_late_entries", "this event has started and takes no "
                                  "late entries")
            if self.finished or len(self.rounds) >= self.total_rounds:
                raise LeagueError("event_over", "the last round has been paired")
        entry = Entrant(player, name, seed, joined=len(self.rounds) + 1)
        return replace(self, entrants=(*self.entrants, entry))

    def withdraw(self, player: str) -> Event:
        """Take a player out of every later round; an open duel of theirs is forfeited."""
        entry = self.entrant(player)
        if entry.withdrawn:
            raise LeagueError("already_withdrawn", "that player has already withdrawn")
        if not self.started:
            return replace(self, entrants=tuple(e for e in self.entrants if e.player != player))
        done = replace(entry, withdrew_after=len(self.rounds))
        event = replace(self, entrants=tuple(done if e.player == player else e
                                             for e in self.entrants))
        for m in event.open_matches(player):
            if len(m.seats) == 2 and m.round == len(self.rounds):
                event = event.forfeit(m.id, [player], note="withdrew")
        return event

    # --- rounds ---------------------------------------------------------------------------

    def start(self, now: float) -> Event:
        """Close sign-ups, fix groups or the bracket, and pair round one."""
        if self.started:
            raise LeagueError("already_started", "this event has already started")
        players = [e.player for e in self._seeded()]
        need = 2 * self.config.groups if self.config.format is Format.ROUND_ROBIN else 2
        if len(players) < need:
            raise LeagueError("too_few_players", f"at least {need} players are needed")
        groups: tuple[tuple[str, ...], ...] = ()
        if self.config.format is Format.ROUND_ROBIN:
            groups = tuple(tuple(g) for g in snake(players, self.config.groups))
        elif self.config.format in BRACKETS:
            groups = (tuple(players),)
        return replace(self, groups=groups)._pair(now)

    def next_round(self, now: float) -> Event:
        """Pair the next round once every match of the current one is decided."""
        if not self.started:
            raise LeagueError("not_started", "the event has not started")
        if len(self.rounds) >= self.total_rounds:
            raise LeagueError("event_over", "that was the last round")
        waiting = [m.id for m in self.open_matches()]
        if waiting:
            raise LeagueError("round_open", "still to play: " + ", ".join(waiting))
        return self._pair(now)

    def _pair(self, now: float) -> Event:
        number = len(self.rounds) + 1
        fmt = self.config.format
        if fmt is Format.SWISS:
            matches, why = self._swiss(number)
        elif fmt is Format.ROUND_ROBIN:
            matches, why = self._round_robin(number)
        elif fmt in BRACKETS:
            matches, why = self._bracket(number)
        else:
            matches, why = self._tables(number)
        if not any(len(m.seats) > 1 for m in matches) and fmt not in BRACKETS:
            raise LeagueError("too_few_players", "not enough players left to pair a round")
        r = Round(number, tuple(matches), now, now + self.config.round_seconds, tuple(why))
        return replace(self, rounds=(*self.rounds, r))

    def _points(self) -> dict[str, float]:
        """Each player's points as the standings count them (placing points at tables)."""
        tables = self.config.format is Format.TABLES
        return {r.player: r.placing if tables else r.wins for r in self.standings()}

    def _seeded(self) -> list[Entrant]:
        """Entrants, strongest seed first, then in sign-up order."""
        order = {e.player: i for i, e in enumerate(self.entrants)}
        return sorted(self.entrants, key=lambda e: (-e.seed, order[e.player]))

    def _active(self, number: int) -> list[str]:
        """Who can be paired in round `number`, in standings order."""
        ok = {e.player for e in self.entrants if e.joined <= number and not e.withdrawn}
        if not self.rounds:
            return [e.player for e in self._seeded() if e.player in ok]
        return [row.player for row in self.standings() if row.player in ok]

    def _swiss(self, number: int) -> Paired:
        rows = {row.player: row for row in self.standings()}
        history: dict[str, tuple[int, bool | None, set[str]]] = {}
        for game in (g for m in self.matches for g in m.games):
            seats = game.players
            if len(seats) != 2:
                continue
            for k, p in enumerate(seats):
                balance, _, met = history.get(p, (0, None, set()))
                history[p] = (balance + (1 if k == 0 else -1), k == 0, met | set(seats))
        inputs = []
        for p in self._active(number):
            balance, last, met = history.get(p, (0, None, set()))
            row = rows.get(p)
            inputs.append(SwissInput(p, row.wins if row else 0.0, frozenset(met - {p}),
                                     row.byes if row else 0, balance, last))
        pairing = pair_swiss(inputs)
        matches, why = [], []
        for k, (pair, reason) in enumerate(zip(pairing.pairs, pairing.why, strict=True), 1):
            mid = f"r{number}-{k}"
            matches.append(Match(mid, number, pair))
            why.append(Why(mid, "floated" if reason.floated else "same_group", reason.seat,
                           (reason.first_wins, reason.second_wins), int(reason.rematch),
                           reason.beyond_limit))
        if pairing.bye is not None:
            matches.append(Match(f"r{number}-bye", number, (pairing.bye,)))
            why.append(Why(f"r{number}-bye", "bye_again" if pairing.bye_again else "bye",
                           points=(rows[pairing.bye].wins if pairing.bye in rows else 0.0,)))
        return matches, why

    def _round_robin(self, number: int) -> Paired:
        out = self._withdrawn()
        points = self._points()
        matches: list[Match] = []
        for gi, group in enumerate(self.groups):
            label = chr(ord("A") + gi) if len(self.groups) > 1 else ""
            schedule = circle_rounds(group)
            if number > len(schedule):
                continue
            for pair in schedule[number - 1]:
                seats = tuple(p for p in pair if p not in out)
                if seats:
                    mid = f"r{number}-{label}{len(matches) + 1}"
                    matches.append(Match(mid, number, seats, group=label))
        return matches, [Why(m.id, "bye" if m.bye else "schedule", "schedule",
                             tuple(points.get(p, 0.0) for p in m.seats)) for m in matches]

    def _bracket(self, number: int) -> Paired:
        seeds, out, c = self.groups[0], self._withdrawn(), self.config
        if c.format is Format.KNOCKOUT:
            matches = knockout_round(number, seeds, self.rounds[-1].matches if self.rounds
                                     else (), out, c.best_of, c.third_place)
        else:
            matches = double_round(number, seeds, self.matches, out, c.best_of,
                                   c.bracket_reset)
        codes = {"W": "winners_bracket", "L": "losers_bracket", "G": "grand_final"}
        why = []
        for m in matches:
            key = key_of(m)
            code = ("third_place" if key == "3rd" else "bracket_reset" if key == "GF2"
                    else codes.get(key[0], "bracket"))
            why.append(Why(m.id, "bye" if m.bye else code, "seed"))
        return matches, why

    def _tables(self, number: int) -> Paired:
        players = self._active(number)
        points = self._points()
        firsts: dict[str, int] = {}
        met: dict[str, set[str]] = {}
        for game in (g for m in self.matches for g in m.games):
            firsts[game.players[0]] = firsts.get(game.players[0], 0) + 1
            for p in game.players:
                met.setdefault(p, set()).update(q for q in game.players if q != p)
        sizes = table_sizes(len(players), self.config.table_size)
        tables = seat_tables(players, {p: frozenset(q) for p, q in met.items()}, firsts,
                             sizes)
        matches, why = [], []
        for k, table in enumerate(tables, 1):
            mid = f"r{number}-{'bye' if len(table.seats) == 1 else k}"
            matches.append(Match(mid, number, table.seats))
            why.append(Why(mid, "bye" if len(table.seats) == 1 else "table",
                           "fewer_first_seats", tuple(points.get(p, 0.0) for p in table.seats),
                           table.repeats))
        return matches, why

    def _withdrawn(self) -> set[str]:
        return {e.player for e in self.entrants if e.withdrawn}

    # --- results --------------------------------------------------------------------------

    def report(self, match_id: str, result: Result) -> Event:
        """A game's result as the bot reports it; seats missing from it count as absent."""
        m = self.match(match_id)
        self._check_open_to_change(m)
        if m.decided:
            raise LeagueError("already_decided", "this match has its result: an organiser "
                              "can override it")
        game = self._checked(m, result)
        return self._put(replace(m, reported=(*m.reported, game)))

    def override(self, match_id: str, games: Sequence[Result], note: str = "") -> Event:
        """An organiser's result for a match (every game of a series), replacing the games."""
        m = self.match(match_id)
        self._check_open_to_change(m)
        if not games:
            raise LeagueError("no_games", "an override needs at least one game's result")
        checked = tuple(replace(self._checked(m, g), source=Source.OVERRIDE) for g in games)
        new = replace(m, rulings=(*m.rulings, Ruling(checked, note)))
        if m.knockout and new.winner is None:
            raise LeagueError("no_winner", "a knockout match needs a winner")
        if len(checked) > 1 and not m.knockout:
            raise LeagueError("one_game", "this match is a single game")
        return self._put(new)

    def forfeit(self, match_id: str, absent: Iterable[str], note: str = "",
                scores: Mapping[str, int] | None = None) -> Event:
        """A no-show: the absent players lose this match (its games so far stand).

        `scores`: the others' scores in the game as it stood (a forfeit at the deadline
        of a table whose game was under way ranks those who played on by them)."""
        m = self.match(match_id)
        self._check_open_to_change(m)
        gone = frozenset(absent)
        if not gone or not gone <= set(m.seats):
            raise LeagueError("not_in_match", "name players of this match")
        if m.bye:
            raise LeagueError("bye", "a bye has no opponent to forfeit to")
        if m.knockout:
            if gone == set(m.seats):
                raise LeagueError("no_winner", "a knockout match needs a winner: forfeit "
                                  "one player")
            games = list(m.games)
            while replace(m, rulings=(Ruling(tuple(games)),)).winner is None:
                seats = m.seats_for_game(len(games))
                games.append(Result(tuple((p, 0) for p in seats), gone, Source.FORFEIT))
            return self._put(replace(m, rulings=(*m.rulings, Ruling(tuple(games), note))))
        if m.games:
            base = m.games[-1]
            kept = base.scores + tuple((p, 0) for p in m.seats if p not in base.players)
        else:
            kept = tuple((p, 0) for p in m.seats)
        if scores is not None:
            kept = tuple((p, max(0, min(10_000, int(scores.get(p, s))))) for p, s in kept)
        game = Result(kept, gone | m.games[-1].absent if m.games else gone, Source.FORFEIT)
        return self._put(replace(m, rulings=(*m.rulings, Ruling((game,), note))))

    def appeal(self, match_id: str) -> Event:
        """Grant an appeal: the match's last ruling is withdrawn, the one before stands."""
        m = self.match(match_id)
        self._check_open_to_change(m)
        if not m.rulings:
            raise LeagueError("nothing_to_appeal", "this match has no organiser ruling")
        return self._put(replace(m, rulings=m.rulings[:-1]))

    def _checked(self, m: Match, result: Result) -> Result:
        if m.bye:
            raise LeagueError("bye", "a bye has no game")
        players = result.players
        if not players or len(set(players)) != len(players) or not set(players) <= set(m.seats):
            raise LeagueError("wrong_players", "the result must name this match's players")
        missing = tuple((p, 0) for p in m.seats if p not in players)
        if any(s < 0 or s > 10_000 for _, s in result.scores):
            raise LeagueError("bad_score", "scores are 0 to 10000")
        return Result(result.scores + missing,
                      result.absent | {p for p, _ in missing}, result.source)

    def _check_open_to_change(self, m: Match) -> None:
        if m.knockout and m.round < len(self.rounds):
            raise LeagueError("already_advanced", "the next knockout round is paired: this "
                              "match can no longer change")

    def _put(self, new: Match) -> Event:
        rounds = tuple(replace(r, matches=tuple(new if m.id == new.id else m
                                                for m in r.matches))
                       if r.number == new.round else r for r in self.rounds)
        return replace(self, rounds=rounds)


def paired(event: Event, now: float) -> Event:
    """Start the event (round one) or pair its next round: a function of plain values,
    so the service can run it in a worker process."""
    return event.next_round(now) if event.started else event.start(now)
