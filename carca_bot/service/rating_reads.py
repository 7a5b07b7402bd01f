"""Reading the ratings: leaderboards, profiles, rating histories, head-to-head records and
what one game did to the ratings. Plain data; the front ends word and draw it.

The leaderboard (issue 26 and 28 together): a player is listed once they have rated
games against MIN_OPPONENTS (3) different opponents in the pool, so two accounts trading
wins never reach it; of the listed players, those with fewer than PROVISIONAL_GAMES (10)
rated games are shown too, marked provisional, so players of a 5-round Swiss reach the
board at once. Everyone listed is ranked by the rating shown (mu - 3 sigma), which
already puts the uncertain below the proven; `include_provisional=False` leaves the
provisional ones off. A player's `place` on their profile is their place on that board.

Head-to-head records and recent opponents count every game that ended with both
seated except aborts (a game without real play says nothing about who is better);
rated or not, voided or not: they are the record of what was played.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from carca_bot.league.ratings import (
    MIN_OPPONENTS,
    MIN_OWN_MOVES,
    REPEAT_WINDOW,
    Ending,
    Pool,
    Rating,
    RatingBook,
)
from carca_bot.service.errors import BadInput, NoGameHere
from carca_bot.service.ratings_ops import (
    RatingsOps,
    grouped,
    history_row,
    padded,
    rated_game,
    voided,
)
from carca_bot.store import ResultRow

LEADERBOARD_PAGE = 10
PROFILE_GAMES = 1000  # games a profile looks back over
RECENT_GAMES = 10  # the profile's latest results
RECENT_OPPONENTS = 8  # ... and the people they played lately
TIMED_GAMES = 50  # ... and, for the time per move, the latest this many (their logs are read)
FAVOURITES = 3
MEETINGS = 10  # a head-to-head record's latest games


@dataclass(frozen=True)
class PoolRating:
    """A player's rating in one pool. `rating` is the number shown (openskill's ordinal,
    mu - 3 sigma), `mu` and `sigma` the estimate and its uncertainty; `place` on the
    server's leaderboard, None while not listed (fewer than MIN_OPPONENTS opponents)."""

    pool: Pool
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool
    place: int | None
    opponents: int = 0  # different opponents in rated games of the pool


@dataclass(frozen=True)
class Opponent:
    """Someone the player met lately, and how those games went for the player."""

    user_id: str
    name: str
    games: int
    wins: int  # the player finished above them
    losses: int
    draws: int
    last_played: float


@dataclass(frozen=True)
class Profile:
    """What `/carc-profile` shows: plain data (the front end draws or writes it). Games,
    wins and scores leave aborts out (`aborted` counts them)."""

    user_id: str
    name: str | None  # as last seated on this server; None: never played here
    ratings: tuple[PoolRating, ...]  # the pools they have rated games in
    games: int  # games that ended on this server with them seated
    wins: int  # games they placed first in (ties for first count)
    average_score: float | None
    favourite_expansions: tuple[tuple[str, int], ...]  # (expansion, games), most played first
    median_move_seconds: float | None  # over their latest games' own moves
    # Their latest results as (place, players), newest first (at most RECENT_GAMES).
    recent_results: tuple[tuple[int, int], ...] = ()
    aborted: int = 0  # games without real play (unrated for everyone)
    recent_opponents: tuple[Opponent, ...] = ()  # latest met first


@dataclass(frozen=True)
class LeaderEntry:
    place: int
    user_id: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool
    opponents: int = 0


@dataclass(frozen=True)
class LeaderPage:
    pool: Pool
    page: int  # 1-based
    pages: int  # at least 1
    total: int  # players on the whole board
    rows: tuple[LeaderEntry, ...]
    # Rated players left off for meeting fewer than `min_opponents` different opponents.
    unlisted: int = 0
    min_opponents: int = MIN_OPPONENTS


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one rated game: a point of their rating history."""

    game_id: int
    ended_at: float
    rank: int
    players: int
    before: float  # the rating shown, before and after
    after: float
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class Meeting:
    """One game two players both sat in, from the first player's side."""

    game_id: int
    ended_at: float
    players: int
    places: tuple[int, int]
    scores: tuple[int, int]
    rated: bool  # it changed ratings (not an abort, not unrated, not void)


@dataclass(frozen=True)
class HeadToHead:
    """Two players' record against each other on the server, from the first's side."""

    players: tuple[str, str]
    names: tuple[str, str]
    games: int
    wins: int  # the first finished above the second
    losses: int
    draws: int
    duel: tuple[float | None, float | None]  # their duel ratings shown (None: no rating)
    multi: tuple[float | None, float | None]
    recent: tuple[Meeting, ...]  # newest first


@dataclass(frozen=True)
class SeatRating:
    """What one game did to one player's rating (`before`/`after` None: not rated)."""

    user_id: str
    name: str
    rank: int
    weight: float  # 1: counted fully; less: a repeat game (league.ratings.repeat_weight)
    before: float | None
    after: float | None


@dataclass(frozen=True)
class GameRating:
    """Whether and how a recorded game was rated. `status` is a code the front end
    words: rated, reduced (a repeat game counted less for someone), repeat_limit (the
    pair's repeat games in a week used up: nobody's rating moved), aborted (someone
    left or never played before `min_moves` moves of their own), unrated (the game's
    option, or an ending that is never rated), voided (an admin voided a player's
    results)."""

    game_id: int
    status: str
    pool: Pool
    seats: tuple[SeatRating, ...]
    min_moves: int = MIN_OWN_MOVES


def _pool(value: Pool | str) -> Pool:
    try:
        return Pool(value)
    except ValueError:
        raise BadInput("unknown_pool", pool=str(value)[:20],
                       choices=tuple(p.value for p in Pool)) from None


def _meeting(game: Sequence[ResultRow], a: str, b: str, counts: bool) -> Meeting:
    mine = next(r for r in game if r.user_id == a)
    theirs = next(r for r in game if r.user_id == b)
    return Meeting(mine.game_id, mine.ended_at, mine.players, (mine.rank, theirs.rank),
                   (mine.score, theirs.score), counts)


class RatingReads(RatingsOps):
    async def leaderboard(self, guild: str, pool: Pool | str = Pool.DUEL, page: int = 1,
                          include_provisional: bool = True,
                          per_page: int = LEADERBOARD_PAGE) -> LeaderPage:
        """The server's listed players by rating, best first, a page at a time (see the
        module's docstring for who is listed; provisional ones are marked)."""
        pool = _pool(pool)
        if page < 1:
            raise BadInput("bad_page")
        rows = await self.store.ratings(guild, pool.value)
        names = {r.user_id: r.name for r in rows}
        opponents = await self.store.opponent_counts(guild, pool.value)
        book = RatingBook({(pool, r.user_id): Rating(r.mu, r.sigma, r.games) for r in rows})
        board = book.leaderboard(pool, include_provisional=include_provisional,
                                 opponents=opponents)
        unlisted = sum(opponents.get(r.user_id, 0) < MIN_OPPONENTS for r in rows)
        pages = max(1, -(-len(board) // per_page))
        shown = board[(page - 1) * per_page:page * per_page]
        return LeaderPage(pool, page, pages, len(board), tuple(
            LeaderEntry(r.place, r.player, names[r.player], r.rating.ordinal, r.rating.mu,
                        r.rating.sigma, r.rating.games, r.provisional,
                        opponents.get(r.player, 0)) for r in shown), unlisted)

    async def _pool_rating(self, guild: str, pool: Pool, user_id: str, rating: Rating
                           ) -> PoolRating:
        opponents = await self.store.opponent_counts(guild, pool.value)
        place = None
        if opponents.get(user_id, 0) >= MIN_OPPONENTS:
            everyone = await self.store.ratings(guild, pool.value)
            board = RatingBook({(pool, x.user_id): Rating(x.mu, x.sigma, x.games)
                                for x in everyone}).leaderboard(
                pool, include_provisional=True, opponents=opponents)
            place = next((row.place for row in board if row.player == user_id), None)
        return PoolRating(pool, rating.ordinal, rating.mu, rating.sigma, rating.games,
                          rating.provisional(), place, opponents.get(user_id, 0))

    async def profile(self, guild: str, user_id: str) -> Profile:
        """A player's record on the server: ratings, games, wins, scores, habits, and
        the people they played lately."""
        mine = await self.store.ratings(guild, users=[user_id])
        ratings = [await self._pool_rating(guild, Pool(r.pool), user_id,
                                           Rating(r.mu, r.sigma, r.games)) for r in mine]
        every = await self.store.results_of_player(guild, user_id, PROFILE_GAMES)
        results = [r for r in every if r.ending != Ending.ABORTED.value]
        name = every[0].name if every else (mine[0].name if mine else None)
        counted = Counter(e for r in results for e in r.expansions)
        favourites = tuple(sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))[:FAVOURITES])
        times = await self.store.move_times(r.game_id for r in results[:TIMED_GAMES])
        gaps = [at - log_[i - 1][1] for log_ in times.values()
                for i, (who, at) in enumerate(log_) if i > 0 and who == user_id]
        return Profile(
            user_id, name, tuple(sorted(ratings, key=lambda p: p.pool.value)), len(results),
            sum(r.rank == 1 for r in results),
            statistics.fmean(r.score for r in results) if results else None,
            favourites, statistics.median(gaps) if gaps else None,
            tuple((r.rank, r.players) for r in results[:RECENT_GAMES]),
            len(every) - len(results), await self._recent_opponents(user_id, results))

    async def _recent_opponents(self, user_id: str, results: Sequence[ResultRow]
                                ) -> tuple[Opponent, ...]:
        """The people met in the player's games (aborts left out), latest met first."""
        rows = await self.store.results_of_games(r.game_id for r in results)
        met: dict[str, list[tuple[ResultRow, ResultRow]]] = {}
        for game in sorted(grouped(rows), key=lambda g: (-g[0].ended_at, -g[0].game_id)):
            me = next((r for r in game if r.user_id == user_id), None)
            for other in game:
                if me is not None and other.user_id not in (None, user_id):
                    met.setdefault(str(other.user_id), []).append((me, other))
        return tuple(Opponent(
            who, pairs[0][1].name, len(pairs), sum(a.rank < b.rank for a, b in pairs),
            sum(a.rank > b.rank for a, b in pairs), sum(a.rank == b.rank for a, b in pairs),
            pairs[0][0].ended_at) for who, pairs in list(met.items())[:RECENT_OPPONENTS])

    async def rating_history_of(self, guild: str, user_id: str, pool: Pool | str = Pool.DUEL
                                ) -> tuple[RatingPoint, ...]:
        """The player's rating after each of their rated games in a pool, oldest first
        (what the rating-history picture draws)."""
        pool = _pool(pool)
        rows = [history_row(h) for h in await self.store.rating_history(guild, user_id)]
        return tuple(RatingPoint(int(h.game_id), h.ended_at, h.rank, h.players,
                                 h.before_ordinal, h.after_ordinal, h.after_mu, h.after_sigma,
                                 h.games) for h in rows if h.pool == pool)

    async def versus(self, guild: str, user_id: str, other_id: str) -> HeadToHead:
        """Two players' head-to-head record on the server (aborts left out), from the
        first one's side, with their ratings and their latest games together."""
        if user_id == other_id:
            raise BadInput("versus_self")
        mine = await self.store.results_of_player(guild, user_id, PROFILE_GAMES)
        rows = await self.store.results_of_games(r.game_id for r in mine)
        voids = await self.store.rating_voids(guild)
        games = [g for g in grouped(rows) if g[0].ending != Ending.ABORTED.value
                 and any(r.user_id == other_id for r in g)]
        games.sort(key=lambda g: (-g[0].ended_at, -g[0].game_id))
        met = [_meeting(g, user_id, other_id, rated_game(g, voids).counts) for g in games]
        ratings = {(r.pool, r.user_id): Rating(r.mu, r.sigma).ordinal
                   for r in await self.store.ratings(guild, users=[user_id, other_id])}
        names = (await self._name_of(guild, user_id), await self._name_of(guild, other_id))
        return HeadToHead(
            (user_id, other_id), names, len(met), sum(m.places[0] < m.places[1] for m in met),
            sum(m.places[0] > m.places[1] for m in met),
            sum(m.places[0] == m.places[1] for m in met),
            (ratings.get(("duel", user_id)), ratings.get(("duel", other_id))),
            (ratings.get(("multi", user_id)), ratings.get(("multi", other_id))),
            tuple(met[:MEETINGS]))

    async def rating_result(self, game_id: int) -> GameRating:
        """Whether and how a recorded game changed ratings, and by how much for each
        player (see `GameRating`). NoGameHere("no_result") for a game not recorded."""
        rows = await self.store.results_of_game(game_id)
        if not rows:
            raise NoGameHere("no_result", game=game_id)
        guild = rows[0].guild_id
        pool = Pool.of(len(rows))
        game = rated_game(rows)
        history = [history_row(h) for h in await self.store.rating_history_since(
            guild, game.ended_at - REPEAT_WINDOW)]
        earlier = tuple(h for h in history if (h.ended_at, h.game_id) < game.order)
        weights = RatingBook({}, earlier).weights(game) if game.counts else (0.0,) * len(rows)
        own = {h.player: h for h in history if h.game_id == padded(game_id)}
        seats = tuple(SeatRating(
            r.user_id or "", r.name, r.rank, weights[i] if r.user_id in own else 0.0,
            own[r.user_id].before_ordinal if r.user_id in own else None,
            own[r.user_id].after_ordinal if r.user_id in own else None)
            for i, r in enumerate(rows))
        return GameRating(game_id, self._status(rows, game.counts, own, seats,
                                                await self.store.rating_voids(guild)),
                          pool, seats)

    @staticmethod
    def _status(rows: Sequence[ResultRow], counts: bool, own: Mapping[str, object],
                seats: Sequence[SeatRating], voids: Mapping[str, float]) -> str:
        if rows[0].ending == Ending.ABORTED.value:
            return "aborted"
        if not counts:
            return "unrated"
        if voided(rows, voids):
            return "voided"
        if not own:
            return "repeat_limit"
        return "rated" if all(s.weight == 1.0 for s in seats) else "reduced"


__all__ = ["MIN_OPPONENTS", "GameRating", "HeadToHead", "LeaderEntry", "LeaderPage", "Meeting",
           "Opponent", "PoolRating", "Profile", "RatingPoint", "RatingReads", "SeatRating"]
