"""Ratings, profiles and leaderboards, from the games that end on each server.

Every game that ends (played out, or ended by resignations) is recorded once in
`game_results`, one row per seat with the final score and place, and rated at once
with `carca_bot.league.ratings` (openskill, Plackett–Luce) unless it is not rated:

- rated by default, normal games and event games alike: the `unrated` game option (an
  event's options carry it to its games) turns it off; analysis games, games with a
  seat nobody owns and solo games are never rated;
- a game ended by resignations (or a player voted out) counts as a forfeit
  (`Ending.FORFEIT`): who left ranks below everyone who played on; cancelled games
  are not rated at all.

The rating history (`rating_history`) is what lets a result change afterwards (an
organiser's override of an event game): `amend_result` re-rates from that game on,
which gives the same ratings as rating the amended list from scratch.
"""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carca_bot.league import (
    PROVISIONAL_GAMES,
    Ending,
    HistoryRow,
    Pool,
    RatedGame,
    Rating,
    RatingBook,
    ranks_from_scores,
)
from carca_bot.service.core import ServiceCore, log
from carca_bot.service.errors import BadInput, NoGameHere
from carca_bot.service.live import Live
from carca_bot.service.views import seat_score
from carca_bot.store import RatingHistoryRow, RatingRow, ResultRow

LEADERBOARD_PAGE = 10
PROFILE_GAMES = 1000  # games a profile looks back over
TIMED_GAMES = 50  # ... and, for the time per move, the latest this many (their logs are read)
FAVOURITES = 3
# Games that ended this long ago at most are looked for by `record_missed_results`.
RECORD_WINDOW = 7 * 24 * 3600.0


@dataclass(frozen=True)
class PoolRating:
    """A player's rating in one pool. `rating` is the number shown (openskill's ordinal,
    mu - 3 sigma); `place` on the server's leaderboard, None while provisional."""

    pool: Pool
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool
    place: int | None


@dataclass(frozen=True)
class Profile:
    """What `/carc-profile` shows: plain data (the front end draws or writes it)."""

    user_id: str
    name: str | None  # as last seated on this server; None: never played here
    ratings: tuple[PoolRating, ...]  # the pools they have rated games in
    games: int  # games that ended on this server with them seated
    wins: int  # games they placed first in (ties for first count)
    average_score: float | None
    favourite_expansions: tuple[tuple[str, int], ...]  # (expansion, games), most played first
    median_move_seconds: float | None  # over their latest games' own moves


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


@dataclass(frozen=True)
class LeaderPage:
    pool: Pool
    page: int  # 1-based
    pages: int  # at least 1
    total: int  # players on the whole board
    rows: tuple[LeaderEntry, ...]


def padded(game_id: int) -> str:
    """A game id as the ratings order it: as text that sorts like the number."""
    return f"{game_id:012d}"


def rated_game(rows: Sequence[ResultRow]) -> RatedGame:
    """One recorded game as the ratings take it (its places as they count now)."""
    first = rows[0]
    owned = all(r.user_id is not None for r in rows)
    return RatedGame(padded(first.game_id), first.ended_at,
                     tuple(r.user_id or f"seat-{r.seat}" for r in rows),
                     tuple(r.rank for r in rows), Ending(first.ending),
                     first.rated and owned)


def results_of(live: Live, now: float) -> list[ResultRow]:
    """The seats of a game that has just ended, as `game_results` rows (none for a game
    that is never rated nor counted: analysis, solo, or seats nobody owns)."""
    game = live.game
    if (game is None or live.options.analysis or len(live.seats) < 2
            or any(s.user_id is None for s in live.seats)):
        return []
    scores = [seat_score(live, s) for s in live.seats]
    out = [s.seat for s in live.seats if s.resigned]
    ranks = ranks_from_scores(scores, out)
    ending = Ending.NORMAL if live.row.outcome == "complete" else Ending.FORFEIT
    expansions = tuple(sorted(live.options.expansions))
    return [ResultRow(live.id, s.seat, live.row.guild_id, s.user_id, s.name, scores[i],
                      ranks[i], ranks[i], len(live.seats), ending.value,
                      not live.options.unrated, s.resigned, now, expansions)
            for i, s in enumerate(live.seats)]


def _history(row: RatingHistoryRow) -> HistoryRow:
    before = Rating(row.before_mu, row.before_sigma)
    after = Rating(row.after_mu, row.after_sigma)
    return HistoryRow(padded(row.game_id), row.ended_at, Pool(row.pool), row.user_id, row.rank,
                      row.players, row.before_mu, row.before_sigma, before.ordinal,
                      row.after_mu, row.after_sigma, after.ordinal, row.games)


def _stored(guild: str, row: HistoryRow) -> RatingHistoryRow:
    return RatingHistoryRow(guild, int(row.game_id), row.player, row.pool.value, row.ended_at,
                            row.rank, row.players, row.before_mu, row.before_sigma,
                            row.after_mu, row.after_sigma, row.games)


def _grouped(rows: Sequence[ResultRow]) -> list[list[ResultRow]]:
    games: dict[int, list[ResultRow]] = defaultdict(list)
    for r in rows:
        games[r.game_id].append(r)
    return [sorted(g, key=lambda r: r.seat) for g in games.values()]


class RatingsOps(ServiceCore):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ended: list[list[ResultRow]] = []
        self._rating_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._never_rated: set[int] = set()  # ended games with nothing to record (analysis)

    # -- the hook: a game ended ------------------------------------------------------

    def _game_ended(self, live: Live) -> None:
        rows = results_of(live, self.clock())
        if rows:
            self._ended.append(rows)

    async def _after_commands(self) -> None:
        while self._ended:
            rows = self._ended.pop(0)
            try:
                await self._record_ended(rows)
            except Exception:
                log.exception("game %s: recording its result failed", rows[0].game_id)

    async def _record_ended(self, rows: list[ResultRow]) -> bool:
        """Record and rate a game that ended; False if it was recorded before."""
        if not await self.store.put_results(rows):
            return False
        await self._rate(rows[0].guild_id, rows[0].game_id)
        return True

    async def _rate(self, guild: str, game_id: int) -> None:
        async with self._rating_locks[guild]:
            rows = await self.store.results_of_game(game_id)
            if not rows:
                return
            game = rated_game(rows)
            if not game.counts:
                return
            if await self.store.rated_after(guild, game.ended_at, game_id):
                await self._rerate_from(guild, game)  # an older game ended late: re-rate
                return
            pool = Pool.of(len(game.players))
            known = {(Pool(r.pool), r.user_id): Rating(r.mu, r.sigma, r.games)
                     for r in await self.store.ratings(guild, pool.value, game.players)}
            book = RatingBook(known).rate([game])
            names = {r.user_id: r.name for r in rows}
            await self.store.save_ratings(
                guild, [_stored(guild, h) for h in book.history],
                [RatingRow(guild, h.pool.value, h.player, names.get(h.player, h.player),
                           h.after_mu, h.after_sigma, h.games) for h in book.history])

    async def _rerate_from(self, guild: str, was: RatedGame) -> None:
        """Rate every game from `was` (the game as it was rated) on again."""
        history = [_history(h) for h in await self.store.rating_history(guild)]
        since = await self.store.results_since(guild, was.ended_at, int(was.game_id))
        games = [rated_game(g) for g in _grouped(since)]
        book = RatingBook({}, tuple(history)).amend(games, was)
        names = {(r.pool, r.user_id): r.name for r in await self.store.ratings(guild)}
        seen = {r.user_id: r.name for r in since if r.user_id is not None}
        cut = was.order
        await self.store.save_ratings(
            guild, [_stored(guild, h) for h in book.history if (h.ended_at, h.game_id) >= cut],
            [RatingRow(guild, pool.value, player,
                       seen.get(player, names.get((pool.value, player), player)),
                       r.mu, r.sigma, r.games)
             for (pool, player), r in sorted(book.ratings.items())],
            replace_from=(was.ended_at, int(was.game_id)))

    async def record_missed_results(self, now: float | None = None,
                                    within: float = RECORD_WINDOW) -> int:
        """Record and rate games that ended in the last `within` seconds but have no
        result (the process stopped between storing the end and recording it); how many.
        Run by the event timers (`check_events`)."""
        now = self.clock() if now is None else now
        done = 0
        for game_id in await self.store.unrecorded_games(now - within):
            if game_id in self._never_rated:
                continue
            try:
                live = await self._load(game_id)
            except NoGameHere:
                continue
            rows = results_of(live, live.row.updated_at)
            if not rows:
                self._never_rated.add(game_id)
            elif await self._record_ended(rows):
                done += 1
        return done

    # -- amended results -----------------------------------------------------------------

    async def amend_result(self, game_id: int, ranks: Mapping[str, int] | None) -> bool:
        """Make a recorded game count with other places (by user id; None: the places it
        was played to), and re-rate from it on. Whether anything changed."""
        rows = await self.store.results_of_game(game_id)
        if not rows:
            raise NoGameHere("no_result", game=game_id)
        if ranks is None:
            wanted = {r.seat: r.played_rank for r in rows}
        else:
            if {r.user_id for r in rows} != set(ranks) or any(v < 1 for v in ranks.values()):
                raise BadInput("bad_ranks")
            wanted = {r.seat: ranks[r.user_id] for r in rows if r.user_id is not None}
        if all(wanted[r.seat] == r.rank for r in rows):
            return False
        guild = rows[0].guild_id
        async with self._rating_locks[guild]:
            was = rated_game(rows)
            await self.store.set_ranks(game_id, wanted)
            if was.counts:
                await self._rerate_from(guild, was)
        return True

    # -- reading ---------------------------------------------------------------------------

    async def leaderboard(self, guild: str, pool: Pool | str = Pool.DUEL, page: int = 1,
                          include_provisional: bool = False,
                          per_page: int = LEADERBOARD_PAGE) -> LeaderPage:
        """The server's players by rating, best first, a page at a time; provisional
        ratings (fewer than PROVISIONAL_GAMES games) are left off unless asked for."""
        try:
            pool = Pool(pool)
        except ValueError:
            raise BadInput("unknown_pool", pool=str(pool)[:20],
                           choices=tuple(p.value for p in Pool)) from None
        if page < 1:
            raise BadInput("bad_page")
        rows = await self.store.ratings(guild, pool.value)
        names = {r.user_id: r.name for r in rows}
        book = RatingBook({(pool, r.user_id): Rating(r.mu, r.sigma, r.games) for r in rows})
        board = book.leaderboard(pool, include_provisional=include_provisional)
        pages = max(1, -(-len(board) // per_page))
        shown = board[(page - 1) * per_page:page * per_page]
        return LeaderPage(pool, page, pages, len(board), tuple(
            LeaderEntry(r.place, r.player, names[r.player], r.rating.ordinal, r.rating.mu,
                        r.rating.sigma, r.rating.games, r.provisional) for r in shown))

    async def profile(self, guild: str, user_id: str) -> Profile:
        """A player's record on the server: ratings, games, wins, scores, habits."""
        mine = await self.store.ratings(guild, users=[user_id])
        ratings = []
        for r in mine:
            pool = Pool(r.pool)
            rating = Rating(r.mu, r.sigma, r.games)
            place = None
            if not rating.provisional():
                everyone = await self.store.ratings(guild, pool.value)
                board = RatingBook({(pool, x.user_id): Rating(x.mu, x.sigma, x.games)
                                    for x in everyone}).leaderboard(pool)
                place = next((row.place for row in board if row.player == user_id), None)
            ratings.append(PoolRating(pool, rating.ordinal, r.mu, r.sigma, r.games,
                                      rating.provisional(), place))
        results = await self.store.results_of_player(guild, user_id, PROFILE_GAMES)
        name = results[0].name if results else (mine[0].name if mine else None)
        counted = Counter(e for r in results for e in r.expansions)
        favourites = tuple(sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))[:FAVOURITES])
        times = await self.store.move_times(r.game_id for r in results[:TIMED_GAMES])
        gaps = [at - log_[i - 1][1] for log_ in times.values()
                for i, (who, at) in enumerate(log_) if i > 0 and who == user_id]
        return Profile(
            user_id, name, tuple(sorted(ratings, key=lambda p: p.pool.value)), len(results),
            sum(r.rank == 1 for r in results),
            statistics.fmean(r.score for r in results) if results else None,
            favourites, statistics.median(gaps) if gaps else None)

    async def rating_of(self, guild: str, user_id: str, pool: Pool) -> Rating:
        """The player's current rating in a pool (a newcomer's if they have none)."""
        found = await self.store.ratings(guild, pool.value, [user_id])
        return Rating(found[0].mu, found[0].sigma, found[0].games) if found else Rating()


__all__ = ["PROVISIONAL_GAMES", "LeaderEntry", "LeaderPage", "PoolRating", "Profile",
           "RatingsOps"]
