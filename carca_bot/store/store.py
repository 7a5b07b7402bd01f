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
import inspect
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carca_bot.store.clocks import ClockRows
from carca_bot.store.driver import Connection, Database, is_postgres_url
from carca_bot.store.errors import (
    ChannelBusy,
    Conflict,
    IntegrityError,
    Retry,
    StoreError,
    Unavailable,
)
from carca_bot.store.events import EventRows
from carca_bot.store.game_extras import GameExtras
from carca_bot.store.game_reads import (
    ACTIONS_OF_GAME,
    GAME_COLUMNS,
    SEATS_OF_GAME,
    GameReads,
    game_data,
)
from carca_bot.store.methods import dumps
from carca_bot.store.prefs import SCOPES, PrefRows
from carca_bot.store.privacy import PrivacyRows
from carca_bot.store.processes import ALIVE, ProcessMethods, mark_posted_rows
from carca_bot.store.results import ResultRows
from carca_bot.store.retry import retried
from carca_bot.store.rows import PublicChange, PublicEvents, SeatRow, Unposted, Usage
from carca_bot.store.schema import migrate
from carca_bot.store.sqlite_db import SqliteDatabase
from carca_bot.store.sqlite_db import (
    unavailable_on_sqlite_trouble as _unavailable_on_sqlite_trouble,  # noqa: F401 (older code)
)

# Besides the store's own names, others read these from here: the tools that read games
# directly, ACTIONS_OF_GAME, GAME_COLUMNS, SEATS_OF_GAME and game_data (game_reads.py);
# the service, SCOPES (prefs.py).
__all__ = ["ACTIONS_OF_GAME", "GAME_COLUMNS", "SCOPES", "SEATS_OF_GAME", "ChannelBusy",
           "Conflict", "IntegrityError", "Store", "StoreError", "Unavailable", "UsageCheck",
           "game_data"]


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


class Store(PrivacyRows, ProcessMethods, GameReads, GameExtras, ClockRows, PrefRows,
            ResultRows, EventRows):
    """The database that holds every game: here, opening it, creating and changing
    games, the limits a creation checks and the leases of background work. The other
    groups of its methods are mixed in, a module each: reading games (game_reads.py),
    what a game keeps beside its log (game_extras.py), players' clocks (clocks.py),
    their choices (prefs.py), results and ratings (results.py), events (events.py),
    what an erasure or a server's departure needs (privacy.py), and posts delivered
    exactly once and the processes sharing the database (processes.py)."""

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
                (guild, channel, status, host, dumps(options), seed, now, now,
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
                [(game_id, seq, dumps(a), now) for seq, a in enumerate(actions)])
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
                    [(game_id, seq, user, dumps(action), now) for seq, user, action in actions])
            except IntegrityError:
                raise Conflict(f"game {game_id} already has one of these actions") from None
            if public is not None:
                await db.execute("UPDATE games SET public_version = ? WHERE id = ?",
                                 (version + by, game_id))
                await self._insert_public(db, game_id, version + by, public, now)
        return version + by

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

    # -- clearing closed lobbies (fair play, issue 26) -----------------------------------

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


# Every public method, those of the mixins and those added later included.
for _name, _method in inspect.getmembers(Store, inspect.iscoroutinefunction):
    if not _name.startswith("_") and _name not in ("open", "close"):
        setattr(Store, _name, retried(_method))
