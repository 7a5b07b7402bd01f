"""Issue 15's clocks in the service, driven by a clock the tests move by hand: every
preset, the time bank with its increment and cap, quiet hours, vacations, each step of
the ladder (reminders, then play, skip or a vote to expel), and a restart in the middle
of a countdown."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from carca_bot.service import (
    BadInput,
    GameOptions,
    GameService,
    NotAllowed,
    NotNow,
    TurnView,
    User,
    Where,
)
from carca_bot.service.clocks import DAY, HOUR, PRESETS, ClockRules, QuietHours
from carca_bot.service.model import clock_json, clock_rules
from tests.service.helpers import ANA, BEN, CY, HERE, THERE, Clock, rig, said, started, who

MINUTE = 60
TEN_HOURS = ClockRules(bank=10 * HOUR, increment=HOUR, cap=20 * HOUR)


def clocked(rules: ClockRules | str, seed: int = 4, **more: object) -> GameOptions:
    return GameOptions(seed=seed, clock=clock_rules(rules), **more)  # type: ignore[arg-type]


async def move(service: GameService, where: Where = HERE, figure: bool = False) -> TurnView:
    """The player to act places the drawn tile on its first legal square and confirms."""
    view = await service.status(where)
    user = who(view)
    choices = await service.legal_moves(where, user)
    x, y, rot = choices.placements[0]
    if not figure:
        return await service.place(where, user, x, y, rot, confirm=True)
    await service.place_tile(where, user, x, y, rot)
    on = (await service.legal_moves(where, user)).deployments[0]
    await service.deploy(where, user, *on)
    return await service.confirm(where, user)


def bank(view: TurnView, user: User) -> float | None:
    return next(s.bank for s in view.seats if s.user_id == user.id)


# -- the option ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
async def test_every_preset_starts_full_banks_and_a_deadline_one_bank_away(
        service: GameService, clock: Clock, name: str) -> None:
    rules = PRESETS[name]
    view = await started(service, options=clocked(name))
    assert view.options.clock == rules
    assert view.deadline == clock.now + rules.bank
    assert [s.bank for s in view.seats] == [rules.bank, rules.bank]
    # stored as every rule spelled out, and read back the same
    assert GameOptions.from_json(view.options.to_json()).clock == rules
    assert clock_json(rules)["bank"] == rules.bank
    # the next player's turn starts from their own full bank
    clock.now += HOUR
    after = await move(service)
    assert after.deadline == clock.now + rules.bank


def test_clock_options_are_checked() -> None:
    with pytest.raises(BadInput, match="clock_and_timer"):
        GameOptions(turn_timer=60, clock=PRESETS["fast"])
    with pytest.raises(BadInput, match="unknown_clock_preset"):
        clock_rules("blitz")
    with pytest.raises(BadInput, match="clock_out_of_range"):
        clock_rules({"bank": 3600, "increment": 0, "cap": 60})
    with pytest.raises(BadInput, match="unknown_time_zone"):
        clock_rules({"preset": "normal", "timezone": "Mars/Olympus"})
    with pytest.raises(BadInput, match="unknown_timeout"):
        clock_rules({"preset": "normal", "on_timeout": "shrug"})
    with pytest.raises(BadInput, match="quiet_hours_empty"):
        clock_rules({"preset": "normal", "quiet": [600, 600]})
    with pytest.raises(BadInput, match="bad_clock"):
        clock_rules({"preset": "normal", "colour": "red"})
    with pytest.raises(BadInput, match="bad_clock"):
        clock_rules({"bank": 3600})  # custom needs bank, increment and cap
    with pytest.raises(BadInput, match="bad_clock"):
        clock_rules({"preset": "normal", "quiet": "night"})
    with pytest.raises(BadInput, match="clock_out_of_range"):
        GameOptions(clock=ClockRules(bank=10, increment=0, cap=10))
    custom = clock_rules({"preset": "normal", "on_timeout": "vote", "quiet": [1380, 420],
                          "timezone": "Europe/Madrid"})
    assert (custom.bank, custom.on_timeout, custom.quiet, custom.timezone) == (
        DAY, "vote", QuietHours(1380, 420), "Europe/Madrid")
    assert clock_rules(clock_json(custom)) == custom


async def test_a_timer_game_has_no_clock_state(service: GameService) -> None:
    view = await started(service, options=GameOptions(turn_timer=60, seed=4))
    row = await service.store.game(view.game_id)
    assert row is not None and row.clock is None and row.alarm is None
    assert all(s.bank is None for s in view.seats)


# -- the bank -----------------------------------------------------------------------------


async def test_the_bank_is_charged_then_grows_by_the_increment_up_to_the_cap(
        service: GameService, clock: Clock) -> None:
    rules = ClockRules(bank=2 * HOUR, increment=HOUR, cap=3 * HOUR)
    view = await started(service, options=clocked(rules))
    first, second = who(view), next(u for u in (ANA, BEN) if u != who(view))
    clock.now += 30 * MINUTE
    still = await service.status(HERE)  # the bank as the decision began; the deadline holds
    assert (bank(still, first), still.deadline) == (2 * HOUR, clock.now + 90 * MINUTE)
    view = await move(service)
    assert bank(view, first) == 2 * HOUR - 30 * MINUTE + HOUR
    assert view.deadline == clock.now + 2 * HOUR
    clock.now += 10 * MINUTE
    view = await move(service)
    assert bank(view, second) == 2 * HOUR - 10 * MINUTE + HOUR
    assert view.deadline == clock.now + 150 * MINUTE  # the first player's bank
    clock.now += 5 * MINUTE
    view = await move(service)
    assert bank(view, first) == 3 * HOUR  # 2.5 h - 5 min + 1 h, capped
    # the turn-time statistics: from the move before to the player's own
    medians = {s.user_id: s.median_move_seconds for s in view.seats}
    assert medians == {first.id: 5 * MINUTE, second.id: 10 * MINUTE}


async def test_quiet_hours_stop_the_clock_in_the_games_time_zone(
        service: GameService, clock: Clock) -> None:
    madrid = ZoneInfo("Europe/Madrid")
    rules = ClockRules(bank=2 * HOUR, increment=2 * HOUR, cap=4 * HOUR,
                       quiet=QuietHours(22 * 60, 8 * 60), timezone="Europe/Madrid")
    clock.now = datetime(2024, 1, 15, 21, 0, tzinfo=madrid).timestamp()
    view = await started(service, options=clocked(rules))
    mover = who(view)
    # one hour before the night, the other after it
    assert view.deadline == datetime(2024, 1, 16, 9, 0, tzinfo=madrid).timestamp()
    night = datetime(2024, 1, 15, 22, 0, tzinfo=madrid).timestamp()
    assert await service.check_timers(night - 1) == []
    assert [r.reason for r in await service.check_timers(night)] == ["clock_reminder"]
    # the tenth-left reminder falls at 08:48, held back: one reminder a day
    assert await service.check_timers(night + 10 * HOUR + 50 * MINUTE) == []
    clock.now = datetime(2024, 1, 16, 8, 30, tzinfo=madrid).timestamp()
    view = await move(service)
    assert bank(view, mover) == 2 * HOUR - 90 * MINUTE + 2 * HOUR  # charged 1.5 h


# -- vacations ----------------------------------------------------------------------------


async def test_a_vacation_pauses_the_clock_within_the_monthly_allowance(
        service: GameService, clock: Clock) -> None:
    t0 = clock.now  # 14 November 2023
    view = await started(service, options=clocked("normal"))  # 7 days a month
    mover = who(view)
    resting = await service.take_vacation(mover.id, 3)
    assert (resting.start, resting.end, resting.games) == (t0, t0 + 3 * DAY, (view.game_id,))
    view = await service.status(HERE)
    assert view.deadline == t0 + 4 * DAY
    assert [s.on_vacation for s in view.seats if s.user_id == mover.id] == [True]
    with pytest.raises(BadInput, match="vacation_overlaps"):
        await service.take_vacation(mover.id, 1, now=t0 + DAY)
    with pytest.raises(BadInput, match="vacation_too_long"):
        await service.take_vacation(mover.id, 8, now=t0 + 10 * DAY)
    # back early: the clock runs again from now, and the day taken counts
    clock.now = t0 + DAY
    await service.end_vacation(mover.id)
    view = await service.status(HERE)
    assert view.deadline == t0 + 2 * DAY
    assert not any(s.on_vacation for s in view.seats)
    with pytest.raises(NotNow, match="not_on_vacation"):
        await service.end_vacation(mover.id)
    # one day used in November, so seven more are refused and six are granted
    with pytest.raises(BadInput, match="vacation_days_used"):
        await service.take_vacation(mover.id, 7)
    await service.take_vacation(mover.id, 6)
    assert (await service.status(HERE)).deadline == t0 + 8 * DAY
    with pytest.raises(NotAllowed, match="no_clock_games"):
        await service.take_vacation(CY.id, 1)
    # the time a vacation paused is not charged when the move is made
    clock.now = t0 + 7 * DAY + HOUR
    view = await move(service)
    assert bank(view, mover) == DAY - HOUR + DAY


async def test_a_vacation_taken_off_turn_delays_the_next_deadline(
        service: GameService, clock: Clock) -> None:
    t0 = clock.now
    view = await started(service, options=clocked("normal"))
    waiting = next(u for u in (ANA, BEN) if u != who(view))
    await service.take_vacation(waiting.id, 2)
    assert (await service.status(HERE)).deadline == t0 + DAY  # not their turn
    clock.now = t0 + HOUR
    view = await move(service)
    assert who(view) == waiting
    assert view.deadline == t0 + 2 * DAY + DAY


# -- the ladder ---------------------------------------------------------------------------


async def test_reminders_then_the_move_played_for_the_late_player(
        service: GameService, clock: Clock) -> None:
    t0 = clock.now
    view = await started(service, options=clocked(TEN_HOURS))
    late = who(view)
    assert await service.check_timers(t0 + 5 * HOUR - 1) == []
    clock.now = t0 + 5 * HOUR  # half the time left
    (report,) = await service.check_timers()
    assert (report.reason, report.user_id, report.auto_played, report.actions) == (
        "clock_reminder", late.id, False, ())
    assert said(report.view)[-1] == (
        f"{late.name}, it is your turn: about 5 hours left on your clock")
    assert await service.check_timers() == []  # sent once
    clock.now = t0 + 9 * HOUR  # a tenth left: but one reminder a day per player
    assert await service.check_timers() == []
    row = await service.store.game(view.game_id)
    assert row is not None and row.alarm == t0 + 10 * HOUR
    clock.now = t0 + 10 * HOUR
    (report,) = await service.check_timers()
    assert (report.reason, report.user_id, report.auto_played) == ("auto_played", late.id, True)
    assert len(report.actions) == 1 and "deploy" not in report.actions[0]
    assert f"{late.name} ran out of time: their move was played for them" in said(report.view)
    assert who(report.view) != late
    assert report.view.deadline == clock.now + 10 * HOUR
    assert bank(report.view, late) == HOUR  # the bank ran out; the increment came after
    assert await service.check_timers() == []


async def test_one_reminder_a_day_across_all_of_a_players_games(
        service: GameService, clock: Clock) -> None:
    t0 = clock.now
    for where in (HERE, THERE):
        await started(service, (ANA,), clocked(TEN_HOURS, allow_solo=True), where=where)
    clock.now = t0 + 5 * HOUR
    reports = await service.check_timers()
    assert [(r.reason, r.user_id) for r in reports] == [("clock_reminder", ANA.id)]
    clock.now = t0 + 9 * HOUR
    assert await service.check_timers() == []


async def test_reminders_a_day_apart_are_both_sent(service: GameService, clock: Clock) -> None:
    t0 = clock.now
    view = await started(service, options=clocked("slow"))  # 3 days: at 1.5 and 2.7 days
    late = who(view)
    clock.now = t0 + 1.5 * DAY
    assert [r.reason for r in await service.check_timers()] == ["clock_reminder"]
    clock.now = t0 + 2.7 * DAY
    (report,) = await service.check_timers()
    assert report.reason == "clock_reminder" and report.user_id == late.id
    assert said(report.view)[-1].endswith("about 7 hours left on your clock")


async def test_a_skip_drops_the_players_steps_and_plays_the_smallest_move(
        service: GameService, clock: Clock) -> None:
    rules = ClockRules(bank=HOUR, increment=HOUR, cap=2 * HOUR, on_timeout="skip")
    view = await started(service, options=clocked(rules))
    late = who(view)
    tile = (await service.begin_turn(HERE, late)).tile
    game = await service.game(HERE)
    assert tile is not None and game is not None
    first = game.legal_placements(tile)[0]  # the engine's order, as `auto_move` takes it
    choices = await service.legal_moves(HERE, late)
    x, y, rot = next(p for p in choices.placements if p[:2] != first.pos)
    await service.place_tile(HERE, late, x, y, rot)
    figure, on = (await service.legal_moves(HERE, late)).deployments[0]
    await service.deploy(HERE, late, figure, on)
    clock.now += HOUR
    (report,) = await service.check_timers()
    assert (report.reason, report.auto_played) == ("skipped", True)
    (action,) = report.actions
    assert (action["tile"], action["at"], action["rot"], "deploy" in action) == (
        tile, list(first.pos), first.rot * 90, False)
    assert said(report.view)[0].startswith(f"{late.name} ran out of time: their turn was skipped")
    assert report.view.steps == () and who(report.view) != late


async def test_playing_for_the_late_player_keeps_their_steps(
        service: GameService, clock: Clock) -> None:
    view = await started(service, options=clocked(ClockRules(HOUR, HOUR, 2 * HOUR)))
    late = who(view)
    x, y, rot = (await service.legal_moves(HERE, late)).placements[-1]
    await service.place_tile(HERE, late, x, y, rot)
    figure, on = (await service.legal_moves(HERE, late)).deployments[0]
    await service.deploy(HERE, late, figure, on)
    clock.now += HOUR
    (report,) = await service.check_timers()
    (action,) = report.actions
    assert report.reason == "auto_played"
    assert (action["at"], action["deploy"]) == ([x, y], {"figure": figure, "on": on})


VOTE = ClockRules(bank=HOUR, increment=HOUR, cap=2 * HOUR, on_timeout="vote")


async def test_the_other_players_vote_to_expel_a_player_out_of_time(
        service: GameService, clock: Clock) -> None:
    view = await started(service, (ANA, BEN, CY), clocked(VOTE))
    late = who(view)
    voters = [u for u in (ANA, BEN, CY) if u != late]
    with pytest.raises(NotNow, match="no_expel_vote"):
        await service.vote_expel(HERE, voters[0], late.id)
    clock.now += HOUR
    (report,) = await service.check_timers()
    assert (report.reason, report.user_id, report.auto_played) == ("expel_vote", late.id, False)
    assert report.view.expel_vote is not None
    assert (report.view.expel_vote.target, report.view.expel_vote.needed) == (late.name, 2)
    assert said(report.view) == [
        f"{late.name} ran out of time: the other players may now vote to expel them"]
    clock.now += DAY - MINUTE  # the vote is open for a day (see test_takeback.py)
    assert await service.check_timers() == []  # the vote waits; nothing fires again
    with pytest.raises(NotAllowed, match="no_self_expel"):
        await service.vote_expel(HERE, late, late.id)
    view = await service.vote_expel(HERE, voters[0], late.id)
    assert view.expel_vote is not None and view.expel_vote.voters == (voters[0].name,)
    assert said(view) == [f"{voters[0].name} voted to expel {late.name} (1 of 2 votes needed)"]
    with pytest.raises(NotAllowed, match="already_voted"):
        await service.vote_expel(HERE, voters[0], late.id)
    view = await service.vote_expel(HERE, voters[1], late.id)
    assert f"{late.name} was expelled by a vote of the other players: their figures stay " \
           "on the board and score nothing more" in said(view)
    out = next(s for s in view.seats if s.user_id == late.id)
    assert out.resigned and out.expelled
    assert view.standings[-1].user_id == late.id
    assert view.status == "active" and view.expel_vote is None
    assert who(view) != late  # their turn was played for them, as for a resigned player
    assert f"{late.name} has resigned: their move was played for them" in said(view)


async def test_a_move_before_the_vote_ends_closes_it(service: GameService, clock: Clock) -> None:
    view = await started(service, options=clocked(VOTE))
    late = who(view)
    other = next(u for u in (ANA, BEN) if u != late)
    clock.now += HOUR
    await service.check_timers()
    clock.now += HOUR
    view = await move(service)
    assert view.expel_vote is None
    assert bank(view, late) == HOUR  # out of time, then the increment
    with pytest.raises(NotNow, match="no_expel_vote"):
        await service.vote_expel(HERE, other, late.id)


async def test_expelling_one_of_two_players_ends_the_game(
        service: GameService, clock: Clock) -> None:
    view = await started(service, options=clocked(VOTE))
    late = who(view)
    other = next(u for u in (ANA, BEN) if u != late)
    clock.now += HOUR
    await service.check_timers()
    view = await service.vote_expel(HERE, other, late.id)
    assert (view.status, view.outcome) == ("finished", "resigned")
    assert view.standings[-1].user_id == late.id
    row = await service.store.game(view.game_id)
    assert row is not None and (row.deadline, row.alarm) == (None, None)


# -- a restart in the middle of a countdown ------------------------------------------------


async def test_a_restart_mid_countdown_loses_nothing_and_fires_nothing_twice(
        db: Path, clock: Clock) -> None:
    t0 = clock.now
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service, options=clocked(TEN_HOURS))
        late = who(view)
        clock.now = t0 + 5 * HOUR
        assert [r.reason for r in await service.check_timers()] == ["clock_reminder"]
    finally:
        await service.close()
    service = await GameService.open(db, clock=clock)
    try:
        assert await service.check_timers() == []  # the reminder was stored as sent
        view = await service.status(HERE)
        assert view.deadline == t0 + 10 * HOUR
        assert bank(view, late) == 10 * HOUR
        clock.now = t0 + 10 * HOUR
        (report,) = await service.check_timers()
        assert report.reason == "auto_played"
        deadline = report.view.deadline
    finally:
        await service.close()
    service = await GameService.open(db, clock=clock)
    try:
        assert await service.check_timers() == []  # the move was not played twice
        view = await service.status(HERE)
        assert view.moves == 1 and view.deadline == deadline == t0 + 20 * HOUR
        assert bank(view, late) == HOUR
    finally:
        await service.close()


async def test_a_player_who_left_scores_nothing_more(service: GameService) -> None:
    """Their figures stay on the board (and count in the engine's record), but their
    score in the game stays what it was when they left: here, a figure that final
    scoring would have paid."""
    view = await started(service, (ANA, BEN, CY), GameOptions(seed=4))
    leaver = who(view)
    user = leaver
    x, y, rot = (await service.legal_moves(HERE, user)).placements[0]
    await service.place_tile(HERE, user, x, y, rot)
    deployments = (await service.legal_moves(HERE, user)).deployments
    figure, on = next(d for d in deployments if "field" not in d[1])
    await service.deploy(HERE, user, figure, on)
    view = await service.confirm(HERE, user)
    left_with = next(s.score for s in view.seats if s.user_id == leaver.id)
    view = await service.resign(HERE, leaver)
    while view.status == "active":
        view = await move(service)
    game = await service.game(HERE)
    assert game is not None
    seat = next(s for s in view.seats if s.user_id == leaver.id)
    assert game.scores[seat.seat] > left_with  # the engine scored their figure at the end
    assert seat.score == left_with and view.standings[-1] == seat
    (summary,) = [g for g in await service.my_games(leaver.id) if g.game_id == view.game_id]
    assert summary.scores[seat.seat] == left_with


async def test_a_builders_double_turn_is_one_turn_on_the_clock(
        service: GameService, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The part that owes a second part neither charges the clock nor moves the deadline;
    the second part ends the turn, charged once for both (RULES-inns-traders.md 4.15)."""
    rig(monkeypatch, ["U", "B", "U", "B", "U", "B"])
    view = await started(service, options=clocked(TEN_HOURS,
                                                  expansions=frozenset({"traders_builders"})))
    first = who(view)
    for x, y, figure in ((1, 0, "follower"), (0, 1, None), (2, 0, "builder"), (-1, 1, None)):
        view = await service.place(HERE, who(view), x, y, 0, figure=figure,
                                   on="W" if figure else None, confirm=True)
    assert who(view) == first and view.part == 1
    before, deadline = bank(view, first), view.deadline
    clock.now += HOUR
    view = await service.place(HERE, first, 3, 0, 0, confirm=True)  # extends the road
    assert (who(view), view.part) == (first, 2)
    assert (bank(view, first), view.deadline) == (before, deadline)  # the same turn
    clock.now += 2 * HOUR
    view = await service.place(HERE, first, 1, 1, 0, confirm=True)
    assert who(view) != first and view.part == 1
    assert before is not None and bank(view, first) == before - 3 * HOUR + HOUR  # one increment
