"""A player's clocks across their games: when they were last reminded, the reminders
owed to them, their running clock games and their vacations (`Store` inherits these
methods: `ClockRows`). The policy is the service's (`service/clocks.py`,
`service/reminders.py`); these are its rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from carca_bot.store.league_rows import ClockTurnRow, ReminderRow
from carca_bot.store.methods import StoreMethods

REMINDER_COLUMNS = "user_id, game_id, seq, due_at, deadline, told_at"


def _reminder_row(row: Sequence[Any]) -> ReminderRow:
    user, game, seq, due, deadline, told = row
    return ReminderRow(str(user), int(game), int(seq), float(due), float(deadline),
                       None if told is None else float(told))


class ClockRows(StoreMethods):
    """Mixed into `Store`: per user, across games (issue 15's clocks, issue 28's
    reminders owed)."""

    # -- reminders ------------------------------------------------------------------------

    async def last_reminded(self, user_id: str) -> float | None:
        rows = await self._rows("SELECT at FROM reminded WHERE user_id = ?", (user_id,))
        return float(rows[0][0]) if rows else None

    async def set_reminded(self, user_id: str, at: float) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO reminded (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET at = CASE WHEN excluded.at > reminded.at THEN excluded.at "
                "ELSE reminded.at END", (user_id, at))

    async def claim_reminder(self, user_id: str, now: float, gap: float) -> bool:
        """Note a reminder to `user_id` at `now` if none was noted in the `gap` seconds
        before; whether it was (two processes reminding one user at once: one wins)."""
        async with self._transaction("ROW") as db:
            rows = await db.execute_fetchall(
                "INSERT INTO reminded (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) "
                "DO UPDATE SET at = excluded.at WHERE reminded.at <= ? RETURNING user_id",
                (user_id, now, now - gap))
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

    # -- vacations and clock games ---------------------------------------------------------

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
