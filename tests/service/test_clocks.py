"""The clock arithmetic: banks, increments, caps, quiet hours, vacations and reminders."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carca_bot.service.clocks import (
    DAY,
    HOUR,
    PRESETS,
    ClockRules,
    QuietHours,
    bank_after_move,
    charged,
    deadline,
    may_remind,
    reminder_times,
    vacation_days_in,
    vacation_problem,
)

MADRID = "Europe/Madrid"
NORMAL = PRESETS["normal"]


def at(text: str, zone: str = "UTC") -> float:
    """'2026-03-02 09:00' in `zone`, as a Unix time."""
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


@pytest.mark.parametrize(("preset", "per_move"), [("fast", 8), ("normal", 24), ("slow", 72)])
def test_each_preset_gives_its_time_per_move_and_saves_up_to_the_cap(
        preset: str, per_move: int) -> None:
    rules = PRESETS[preset]
    assert rules.problem() is None
    assert rules.bank == rules.increment == per_move * HOUR
    start = at("2026-03-02 09:00")
    assert deadline(rules, [], start, rules.bank) == start + per_move * HOUR
    bank = float(rules.bank)
    for _ in range(10):  # instant moves: the bank grows by the increment until the cap
        bank = bank_after_move(rules, bank, used=0)
    assert bank == rules.cap


def test_a_move_spends_the_bank_then_earns_the_increment() -> None:
    rules = ClockRules(bank=10 * HOUR, increment=2 * HOUR, cap=12 * HOUR)
    assert bank_after_move(rules, 10 * HOUR, used=3 * HOUR) == 9 * HOUR
    assert bank_after_move(rules, 11 * HOUR, used=0) == 12 * HOUR  # capped
    assert bank_after_move(rules, 1 * HOUR, used=5 * HOUR) == 2 * HOUR  # never below zero


def test_quiet_hours_stop_the_clock_in_the_games_time_zone() -> None:
    """Quiet 23:00-08:00 in Madrid (UTC+1 in winter): a 24 h bank lasts 15 h a day."""
    rules = replace(NORMAL, quiet=QuietHours(23 * 60, 8 * 60), timezone=MADRID)
    start = at("2026-02-02 20:00", MADRID)  # 3 h before the quiet window
    end = deadline(rules, [], start, DAY)
    # 3 h on day 1, 15 h on day 2 (08-23), 6 h on day 3: runs out at 14:00 on day 3.
    assert end == at("2026-02-04 14:00", MADRID)
    assert charged(rules, [], start, end) == pytest.approx(DAY)
    assert charged(rules, [], at("2026-02-02 23:30", MADRID), at("2026-02-03 07:59", MADRID)) == 0


def test_quiet_hours_follow_daylight_saving_time() -> None:
    """Madrid moves to UTC+2 on 29 March 2026: the window stays 23:00-08:00 local."""
    rules = replace(NORMAL, quiet=QuietHours(23 * 60, 8 * 60), timezone=MADRID)
    start = at("2026-03-28 22:00", MADRID)
    end = deadline(rules, [], start, 2 * HOUR)
    assert end == at("2026-03-29 09:00", MADRID)  # 1 h before quiet, 1 h after it


def test_a_vacation_pauses_only_that_players_clock() -> None:
    start = at("2026-05-04 12:00")
    away = [(at("2026-05-05 00:00"), at("2026-05-08 00:00"))]
    assert deadline(NORMAL, away, start, DAY) == start + DAY + 3 * DAY
    assert deadline(NORMAL, [], start, DAY) == start + DAY


def test_vacations_are_bounded_per_calendar_month() -> None:
    rules = NORMAL  # 7 days a month
    may = at("2026-05-10 00:00")
    assert vacation_problem(rules, [], may, 7) is None
    assert vacation_problem(rules, [], may, 8) == "vacation_too_long"
    taken = [(may, may + 5 * DAY)]
    assert vacation_problem(rules, taken, at("2026-05-20 00:00"), 3) == "vacation_days_used"
    assert vacation_problem(rules, taken, at("2026-05-20 00:00"), 2) is None
    assert vacation_problem(rules, taken, may + 2 * DAY, 1) == "vacation_overlaps"
    # Across a month's end, each month counts its own days: 5 in May is fine with 2 more.
    assert vacation_problem(rules, taken, at("2026-05-30 00:00"), 4) is None
    assert vacation_days_in([(at("2026-05-30 00:00"), at("2026-06-03 00:00"))], 2026, 6,
                            ZoneInfo("UTC")) == 2
    assert vacation_problem(replace(rules, vacation_days=0), [], may, 1) == "no_vacations"


def test_reminders_come_at_half_and_a_tenth_of_the_time_left() -> None:
    start = at("2026-05-04 12:00")
    assert reminder_times(NORMAL, [], start, 20 * HOUR) == [start + 10 * HOUR, start + 18 * HOUR]


def test_at_most_one_reminder_a_day() -> None:
    now = at("2026-05-04 12:00")
    assert may_remind(None, now)
    assert not may_remind(now - 23 * HOUR, now)
    assert may_remind(now - DAY, now)


@pytest.mark.parametrize(("rules", "code"), [
    (ClockRules(bank=30, increment=0, cap=30), "clock_out_of_range"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR - 1), "clock_out_of_range"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR, reminders=(0.1, 0.5)), "reminders_out_of_range"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR, on_timeout="explode"), "unknown_timeout"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR, timezone="Mars/Olympus"), "unknown_time_zone"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR, timezone="../../etc/passwd"),
     "unknown_time_zone"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR, quiet=QuietHours(60, 60)), "quiet_hours_empty"),
    (ClockRules(bank=HOUR, increment=0, cap=HOUR, quiet=QuietHours(0, 1440)),
     "quiet_hours_out_of_range"),
])
def test_bad_clock_settings_are_refused_with_a_reason(rules: ClockRules, code: str) -> None:
    assert rules.problem() == code


quiet_windows = st.one_of(st.none(), st.tuples(st.integers(0, 1439), st.integers(0, 1439))
                          .filter(lambda w: w[0] != w[1]).map(lambda w: QuietHours(*w)))


@given(quiet=quiet_windows, start=st.integers(1_700_000_000, 1_900_000_000),
       left=st.integers(0, 10 * DAY),
       away=st.lists(st.tuples(st.integers(0, 20 * DAY), st.integers(1, 5 * DAY)), max_size=3))
def test_the_deadline_is_exactly_when_the_charged_time_reaches_the_bank(
        quiet: QuietHours | None, start: int, left: int,
        away: list[tuple[int, int]]) -> None:
    rules = replace(NORMAL, quiet=quiet, timezone=MADRID)
    vacations = [(start + a, start + a + d) for a, d in away]
    end = deadline(rules, vacations, start, left)
    assert end >= start + left
    assert charged(rules, vacations, start, end) == pytest.approx(left, abs=1e-6)
