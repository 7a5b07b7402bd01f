"""Games on disk: each game is its setup plus an append-only action log.

Every write is one short transaction that also bumps the game's `version`, and
only succeeds if the version is the one the caller read (optimistic
concurrency), so two writers that raced each other cannot both win: the loser
gets `Conflict` and nothing of its write lands. Actions are keyed
UNIQUE(game_id, seq), a second guard against a double move.

One connection serves the whole process; an asyncio lock keeps one coroutine's
transaction from interleaving with another's statements on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from carca_bot.store.rows import ActionRow, GameData, GameRow, SeatRow
from carca_bot.store.schema import migrate

GAME_COLUMNS = ("id, guild_id, channel_id, status, host_id, options, seed, created_at, "
                "updated_at, version, pending, deadline, outcome")
# Columns a caller may change along with a version bump.
CHANGEABLE = frozenset({"status", "pending", "deadline", "outcome", "host_id"})
JSON_COLUMNS = frozenset({"pending", "options"})


class StoreError(Exception):
    """A write the store refused."""


class Conflict(StoreError):
    """The game changed since the caller read it; the write was not made."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or running."""


class Unavailable(StoreError):
    """The database cannot be used just now (locked too long, disk full, I/O error).

    Nothing was written: the transaction was rolled back.
    """


_PASSING = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY")


@contextlib.contextmanager
def _unavailable_on_sqlite_trouble() -> Iterator[None]:
    try:
        yield
    except sqlite3.OperationalError as exc:
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith(_PASSING):
            raise Unavailable(str(exc)) from exc
        raise


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


SEATS_OF_GAME = ("SELECT seat, user_id, display_name, colour, resigned FROM seats "
                 "WHERE game_id = ? ORDER BY seat")
ACTIONS_OF_GAME = "SELECT seq, user_id, action, at FROM actions WHERE game_id = ? ORDER BY seq"


def game_data(game: Iterable[Any], seats: Iterable[Any], actions: Iterable[Any]) -> GameData:
    """A game from its rows: `games` (GAME_COLUMNS), SEATS_OF_GAME and ACTIONS_OF_GAME."""
    return GameData(_game_row(game),
                    [SeatRow(s, u, n, c, bool(r)) for s, u, n, c, r in seats],
                    [ActionRow(q, u, json.loads(a), t) for q, u, a, t in actions])


def _game_row(row: Iterable[Any]) -> GameRow:
    (gid, guild, channel, status, host, options, seed, created, updated, version, pending,
     deadline, outcome) = row
    return GameRow(gid, guild, channel, status, host, json.loads(options), seed, created,
                   updated, version, None if pending is None else json.loads(pending),
                   deadline, outcome)


class Store:
    """The SQLite file that holds every game."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._io = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> Store:
        """Open (creating if needed) and migrate the database at `path`.

        `synchronous` FULL makes every commit survive a power cut; NORMAL keeps
        commits through a process crash only, for speed where that is enough.
        """
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous must be FULL or NORMAL")
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute("PRAGMA busy_timeout = 10000")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        async with self._io:
            await self._db.close()

    # -- plumbing ---------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self, mode: str = "IMMEDIATE") -> AsyncIterator[aiosqlite.Connection]:
        async with self._io:
            with _unavailable_on_sqlite_trouble():
                await self._db.execute(f"BEGIN {mode}")
                try:
                    yield self._db
                    await self._db.execute("COMMIT")
                except BaseException:
                    # SQLite may have rolled back already (a full disk does): roll back only
                    # what is still open, so the real cause is what the caller sees.
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    raise

    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self._io:
            with _unavailable_on_sqlite_trouble():
                return list(await self._db.execute_fetchall(sql, tuple(params)))

    @staticmethod
    async def _bump(db: aiosqlite.Connection, game_id: int, version: int, now: float,
                    changes: Mapping[str, Any]) -> None:
        unknown = set(changes) - CHANGEABLE
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        names = sorted(changes)
        values = [_dumps(changes[n]) if n in JSON_COLUMNS and changes[n] is not None
                  else changes[n] for n in names]
        sets = "".join(f", {n} = ?" for n in names)
        cursor = await db.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} "
            "WHERE id = ? AND version = ?", (now, *values, game_id, version))
        if cursor.rowcount != 1:
            raise Conflict(f"game {game_id} is no longer at version {version}")

    @staticmethod
    async def _insert_seats(db: aiosqlite.Connection, game_id: int,
                            seats: Iterable[SeatRow]) -> None:
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, colour, resigned) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.colour, int(s.resigned)) for s in seats])

    async def _insert_game(self, db: aiosqlite.Connection, guild: str, channel: str,
                           status: str, host: str, options: Mapping[str, Any],
                           seed: int | None, now: float) -> int:
        try:
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channel_id, status, host_id, options, seed, "
                "created_at, updated_at, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild, channel, status, host, _dumps(options), seed, now, now,
                 "complete" if status == "finished" else None))
        except sqlite3.IntegrityError:
            raise ChannelBusy(f"channel {channel} already has a game") from None
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    # -- creating games ---------------------------------------------------------

    async def create_game(self, guild: str, channel: str, host: SeatRow,
                          options: Mapping[str, Any], seed: int | None, now: float) -> int:
        """A new lobby with its host in the first seat."""
        assert host.user_id is not None
        async with self._transaction() as db:
            game_id = await self._insert_game(db, guild, channel, "lobby", host.user_id,
                                              options, seed, now)
            await self._insert_seats(db, game_id, [host])
        return game_id

    async def import_game(self, guild: str, channel: str, host: str, status: str,
                          options: Mapping[str, Any], seed: int | None, seats: list[SeatRow],
                          actions: list[dict[str, Any]], now: float) -> int:
        """A game with a whole action log at once (an imported record)."""
        async with self._transaction() as db:
            game_id = await self._insert_game(db, guild, channel, status, host, options,
                                              seed, now)
            await self._insert_seats(db, game_id, seats)
            await db.executemany(
                "INSERT INTO actions (game_id, seq, user_id, action, at) VALUES (?, ?, NULL, ?, ?)",
                [(game_id, seq, _dumps(a), now) for seq, a in enumerate(actions)])
            await db.execute("UPDATE games SET version = ? WHERE id = ?", (len(actions), game_id))
        return game_id

    # -- changing games ---------------------------------------------------------

    async def update(self, game_id: int, version: int, now: float,
                     changes: Mapping[str, Any]) -> int:
        """Change game columns if the game is still at `version`; returns the new version."""
        async with self._io:  # one UPDATE: atomic without an explicit transaction
            with _unavailable_on_sqlite_trouble():
                await self._bump(self._db, game_id, version, now, changes)
        return version + 1

    async def put_seats(self, game_id: int, version: int, now: float, seats: list[SeatRow],
                        changes: Mapping[str, Any] | None = None) -> int:
        """Replace the game's seats (join, leave, kick, seating order, resign)."""
        async with self._transaction() as db:
            await self._bump(db, game_id, version, now, changes or {})
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(db, game_id, seats)
        return version + 1

    async def append(self, game_id: int, version: int, seq: int, user_id: str | None,
                     action: dict[str, Any], now: float,
                     changes: Mapping[str, Any] | None = None) -> int:
        """Add action number `seq` to the log, atomically with `changes`."""
        async with self._transaction() as db:
            await self._bump(db, game_id, version, now, changes or {})
            try:
                await db.execute(
                    "INSERT INTO actions (game_id, seq, user_id, action, at) "
                    "VALUES (?, ?, ?, ?, ?)", (game_id, seq, user_id, _dumps(action), now))
            except sqlite3.IntegrityError:
                raise Conflict(f"game {game_id} already has action {seq}") from None
        return version + 1

    # -- reading ----------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._rows(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game_row(rows[0]) if rows else None

    async def load(self, game_id: int) -> GameData | None:
        """The game, its seats and its log, read in one snapshot."""
        async with self._transaction("DEFERRED") as db:
            rows = list(await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)))
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
        """Games the user has a seat in, most recently active first."""
        live = "AND g.status IN ('lobby', 'active')" if live_only else ""
        rows = await self._rows(
            f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))} FROM games g "
            f"JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? {live} "
            "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?", (user_id, limit))
        return [_game_row(r) for r in rows]

    async def overdue(self, now: float) -> list[int]:
        rows = await self._rows(
            "SELECT id FROM games WHERE status = 'active' AND deadline <= ? ORDER BY deadline",
            (now,))
        return [int(r[0]) for r in rows]

    async def game_ids(self) -> list[int]:
        return [int(r[0]) for r in await self._rows("SELECT id FROM games ORDER BY id")]
