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


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"
    TABLES = "tables"  # multiplayer tables with placing points


class Tiebreak(StrEnum):
    WINS = "wins"
    BUCHHOLZ = "buchholz"
    DIFFERENCE = "difference"  # point difference
    SCORED = "scored"  # points scored
    HEAD_TO_HEAD = "head_to_head"
    PLACING = "placing"  # placing points


# The World Championship's chain for duels; placing points first at multiplayer tables.
DUEL_CHAIN = (Tiebreak.WINS, Tiebreak.BUCHHOLZ, Tiebreak.DIFFERENCE)
TABLE_CHAIN = (Tiebreak.PLACING, Tiebreak.WINS, Tiebreak.SCORED)
PLACING_POINTS = (5.0, 3.0, 2.0, 1.0)


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

    @property
    def chain(self) -> tuple[Tiebreak, ...]:
        if self.tiebreaks:
            return self.tiebreaks
        return TABLE_CHAIN if self.format is Format.TABLES else DUEL_CHAIN

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
class Round:
    number: int
    matches: tuple[Match, ...]
    opened_at: float
    deadline: float

    @property
    def complete(self) -> bool:
        return all(m.decided for m in self.matches)
