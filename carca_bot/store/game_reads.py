"""Reading games: a game whole, the game of a channel, a user's games, and the games the
timers must look at (`Store` inherits these methods: `GameReads`).

`game_data` and the statements beside it are also how the command-line tools (ops,
pgops, pgcopy) read games straight from a database; store.py names them too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from carca_bot.store.methods import StoreMethods
from carca_bot.store.rows import ActionRow, GameData, GameRow, SeatRow

GAME_COLUMNS = ("id, guild_id, channel_id, status, host_id, options, seed, created_at, "
                "updated_at, version, pending, deadline, outcome, public_version, posted_version, "
                "clock, alarm")


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


class GameReads(StoreMethods):
    """Mixed into `Store`: games as they are stored, read in one statement or snapshot."""

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

    async def game_ids(self) -> list[int]:
        return [int(r[0]) for r in await self._rows("SELECT id FROM games ORDER BY id")]

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
