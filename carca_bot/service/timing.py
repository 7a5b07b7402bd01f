"""A clock game's state between commands, the deadlines it leads to, and what a player's
vacations mean in it.

`clocks.py` is the arithmetic; this module applies it to one game: the banks of
its seats, when the current decision began, how far along the reminder ladder it
is, and an open vote to expel. It is stored as JSON in the game's `clock` column,
written in the same transaction as the move that changed it, so a restart loses
nothing. The game's `deadline` is when the player to act runs out of time; its
`alarm` the next moment the timers must look (a reminder, or the deadline).

Vacations are a player's, across all their games, but each game decides what they mean
for it from its own rules (`game_vacations`, issue 26): nothing where the rules allow no
vacation, and at most the rules' `vacation_days` a calendar month (and per vacation)
where they allow some, counted in the game's time zone, the player's vacations in
order. So a vacation taken while sitting only in a slow game does not reach a fast game
joined later that allows none, and an event's games follow the event's clock.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from carca_bot.service.clocks import (
    DAY,
    ClockRules,
    Interval,
    bank_after_move,
    charged,
    deadline,
    reminder_times,
)


@dataclass(frozen=True)
class ClockState:
    """Where a clock game's clock stands.

    `banks[seat]` is each seat's bank as it was when their current (or next)
    decision began: it changes only when a decision ends. `seat` decides since
    `since` (a Unix time), after `seq` actions in the log. `reminded` counts the
    reminders of this decision already due (sent, or held back by the one-a-day
    rule). `vote` is an open vote to expel `seat` (the voters' seats), opened at
    `vote_at`; `expelled` the seats voted out.
    """

    banks: tuple[float, ...]
    seat: int | None
    since: float
    seq: int
    reminded: int = 0
    vote: tuple[int, ...] | None = None
    expelled: tuple[int, ...] = field(default_factory=tuple)
    vote_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"banks": list(self.banks), "seat": self.seat, "since": self.since,
                "seq": self.seq, "reminded": self.reminded,
                "vote": None if self.vote is None else list(self.vote),
                "expelled": list(self.expelled), "vote_at": self.vote_at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockState:
        vote = data.get("vote")
        seat = data.get("seat")
        vote_at = data.get("vote_at")
        return cls(tuple(float(b) for b in data["banks"]), None if seat is None else int(seat),
                   float(data["since"]), int(data["seq"]), int(data.get("reminded", 0)),
                   None if vote is None else tuple(int(v) for v in vote),
                   tuple(int(s) for s in data.get("expelled", ())),
                   None if vote_at is None else float(vote_at))


def starting(rules: ClockRules, players: int, seat: int | None, now: float,
             seq: int) -> ClockState:
    """Every bank full, the first decision beginning now."""
    return ClockState(tuple(float(rules.bank) for _ in range(players)), seat, now, seq)


def after_decision(rules: ClockRules, state: ClockState, vacations: Sequence[Interval],
                   now: float, seat: int | None, seq: int, decided: bool) -> ClockState:
    """The state once `state.seat`'s decision ended at `now` and `seat` must decide next.

    With `decided` (the mover committed a move, or one was played for them at the
    deadline) the time they took is charged and the increment added, capped. Without
    it (a tile discarded for them: they go on drawing) their decision goes on.
    """
    if not decided and seat == state.seat:
        return replace(state, seq=seq)
    banks = list(state.banks)
    mover = state.seat
    if mover is not None and mover < len(banks):
        used = charged(rules, vacations, state.since, now)
        banks[mover] = (bank_after_move(rules, banks[mover], used) if decided
                        else max(0.0, banks[mover] - used))
    return ClockState(tuple(banks), seat, now, seq, 0, None, state.expelled)


def times(rules: ClockRules, state: ClockState, vacations: Sequence[Interval]
          ) -> tuple[float | None, float | None]:
    """The mover's deadline, and the next alarm: the first reminder not yet due, else the
    deadline; while a vote to expel is open, the moment it closes (`vote_closes`)."""
    if state.seat is None:
        return None, None
    bank = state.banks[state.seat]
    end = deadline(rules, vacations, state.since, bank)
    if state.vote is not None:
        return end, vote_closes(rules, state.vote_at if state.vote_at is not None else end)
    due = reminder_times(rules, vacations, state.since, bank)[state.reminded:]
    return end, min([*due, end])


def vote_closes(rules: ClockRules, opened: float) -> float:
    """When a vote to expel closes unexpelled: a day after it opened, or one increment
    (the time one move earns) if that is longer, so a slow game's voters are not rushed.
    The late player's turn is then played for them and the game goes on."""
    return opened + max(float(DAY), float(rules.increment))


def reminders_due(rules: ClockRules, state: ClockState, vacations: Sequence[Interval],
                  now: float) -> int:
    """How many of the decision's reminders are due by `now` (sent or not)."""
    if state.seat is None:
        return 0
    return sum(t <= now for t in reminder_times(rules, vacations, state.since,
                                                state.banks[state.seat]))


def bank_now(rules: ClockRules, state: ClockState, seat: int, vacations: Sequence[Interval],
             now: float) -> float:
    """A seat's bank as it stands at `now`: the mover's is running down."""
    bank = state.banks[seat]
    if seat != state.seat:
        return bank
    return max(0.0, bank - charged(rules, vacations, state.since, now))


def on_vacation(vacations: Iterable[Interval], now: float) -> bool:
    return any(start <= now < end for start, end in vacations)


def median_move_seconds(times_of: Sequence[tuple[str | None, float]],
                        user_id: str | None) -> float | None:
    """The median time `user_id` took over their own moves: from the action before each
    of their actions to it (the log's times). None before they made a move."""
    if user_id is None:
        return None
    gaps = [at - times_of[i - 1][1] for i, (user, at) in enumerate(times_of)
            if i > 0 and user == user_id]
    return statistics.median(gaps) if gaps else None


def _next_month(at: float, zone: ZoneInfo) -> tuple[tuple[int, int], float]:
    """The calendar month (year, month) `at` falls in, and when the next one starts."""
    local = datetime.fromtimestamp(at, zone)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    return (local.year, local.month), datetime(year, month, 1, tzinfo=zone).timestamp()


def game_vacations(rules: ClockRules, taken: Sequence[Interval]) -> list[Interval]:
    """The player's vacations as one game counts them (see the module's docstring): each
    cut where it would pass the rules' days per vacation or per calendar month."""
    if rules.vacation_days <= 0:
        return []
    zone, allowance = rules.zone, rules.vacation_days * DAY
    used: defaultdict[tuple[int, int], float] = defaultdict(float)
    counted: list[Interval] = []
    for start, end in sorted(taken):
        stop, at = min(end, start + allowance), start
        while at < stop:
            month, month_end = _next_month(at, zone)
            piece = min(stop, month_end) - at
            room = allowance - used[month]
            if piece > room:
                stop = at + max(0.0, room)
                used[month] += max(0.0, room)
                break
            used[month] += piece
            at += piece
        if stop > start:
            counted.append((start, stop))
    return counted


def vacations_in_game(rules: ClockRules, taken: Mapping[str, Sequence[Interval]]
                      ) -> dict[str, list[Interval]]:
    """Every seated player's vacations as this game counts them (`game_vacations`)."""
    return {user: game_vacations(rules, spans) for user, spans in taken.items()}
