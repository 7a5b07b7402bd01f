"""Players' ratings on one server, from the games they finished (openskill, Plackett–Luce).

Pure and deterministic: games come in as `RatedGame` rows, ratings and history rows go
out; the caller stores both. Two pools per server, because a duel and a four-player
game measure different skills: `Pool.DUEL` (2 players) and `Pool.MULTI` (3 or more).

A `HistoryRow` is written for every player of every rated game, with the rating before
and after. The history is what makes amendments cheap: when a result changes, the
ratings just before that game are read back from the rows before it, and only the games
from there on are rated again (`RatingBook.amend`), which gives exactly what rating the
whole amended list from scratch would give.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from openskill.models import PlackettLuce

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


RATED_ENDINGS = frozenset({Ending.NORMAL, Ending.FORFEIT})


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
        for game in sorted(games, key=lambda g: g.order):
            if game.counts:
                history += _rate_one(ratings, game)
        return RatingBook(ratings, tuple(history))

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
                    threshold: int = PROVISIONAL_GAMES) -> tuple[LeaderRow, ...]:
        """Players by ordinal, best first; equal ordinals share a place (then by name)."""
        entries = sorted(((player, r) for (p, player), r in self.ratings.items() if p == pool),
                         key=lambda e: (-e[1].ordinal, e[0]))
        rows: list[LeaderRow] = []
        for player, rating in entries:
            if rating.provisional(threshold) and not include_provisional:
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


def _rate_one(ratings: dict[tuple[Pool, str], Rating], game: RatedGame) -> list[HistoryRow]:
    """Rate one game into `ratings` (changed in place) and return its history rows."""
    pool = Pool.of(len(game.players))
    before = [ratings.get((pool, p), Rating()) for p in game.players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(r) for r in game.ranks])
    rows: list[HistoryRow] = []
    for player, rank, old, (new,) in zip(game.players, game.ranks, before, after, strict=True):
        rating = Rating(new.mu, new.sigma, old.games + 1)
        ratings[(pool, player)] = rating
        rows.append(HistoryRow(game.game_id, game.ended_at, pool, player, rank,
                               len(game.players), old.mu, old.sigma, old.ordinal,
                               rating.mu, rating.sigma, rating.ordinal, rating.games))
    return rows
