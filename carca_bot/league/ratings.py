"""Players' ratings on one server, from the games they finished (openskill, Plackett–Luce).

Pure and deterministic: games come in as `RatedGame` rows, ratings and history rows go
out; the caller stores both. Two pools per server, because a duel and a four-player
game measure different skills: `Pool.DUEL` (2 players) and `Pool.MULTI` (3 or more).

A `HistoryRow` is written for every player of every rated game, with the rating before
and after. The history is what makes amendments cheap: when a result changes, the
ratings just before that game are read back from the rows before it, and only the games
from there on are rated again (`RatingBook.amend`), which gives exactly what rating the
whole amended list from scratch would give.

Fair play (issue 26), so a rating cannot be farmed between friends' accounts:

- real play: a game where a player left (resigned, was removed or voted out) before
  making MIN_OWN_MOVES moves of their own, or a game played to its end in which a
  player made fewer (their moves were all played for them), is an *abort*
  (`Ending.ABORTED`): unrated for everyone (the service decides it: `ratings_ops`);
- repeat games: the same two players' rated games within REPEAT_WINDOW count less and
  less (`repeat_weight`): the first FULL_REPEATS fully, then half, a quarter, an
  eighth, then not at all until older games leave the window. A player's weight in a
  game follows the opponent they have met most in that window; openskill's own
  `weights` argument divides a team's gain among its members and cannot say "count
  this game less", so the update is scaled after openskill computes it: mu moves by
  `weight` times openskill's change, and sigma**2 likewise (weight 1 is openskill's
  update exactly, weight 0 none). A weight-0 player gets no history row and their
  game count does not grow;
- the leaderboard lists only players who have rated games against at least
  MIN_OPPONENTS different opponents (`leaderboard(opponents=...)`); of those, players
  with fewer than PROVISIONAL_GAMES rated games are listed marked provisional.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

DAY = 24 * 3600.0
# A game is rated only if each player made this many moves of their own (see above).
MIN_OWN_MOVES = 5
# The leaderboard lists a player once they have met this many different opponents.
MIN_OPPONENTS = 3
# Repeat games: the same pair's games within this window, the first FULL_REPEATS fully.
REPEAT_WINDOW = 7 * DAY
FULL_REPEATS = 3
REPEAT_HALVINGS = 3  # then 1/2, 1/4, 1/8, then nothing

# A rating is provisional (shown marked, left off leaderboards by default) until the
# player has this many rated games in that pool: ten games bring sigma down from 8.3 to
# about 6 for a typical player, the point where a leaderboard place starts to mean much.
PROVISIONAL_GAMES = 10

_MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


class Pool(StrEnum):
    DUEL = "duel"    # 2-player games
    MULTI = "multi"  # 3 to 6 players

    @staticmethod
    def of(players: int) -> Pool:
        return Pool.DUEL if players == 2 else Pool.MULTI


class Ending(StrEnum):
    """How a game ended. Only NORMAL and FORFEIT (resigned, timed out) games are rated."""

    NORMAL = "normal"
    FORFEIT = "forfeit"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"
    ABORTED = "aborted"  # someone left (or was absent) before real play: see above


RATED_ENDINGS = frozenset({Ending.NORMAL, Ending.FORFEIT})


def repeat_weight(met: int) -> float:
    """How much a game counts for a player who has already played `met` rated games in
    the window with one of its opponents (the one they met most): 1, 1, 1, 1/2, 1/4,
    1/8, then 0."""
    extra = met - FULL_REPEATS + 1
    if extra <= 0:
        return 1.0
    return 0.5 ** extra if extra <= REPEAT_HALVINGS else 0.0


def ranks_from_scores(scores: Sequence[int], out: Iterable[int] = ()) -> tuple[int, ...]:
    """Competition ranks (1 = best; equal scores share a rank) from final scores.

    `out` are seat indexes of players who resigned, timed out or did not show: they rank
    below everyone who played on, sharing the last rank among themselves.
    """
    gone = set(out)
    keys = [(1 if i in gone else 0, -s) for i, s in enumerate(scores)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


@dataclass(frozen=True)
class RatedGame:
    """One finished game, as the ratings need it.

    `ranks` line up with `players` (1 = first; equal ranks are a tie). `order` sorts
    the server's games into the sequence they are rated in: the time the game ended
    (seconds), with `game_id` breaking equal times.
    """

    game_id: str
    ended_at: float
    players: tuple[str, ...]
    ranks: tuple[int, ...]
    ending: Ending = Ending.NORMAL
    rated: bool = True  # the game's "unrated" option turns this off

    def __post_init__(self) -> None:
        if len(self.players) != len(self.ranks):
            raise ValueError("one rank per player")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player appears twice in one game")

    @property
    def counts(self) -> bool:
        """Whether this game changes ratings: rated, ended properly, 2 to 6 players."""
        return self.rated and self.ending in RATED_ENDINGS and 2 <= len(self.players) <= 6

    @property
    def order(self) -> tuple[float, str]:
        return (self.ended_at, self.game_id)


@dataclass(frozen=True)
class Rating:
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The number shown to players: mu - 3 sigma (0 for a newcomer, rises with play)."""
        return self.mu - 3 * self.sigma

    def provisional(self, threshold: int = PROVISIONAL_GAMES) -> bool:
        return self.games < threshold


@dataclass(frozen=True)
class HistoryRow:
    """A player's rating before and after one rated game (one row per player per game)."""

    game_id: str
    ended_at: float
    pool: Pool
    player: str
    rank: int
    players: int
    before_mu: float
    before_sigma: float
    before_ordinal: float
    after_mu: float
    after_sigma: float
    after_ordinal: float
    games: int  # the player's rated games in this pool, this one included

    @property
    def after(self) -> Rating:
        return Rating(self.after_mu, self.after_sigma, self.games)

    @property
    def change(self) -> float:
        return self.after_ordinal - self.before_ordinal


@dataclass(frozen=True)
class LeaderRow:
    place: int
    player: str
    rating: Rating
    provisional: bool


@dataclass(frozen=True)
class RatingBook:
    """One server's ratings and their history. Never changed in place: rating returns a new book."""

    ratings: Mapping[tuple[Pool, str], Rating] = field(default_factory=dict)
    history: tuple[HistoryRow, ...] = ()

    def get(self, player: str, pool: Pool) -> Rating:
        return self.ratings.get((pool, player), Rating())

    def rate(self, games: Iterable[RatedGame]) -> RatingBook:
        """This book with `games` rated after everything already in it, in their order.

        Games that do not count (unrated, cancelled, abandoned) are skipped.
        """
        ratings = dict(self.ratings)
        history = list(self.history)
        met = Meetings(self.history)
        for game in sorted(games, key=lambda g: g.order):
            if game.counts:
                rows = _rate_one(ratings, game, met.weights(game))
                history += rows
                met.add(Pool.of(len(game.players)), game.order, [r.player for r in rows])
        return RatingBook(ratings, tuple(history))

    def weights(self, game: RatedGame) -> tuple[float, ...]:
        """Each player's repeat weight in `game` if it were rated after this book's
        history (which must hold the REPEAT_WINDOW before it)."""
        return Meetings(self.history).weights(game)

    @classmethod
    def from_games(cls, games: Iterable[RatedGame]) -> RatingBook:
        return cls().rate(games)

    def amend(self, games: Iterable[RatedGame], from_game: RatedGame) -> RatingBook:
        """The book after a result changed: `from_game` is the game as it was rated.

        `games` are all the server's games as they are now (the amended one included, or
        left out when it was annulled). History rows before `from_game` are kept and the
        ratings they end with restored; every game from `from_game` on is rated again.
        """
        games = list(games)
        cut = min([from_game.order, *(g.order for g in games if g.game_id == from_game.game_id)])
        kept = [row for row in self.history if (row.ended_at, row.game_id) < cut]
        ratings: dict[tuple[Pool, str], Rating] = {}
        for row in kept:
            ratings[(row.pool, row.player)] = row.after
        start = RatingBook(ratings, tuple(kept))
        return start.rate(g for g in games if g.order >= cut)

    def leaderboard(self, pool: Pool, *, include_provisional: bool = False,
                    threshold: int = PROVISIONAL_GAMES,
                    opponents: Mapping[str, int] | None = None,
                    min_opponents: int = MIN_OPPONENTS) -> tuple[LeaderRow, ...]:
        """Players by ordinal, best first; equal ordinals share a place (then by name).

        With `opponents` (each player's different opponents in rated games of the
        pool: `distinct_opponents`), players who met fewer than `min_opponents` are
        left off whatever their rating: a board topped by two accounts trading wins
        says nothing.
        """
        entries = sorted(((player, r) for (p, player), r in self.ratings.items() if p == pool),
                         key=lambda e: (-e[1].ordinal, e[0]))
        rows: list[LeaderRow] = []
        for player, rating in entries:
            if rating.provisional(threshold) and not include_provisional:
                continue
            if opponents is not None and opponents.get(player, 0) < min_opponents:
                continue
            place = len(rows) + 1
            if rows and rows[-1].rating.ordinal == rating.ordinal:
                place = rows[-1].place
            rows.append(LeaderRow(place, player, rating, rating.provisional(threshold)))
        return tuple(rows)

    def to_json(self) -> dict[str, Any]:
        return {
            "ratings": [{"pool": pool.value, "player": player, "mu": r.mu, "sigma": r.sigma,
                         "games": r.games} for (pool, player), r in sorted(self.ratings.items())],
            "history": [_row_json(row) for row in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RatingBook:
        ratings = {(Pool(r["pool"]), str(r["player"])):
                   Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
                   for r in data["ratings"]}
        history = tuple(HistoryRow(**{**row, "pool": Pool(row["pool"])})
                        for row in data["history"])
        return cls(ratings, history)


def _row_json(row: HistoryRow) -> dict[str, Any]:
    return {"game_id": row.game_id, "ended_at": row.ended_at, "pool": row.pool.value,
            "player": row.player, "rank": row.rank, "players": row.players,
            "before_mu": row.before_mu, "before_sigma": row.before_sigma,
            "before_ordinal": row.before_ordinal, "after_mu": row.after_mu,
            "after_sigma": row.after_sigma, "after_ordinal": row.after_ordinal,
            "games": row.games}


class Meetings:
    """Who met whom in rated games and when, per pool: what repeat weights are made of.

    A pair met in a game when both have a history row of it (a weight-0 player has
    none, so such a game does not count towards their meetings either).
    """

    def __init__(self, history: Iterable[HistoryRow] = ()) -> None:
        self._times: defaultdict[tuple[Pool, str, str], list[tuple[float, str]]] = \
            defaultdict(list)
        games: defaultdict[tuple[float, str], list[HistoryRow]] = defaultdict(list)
        for row in history:
            games[(row.ended_at, row.game_id)].append(row)
        for order, rows in sorted(games.items()):
            self.add(rows[0].pool, order, [r.player for r in rows])

    def add(self, pool: Pool, order: tuple[float, str], players: Sequence[str]) -> None:
        for a, b in combinations(sorted(players), 2):
            insort(self._times[(pool, a, b)], order)

    def met(self, pool: Pool, a: str, b: str, game: RatedGame) -> int:
        """Rated games of `a` and `b` ended within REPEAT_WINDOW before `game`."""
        low, high = sorted((a, b))
        times = self._times.get((pool, low, high), [])
        first = bisect_right(times, (game.ended_at - REPEAT_WINDOW, _AFTER_EVERY_ID))
        return max(0, bisect_left(times, game.order) - first)

    def weights(self, game: RatedGame) -> tuple[float, ...]:
        """Each player's weight in `game`: by the opponent they met most in the window."""
        pool = Pool.of(len(game.players))
        return tuple(repeat_weight(max(self.met(pool, p, q, game)
                                       for q in game.players if q != p))
                     for p in game.players)


_AFTER_EVERY_ID = "\U0010ffff"  # sorts after every game id: "all games at that time"


def distinct_opponents(history: Iterable[HistoryRow], pool: Pool) -> dict[str, int]:
    """How many different players each player has met in rated games of `pool` (the
    store counts the same in SQL: `opponent_counts`)."""
    games: defaultdict[str, set[str]] = defaultdict(set)
    for row in history:
        if row.pool == pool:
            games[row.game_id].add(row.player)
    met: defaultdict[str, set[str]] = defaultdict(set)
    for players in games.values():
        for player in players:
            met[player] |= players - {player}
    return {player: len(others) for player, others in met.items()}


def _scaled(old: Rating, new_mu: float, new_sigma: float, weight: float) -> tuple[float, float]:
    """openskill's update counted at `weight`: mu and sigma**2 move that share of the way
    (weight 1: openskill's numbers exactly)."""
    if weight == 1.0:
        return new_mu, new_sigma
    mu = old.mu + weight * (new_mu - old.mu)
    variance = old.sigma ** 2 + weight * (new_sigma ** 2 - old.sigma ** 2)
    return mu, math.sqrt(max(variance, 0.0))


def _rate_one(ratings: dict[tuple[Pool, str], Rating], game: RatedGame,
              weights: Sequence[float] | None = None) -> list[HistoryRow]:
    """Rate one game into `ratings` (changed in place) and return its history rows; a
    player of weight 0 is left as they were, with no row."""
    pool = Pool.of(len(game.players))
    before = [ratings.get((pool, p), Rating()) for p in game.players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(r) for r in game.ranks])
    rows: list[HistoryRow] = []
    weights = weights or (1.0,) * len(game.players)
    for player, rank, old, (new,), weight in zip(game.players, game.ranks, before, after,
                                                 weights, strict=True):
        if weight <= 0:
            continue
        rating = Rating(*_scaled(old, new.mu, new.sigma, weight), old.games + 1)
        ratings[(pool, player)] = rating
        rows.append(HistoryRow(game.game_id, game.ended_at, pool, player, rank,
                               len(game.players), old.mu, old.sigma, old.ordinal,
                               rating.mu, rating.sigma, rating.ordinal, rating.games))
    return rows
