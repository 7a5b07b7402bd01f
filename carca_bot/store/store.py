"""Games in a database: each game is its setup plus an append-only action log.

Every command is one short transaction (`write`) that also bumps the game's
`version`, so a full disk stores all of a command or none of it, and
only succeeds if the version is the one the caller read (optimistic
concurrency), so two writers that raced each other cannot both win: the loser
gets `Conflict` and nothing of its write lands. Actions are keyed
UNIQUE(game_id, seq), a second guard against a double move.

The database is SQLite (a file path, the default) or PostgreSQL (a postgresql://
URL), behind the small interface of `driver.py`; every statement here is in the
portable SQL described at the top of `schema.py`, and works on both unchanged.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carca_bot.store.driver import Connection, Database, is_postgres_url
from carca_bot.store.errors import (
    ChannelBusy,
    Conflict,
    IntegrityError,
    Lost,
    Retry,
    StoreError,
    Unavailable,
)
from carca_bot.store.league_rows import (
    ClockTurnRow,
    EventGameRow,
    EventNewsRow,
    EventRow,
    RatingHistoryRow,
    RatingRow,
    ReminderRow,
    ResultRow,
)
from carca_bot.store.privacy import PrivacyRows
from carca_bot.store.processes import ALIVE, ProcessMethods, mark_posted_rows
from carca_bot.store.rows import (
    ActionRow,
    GameData,
    GameMessages,
    GameRow,
    HintRow,
    PublicChange,
    PublicEvents,
    SeatRow,
    TakebackRow,
    Unposted,
    Usage,
)
from carca_bot.store.schema import migrate
from carca_bot.store.sqlite_db import SqliteDatabase
from carca_bot.store.sqlite_db import (
    unavailable_on_sqlite_trouble as _unavailable_on_sqlite_trouble,  # noqa: F401 (older code)
)

GAME_COLUMNS = ("id, guild_id, channel_id, status, host_id, options, seed, created_at, "
                "updated_at, version, pending, deadline, outcome, public_version, posted_version, "
                "clock, alarm")
# Columns a caller may change along with a version bump.
CHANGEABLE = frozenset({"status", "pending", "deadline", "outcome", "host_id", "clock",
                        "alarm"})
JSON_COLUMNS = frozenset({"pending", "options", "clock"})
SCOPES = ("guild", "user")  # what a language override belongs to


__all__ = ["ChannelBusy", "Conflict", "IntegrityError", "Store", "StoreError", "Unavailable",
           "UsageCheck"]
ATTEMPTS = 5  # runs of a method PostgreSQL could not serialize, before `Unavailable`
log = logging.getLogger(__name__)


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


SEATS_OF_GAME = ("SELECT seat, user_id, display_name, colour, resigned, exit_score, ai_level "
                 "FROM seats WHERE game_id = ? ORDER BY seat")
ACTIONS_OF_GAME = "SELECT seq, user_id, action, at FROM actions WHERE game_id = ? ORDER BY seq"


def game_data(game: Iterable[Any], seats: Iterable[Any], actions: Iterable[Any]) -> GameData:
    """A game from its rows: `games` (GAME_COLUMNS), SEATS_OF_GAME and ACTIONS_OF_GAME."""
    return GameData(_game_row(game),
                    [SeatRow(s, u, n, c, bool(r), x, a) for s, u, n, c, r, x, a in seats],
                    [ActionRow(q, u, json.loads(a), t) for q, u, a, t in actions])


def _game_row(row: Iterable[Any]) -> GameRow:
    (gid, guild, channel, status, host, options, seed, created, updated, version, pending,
     deadline, outcome, public_version, posted_version, clock, alarm) = row
    return GameRow(gid, guild, channel, status, host, json.loads(options), seed, created,
                   updated, version, None if pending is None else json.loads(pending),
                   deadline, outcome, public_version, posted_version,
                   None if clock is None else json.loads(clock), alarm)


@dataclass(frozen=True)
class UsageCheck:
    """Limits to hold inside the transaction that creates a game, so two creations at
    once cannot both slip under a limit. `check` raises to refuse; nothing is written."""

    threads_since: float  # start of the rolling window for threads
    imports_since: float  # ... and for imports
    forget_before: float  # usage older than every window is deleted
    check: Callable[[Usage], None]


USAGE = """
SELECT
  (SELECT count(*) FROM games WHERE host_id = :user AND status = 'lobby'),
  (SELECT count(*) FROM (
     SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id
      WHERE s.user_id = :user AND s.resigned = 0 AND g.status IN ('lobby', 'active')
     UNION
     SELECT id FROM games WHERE host_id = :user AND status IN ('lobby', 'active')) AS seated),
  (SELECT count(*) FROM games WHERE guild_id = :guild AND status = 'lobby'),
  (SELECT count(*) FROM games WHERE guild_id = :guild AND status = 'active'),
  (SELECT count(*) FROM usage WHERE user_id = :user AND kind = 'thread' AND at > :threads),
  (SELECT count(*) FROM usage WHERE user_id = :user AND kind = 'import' AND at > :imports)
"""


class Store(PrivacyRows, ProcessMethods):
    """The database that holds every game (and, from `PrivacyRows`, what an erasure or a
    server's departure needs: store/privacy.py; from `ProcessMethods`, posts delivered
    exactly once and the processes sharing the database: store/processes.py)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._io = asyncio.Lock()  # kept for older code; the database serializes itself

    @classmethod
    async def open(cls, target: str | Path, *, synchronous: str = "FULL") -> Store:
        """Open (creating if needed) and migrate the database `target` names: a
        `postgresql://` URL, or else the path of a SQLite file.

        SQLite only: `synchronous` FULL makes every commit survive a power cut; NORMAL
        keeps commits through a process crash only, for speed where that is enough.
        (A PostgreSQL server's durability is its own configuration.)
        """
        db: Database
        if is_postgres_url(target):
            from carca_bot.store.postgres_db import PostgresDatabase

            db = await PostgresDatabase.open(str(target))
        else:
            db = await SqliteDatabase.open(target, synchronous)
        try:
            await migrate(db)
        except Retry as exc:  # the server went away while we looked at its schema
            await db.close()
            raise Unavailable(str(exc)) from exc
        except BaseException:
            await db.close()
            raise
        return cls(db)

    @property
    def backend(self) -> str:
        """"sqlite" or "postgresql"."""
        return self._db.kind

    async def close(self) -> None:
        await self._db.close()

    # -- plumbing ---------------------------------------------------------------

    def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]:
        """IMMEDIATE: a write transaction that runs as if alone; ROW: a write guarded by
        the one row it changes (a game's version, a lease), which PostgreSQL then need
        not check against every concurrent transaction; DEFERRED: a read-only snapshot."""
        return self._db.transaction(write=mode != "DEFERRED", serializable=mode != "ROW")

    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await self._db.execute_fetchall(sql, tuple(params))

    @staticmethod
    async def _bump(db: Connection, game_id: int, version: int, now: float,
                    changes: Mapping[str, Any], by: int = 1) -> None:
        unknown = set(changes) - CHANGEABLE
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        names = sorted(changes)
        values = [_dumps(changes[n]) if n in JSON_COLUMNS and changes[n] is not None
                  else changes[n] for n in names]
        sets = "".join(f", {n} = ?" for n in names)
        cursor = await db.execute(
            f"UPDATE games SET version = version + ?, updated_at = ?{sets} "
            "WHERE id = ? AND version = ?", (by, now, *values, game_id, version))
        if cursor.rowcount != 1:
            raise Conflict(f"game {game_id} is no longer at version {version}")

    @staticmethod
    async def _insert_seats(db: Connection, game_id: int,
                            seats: Iterable[SeatRow]) -> None:
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, colour, resigned, "
            "exit_score, ai_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.colour, int(s.resigned), s.exit_score,
              s.ai) for s in seats])

    async def _insert_game(self, db: Connection, guild: str, channel: str,
                           status: str, host: str, options: Mapping[str, Any],
                           seed: int | None, now: float) -> int:
        try:
            rows = await db.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, status, host_id, options, seed, "
                "created_at, updated_at, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING id",
                (guild, channel, status, host, _dumps(options), seed, now, now,
                 "complete" if status == "finished" else None))
        except IntegrityError:
            raise ChannelBusy(f"channel {channel} already has a game") from None
        return int(rows[0][0])

    # -- limits -----------------------------------------------------------------

    @staticmethod
    async def _usage(db: Connection, guild: str, user: str, threads_since: float,
                     imports_since: float) -> Usage:
        rows = await db.execute_fetchall(USAGE, {
            "user": user, "guild": guild, "threads": threads_since, "imports": imports_since})
        return Usage(*(int(n) for n in rows[0]))

    async def usage(self, guild: str, user: str, threads_since: float,
                    imports_since: float) -> Usage:
        return await self._usage(self._db, guild, user, threads_since, imports_since)

    async def _check_and_count(self, db: Connection, guild: str, user: str,
                               check: UsageCheck | None, kind: str | None, now: float) -> None:
        if check is not None:
            check.check(await self._usage(db, guild, user, check.threads_since,
                                          check.imports_since))
            await db.execute("DELETE FROM usage WHERE user_id = ? AND at < ?",
                             (user, check.forget_before))
        if kind is not None:
            await db.execute("INSERT INTO usage (guild_id, user_id, kind, at) VALUES (?, ?, ?, ?)",
                             (guild, user, kind, now))

    # -- creating games ---------------------------------------------------------

    async def create_game(self, guild: str, channel: str, host: SeatRow,
                          options: Mapping[str, Any], seed: int | None, now: float, *,
                          check: UsageCheck | None = None, thread: bool = False) -> int:
        """A new lobby with its host in the first seat; `thread`: in a thread made for it."""
        assert host.user_id is not None
        async with self._transaction() as db:
            await self._check_and_count(db, guild, host.user_id, check,
                                        "thread" if thread else None, now)
            game_id = await self._insert_game(db, guild, channel, "lobby", host.user_id,
                                              options, seed, now)
            await self._insert_seats(db, game_id, [host])
        return game_id

    async def import_game(self, guild: str, channel: str, host: str, status: str,
                          options: Mapping[str, Any], seed: int | None, seats: list[SeatRow],
                          actions: list[dict[str, Any]], now: float, *,
                          check: UsageCheck | None = None) -> int:
        """A game with a whole action log at once (an imported record); its first post is
        owed like a start's."""
        async with self._transaction() as db:
            await self._check_and_count(db, guild, host, check, "import", now)
            game_id = await self._insert_game(db, guild, channel, status, host, options,
                                              seed, now)
            await self._insert_seats(db, game_id, seats)
            await db.executemany(
                "INSERT INTO actions (game_id, seq, user_id, action, at) VALUES (?, ?, NULL, ?, ?)",
                [(game_id, seq, _dumps(a), now) for seq, a in enumerate(actions)])
            version = len(actions)
            await db.execute("UPDATE games SET version = ?, public_version = ? WHERE id = ?",
                             (version, version, game_id))
            await self._insert_public(db, game_id, version, PublicChange(version, ()), now)
        return game_id

    # -- changing games ---------------------------------------------------------

    async def write(self, game_id: int, version: int, now: float, changes: Mapping[str, Any],
                    *, seats: list[SeatRow] | None = None,
                    actions: Sequence[tuple[int, str | None, dict[str, Any]]] = (),
                    public: PublicChange | None = None) -> int:
        """One whole command in one transaction, if the game is still at `version`.

        Changes game columns, replaces the seats (if given), appends actions
        (seq, user, action), and with `public` records that players are owed a post.
        The version goes up by one per action, and at least by one; returns it.
        """
        by = max(1, len(actions))
        async with self._transaction("ROW") as db:
            await self._bump(db, game_id, version, now, changes, by)
            if seats is not None:
                await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                await self._insert_seats(db, game_id, seats)
            try:
                await db.executemany(
                    "INSERT INTO actions (game_id, seq, user_id, action, at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(game_id, seq, user, _dumps(action), now) for seq, user, action in actions])
            except IntegrityError:
                raise Conflict(f"game {game_id} already has one of these actions") from None
            if public is not None:
                await db.execute("UPDATE games SET public_version = ? WHERE id = ?",
                                 (version + by, game_id))
                await self._insert_public(db, game_id, version + by, public, now)
        return version + by

    @staticmethod
    async def _insert_public(db: Connection, game_id: int, version: int,
                             public: PublicChange, now: float) -> None:
        await db.execute(
            "INSERT INTO public_events (game_id, version, moves_before, at, lines) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, version, public.moves_before, now, _dumps(list(public.lines))))

    async def update(self, game_id: int, version: int, now: float,
                     changes: Mapping[str, Any]) -> int:
        """Change game columns if the game is still at `version`; returns the new version."""
        return await self.write(game_id, version, now, changes)

    async def put_seats(self, game_id: int, version: int, now: float, seats: list[SeatRow],
                        changes: Mapping[str, Any] | None = None) -> int:
        """Replace the game's seats (join, leave, kick, seating order, resign)."""
        return await self.write(game_id, version, now, changes or {}, seats=seats)

    async def append(self, game_id: int, version: int, seq: int, user_id: str | None,
                     action: dict[str, Any], now: float,
                     changes: Mapping[str, Any] | None = None) -> int:
        """Add action number `seq` to the log, atomically with `changes`."""
        return await self.write(game_id, version, now, changes or {},
                                actions=[(seq, user_id, action)])

    # -- the public-post outbox -------------------------------------------------

    async def unposted(self, limit: int) -> list[Unposted]:
        """Games owed a public post, the longest waiting first; not those of a server
        the bot was removed from (they wait for its return, not at the head of the
        queue: `guild_departures`)."""
        rows = await self._rows(
            "SELECT g.id, g.guild_id, g.channel_id, g.posted_version, g.public_version, "
            "  (SELECT min(e.at) FROM public_events e WHERE e.game_id = g.id "
            "   AND e.version > g.posted_version) AS since "
            "FROM games g WHERE g.public_version > g.posted_version "
            "AND NOT EXISTS (SELECT 1 FROM guild_departures d WHERE d.guild_id = g.guild_id) "
            "ORDER BY since NULLS FIRST, g.id LIMIT ?", (limit,))
        return [Unposted(int(i), g, c, int(p), int(v), float(t or 0.0))
                for i, g, c, p, v, t in rows]

    async def public_events(self, game_id: int, after: int) -> list[PublicEvents]:
        """The stored public changes of a game newer than version `after`, oldest first."""
        rows = await self._rows(
            "SELECT version, moves_before, at, lines FROM public_events "
            "WHERE game_id = ? AND version > ? ORDER BY version", (game_id, after))
        return [PublicEvents(int(v), int(m), float(t), tuple(json.loads(lines)))
                for v, m, t, lines in rows]

    async def mark_posted(self, game_id: int, version: int) -> None:
        """The public post up to `version` was delivered; never goes back, never past the
        last public change. What was delivered is forgotten."""
        async with self._transaction("ROW") as db:
            await mark_posted_rows(db, game_id, version)

    # -- reading ----------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._rows(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game_row(rows[0]) if rows else None

    async def load(self, game_id: int) -> GameData | None:
        """The game, its seats and its log, read in one snapshot."""
        async with self._transaction("DEFERRED") as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            if not rows:
                return None
            seats = await db.execute_fetchall(SEATS_OF_GAME, (game_id,))
            actions = await db.execute_fetchall(ACTIONS_OF_GAME, (game_id,))
        return game_data(rows[0], seats, actions)

    async def live_game(self, guild: str, channel: str) -> int | None:
        rows = await self._rows(
            "SELECT id FROM games WHERE guild_id = ? AND channel_id = ? "
            "AND status IN ('lobby', 'active')", (guild, channel))
        return int(rows[0][0]) if rows else None

    async def latest_game(self, guild: str, channel: str) -> int | None:
        rows = await self._rows(
            "SELECT max(id) FROM games WHERE guild_id = ? AND channel_id = ?", (guild, channel))
        return None if rows[0][0] is None else int(rows[0][0])

    async def games_of(self, user_id: str, live_only: bool = False,
                       limit: int = 1000) -> list[GameRow]:
        """Games the user has a seat in, most recently active first.

        Cancelled games are left out: nothing is left to do or see in them.
        """
        live = ("AND g.status IN ('lobby', 'active')" if live_only
                else "AND g.status != 'cancelled'")
        rows = await self._rows(
            f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))} FROM games g "
            f"JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? {live} "
            "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?", (user_id, limit))
        return [_game_row(r) for r in rows]

    async def overdue(self, now: float) -> list[int]:
        """Running games the timers must look at: a per-decision timer past its deadline,
        or a clock whose alarm (next reminder or deadline) has come."""
        rows = await self._rows(
            "SELECT id FROM games WHERE status = 'active' AND ("
            "(clock IS NULL AND deadline <= ?) OR alarm <= ?) "
            "ORDER BY coalesce(alarm, deadline), id", (now, now))
        return [int(r[0]) for r in rows]

    async def stale_lobbies(self, created_before: float) -> list[int]:
        rows = await self._rows(
            "SELECT id FROM games WHERE status = 'lobby' AND created_at <= ? ORDER BY id",
            (created_before,))
        return [int(r[0]) for r in rows]

    # -- language overrides -----------------------------------------------------

    async def set_language(self, scope: str, scope_id: str, language: str | None,
                           now: float) -> None:
        """Store the language a server (`scope` "guild") or a user chose; None clears it."""
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}")
        async with self._transaction() as db:
            if language is None:
                await db.execute("DELETE FROM language_prefs WHERE scope = ? AND scope_id = ?",
                                 (scope, scope_id))
            else:
                await db.execute(
                    "INSERT INTO language_prefs (scope, scope_id, language, updated_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (scope, scope_id) DO UPDATE SET "
                    "language = excluded.language, updated_at = excluded.updated_at",
                    (scope, scope_id, language, now))

    async def languages(self, user_id: str | None, guild_id: str | None
                        ) -> tuple[str | None, str | None]:
        """The user's and the server's language overrides (None where there is none)."""
        rows = await self._rows(
            "SELECT scope, language FROM language_prefs WHERE (scope = 'user' AND scope_id = ?) "
            "OR (scope = 'guild' AND scope_id = ?)", (user_id, guild_id))
        found = {str(scope): str(language) for scope, language in rows}
        return found.get("user"), found.get("guild")

    # -- clocks: reminders and vacations, per user across games -------------------

    async def last_reminded(self, user_id: str) -> float | None:
        rows = await self._rows("SELECT at FROM reminded WHERE user_id = ?", (user_id,))
        return float(rows[0][0]) if rows else None

    async def set_reminded(self, user_id: str, at: float) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO reminded (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET at = CASE WHEN excluded.at > reminded.at THEN excluded.at "
                "ELSE reminded.at END", (user_id, at))

    async def vacations(self, user_ids: Iterable[str]) -> dict[str, list[tuple[float, float]]]:
        """Every stored vacation of these users, oldest first."""
        wanted = sorted(set(user_ids))
        found: dict[str, list[tuple[float, float]]] = {u: [] for u in wanted}
        if not wanted:
            return found
        marks = ", ".join("?" * len(wanted))
        rows = await self._rows(
            f'SELECT user_id, start, "end" FROM vacations WHERE user_id IN ({marks}) '
            'ORDER BY user_id, start', wanted)
        for user, start, end in rows:
            found[str(user)].append((float(start), float(end)))
        return found

    async def add_vacation(self, user_id: str, start: float, end: float) -> None:
        async with self._transaction() as db:
            await db.execute('INSERT INTO vacations (user_id, start, "end") VALUES (?, ?, ?)',
                             (user_id, start, end))

    async def end_vacations(self, user_id: str, now: float) -> int:
        """End the user's vacations at `now`: the one under way stops, later ones go.
        Returns how many were changed."""
        async with self._transaction() as db:
            gone = await db.execute(
                "DELETE FROM vacations WHERE user_id = ? AND start >= ?", (user_id, now))
            cut = await db.execute(
                'UPDATE vacations SET "end" = ? WHERE user_id = ? AND start < ? AND "end" > ?',
                (now, user_id, now, now))
            return int(gone.rowcount) + int(cut.rowcount)

    async def clock_games_of(self, user_id: str) -> list[int]:
        """The running clock games the user still plays in."""
        rows = await self._rows(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? "
            "AND s.resigned = 0 AND g.status = 'active' AND g.clock IS NOT NULL ORDER BY g.id",
            (user_id,))
        return [int(r[0]) for r in rows]

    async def game_ids(self) -> list[int]:
        return [int(r[0]) for r in await self._rows("SELECT id FROM games ORDER BY id")]

    # -- community play: game results, ratings, events, organisers (issue 18) ----------

    async def put_results(self, rows: Sequence[ResultRow]) -> bool:
        """Record how a game ended, once: False if it was already recorded."""
        if not rows:
            return False
        async with self._transaction() as db:
            found = list(await db.execute_fetchall(
                "SELECT 1 FROM game_results WHERE game_id = ?", (rows[0].game_id,)))
            if found:
                return False
            await db.executemany(
                f"INSERT INTO game_results ({RESULT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r.game_id, r.seat, r.guild_id, r.user_id, r.name, r.score, r.played_rank,
                  r.rank, r.players, r.ending, int(r.rated), int(r.left_game), r.ended_at,
                  _dumps(list(r.expansions))) for r in rows])
        return True

    async def results_of_game(self, game_id: int) -> list[ResultRow]:
        rows = await self._rows(f"SELECT {RESULT_COLUMNS} FROM game_results WHERE game_id = ? "
                                "ORDER BY seat", (game_id,))
        return [_result_row(r) for r in rows]

    async def results_since(self, guild: str, ended_at: float, game_id: int
                            ) -> list[ResultRow]:
        """The server's game results from (`ended_at`, `game_id`) on, in rating order."""
        rows = await self._rows(
            f"SELECT {RESULT_COLUMNS} FROM game_results WHERE guild_id = ? AND "
            "(ended_at > ? OR (ended_at = ? AND game_id >= ?)) ORDER BY ended_at, game_id, seat",
            (guild, ended_at, ended_at, game_id))
        return [_result_row(r) for r in rows]

    async def results_of_player(self, guild: str, user_id: str, limit: int = 1000
                                ) -> list[ResultRow]:
        """The player's games on the server, latest first (their own row of each)."""
        rows = await self._rows(
            f"SELECT {RESULT_COLUMNS} FROM game_results WHERE guild_id = ? AND user_id = ? "
            "ORDER BY ended_at DESC, game_id DESC LIMIT ?", (guild, user_id, limit))
        return [_result_row(r) for r in rows]

    async def set_ranks(self, game_id: int, ranks: Mapping[int, int]) -> None:
        """The places a game counts with (by seat): an organiser's amended result."""
        async with self._transaction() as db:
            await db.executemany("UPDATE game_results SET rank = ? WHERE game_id = ? AND seat = ?",
                                 [(rank, game_id, seat) for seat, rank in ranks.items()])

    async def rated_after(self, guild: str, ended_at: float, game_id: int) -> bool:
        """Whether a game after (`ended_at`, `game_id`) has already been rated."""
        rows = await self._rows(
            "SELECT 1 FROM rating_history WHERE guild_id = ? AND "
            "(ended_at > ? OR (ended_at = ? AND game_id > ?)) LIMIT 1",
            (guild, ended_at, ended_at, game_id))
        return bool(rows)

    async def rating_history(self, guild: str, user_id: str | None = None
                             ) -> list[RatingHistoryRow]:
        """The server's rating history (one player's, if named), in rating order."""
        who = "" if user_id is None else " AND user_id = ?"
        params: tuple[Any, ...] = (guild,) if user_id is None else (guild, user_id)
        rows = await self._rows(
            f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE guild_id = ?{who} "
            "ORDER BY ended_at, game_id, user_id", params)
        return [RatingHistoryRow(str(g), int(gid), str(u), str(p), float(t), int(r), int(n),
                                 float(bm), float(bs), float(am), float(as_), int(k))
                for g, gid, u, p, t, r, n, bm, bs, am, as_, k in rows]

    async def ratings(self, guild: str, pool: str | None = None,
                      users: Iterable[str] | None = None) -> list[RatingRow]:
        """Current ratings on the server: of a pool and of some users, if named."""
        sql = ("SELECT guild_id, pool, user_id, display_name, mu, sigma, games FROM ratings "
               "WHERE guild_id = ?")
        params: list[Any] = [guild]
        if pool is not None:
            sql += " AND pool = ?"
            params.append(pool)
        if users is not None:
            wanted = sorted(set(users))
            if not wanted:
                return []
            sql += f" AND user_id IN ({', '.join('?' * len(wanted))})"
            params += wanted
        rows = await self._rows(sql + " ORDER BY pool, user_id", params)
        return [RatingRow(str(g), str(p), str(u), str(n), float(m), float(s), int(k))
                for g, p, u, n, m, s, k in rows]

    async def save_ratings(self, guild: str, history: Sequence[RatingHistoryRow],
                           ratings: Sequence[RatingRow],
                           replace_from: tuple[float, int] | None = None) -> None:
        """Store new history rows and ratings in one transaction.

        `replace_from` (ended_at, game_id): the history from that game on is rated again,
        so its rows are deleted first and `ratings` replace every rating on the server.
        """
        async with self._transaction() as db:
            if replace_from is not None:
                at, gid = replace_from
                await db.execute(
                    "DELETE FROM rating_history WHERE guild_id = ? AND "
                    "(ended_at > ? OR (ended_at = ? AND game_id >= ?))", (guild, at, at, gid))
                await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild,))
            await db.executemany(
                f"INSERT INTO rating_history ({HISTORY_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, game_id, user_id) DO NOTHING",
                [(h.guild_id, h.game_id, h.user_id, h.pool, h.ended_at, h.rank, h.players,
                  h.before_mu, h.before_sigma, h.after_mu, h.after_sigma, h.games)
                 for h in history])
            await db.executemany(
                "INSERT INTO ratings (guild_id, pool, user_id, display_name, mu, sigma, games) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, pool, user_id) DO UPDATE "
                "SET display_name = excluded.display_name, mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games",
                [(r.guild_id, r.pool, r.user_id, r.name, r.mu, r.sigma, r.games)
                 for r in ratings])

    async def move_times(self, game_ids: Iterable[int]
                         ) -> dict[int, list[tuple[str | None, float]]]:
        """Who made each logged action of these games and when, in log order."""
        wanted = sorted(set(game_ids))
        found: dict[int, list[tuple[str | None, float]]] = {g: [] for g in wanted}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            rows = await self._rows(
                f"SELECT game_id, user_id, at FROM actions WHERE game_id IN "
                f"({', '.join('?' * len(chunk))}) ORDER BY game_id, seq", chunk)
            for gid, user, at in rows:
                found[int(gid)].append((None if user is None else str(user), float(at)))
        return found

    async def insert_event(self, guild: str, channel: str, title: str, data: Mapping[str, Any],
                           options: Mapping[str, Any], created_by: str, now: float, *,
                           series: str = "", season: int = 0, division: int = 0) -> int:
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                f"INSERT INTO league_events ({EVENT_COLUMNS.removeprefix('id, ')}) "
                "VALUES (?, ?, ?, 'signup', ?, ?, 0, ?, ?, ?, ?, ?, ?, 0, 0, 0) RETURNING id",
                (guild, channel, title, _dumps(data), _dumps(options), created_by, now, now,
                 series, season, division)))
        return int(rows[0][0])

    async def event(self, event_id: int) -> EventRow | None:
        rows = await self._rows(f"SELECT {EVENT_COLUMNS} FROM league_events WHERE id = ?",
                                (event_id,))
        return _event_row(rows[0]) if rows else None

    async def events(self, guild: str | None = None, statuses: Sequence[str] = (),
                     series: str | None = None) -> list[EventRow]:
        """Events, oldest first: of a server, in some statuses, of one league, if named."""
        sql = f"SELECT {EVENT_COLUMNS} FROM league_events WHERE 1 = 1"
        params: list[Any] = []
        if guild is not None:
            sql += " AND guild_id = ?"
            params.append(guild)
        if statuses:
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            params += list(statuses)
        if series is not None:
            sql += " AND series = ?"
            params.append(series)
        return [_event_row(r) for r in await self._rows(sql + " ORDER BY id", params)]

    async def put_event(self, event_id: int, version: int, now: float,
                        changes: Mapping[str, Any]) -> int:
        """Change an event if it is still at `version` (else Conflict); the new version."""
        allowed = {"status", "data", "reminded_round", "announced_round", "digest_at"}
        if set(changes) - allowed:
            raise ValueError(f"cannot change {sorted(set(changes) - allowed)}")
        values = {k: _dumps(v) if k == "data" else v for k, v in changes.items()}
        sets = "".join(f", {k} = ?" for k in values)
        async with self._transaction() as db:
            cursor = await db.execute(
                f"UPDATE league_events SET version = version + 1, updated_at = ?{sets} "
                "WHERE id = ? AND version = ?", (now, *values.values(), event_id, version))
            if cursor.rowcount != 1:
                raise Conflict(f"event {event_id} is no longer at version {version}")
        return version + 1

    async def link_game(self, event_id: int, match_id: str, game_index: int,
                        game_id: int) -> bool:
        """Record that `game_id` plays this game of the match; False if one already does."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                "INSERT INTO event_games (event_id, match_id, game_index, game_id) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (event_id, match_id, game_index) DO NOTHING "
                "RETURNING game_id", (event_id, match_id, game_index, game_id)))
        return bool(rows)

    async def unlink_game(self, game_id: int) -> None:
        """Forget a game's match (it was cancelled: the match's game is opened again)."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM event_games WHERE game_id = ?", (game_id,))

    async def event_games(self, event_id: int) -> list[EventGameRow]:
        rows = await self._rows(
            "SELECT event_id, match_id, game_index, game_id FROM event_games WHERE event_id = ? "
            "ORDER BY match_id, game_index", (event_id,))
        return [EventGameRow(int(e), str(m), int(i), int(g)) for e, m, i, g in rows]

    async def event_of_game(self, game_id: int) -> EventGameRow | None:
        rows = await self._rows(
            "SELECT event_id, match_id, game_index, game_id FROM event_games WHERE game_id = ?",
            (game_id,))
        return None if not rows else EventGameRow(int(rows[0][0]), str(rows[0][1]),
                                                  int(rows[0][2]), int(rows[0][3]))

    async def set_organiser_role(self, guild: str, role_id: str | None, now: float) -> None:
        """The role whose members run events on the server; None: admins only."""
        async with self._transaction() as db:
            if role_id is None:
                await db.execute("DELETE FROM organiser_roles WHERE guild_id = ?", (guild,))
            else:
                await db.execute(
                    "INSERT INTO organiser_roles (guild_id, role_id, updated_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id, "
                    "updated_at = excluded.updated_at", (guild, role_id, now))

    async def organiser_role(self, guild: str) -> str | None:
        rows = await self._rows("SELECT role_id FROM organiser_roles WHERE guild_id = ?", (guild,))
        return str(rows[0][0]) if rows else None

    async def unrecorded_games(self, ended_since: float, limit: int = 100) -> list[int]:
        """Games ended (played out or by resignations) since `ended_since`, seated by at
        least two users and no imported seat, that have no recorded result."""
        rows = await self._rows(
            "SELECT g.id FROM games g WHERE g.status = 'finished' "
            "AND g.outcome IN ('complete', 'resigned') AND g.updated_at >= ? "
            "AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id IS NULL) "
            "AND (SELECT count(*) FROM seats s WHERE s.game_id = g.id) >= 2 "
            "ORDER BY g.updated_at, g.id LIMIT ?", (ended_since, limit))
        return [int(r[0]) for r in rows]


    # -- AI players and hints (schema version 6) ---------------------------------

    async def ai_games(self) -> list[int]:
        """Running games with a seat the AI plays (to resume their turns after a restart)."""
        rows = await self._rows(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.status = 'active' AND s.ai_level IS NOT NULL ORDER BY g.id")
        return [int(r[0]) for r in rows]

    async def add_hint(self, game_id: int, seq: int, seat: int, user_id: str, at: float,
                       steps: list[Any]) -> int:
        """Keep one hint; returns its number within the game (1 for the first)."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                "SELECT coalesce(max(number), 0) FROM hints WHERE game_id = ?", (game_id,)))
            number = int(rows[0][0]) + 1
            await db.execute(
                "INSERT INTO hints (game_id, number, seq, seat, user_id, at, steps) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, number, seq, seat, user_id, at, _dumps(steps)))
        return number

    async def hints(self, game_id: int) -> list[HintRow]:
        """Every hint of the game, oldest first."""
        rows = await self._rows(
            "SELECT number, seq, seat, user_id, at, steps FROM hints WHERE game_id = ? "
            "ORDER BY number", (game_id,))
        return [HintRow(int(n), int(q), int(s), str(u), float(a), json.loads(t))
                for n, q, s, u, a, t in rows]


    # -- take-back votes (schema version 6) ---------------------------------------

    @staticmethod
    def _takeback_row(row: Sequence[Any]) -> TakebackRow:
        return TakebackRow(int(row[0]), int(row[1]), int(row[2]), str(row[3]), int(row[4]),
                           tuple(int(s) for s in json.loads(row[5])), str(row[6]),
                           int(row[7]), float(row[8]),
                           None if row[9] is None else float(row[9]))

    async def takeback(self, game_id: int) -> TakebackRow | None:
        """The game's newest take-back request (open or decided), if any."""
        rows = await self._rows(
            "SELECT game_id, seq, upto, proposer, seat, accepted, state, answers, opened_at, "
            "closed_at FROM takebacks WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,))
        return self._takeback_row(rows[0]) if rows else None

    async def open_takeback(self, game_id: int, seq: int, upto: int, proposer: str,
                            seat: int, now: float) -> None:
        """Ask to take back move `seq`. A move refused, or being voted on, is not asked
        about again (Conflict: a double click, or a race); one withdrawn may be, and so
        may a new move at the same place in the log (the old one was taken back, or the
        log moved on and came back)."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO takebacks (game_id, seq, upto, proposer, seat, accepted, state, "
                "answers, opened_at) VALUES (?, ?, ?, ?, ?, '[]', 'open', 0, ?) "
                "ON CONFLICT (game_id, seq) DO UPDATE SET upto = excluded.upto, "
                "accepted = '[]', state = 'open', answers = takebacks.answers + 1, "
                "opened_at = excluded.opened_at, closed_at = NULL "
                "WHERE takebacks.state IN ('withdrawn', 'accepted', 'closed')",
                (game_id, seq, upto, proposer, seat, now))
            if cursor.rowcount != 1:
                raise Conflict(f"game {game_id}: move {seq} was already asked about")

    @staticmethod
    async def _answer(db: Connection, game_id: int, seq: int, answers: int,
                      accepted: Sequence[int], state: str, now: float) -> None:
        cursor = await db.execute(
            "UPDATE takebacks SET accepted = ?, state = ?, answers = answers + 1, "
            "closed_at = ? WHERE game_id = ? AND seq = ? AND answers = ? AND state = 'open'",
            (_dumps(list(accepted)), state, None if state == "open" else now, game_id, seq,
             answers))
        if cursor.rowcount != 1:
            raise Conflict(f"game {game_id}: the take-back of move {seq} changed meanwhile")

    async def answer_takeback(self, game_id: int, seq: int, answers: int,
                              accepted: Sequence[int], state: str, now: float) -> None:
        """Record an answer (or a withdrawal, or the close), if the request is still open
        and was written `answers` times; Conflict if not."""
        async with self._transaction() as db:
            await self._answer(db, game_id, seq, answers, accepted, state, now)

    async def apply_takeback(self, game_id: int, version: int, now: float, seq: int,
                             answers: int, accepted: Sequence[int],
                             changes: Mapping[str, Any], public: PublicChange) -> int:
        """The accepted take-back, in one transaction: the game's version bumped (if it is
        still `version`), its log cut back to `seq` actions, `changes` made, the request
        closed as accepted (if it was written `answers` times) and the public change
        recorded. Returns the new version."""
        async with self._transaction() as db:
            await self._bump(db, game_id, version, now, changes)
            await db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?",
                             (game_id, seq))
            await self._answer(db, game_id, seq, answers, accepted, "accepted", now)
            await db.execute("UPDATE games SET public_version = ? WHERE id = ?",
                             (version + 1, game_id))
            await self._insert_public(db, game_id, version + 1, public, now)
        return version + 1

    async def add_vote_message(self, game_id: int, kind: str, ref: str, channel_id: str,
                               message_id: str) -> None:
        """Remember the message showing an open vote (the newest one wins)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO vote_messages (game_id, kind, ref, channel_id, message_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind, ref) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id",
                (game_id, kind, ref, channel_id, message_id))

    async def vote_messages(self, game_id: int) -> list[tuple[str, str, str, str]]:
        """The game's remembered vote messages: kind, ref, channel id, message id."""
        rows = await self._rows(
            "SELECT kind, ref, channel_id, message_id FROM vote_messages WHERE game_id = ? "
            "ORDER BY kind, ref", (game_id,))
        return [(str(k), str(r), str(c), str(m)) for k, r, c, m in rows]

    async def forget_vote_message(self, game_id: int, kind: str, ref: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM vote_messages WHERE game_id = ? AND kind = ? AND ref = ?",
                (game_id, kind, ref))


    # -- a game's card and turn ping, and how users want to be told ------------------

    async def game_messages(self, game_id: int) -> GameMessages:
        rows = await self._rows(
            "SELECT card_channel, card_id, ping_channel, ping_id, ping_user, ping_moves "
            "FROM game_messages WHERE game_id = ?", (game_id,))
        if not rows:
            return GameMessages()
        cc, ci, pc, pi, pu, pm = rows[0]
        return GameMessages(cc, ci, pc, pi, pu, None if pm is None else int(pm))

    async def set_card_message(self, game_id: int, channel: str | None,
                               message: str | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO game_messages (game_id, card_channel, card_id) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET card_channel = excluded.card_channel, "
                "card_id = excluded.card_id", (game_id, channel, message))

    async def set_ping_message(self, game_id: int, channel: str | None, message: str | None,
                               user_id: str | None, moves: int | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO game_messages (game_id, ping_channel, ping_id, ping_user, "
                "ping_moves) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "ping_channel = excluded.ping_channel, ping_id = excluded.ping_id, "
                "ping_user = excluded.ping_user, ping_moves = excluded.ping_moves",
                (game_id, channel, message, user_id, moves))

    async def set_notify(self, user_id: str, mode: str, early: bool, now: float) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO notify_prefs (user_id, mode, early, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "mode = excluded.mode, early = excluded.early, "
                "updated_at = excluded.updated_at", (user_id, mode, int(early), now))

    async def notify_prefs(self, user_ids: Iterable[str]) -> dict[str, tuple[str, bool]]:
        """(mode, early) of those of these users who chose; the others are not listed."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._rows(
            f"SELECT user_id, mode, early FROM notify_prefs WHERE user_id IN ({marks})",
            wanted)
        return {str(u): (str(m), bool(e)) for u, m, e in rows}

    # -- several processes on one database: leases and claims -----------------------

    async def take_lease(self, name: str, holder: str, now: float, seconds: float) -> bool:
        """Hold `name` until `now + seconds`, unless another holder holds it past `now`;
        whether `holder` has it. One statement on one row, so of two processes asking at
        once one gets it (SQLite: one writer; PostgreSQL: the second waits for the first's
        row, is run again, and sees it). Leases expired for a day are forgotten.

        A lease whose holder said it was alive (`alive`) and has stopped saying so is
        taken at once, whatever its own expiry: that process is gone, and so is its
        hold on everything (issue 30: a survivor takes its work over within the one
        lease time of `alive`)."""
        async with self._transaction("ROW") as db:
            await db.execute("DELETE FROM leases WHERE expires < ?", (now - 86400.0,))
            rows = await db.execute_fetchall(
                "INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "expires = excluded.expires "
                "WHERE leases.expires <= ? OR leases.holder = excluded.holder "
                "OR EXISTS (SELECT 1 FROM leases h WHERE h.name = ? || leases.holder "
                "AND h.expires <= ?) "
                "RETURNING holder", (name, holder, now + seconds, now, ALIVE, now))
        return bool(rows)

    async def release_lease(self, name: str, holder: str) -> None:
        """Give `name` back early (only its holder can)."""
        async with self._transaction("ROW") as db:
            await db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def claim_reminder(self, user_id: str, now: float, gap: float) -> bool:
        """Note a reminder to `user_id` at `now` if none was noted in the `gap` seconds
        before; whether it was (two processes reminding one user at once: one wins)."""
        async with self._transaction("ROW") as db:
            rows = await db.execute_fetchall(
                "INSERT INTO reminded (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET at = excluded.at WHERE reminded.at <= ? RETURNING user_id",
                (user_id, now, now - gap))
        return bool(rows)

    async def guilds_of(self, game_ids: Iterable[int]) -> dict[int, str]:
        """The server of each of these games (for a process that works for some only)."""
        wanted = sorted(set(game_ids))
        found: dict[int, str] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = await self._rows(
                f"SELECT id, guild_id FROM games WHERE id IN ({marks})", chunk)
            found.update((int(i), str(g)) for i, g in rows)
        return found

    # -- events' news, owed reminders, time-outs (issue 28) ------------------------------

    async def add_event_news(self, event_id: int, kind: str, data: Mapping[str, Any],
                             now: float) -> int:
        """Queue an announcement for the event's channel; its id."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                "INSERT INTO event_news (event_id, kind, data, created_at) VALUES (?, ?, ?, ?) "
                "RETURNING id", (event_id, kind, _dumps(data), now)))
        return int(rows[0][0])

    async def untold_event_news(self, event_id: int) -> list[EventNewsRow]:
        rows = await self._rows(
            "SELECT id, event_id, kind, data, created_at FROM event_news "
            "WHERE event_id = ? AND told_at IS NULL ORDER BY id", (event_id,))
        return [EventNewsRow(int(i), int(e), str(k), json.loads(d), float(c))
                for i, e, k, d, c in rows]

    async def events_with_news(self) -> list[int]:
        rows = await self._rows(
            "SELECT DISTINCT event_id FROM event_news WHERE told_at IS NULL ORDER BY event_id")
        return [int(r[0]) for r in rows]

    async def tell_event_news(self, news_id: int, now: float) -> bool:
        """Mark an announcement told; False if it was already (another process told it)."""
        async with self._transaction("ROW") as db:
            rows = await db.execute_fetchall(
                "UPDATE event_news SET told_at = ? WHERE id = ? AND told_at IS NULL "
                "RETURNING id", (now, news_id))
        return bool(rows)

    async def reminder(self, user_id: str, game_id: int, seq: int) -> ReminderRow | None:
        rows = await self._rows(
            f"SELECT {REMINDER_COLUMNS} FROM owed_reminders WHERE user_id = ? AND game_id = ? "
            "AND seq = ?", (user_id, game_id, seq))
        return _reminder_row(rows[0]) if rows else None

    async def put_reminder(self, row: ReminderRow) -> None:
        """Store a reminder's state (owed: `told_at` None)."""
        async with self._transaction("ROW") as db:
            await db.execute(
                f"INSERT INTO owed_reminders ({REMINDER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, game_id, seq) DO UPDATE SET due_at = excluded.due_at, "
                "deadline = excluded.deadline, told_at = excluded.told_at",
                (row.user_id, row.game_id, row.seq, row.due_at, row.deadline, row.told_at))

    async def owed_reminders(self, user_id: str | None = None) -> list[ReminderRow]:
        """Reminders not yet told (of one user, if named), oldest first."""
        sql = f"SELECT {REMINDER_COLUMNS} FROM owed_reminders WHERE told_at IS NULL"
        params: tuple[Any, ...] = ()
        if user_id is not None:
            sql += " AND user_id = ?"
            params = (user_id,)
        rows = await self._rows(sql + " ORDER BY due_at, game_id", params)
        return [_reminder_row(r) for r in rows]

    async def drop_reminder(self, user_id: str, game_id: int, seq: int) -> None:
        async with self._transaction("ROW") as db:
            await db.execute("DELETE FROM owed_reminders WHERE user_id = ? AND game_id = ? "
                             "AND seq = ?", (user_id, game_id, seq))

    async def clock_turns_of(self, user_id: str) -> list[ClockTurnRow]:
        """The user's running clock games (not resigned): seat, clock state, deadline."""
        rows = await self._rows(
            "SELECT g.id, g.channel_id, s.seat, g.clock, g.deadline, g.guild_id FROM games g "
            "JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND s.resigned = 0 "
            "AND g.status = 'active' AND g.clock IS NOT NULL ORDER BY g.id", (user_id,))
        return [ClockTurnRow(int(g), str(c), int(s), None if k is None else json.loads(k),
                             None if d is None else float(d), str(u))
                for g, c, s, k, d, u in rows]

    async def add_timeout(self, event_id: int, user_id: str, game_id: int, at: float) -> bool:
        """Note that a player of an event's game ran out of time; False if noted before."""
        async with self._transaction("ROW") as db:
            rows = await db.execute_fetchall(
                "INSERT INTO event_timeouts (event_id, user_id, game_id, at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id, at) DO NOTHING "
                "RETURNING game_id", (event_id, user_id, game_id, at))
        return bool(rows)

    async def timeouts(self, event_id: int, user_id: str) -> list[int]:
        """The games (one entry per time-out) in which the player ran out of time."""
        rows = await self._rows(
            "SELECT game_id FROM event_timeouts WHERE event_id = ? AND user_id = ? "
            "ORDER BY at", (event_id, user_id))
        return [int(r[0]) for r in rows]

    # -- fair play (issue 26) and profiles (issue 28): added at the end -------------------

    async def delete_closed_lobbies(self, closed_before: float, limit: int = 500) -> int:
        """Delete lobbies closed before they started (outcome `lobby_closed`) whose last
        change is at or before `closed_before`, at most `limit` at a time; how many. Their
        seats, messages and votes go with them (ON DELETE CASCADE); a game that was dealt
        is never deleted here."""
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM games WHERE status = 'cancelled' AND outcome = 'lobby_closed' "
                "AND updated_at <= ? ORDER BY id LIMIT ?", (closed_before, limit))
            ids = [int(r[0]) for r in rows]
            if ids:
                await db.execute(f"DELETE FROM games WHERE id IN ({', '.join('?' * len(ids))})",
                                 ids)
        return len(ids)

    async def rating_history_since(self, guild: str, since: float) -> list[RatingHistoryRow]:
        """The server's rating history of games ended at or after `since`, in rating
        order (what repeat weights look back over)."""
        rows = await self._rows(
            f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE guild_id = ? AND ended_at >= ? "
            "ORDER BY ended_at, game_id, user_id", (guild, since))
        return [_history_row(r) for r in rows]

    async def opponent_counts(self, guild: str, pool: str) -> dict[str, int]:
        """How many different players each player met in rated games of `pool`."""
        rows = await self._rows(
            "SELECT a.user_id, count(DISTINCT b.user_id) FROM rating_history a "
            "JOIN rating_history b ON b.guild_id = a.guild_id AND b.game_id = a.game_id "
            "AND b.user_id <> a.user_id WHERE a.guild_id = ? AND a.pool = ? "
            "GROUP BY a.user_id", (guild, pool))
        return {str(u): int(n) for u, n in rows}

    async def results_of_games(self, game_ids: Iterable[int]) -> list[ResultRow]:
        """Every seat's result of these games, by game then seat."""
        wanted = sorted(set(game_ids))
        found: list[ResultRow] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            rows = await self._rows(
                f"SELECT {RESULT_COLUMNS} FROM game_results WHERE game_id IN "
                f"({', '.join('?' * len(chunk))}) ORDER BY game_id, seat", chunk)
            found += [_result_row(r) for r in rows]
        return found

    async def add_rating_void(self, guild: str, user_id: str, until: float, by: str,
                              now: float) -> None:
        """Void the player's rated results on the server up to `until` (a later void of
        the same player reaches further)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO rating_voids (guild_id, user_id, cutoff, voided_by, voided_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
                "cutoff = excluded.cutoff, voided_by = excluded.voided_by, "
                "voided_at = excluded.voided_at", (guild, user_id, until, by, now))

    async def remove_rating_void(self, guild: str, user_id: str) -> bool:
        """Lift the player's void; whether there was one."""
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "DELETE FROM rating_voids WHERE guild_id = ? AND user_id = ? RETURNING user_id",
                (guild, user_id))
        return bool(rows)

    async def rating_voids(self, guild: str) -> dict[str, float]:
        """The server's voided players: each one's results up to the time given are void."""
        rows = await self._rows(
            "SELECT user_id, cutoff FROM rating_voids WHERE guild_id = ?", (guild,))
        return {str(u): float(t) for u, t in rows}


RESULT_COLUMNS = ("game_id, seat, guild_id, user_id, display_name, score, played_rank, rank, "
                  "players, ending, rated, left_game, ended_at, expansions")
HISTORY_COLUMNS = ("guild_id, game_id, user_id, pool, ended_at, rank, players, before_mu, "
                   "before_sigma, after_mu, after_sigma, games")
EVENT_COLUMNS = ("id, guild_id, channel_id, title, status, data, options, version, created_by, "
                 "created_at, updated_at, series, season, division, reminded_round, "
                 "announced_round, digest_at")


REMINDER_COLUMNS = "user_id, game_id, seq, due_at, deadline, told_at"


def _reminder_row(row: Sequence[Any]) -> ReminderRow:
    user, game, seq, due, deadline, told = row
    return ReminderRow(str(user), int(game), int(seq), float(due), float(deadline),
                       None if told is None else float(told))

def _history_row(row: Sequence[Any]) -> RatingHistoryRow:
    g, gid, u, p, t, r, n, bm, bs, am, as_, k = row
    return RatingHistoryRow(str(g), int(gid), str(u), str(p), float(t), int(r), int(n),
                            float(bm), float(bs), float(am), float(as_), int(k))


def _result_row(row: Sequence[Any]) -> ResultRow:
    (gid, seat, guild, user, name, score, played, rank, players, ending, rated, left, at,
     expansions) = row
    return ResultRow(int(gid), int(seat), str(guild), None if user is None else str(user),
                     str(name), int(score), int(played), int(rank), int(players), str(ending),
                     bool(rated), bool(left), float(at), tuple(json.loads(expansions)))


def _event_row(row: Sequence[Any]) -> EventRow:
    (eid, guild, channel, title, status, data, options, version, by, created, updated, series,
     season, division, reminded, announced, digest) = row
    return EventRow(int(eid), str(guild), str(channel), str(title), str(status),
                    json.loads(data), json.loads(options), int(version), str(by),
                    float(created), float(updated), str(series), int(season), int(division),
                    int(reminded), int(announced), float(digest))


# -- running a method again when PostgreSQL could not serialize it ---------------------

_RETRYING: ContextVar[bool] = ContextVar("store_retrying", default=False)


def _retried(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Run the whole method again (after a short random pause) when its transaction lost
    to a concurrent one or its connection (`Retry`: nothing was written); `Unavailable`
    after ATTEMPTS, or once the database's `operation_timeout` has run out, the runs
    again included. A method called by another runs inside its caller's attempt.

    Every `Unavailable` is logged here once, with its real cause (a refused connection,
    a time-out, a lost connection, writers colliding): players only hear "try again"."""
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _RETRYING.get():
            return await method(*args, **kwargs)
        token = _RETRYING.set(True)
        limit = getattr(getattr(args[0], "_db", None), "operation_timeout", None)
        try:
            async with asyncio.timeout(limit):
                return await _attempts(method, args, kwargs)
        except TimeoutError as exc:
            raise _logged(method.__name__, Unavailable(
                f"no answer from the database within {limit:g} s (CARCA_DB_TIMEOUT); the "
                "call was given up and its connection closed")) from exc
        except Unavailable as exc:
            _logged(method.__name__, exc)
            raise
        finally:
            _RETRYING.reset(token)
    return wrapper


async def _attempts(method: Callable[..., Awaitable[Any]], args: tuple[Any, ...],
                    kwargs: dict[str, Any]) -> Any:
    for attempt in range(ATTEMPTS):
        try:
            return await method(*args, **kwargs)
        except Retry as exc:
            last = exc
            await asyncio.sleep(random.uniform(0, 0.005 * 2 ** attempt))
    if isinstance(last, Lost):
        raise Unavailable(f"the connection to the database failed {ATTEMPTS} times: "
                          f"{last}") from last
    raise Unavailable(f"still colliding with other writers after {ATTEMPTS} "
                      f"attempts: {last}") from last


def _logged(name: str, exc: Unavailable) -> Unavailable:
    log.warning("store.%s: the database could not be used: %s", name, exc)
    return exc


# Every public method, those added later included.
for _name, _method in inspect.getmembers(Store, inspect.iscoroutinefunction):
    if not _name.startswith("_") and _name not in ("open", "close"):
        setattr(Store, _name, _retried(_method))
