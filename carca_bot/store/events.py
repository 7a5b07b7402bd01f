"""Tournaments and leagues: each event (carca-event/1 JSON, versioned), which game plays
which match, the role that runs events on a server, the news an event owes its channel
and its players' time-outs (issue 18, issue 28; `Store` inherits these methods:
`EventRows`). What an event does is the service's (`service/events.py`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from carca_bot.store.errors import Conflict
from carca_bot.store.league_rows import EventGameRow, EventNewsRow, EventRow
from carca_bot.store.methods import StoreMethods, dumps

EVENT_COLUMNS = ("id, guild_id, channel_id, title, status, data, options, version, created_by, "
                 "created_at, updated_at, series, season, division, reminded_round, "
                 "announced_round, digest_at")


def _event_row(row: Sequence[Any]) -> EventRow:
    (eid, guild, channel, title, status, data, options, version, by, created, updated, series,
     season, division, reminded, announced, digest) = row
    return EventRow(int(eid), str(guild), str(channel), str(title), str(status),
                    json.loads(data), json.loads(options), int(version), str(by),
                    float(created), float(updated), str(series), int(season), int(division),
                    int(reminded), int(announced), float(digest))


class EventRows(StoreMethods):
    """Mixed into `Store`: an event changes only at the version it was read at."""

    # -- events, their games and organisers -----------------------------------------------

    async def insert_event(self, guild: str, channel: str, title: str, data: Mapping[str, Any],
                           options: Mapping[str, Any], created_by: str, now: float, *,
                           series: str = "", season: int = 0, division: int = 0) -> int:
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                f"INSERT INTO league_events ({EVENT_COLUMNS.removeprefix('id, ')}) "
                "VALUES (?, ?, ?, 'signup', ?, ?, 0, ?, ?, ?, ?, ?, ?, 0, 0, 0) RETURNING id",
                (guild, channel, title, dumps(data), dumps(options), created_by, now, now,
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
        values = {k: dumps(v) if k == "data" else v for k, v in changes.items()}
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

    # -- events' news and time-outs (issue 28) --------------------------------------------

    async def add_event_news(self, event_id: int, kind: str, data: Mapping[str, Any],
                             now: float) -> int:
        """Queue an announcement for the event's channel; its id."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                "INSERT INTO event_news (event_id, kind, data, created_at) VALUES (?, ?, ?, ?) "
                "RETURNING id", (event_id, kind, dumps(data), now)))
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
