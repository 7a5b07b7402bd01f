"""Clock reminders counted per game, at most one message a day per player (the policy:
`clocks.py`, by REMIND_GAP), and the timers' hook for what follows time-outs.

When a clock game's reminder falls due (`InfoOps._clock_body` calls
`_clock_reminder_due`), it is stored as owed for that game and decision. If the
player may have a message now, this reminder goes out and carries the others folded
into it (`also`: each game's id, channel and deadline): every reminder still owed to
them whose decision is still theirs, and every game of theirs running out before their
next message could go. Otherwise it waits: `_after_timers` (the end of each
`check_timers`) sends each player who is owed one and may have a message now a
reminder in the game owed longest, with the others folded in. Reminders whose player
has moved since are moot and forgotten.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from carca_bot.service.clocks import REMIND_GAP, told_ahead
from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import ServiceError
from carca_bot.service.live import Live
from carca_bot.service.model import Note, TimerReport
from carca_bot.service.timing import bank_now
from carca_bot.store import ClockTurnRow, ReminderRow, SeatRow

Folded = list[dict[str, Any]]


class ReminderOps(ServiceCore):
    async def _clock_reminder_due(self, live: Live, seat: SeatRow, now: float,
                                  deadline: float) -> Folded | None:
        """A reminder of `seat`'s current decision is due: the other games folded into
        its message, or None when it is owed for a later message."""
        user, state = seat.user_id, self._clock_state(live)
        if user is None or state is None:
            return []
        seq = decision(state.since)
        entry = await self.store.reminder(user, live.id, seq)
        if entry is not None and entry.told_at is not None and entry.due_at >= now:
            return None  # an earlier message told of this decision, deadline and all
        await self.store.put_reminder(ReminderRow(user, live.id, seq, now, deadline, None))
        if not await self.store.claim_reminder(user, now, REMIND_GAP):
            return None
        return await self._fold(user, now, ReminderRow(user, live.id, seq, now, deadline,
                                                       None))

    async def _fold(self, user: str, now: float, main: ReminderRow) -> Folded:
        """Mark `main` told with every other reminder that goes with it; those others."""
        await self.store.put_reminder(ReminderRow(user, main.game_id, main.seq, main.due_at,
                                                  main.deadline, now))
        turns = {t.game_id: t for t in await self.store.clock_turns_of(user)}
        also: Folded = []
        for owed in await self.store.owed_reminders(user):
            if owed.game_id == main.game_id:
                continue
            turn = turns.get(owed.game_id)
            if turn is None or not _deciding(turn, owed.seq):
                await self.store.drop_reminder(user, owed.game_id, owed.seq)  # moot
                continue
            await self.store.put_reminder(ReminderRow(user, owed.game_id, owed.seq,
                                                      owed.due_at, owed.deadline, now))
            also.append(_item(turn, owed.deadline))
        told = {main.game_id, *(int(a["game"]) for a in also)}
        for turn in turns.values():
            seq = _turn_seq(turn)
            if turn.game_id in told or seq is None or not told_ahead(turn.deadline, now):
                continue
            assert turn.deadline is not None
            # Told ahead: this decision's own reminders are covered up to its deadline.
            await self.store.put_reminder(ReminderRow(user, turn.game_id, seq,
                                                      turn.deadline, turn.deadline, now))
            also.append(_item(turn, turn.deadline))
        return also

    async def _after_timers(self, reports: Sequence[TimerReport], now: float
                            ) -> list[TimerReport]:
        """After each timers' pass: what follows the time-outs in `reports`
        (`_timeouts_seen`), and the owed reminders that may go now."""
        await self._timeouts_seen(reports, now)
        owed: dict[str, list[ReminderRow]] = {}
        for row in await self.store.owed_reminders():
            owed.setdefault(row.user_id, []).append(row)
        out = []
        for user, rows in owed.items():
            report = await self._send_owed(user, rows, now)
            if report is not None:
                out.append(report)
        return out

    async def _timeouts_seen(self, reports: Sequence[TimerReport], now: float) -> None:
        """Hook: the events' escalation of repeated time-outs (`EventTimerOps`)."""

    async def _send_owed(self, user: str, rows: list[ReminderRow], now: float
                         ) -> TimerReport | None:
        turns = {t.game_id: t for t in await self.store.clock_turns_of(user)}
        current = [r for r in rows if r.game_id in turns and _deciding(turns[r.game_id], r.seq)]
        for r in rows:
            if r not in current:
                await self.store.drop_reminder(user, r.game_id, r.seq)  # moot
        mine = await self._ours([r.game_id for r in current])
        current = [r for r in current if r.game_id in mine]
        if not current or not await self.store.claim_reminder(user, now, REMIND_GAP):
            return None
        main = current[0]
        found: list[tuple[SeatRow, float]] = []

        async def body(live: Live) -> None:
            rules, state = live.options.clock, self._clock_state(live)
            seat = live.seat_of(user)
            if rules is None or state is None or seat is None or state.seat != seat.seat:
                return
            also = await self._fold(user, now, main)
            left = bank_now(rules, state, seat.seat, live.vacations_of(seat.seat), now)
            live.notes.append(Note("clock_reminder", {
                "name": seat.name, "seconds": round(left), "deadline": main.deadline,
                "also": also}))
            found.append((seat, left))

        try:
            view = await self._act_on(main.game_id, None, body)
        except ServiceError:
            return None
        if not found:
            return None
        seat = found[0][0]
        return TimerReport(main.game_id, view.where, user, seat.name, False, view,
                           "clock_reminder")


def decision(since: float) -> int:
    """A decision's number in `owed_reminders.seq`: when it began, in milliseconds (it
    stays the same while the player discards and draws again)."""
    return round(since * 1000)


def _turn_seq(turn: ClockTurnRow) -> int | None:
    """The player's current decision (`decision`); None if it is not their turn."""
    clock = turn.clock
    if clock is None or clock.get("seat") != turn.seat:
        return None
    return decision(float(clock["since"]))


def _deciding(turn: ClockTurnRow, seq: int) -> bool:
    return _turn_seq(turn) == seq


def _item(turn: ClockTurnRow, deadline: float) -> dict[str, Any]:
    return {"game": turn.game_id, "channel": turn.channel_id, "guild": turn.guild_id,
            "deadline": deadline}
