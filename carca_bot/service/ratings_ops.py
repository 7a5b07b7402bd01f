"""Ratings, from the games that end on each server: recorded, rated, fair.

Every game that ends (played out, or ended by resignations) is recorded once in
`game_results`, one row per seat with the final score and place, and rated at once
with `carca_bot.league.ratings` (openskill, Plackett–Luce) unless it is not rated:

- rated by default, normal games and event games alike: the `unrated` game option (an
  event's options carry it to its games) turns it off; analysis games, games with a
  seat nobody owns and solo games are never rated;
- a game ended by resignations (or a player voted out) counts as a forfeit
  (`Ending.FORFEIT`): who left ranks below everyone who played on; cancelled games
  are not rated at all;
- real play (issue 26): a game where a player left (resigned, kicked, voted out,
  withdrawn from an event) before making MIN_OWN_MOVES (5) moves of their own, or a
  game played to its end in which a player made fewer (every move played for them at
  a time-out), is an abort (`Ending.ABORTED`): recorded, but unrated for everyone. The
  players hear it when it happens (notes `unrated_left_early`, `unrated_absent`). A
  move of their own is a tile or abbey they placed themselves (moves the service or
  the AI played for them, discards and wagon moves do not count);
- repeat games count less and less (`league.ratings.repeat_weight`), and a server
  admin may void a player's rated results (`void_results`): their games count for
  nobody and everything from the first of them on is rated again, in order.

The rating history (`rating_history`) is what lets a result change afterwards (an
organiser's override of an event game, a void): `_rerate_from` re-rates from that
game on, which gives the same ratings as rating the amended list from scratch.
Reading (leaderboards, profiles, history, head-to-head) is `rating_reads.py`.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carca_bot.league.ratings import (
    MIN_OWN_MOVES,
    PROVISIONAL_GAMES,
    REPEAT_WINDOW,
    Ending,
    HistoryRow,
    Pool,
    RatedGame,
    Rating,
    RatingBook,
    ranks_from_scores,
)
from carca_bot.service.core import ServiceCore, log
from carca_bot.service.errors import BadInput, NoGameHere, NotAllowed, NotNow
from carca_bot.service.live import Live
from carca_bot.service.model import Note
from carca_bot.service.views import seat_score
from carca_bot.store import RatingHistoryRow, RatingRow, ResultRow, SeatRow

# Games that ended this long ago at most are looked for by `record_missed_results`.
RECORD_WINDOW = 7 * 24 * 3600.0
EVERY_GAME = 10**9  # "no limit" for the store's per-player reads


def padded(game_id: int) -> str:
    """A game id as the ratings order it: as text that sorts like the number."""
    return f"{game_id:012d}"


def voided(rows: Sequence[ResultRow], voids: Mapping[str, float]) -> bool:
    """Whether a recorded game is void: one of its players' results were voided up to
    a time at or after its end."""
    ended = rows[0].ended_at
    return any(r.user_id is not None and r.user_id in voids and ended <= voids[r.user_id]
               for r in rows)


def rated_game(rows: Sequence[ResultRow], voids: Mapping[str, float] | None = None
               ) -> RatedGame:
    """One recorded game as the ratings take it (its places as they count now)."""
    first = rows[0]
    owned = all(r.user_id is not None for r in rows)
    return RatedGame(padded(first.game_id), first.ended_at,
                     tuple(r.user_id or f"seat-{r.seat}" for r in rows),
                     tuple(r.rank for r in rows), Ending(first.ending),
                     first.rated and owned and not voided(rows, voids or {}))


# -- real play: moves of one's own ---------------------------------------------------


def _own_turn(action: Mapping[str, Any]) -> bool:
    """A tile or an abbey placed (the decisions a turn is made of)."""
    return "tile" in action or ("abbey" in action and action["abbey"] != "skip")


def own_moves(live: Live) -> list[int]:
    """How many tiles and abbeys each seat placed itself (the log's user is theirs),
    the command's staged actions included."""
    counts = [0] * len(live.seats)
    if live.game is None:
        return counts
    users = [user for user, _at in live.times]
    for seq, user, _action in live.batch.actions if live.batch is not None else ():
        if seq == len(users):
            users.append(user)
    seat_of = {s.user_id: s.seat for s in live.seats if s.user_id is not None}
    for user, action in zip(users, live.game.history, strict=False):
        seat = seat_of.get(user) if user is not None else None
        if seat is not None and _own_turn(action):
            counts[seat] += 1
    return counts


def ratable(live: Live) -> bool:
    """Whether the game would change ratings if it ended now with real play."""
    return (not live.options.analysis and not live.options.unrated and len(live.seats) >= 2
            and all(s.user_id is not None for s in live.seats))


def short_of_play(live: Live) -> list[SeatRow]:
    """The seats that make the game an abort: left before MIN_OWN_MOVES moves of their
    own, or (a game played to its end) made fewer."""
    moves = own_moves(live)
    complete = live.row.outcome == "complete"
    return [s for s in live.seats
            if moves[s.seat] < MIN_OWN_MOVES and (s.resigned or complete)]


def left_early_note(live: Live, seat: SeatRow) -> Note | None:
    """What to say when `seat` has just left (it is marked resigned): that the game will
    not be rated, if this is the first departure that makes it an abort."""
    if not ratable(live):
        return None
    short = short_of_play(live)
    if [s.seat for s in short if s.resigned] != [seat.seat]:
        return None
    return Note("unrated_left_early", {"name": seat.name, "moves": MIN_OWN_MOVES})


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
    if short_of_play(live):
        ending = Ending.ABORTED
    expansions = tuple(sorted(live.options.expansions))
    return [ResultRow(live.id, s.seat, live.row.guild_id, s.user_id, s.name, scores[i],
                      ranks[i], ranks[i], len(live.seats), ending.value,
                      not live.options.unrated, s.resigned, now, expansions)
            for i, s in enumerate(live.seats)]


# -- the history as stored and as the ratings take it ------------------------------------


def history_row(row: RatingHistoryRow) -> HistoryRow:
    before = Rating(row.before_mu, row.before_sigma)
    after = Rating(row.after_mu, row.after_sigma)
    return HistoryRow(padded(row.game_id), row.ended_at, Pool(row.pool), row.user_id, row.rank,
                      row.players, row.before_mu, row.before_sigma, before.ordinal,
                      row.after_mu, row.after_sigma, after.ordinal, row.games)


def _stored(guild: str, row: HistoryRow) -> RatingHistoryRow:
    return RatingHistoryRow(guild, int(row.game_id), row.player, row.pool.value, row.ended_at,
                            row.rank, row.players, row.before_mu, row.before_sigma,
                            row.after_mu, row.after_sigma, row.games)


def grouped(rows: Sequence[ResultRow]) -> list[list[ResultRow]]:
    games: dict[int, list[ResultRow]] = defaultdict(list)
    for r in rows:
        games[r.game_id].append(r)
    return [sorted(g, key=lambda r: r.seat) for g in games.values()]


# -- voids ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingChange:
    """One player's rating in one pool before and after a void (None: no rating)."""

    user_id: str
    name: str
    pool: Pool
    before: float | None  # the rating shown (mu - 3 sigma)
    after: float | None
    games_before: int
    games_after: int


@dataclass(frozen=True)
class VoidReport:
    """What a void (or its undoing) did, for the front end to announce: `note` says it
    (`ratings_voided` / `ratings_restored`), `changes` every rating it moved."""

    guild: str
    user_id: str
    name: str
    voided: bool  # True: voided; False: a void lifted
    games: int  # the player's rated games it took away (or gave back)
    changes: tuple[RatingChange, ...]
    note: Note


def _changes(before: Sequence[RatingRow], after: Sequence[RatingRow]) -> tuple[RatingChange, ...]:
    old = {(r.pool, r.user_id): r for r in before}
    new = {(r.pool, r.user_id): r for r in after}
    out = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a is not None and b is not None and (a.mu, a.sigma, a.games) == (b.mu, b.sigma,
                                                                              b.games):
            continue
        row = b or a
        assert row is not None  # the key came from one of them
        out.append(RatingChange(
            key[1], row.name, Pool(key[0]),
            None if a is None else Rating(a.mu, a.sigma).ordinal,
            None if b is None else Rating(b.mu, b.sigma).ordinal,
            0 if a is None else a.games, 0 if b is None else b.games))
    return tuple(sorted(out, key=lambda c: (c.pool.value, c.name, c.user_id)))


class RatingsOps(ServiceCore):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._ended: list[list[ResultRow]] = []
        self._rating_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._never_rated: set[int] = set()  # ended games with nothing to record (analysis)

    # -- the hooks: a game finishing, a game ended ---------------------------------------

    def _game_finishing(self, live: Live) -> None:
        """A game has just been played to its end (in the command, before it is stored):
        say so if a player who never played makes it an abort."""
        if not ratable(live) or any(s.resigned for s in short_of_play(live)):
            return  # a departure that made it one was announced when it happened
        absent = [s for s in short_of_play(live) if not s.resigned]
        if absent:
            live.notes.append(Note("unrated_absent", {"name": absent[0].name,
                                                      "moves": MIN_OWN_MOVES}))

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
            game = rated_game(rows, await self.store.rating_voids(guild))
            if not game.counts:
                return
            if await self.store.rated_after(guild, game.ended_at, game_id):
                await self._rerate_from(guild, game)  # an older game ended late: re-rate
                return
            pool = Pool.of(len(game.players))
            known = {(Pool(r.pool), r.user_id): Rating(r.mu, r.sigma, r.games)
                     for r in await self.store.ratings(guild, pool.value, game.players)}
            recent = [history_row(h) for h in await self.store.rating_history_since(
                guild, game.ended_at - REPEAT_WINDOW)]
            book = RatingBook(known, tuple(recent)).rate([game])
            new = [h for h in book.history if h.game_id == game.game_id]
            names = {r.user_id: r.name for r in rows}
            await self.store.save_ratings(
                guild, [_stored(guild, h) for h in new],
                [RatingRow(guild, h.pool.value, h.player, names.get(h.player, h.player),
                           h.after_mu, h.after_sigma, h.games) for h in new])

    async def _rerate_from(self, guild: str, was: RatedGame) -> None:
        """Rate every game from `was` (the game as it was rated) on again."""
        history = [history_row(h) for h in await self.store.rating_history(guild)]
        since = await self.store.results_since(guild, was.ended_at, int(was.game_id))
        voids = await self.store.rating_voids(guild)
        games = [rated_game(g, voids) for g in grouped(since)]
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
            was = rated_game(rows, await self.store.rating_voids(guild))
            await self.store.set_ranks(game_id, wanted)
            if was.counts:
                await self._rerate_from(guild, was)
        return True

    # -- voids ---------------------------------------------------------------------------

    async def void_results(self, guild: str, user_id: str, by: str, admin: bool,
                           now: float | None = None) -> VoidReport:
        """Void a player's rated results on the server (server admins only: `admin` is
        the front end's word for it): every rated game of theirs that ended until now
        counts for nobody, and the ratings are worked out again from the first of them
        on, in order. Later games are rated as usual. NotAllowed("void_admin_only"),
        NotNow("nothing_to_void") when none of their games counts."""
        if not admin:
            raise NotAllowed("void_admin_only")
        now = self.clock() if now is None else now
        async with self._rating_locks[guild]:
            voids = await self.store.rating_voids(guild)
            counting = await self._counting_games(guild, user_id, voids, now)
            name = await self._name_of(guild, user_id)
            if not counting:
                raise NotNow("nothing_to_void", name=name)
            before = await self.store.ratings(guild)
            await self.store.add_rating_void(guild, user_id, now, by, now)
            await self._rerate_from(guild, min(counting, key=lambda g: g.order))
            after = await self.store.ratings(guild)
        return VoidReport(guild, user_id, name, True, len(counting), _changes(before, after),
                          Note("ratings_voided", {"name": name, "games": len(counting)}))

    async def restore_results(self, guild: str, user_id: str, by: str, admin: bool
                              ) -> VoidReport:
        """Lift a void (`void_results`), server admins only: the player's games count
        again and the ratings are worked out again from the first of them.
        NotNow("not_voided") if their results are not void. `by` is who lifted it (for
        the logs)."""
        if not admin:
            raise NotAllowed("void_admin_only")
        async with self._rating_locks[guild]:
            voids = await self.store.rating_voids(guild)
            name = await self._name_of(guild, user_id)
            if user_id not in voids:
                raise NotNow("not_voided", name=name)
            cutoff = voids.pop(user_id)
            back = await self._counting_games(guild, user_id, voids, cutoff)
            before = await self.store.ratings(guild)
            await self.store.remove_rating_void(guild, user_id)
            log.info("%s: %s lifted the void on %s's results", guild, by, user_id)
            if back:
                await self._rerate_from(guild, min(back, key=lambda g: g.order))
            after = await self.store.ratings(guild)
        return VoidReport(guild, user_id, name, False, len(back), _changes(before, after),
                          Note("ratings_restored", {"name": name, "games": len(back)}))

    async def _counting_games(self, guild: str, user_id: str, voids: Mapping[str, float],
                              until: float) -> list[RatedGame]:
        """The player's recorded games ended by `until` that count with `voids`."""
        mine = await self.store.results_of_player(guild, user_id, EVERY_GAME)
        ids = [r.game_id for r in mine if r.ended_at <= until]
        games = [rated_game(g, voids) for g in grouped(await self.store.results_of_games(ids))]
        return [g for g in games if g.counts]

    async def _name_of(self, guild: str, user_id: str) -> str:
        """The player's name as last seen on the server (their id if never seen)."""
        latest = await self.store.results_of_player(guild, user_id, 1)
        if latest:
            return latest[0].name
        rated = await self.store.ratings(guild, users=[user_id])
        return rated[0].name if rated else user_id

    async def rating_of(self, guild: str, user_id: str, pool: Pool) -> Rating:
        """The player's current rating in a pool (a newcomer's if they have none)."""
        found = await self.store.ratings(guild, pool.value, [user_id])
        return Rating(found[0].mu, found[0].sigma, found[0].games) if found else Rating()


__all__ = ["MIN_OWN_MOVES", "PROVISIONAL_GAMES", "RatingChange", "RatingsOps", "VoidReport"]
