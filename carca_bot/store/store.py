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
    Retry,
    StoreError,
    Unavailable,
)
from carca_bot.store.rows import (
    ActionRow,
    GameData,
    GameRow,
    PublicChange,
    PublicEvents,
    SeatRow,
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


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


SEATS_OF_GAME = ("SELECT seat, user_id, display_name, colour, resigned, exit_score FROM seats "
                 "WHERE game_id = ? ORDER BY seat")
ACTIONS_OF_GAME = "SELECT seq, user_id, action, at FROM actions WHERE game_id = ? ORDER BY seq"


def game_data(game: Iterable[Any], seats: Iterable[Any], actions: Iterable[Any]) -> GameData:
    """A game from its rows: `games` (GAME_COLUMNS), SEATS_OF_GAME and ACTIONS_OF_GAME."""
    return GameData(_game_row(game),
                    [SeatRow(s, u, n, c, bool(r), x) for s, u, n, c, r, x in seats],
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


class Store:
    """The database that holds every game."""

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
        """IMMEDIATE: a write transaction; SERIALIZABLE: one whose checks over many rows
        (limits) must still hold when it commits; DEFERRED: a read-only snapshot."""
        return self._db.transaction(write=mode != "DEFERRED",
                                    serializable=mode == "SERIALIZABLE")

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
            "exit_score) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.colour, int(s.resigned), s.exit_score)
             for s in seats])

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
        async with self._transaction("SERIALIZABLE") as db:
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
        async with self._transaction("SERIALIZABLE") as db:
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
        async with self._transaction() as db:
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
        """Games owed a public post, the longest waiting first."""
        rows = await self._rows(
            "SELECT g.id, g.guild_id, g.channel_id, g.posted_version, g.public_version, "
            "  (SELECT min(e.at) FROM public_events e WHERE e.game_id = g.id "
            "   AND e.version > g.posted_version) AS since "
            "FROM games g WHERE g.public_version > g.posted_version "
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
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET posted_version = CASE "
                "WHEN ? <= posted_version OR public_version <= posted_version "
                "THEN posted_version WHEN ? >= public_version THEN public_version ELSE ? END "
                "WHERE id = ?", (version, version, version, game_id))
            await db.execute(
                "DELETE FROM public_events WHERE game_id = ? AND version <= "
                "(SELECT posted_version FROM games WHERE id = ?)", (game_id, game_id))

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

    # -- several processes on one database: leases and claims -----------------------

    async def take_lease(self, name: str, holder: str, now: float, seconds: float) -> bool:
        """Hold `name` until `now + seconds`, unless another holder holds it past `now`;
        whether `holder` has it. One statement, so of two processes asking at once one
        gets it (SQLite: one writer; PostgreSQL: the loser is serialized after, and sees
        the winner's row). Leases expired for a day are forgotten on the way."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM leases WHERE expires < ?", (now - 86400.0,))
            rows = await db.execute_fetchall(
                "INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "expires = excluded.expires "
                "WHERE leases.expires <= ? OR leases.holder = excluded.holder "
                "RETURNING holder", (name, holder, now + seconds, now))
        return bool(rows)

    async def release_lease(self, name: str, holder: str) -> None:
        """Give `name` back early (only its holder can)."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def claim_reminder(self, user_id: str, now: float, gap: float) -> bool:
        """Note a reminder to `user_id` at `now` if none was noted in the `gap` seconds
        before; whether it was (two processes reminding one user at once: one wins)."""
        async with self._transaction() as db:
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


# -- running a method again when PostgreSQL could not serialize it ---------------------

_RETRYING: ContextVar[bool] = ContextVar("store_retrying", default=False)


def _retried(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Run the whole method again (after a short random pause) when its transaction lost
    to a concurrent one (`Retry`: nothing was written); `Unavailable` after ATTEMPTS.
    A method called by another runs inside its caller's attempt."""
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _RETRYING.get():
            return await method(*args, **kwargs)
        token = _RETRYING.set(True)
        try:
            for attempt in range(ATTEMPTS):
                try:
                    return await method(*args, **kwargs)
                except Retry as exc:
                    last = exc
                    await asyncio.sleep(random.uniform(0, 0.005 * 2 ** attempt))
            raise Unavailable(f"still colliding with other writers after {ATTEMPTS} "
                              f"attempts: {last}") from last
        finally:
            _RETRYING.reset(token)
    return wrapper


# Every public method, those added later included.
for _name, _method in inspect.getmembers(Store, inspect.iscoroutinefunction):
    if not _name.startswith("_") and _name not in ("open", "close"):
        setattr(Store, _name, _retried(_method))
