"""Turn-based clocks as pure arithmetic: a time bank per player, quiet hours, vacations.

The model is Board Game Arena's turn-based clock: each player holds a bank of time;
the time a turn takes is charged to the mover's bank, and after the move the bank
grows by the increment, never past the cap. The clock does not run during the game's
quiet hours (a daily window in the game's time zone) nor during the mover's vacation.
Everything takes and returns Unix seconds, so the service keeps deadlines in its
database (a restart loses nothing) and tests drive a clock of their own.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from carca_bot.service.zones import zone_problem

HOUR = 3600
DAY = 24 * HOUR
MAX_SEARCH_DAYS = 800  # a deadline further than this is a misconfiguration, not a wait
TIMEOUTS = ("play", "skip", "vote")  # what happens when a bank runs out

Interval = tuple[float, float]


@dataclass(frozen=True)
class QuietHours:
    """A daily window, in local minutes of the day, when no clock runs (it may wrap midnight)."""

    start: int
    end: int

    def problem(self) -> str | None:
        """A refusal code when the window cannot be used, else None."""
        if not (0 <= self.start < 1440 and 0 <= self.end < 1440):
            return "quiet_hours_out_of_range"
        return "quiet_hours_empty" if self.start == self.end else None

    def windows(self, since: float, zone: ZoneInfo) -> Iterator[Interval]:
        """Every quiet window that ends after `since`, in order (DST-aware)."""
        day = datetime.fromtimestamp(since, zone).date() - timedelta(days=1)
        for offset in range(MAX_SEARCH_DAYS):
            start = _at(day + timedelta(days=offset), self.start, zone)
            end_day = day + timedelta(days=offset + (1 if self.end < self.start else 0))
            end = _at(end_day, self.end, zone)
            if end > since and end > start:
                yield start, end


def _at(day: date, minute: int, zone: ZoneInfo) -> float:
    return datetime.combine(day, time(minute // 60, minute % 60), zone).timestamp()


@dataclass(frozen=True)
class ClockRules:
    """One game's clock, chosen at creation (a preset or custom)."""

    bank: int  # seconds each player starts with
    increment: int  # seconds added to the mover's bank after each move
    cap: int  # the most a bank may hold
    quiet: QuietHours | None = None
    vacation_days: int = 0  # days of vacation each player may take per calendar month
    reminders: tuple[float, ...] = (0.5, 0.1)  # remind when this share of the turn is left
    on_timeout: str = "play"  # one of TIMEOUTS
    timezone: str = "UTC"  # the game's: quiet hours and vacation months are local

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def problem(self) -> str | None:
        """A refusal code when these rules cannot run a game, else None."""
        if self.bank < 60 or self.increment < 0 or self.cap < self.bank:
            return "clock_out_of_range"
        if not 0 <= self.vacation_days <= 31:
            return "vacation_days_out_of_range"
        if any(not 0 < r < 1 for r in self.reminders) or list(self.reminders) != sorted(
                set(self.reminders), reverse=True):
            return "reminders_out_of_range"
        if self.on_timeout not in TIMEOUTS:
            return "unknown_timeout"
        zone = zone_problem(self.timezone)  # the tz database's names only (zones.py)
        if zone is not None:
            return zone
        return self.quiet.problem() if self.quiet else None


# The presets players pick from: about this long per move, with room to save some up.
PRESETS: dict[str, ClockRules] = {
    "fast": ClockRules(bank=8 * HOUR, increment=8 * HOUR, cap=24 * HOUR),
    "normal": ClockRules(bank=DAY, increment=DAY, cap=3 * DAY, vacation_days=7),
    "slow": ClockRules(bank=3 * DAY, increment=3 * DAY, cap=7 * DAY, vacation_days=10),
}


def _merged(intervals: Iterable[Interval]) -> Iterator[Interval]:
    """Sorted intervals in, overlapping ones joined."""
    current: Interval | None = None
    for start, end in intervals:
        if current is None:
            current = (start, end)
        elif start <= current[1]:
            current = (current[0], max(current[1], end))
        else:
            yield current
            current = (start, end)
    if current is not None:
        yield current


def pauses(rules: ClockRules, vacations: Sequence[Interval], since: float) -> Iterator[Interval]:
    """When the mover's clock stands still from `since` on: quiet hours and vacations."""
    own = sorted((s, e) for s, e in vacations if e > since and e > s)
    quiet = rules.quiet.windows(since, rules.zone) if rules.quiet else iter(())
    return _merged(heapq.merge(own, quiet))


def charged(rules: ClockRules, vacations: Sequence[Interval], since: float,
            until: float) -> float:
    """How much of the time from `since` to `until` counts against the mover."""
    if until <= since:
        return 0.0
    total = until - since
    for start, end in pauses(rules, vacations, since):
        if start >= until:
            break
        total -= min(end, until) - max(start, since)
    return total


def deadline(rules: ClockRules, vacations: Sequence[Interval], since: float,
             left: float) -> float:
    """The moment the mover's `left` seconds run out if they start thinking at `since`."""
    now, remaining = since, max(0.0, left)
    for start, end in pauses(rules, vacations, since):
        if start > now:
            if start - now >= remaining:
                return now + remaining
            remaining -= start - now
        now = max(now, end)
    return now + remaining


def reminder_times(rules: ClockRules, vacations: Sequence[Interval], since: float,
                   left: float) -> list[float]:
    """When to remind the mover: as each share in `rules.reminders` of their time is left."""
    return [deadline(rules, vacations, since, left * (1 - share)) for share in rules.reminders]


def bank_after_move(rules: ClockRules, bank: float, used: float) -> float:
    """The mover's bank once the move is made: what is left, plus the increment, capped."""
    return min(float(rules.cap), max(0.0, bank - used) + rules.increment)


# Reminders are counted per game and decision, but a player gets at most one message a
# day (REMIND_GAP) across all their games: a reminder that falls due when the player had
# one less than a day ago is owed, not dropped, and the player's next message carries
# every reminder owed to them that still matters (the player has not moved since), and
# every game of theirs that would run out before the message after it could go
# (`told_ahead`): so a decision that began before a message and ends within the next
# day is told in that message. (One that begins and runs out between two messages
# cannot be told without a second message that day.)
REMIND_GAP = DAY


def may_remind(last_reminded: float | None, now: float) -> bool:
    """At most one reminder message a day per player, across all their games."""
    return last_reminded is None or now - last_reminded >= REMIND_GAP


def told_ahead(deadline: float | None, now: float) -> bool:
    """Whether a message sent at `now` must also tell of a game running out at
    `deadline`: it runs out before the player's next message may be sent."""
    return deadline is not None and now < deadline < now + REMIND_GAP


def escalation(rule: str, limit: int, in_game: int, in_event: int) -> str | None:
    """What an event does when one of its players has run out of time again (BGA's
    ladder: the game's own time-out choice first, then the event's): "forfeit" the
    match after `limit` time-outs in one game, "expel" from the event after `limit` in
    its games; None: nothing more yet (or the event's rule is "none")."""
    if rule == "forfeit" and in_game >= limit:
        return "forfeit"
    if rule == "expel" and in_event >= limit:
        return "expel"
    return None


def _month_start(year: int, month: int, zone: ZoneInfo) -> float:
    return datetime(year, month, 1, tzinfo=zone).timestamp()


def _months(start: float, end: float, zone: ZoneInfo) -> Iterator[tuple[int, int]]:
    first = datetime.fromtimestamp(start, zone)
    year, month = first.year, first.month
    while _month_start(year, month, zone) < end:
        yield year, month
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


def vacation_days_in(vacations: Sequence[Interval], year: int, month: int,
                     zone: ZoneInfo) -> float:
    """Days of vacation that fall in a calendar month of the game's time zone."""
    first = _month_start(year, month, zone)
    nxt = _month_start(year + month // 12, month % 12 + 1, zone)
    return sum(max(0.0, min(e, nxt) - max(s, first)) for s, e in vacations) / DAY


def vacation_problem(rules: ClockRules, taken: Sequence[Interval], start: float,
                     days: float) -> str | None:
    """Why a vacation of `days` from `start` may not be taken, else None.

    Each calendar month (in the game's time zone) may hold at most
    `rules.vacation_days` days of a player's vacations, the new one included.
    """
    if rules.vacation_days == 0:
        return "no_vacations"
    if days <= 0 or days > rules.vacation_days:
        return "vacation_too_long"
    end = start + days * DAY
    if any(s < end and start < e for s, e in taken):
        return "vacation_overlaps"
    wanted = [*taken, (start, end)]
    for year, month in _months(start, end, rules.zone):
        if vacation_days_in(wanted, year, month, rules.zone) > rules.vacation_days + 1e-9:
            return "vacation_days_used"
    return None
