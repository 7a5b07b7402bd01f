"""The values a tournament is made of: its settings, entrants, matches and results.

All frozen: every change to an event makes a new value (see `event.py`), so a stored
event can be compared, replayed and undone. Players are opaque strings (the service's
user ids); names are only for standings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class LeagueError(Exception):
    """A request that cannot be done; `code` names it for the front end's words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[LeagueError], tuple[str, str]]:
        return (LeagueError, (self.code, self.message))  # back from a worker process


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"
    TABLES = "tables"  # multiplayer tables with placing points
    DOUBLE_ELIMINATION = "double_elimination"  # a knockout with a losers' bracket


BRACKETS = (Format.KNOCKOUT, Format.DOUBLE_ELIMINATION)


class Tiebreak(StrEnum):
    """The tie-break menu. Opponents' points are wins (placing points at tables)."""

    WINS = "wins"
    BUCHHOLZ = "buchholz"  # opponents' points added up
    BUCHHOLZ_CUT1 = "buchholz_cut1"  # Buchholz less the weakest opponent
    MEDIAN = "median"  # Buchholz less the weakest and the strongest opponent
    SONNEBORN_BERGER = "sonneborn_berger"  # opponents' points, weighted by the result
    DIFFERENCE = "difference"  # point difference
    SCORED = "scored"  # points scored: Carcassonne's own tie-break
    HEAD_TO_HEAD = "head_to_head"
    PLACING = "placing"  # placing points


# The World Championship's chain for a Swiss; a complete round robin, where every
# Buchholz is the same total less one's own points, splits by the games between the
# tied players and by whom they beat; placing points first at multiplayer tables;
# brackets place by the round reached (the chain only fills the CSV's columns).
DUEL_CHAIN = (Tiebreak.WINS, Tiebreak.BUCHHOLZ, Tiebreak.DIFFERENCE)
ROUND_ROBIN_CHAIN = (Tiebreak.WINS, Tiebreak.HEAD_TO_HEAD, Tiebreak.SONNEBORN_BERGER,
                     Tiebreak.SCORED)
TABLE_CHAIN = (Tiebreak.PLACING, Tiebreak.WINS, Tiebreak.SCORED)
BRACKET_CHAIN = (Tiebreak.WINS, Tiebreak.SCORED)
PLACING_POINTS = (5.0, 3.0, 2.0, 1.0)
# What happens to a player of an event whose clock keeps running out (BGA-style):
# nothing more than the game's own time-out choice, the match forfeited after `limit`
# time-outs in one game, or withdrawn from the event after `limit` in its games.
TIMEOUT_RULES = ("none", "forfeit", "expel")


@dataclass(frozen=True)
class EventConfig:
    """How an event is played. `rounds` counts for Swiss and tables (the others derive it)."""

    format: Format
    rounds: int = 0
    best_of: int = 1  # knockout series length, odd
    groups: int = 1  # round robin: groups played side by side
    table_size: int = 4
    placing_points: tuple[float, ...] = PLACING_POINTS
    tiebreaks: tuple[Tiebreak, ...] = ()  # empty: the format's default chain
    round_seconds: float = 7 * 24 * 3600.0
    late_entries: bool = True  # Swiss and tables only: others have a fixed schedule
    third_place: bool = False  # knockout: the semi-finals' losers play for third place
    bracket_reset: bool = True  # double elimination: a grand final the losers' side
    # wins is played again (each side then has lost once)
    forfeit_at_deadline: bool = False  # a match still open at its round's deadline is
    # forfeited by whoever the game waits for (the service decides who)
    timeout_rule: str = "none"  # TIMEOUT_RULES
    timeout_limit: int = 3

    def __post_init__(self) -> None:
        if self.format in (Format.SWISS, Format.TABLES) and not 1 <= self.rounds <= 99:
            raise LeagueError("bad_rounds", "a Swiss or table event needs 1 to 99 rounds")
        if self.best_of < 1 or self.best_of % 2 == 0 or self.best_of > 9:
            raise LeagueError("bad_best_of", "best of must be an odd number from 1 to 9")
        if not 1 <= self.groups <= 26:
            raise LeagueError("bad_groups", "1 to 26 groups")
        if not 3 <= self.table_size <= 6:
            raise LeagueError("bad_table_size", "tables seat 3 to 6 players")
        if self.round_seconds <= 0:
            raise LeagueError("bad_deadline", "a round needs some time to play")
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise LeagueError("bad_tiebreaks", "each tie-break at most once")
        if self.timeout_rule not in TIMEOUT_RULES or not 1 <= self.timeout_limit <= 20:
            raise LeagueError("bad_timeout_rule", "time-outs: none, forfeit or expel, "
                              "after 1 to 20")

    @property
    def chain(self) -> tuple[Tiebreak, ...]:
        if self.tiebreaks:
            return self.tiebreaks
        return {Format.TABLES: TABLE_CHAIN, Format.ROUND_ROBIN: ROUND_ROBIN_CHAIN,
                Format.KNOCKOUT: BRACKET_CHAIN,
                Format.DOUBLE_ELIMINATION: BRACKET_CHAIN}.get(self.format, DUEL_CHAIN)

    @property
    def bracket(self) -> bool:
        return self.format in BRACKETS

    @property
    def takes_late_entries(self) -> bool:
        return self.late_entries and self.format in (Format.SWISS, Format.TABLES)


@dataclass(frozen=True)
class Entrant:
    """A signed-up player. `seed` orders the first pairings (a rating: higher is stronger).

    `joined` is the first round they can be paired in (1 unless a late entry);
    `withdrew_after` the last round they were paired in, once withdrawn.
    """

    player: str
    name: str
    seed: float = 0.0
    joined: int = 1
    withdrew_after: int | None = None

    @property
    def withdrawn(self) -> bool:
        return self.withdrew_after is not None


class Source(StrEnum):
    GAME = "game"  # reported from the bot's game
    OVERRIDE = "override"  # an organiser's result
    FORFEIT = "forfeit"  # an organiser's ruling on a no-show


@dataclass(frozen=True)
class Result:
    """One game's result: each player's score, in the game's seat order (first player first).

    `absent` players did not show (or left): they rank below everyone who played, and
    their scores count for nothing.
    """

    scores: tuple[tuple[str, int], ...]
    absent: frozenset[str] = frozenset()
    source: Source = Source.GAME

    @classmethod
    def of(cls, *scores: tuple[str, int], absent: Iterable[str] = (),
           source: Source = Source.GAME) -> Result:
        return cls(tuple(scores), frozenset(absent), source)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for p, _ in self.scores)

    def score(self, player: str) -> int:
        return 0 if player in self.absent else dict(self.scores)[player]

    def places(self) -> dict[str, tuple[int, int]]:
        """Each player's place (1 = first) and how many share it."""
        key = {p: (p in self.absent, -self.score(p)) for p in self.players}
        out: dict[str, tuple[int, int]] = {}
        for p, k in key.items():
            better = sum(other < k for other in key.values())
            tied = sum(other == k for other in key.values())
            out[p] = (better + 1, tied)
        return out

    def wins(self) -> dict[str, float]:
        """1 for a sole winner, shared equally by tied winners; nothing for the absent."""
        places = self.places()
        return {p: (1 / tied if place == 1 and p not in self.absent else 0.0)
                for p, (place, tied) in places.items()}

    def placing(self, points: tuple[float, ...]) -> dict[str, float]:
        """Placing points: tied players share the points of the places they cover."""
        padded = [*points, *[0.0] * len(self.players)]
        out: dict[str, float] = {}
        for p, (place, tied) in self.places().items():
            out[p] = 0.0 if p in self.absent else sum(padded[place - 1:place - 1 + tied]) / tied
        return out


@dataclass(frozen=True)
class Ruling:
    """An organiser's decision replacing a match's games (override or forfeit)."""

    games: tuple[Result, ...]
    note: str = ""


@dataclass(frozen=True)
class Match:
    """A pairing (two players), a table (three or more) or a bye (one player).

    `seats` is the first game's order; in a best-of-N series the first seat moves one
    place on each game. `reported` are games as the bot reported them; the last of
    `rulings`, if any, replaces them (an appeal removes it).
    """

    id: str
    round: int
    seats: tuple[str, ...]
    group: str = ""
    best_of: int = 1
    knockout: bool = False  # decided by a winner (a tied game is played again)
    reported: tuple[Result, ...] = ()
    rulings: tuple[Ruling, ...] = ()

    @property
    def bye(self) -> bool:
        return len(self.seats) == 1

    @property
    def games(self) -> tuple[Result, ...]:
        return self.rulings[-1].games if self.rulings else self.reported

    def seats_for_game(self, index: int) -> tuple[str, ...]:
        k = index % len(self.seats)
        return self.seats[k:] + self.seats[:k]

    def series_wins(self) -> dict[str, int]:
        """Games won outright in this match (a tied game counts for nobody)."""
        won = dict.fromkeys(self.seats, 0)
        for game in self.games:
            for p, w in game.wins().items():
                if w == 1.0:
                    won[p] += 1
        return won

    @property
    def decided(self) -> bool:
        if self.bye:
            return True
        if self.knockout:
            return self.winner is not None
        return bool(self.games)

    @property
    def winner(self) -> str | None:
        """The series winner: first to win more than half of `best_of` games."""
        if self.bye:
            return self.seats[0]
        need = self.best_of // 2 + 1
        for p, n in self.series_wins().items():
            if n >= need:
                return p
        return None


@dataclass(frozen=True)
class Why:
    """Why a match was made, for the organiser (`/carc-event pairings`).

    `code`: "same_group" (a Swiss pair on equal points), "floated" (a Swiss pair across
    score groups: the higher one's group could not be paired within itself), "bye"
    (the lowest-ranked player without a bye), "bye_again" (everyone had had one),
    "schedule" (a round robin's fixed rounds), "bracket" (a knockout's winners),
    "winners_bracket", "losers_bracket", "grand_final", "bracket_reset", "third_place",
    "table" (a multiplayer table of players close in the standings, as few of whom have
    met as possible). `seat`: why the first player goes first ("fewer_first_seats",
    "second_last_time", "alternating_boards", "seed", "schedule"). `points`: each
    seat's points when paired; `met`: pairs of its players who had met before (0 unless
    no pairing could avoid it); `beyond_limit`: a first-seat count passed the limit
    (only when nothing else could be paired).
    """

    match_id: str
    code: str
    seat: str = ""
    points: tuple[float, ...] = ()
    met: int = 0
    beyond_limit: bool = False


@dataclass(frozen=True)
class Round:
    number: int
    matches: tuple[Match, ...]
    opened_at: float
    deadline: float
    why: tuple[Why, ...] = ()  # one per match, in match order (none in old events)

    @property
    def complete(self) -> bool:
        return all(m.decided for m in self.matches)
