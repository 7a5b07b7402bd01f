"""Clock reminders counted per game (one message a day per player, the others folded in
or owed, never dropped while they matter) and an event's escalation of repeated
time-outs (the match forfeited, or the player expelled), through the service."""

from __future__ import annotations

from typing import Any

from carca_bot.league import EventConfig, Format
from carca_bot.service import GameOptions, GameService, Note, TimerReport, TurnView, User, Where
from carca_bot.service.clocks import DAY, HOUR, ClockRules
from tests.service.helpers import ANA, BEN, CY, HERE, THERE, Clock, started, who
from tests.service.test_clock_games import TEN_HOURS, clocked, move
from tests.service.test_league_events import ORGANISER, PLAYERS, new_event, open_all

FORTY_HOURS = ClockRules(bank=40 * HOUR, increment=HOUR, cap=80 * HOUR)


async def anas_turn(service: GameService, partner: User, rules: ClockRules,
                    where: Where) -> TurnView:
    """A game of Ana and `partner` in `where`, at Ana's first decision from now."""
    view = await started(service, (ANA, partner), clocked(rules), where=where)
    if who(view) != ANA:
        view = await move(service, where)
    assert who(view) == ANA
    return view


def reminder_note(report: TimerReport) -> dict[str, Any]:
    notes = [e for e in report.view.events if isinstance(e, Note) and e.code == "clock_reminder"]
    return dict(notes[-1].params)


def anas(reports: list[TimerReport], game_id: int | None = None) -> list[TimerReport]:
    return [r for r in reports if r.user_id == ANA.id and r.reason == "clock_reminder"
            and (game_id is None or r.game_id == game_id)]


async def test_a_game_running_out_before_the_next_message_is_folded_into_this_one(
        service: GameService, clock: Clock) -> None:
    t0 = clock.now
    here = await anas_turn(service, BEN, TEN_HOURS, HERE)
    clock.now = t0 + HOUR
    there = await anas_turn(service, CY, TEN_HOURS, THERE)  # runs out at t0 + 11 h
    clock.now = t0 + 5 * HOUR
    (report,) = anas(await service.check_timers())
    assert report.game_id == here.game_id
    assert reminder_note(report)["also"] == [
        {"game": there.game_id, "channel": THERE.channel, "guild": THERE.guild,
         "deadline": t0 + 11 * HOUR}]
    clock.now = t0 + 6 * HOUR  # the other game's own reminder: told already
    assert anas(await service.check_timers()) == []


async def test_a_reminder_held_by_the_daily_limit_is_sent_the_next_day(
        service: GameService, clock: Clock) -> None:
    t0 = clock.now
    await anas_turn(service, BEN, TEN_HOURS, HERE)
    clock.now = t0 + HOUR
    there = await anas_turn(service, CY, FORTY_HOURS, THERE)  # half left at t0 + 21 h
    clock.now = t0 + 5 * HOUR
    (first,) = anas(await service.check_timers())
    assert reminder_note(first)["also"] == []  # runs out long after the next message
    clock.now = t0 + 21 * HOUR  # due, but Ana had a message 16 hours ago: owed
    assert anas(await service.check_timers(), there.game_id) == []
    clock.now = t0 + 28 * HOUR
    assert anas(await service.check_timers(), there.game_id) == []
    clock.now = t0 + 29 * HOUR  # a day after the last message: the owed one goes
    (owed,) = anas(await service.check_timers(), there.game_id)
    assert reminder_note(owed)["deadline"] == t0 + 41 * HOUR
    assert anas(await service.check_timers(), there.game_id) == []  # once


async def timeouts_until(service: GameService, clock: Clock, done: Any,
                         limit: int = 60) -> list[TimerReport]:
    """Move the clock ten minutes at a time, running the timers, until `done()`."""
    seen: list[TimerReport] = []
    for _ in range(limit):
        clock.now += 600
        seen += await service.check_timers()
        if await done():
            return seen
    raise AssertionError("the escalation never came")


HOURLY = GameOptions(clock=ClockRules(bank=HOUR, increment=HOUR, cap=2 * HOUR))


async def test_a_match_is_forfeited_after_repeated_time_outs_in_its_game(
        service: GameService, clock: Clock) -> None:
    config = EventConfig(Format.SWISS, rounds=1, timeout_rule="forfeit", timeout_limit=2)
    info = await new_event(service, config, PLAYERS[:2], HOURLY)
    info, pairings = await service.start_event(info.id, ORGANISER)
    (view,) = (await open_all(service, pairings)).values()
    assert view.deciding is not None and view.deciding.user_id is not None
    late = view.deciding.user_id

    async def decided() -> bool:
        return (await service.event_info(info.id)).event.match(pairings[0].match_id).decided

    seen = await timeouts_until(service, clock, decided)
    outs = [r.user_id for r in seen if r.reason == "auto_played"]
    assert outs == [late, next(u.id for u in PLAYERS[:2] if u.id != late), late]
    match = (await service.event_info(info.id)).event.match(pairings[0].match_id)
    assert match.games[-1].absent == {late}
    game = await service.store.game(view.game_id)
    assert game is not None and game.status == "cancelled"
    news = [n for n in await service.check_events() if n.kind == "timeout_forfeit"]
    assert [(n.news["player"], n.news["timeouts"]) for n in news] == [(late, 2)]


async def test_a_player_is_expelled_after_repeated_time_outs_in_the_event(
        service: GameService, clock: Clock) -> None:
    config = EventConfig(Format.SWISS, rounds=2, timeout_rule="expel", timeout_limit=2)
    info = await new_event(service, config, PLAYERS[:2], HOURLY)
    info, pairings = await service.start_event(info.id, ORGANISER)
    (view,) = (await open_all(service, pairings)).values()
    assert view.deciding is not None and view.deciding.user_id is not None
    late = view.deciding.user_id

    async def expelled() -> bool:
        return (await service.event_info(info.id)).event.entrant(late).withdrawn

    await timeouts_until(service, clock, expelled)
    after = await service.event_info(info.id)
    assert after.event.match(pairings[0].match_id).games[-1].absent == {late}
    news = [n for n in await service.check_events() if n.kind == "timeout_expelled"]
    assert [(n.news["player"], n.news["timeouts"]) for n in news] == [(late, 2)]


async def test_without_an_escalation_rule_time_outs_change_nothing_in_the_event(
        service: GameService, clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=1), PLAYERS[:2], HOURLY)
    info, pairings = await service.start_event(info.id, ORGANISER)
    await open_all(service, pairings)
    for _ in range(30):
        clock.now += 600
        await service.check_timers()
    after = await service.event_info(info.id)
    assert not after.event.match(pairings[0].match_id).decided
    assert clock.now - info.event.rounds[0].opened_at < DAY
