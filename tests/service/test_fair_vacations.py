"""Issue 26's vacation laundering through the service: each game decides what a vacation
means for it from its own rules, so one taken while sitting only in a slow game cannot
freeze a fast game joined later, and an event's games follow the event's clock."""

from __future__ import annotations

import pytest

from carca_bot.league import EventConfig, Format
from carca_bot.service import (
    Actor,
    BadInput,
    GameOptions,
    GameService,
    TurnView,
    Where,
)
from carca_bot.service.clocks import DAY, HOUR, PRESETS
from carca_bot.service.model import clock_rules
from carca_bot.service.timing import game_vacations
from tests.service.helpers import ANA, BEN, CY, HERE, THERE, Clock, started, who


def clocked(preset: str, seed: int = 4) -> GameOptions:
    return GameOptions(seed=seed, clock=clock_rules(preset))


async def ana_to_act(service: GameService, view: TurnView, where: Where) -> TurnView:
    """The game with Ana to act: her opponent makes the first move if it is theirs."""
    if who(view) != ANA:
        user = who(view)
        x, y, rot = (await service.legal_moves(where, user)).placements[0]
        view = await service.place(where, user, x, y, rot, confirm=True)
    assert who(view) == ANA
    return view


async def test_a_vacation_taken_before_joining_a_no_vacation_game_leaves_its_clock(
        service: GameService, clock: Clock) -> None:
    """The done-when check (the attack gave +248 h instead of 8 h): Ana sits only in a
    slow game, takes ten days off, then plays a fast game, which allows none."""
    await started(service, [ANA, BEN], clocked("slow"))
    resting = await service.take_vacation(ANA.id, 10)
    assert resting.end == clock.now + 10 * DAY
    clock.now += HOUR
    fast = await ana_to_act(service, await started(service, [ANA, CY], clocked("fast"),
                                                   where=THERE), THERE)
    assert fast.deadline == clock.now + 8 * HOUR
    assert not next(s for s in fast.seats if s.user_id == ANA.id).on_vacation


async def test_a_game_joined_during_a_vacation_counts_it_by_its_own_allowance(
        service: GameService, clock: Clock) -> None:
    """A normal game (7 days a month) joined during a 10-day vacation from a slow game
    pauses Ana's clock for the first 7 days of it only."""
    t0 = clock.now  # 14 November 2023: the whole vacation falls in November
    await started(service, [ANA, BEN], clocked("slow"))
    await service.take_vacation(ANA.id, 10)
    clock.now += HOUR
    normal = await ana_to_act(service, await started(service, [ANA, CY], clocked("normal"),
                                                     where=THERE), THERE)
    assert normal.deadline == t0 + 7 * DAY + DAY
    here = await service.status(HERE)
    if who(here) == ANA:
        assert here.deadline == t0 + 10 * DAY + 3 * DAY


async def test_each_game_says_how_long_a_vacation_pauses_it(
        service: GameService, clock: Clock) -> None:
    """In a slow and a fast game at once, a vacation is accepted (the slow game allows
    it) and pauses the slow game only; in a fast game alone it is refused."""
    slow = await started(service, [ANA, BEN], clocked("slow"))
    fast = await started(service, [ANA, CY], clocked("fast"), where=THERE)
    fast = await ana_to_act(service, fast, THERE)
    deadline = fast.deadline
    taken = await service.take_vacation(ANA.id, 10)
    assert dict(taken.paused) == {slow.game_id: clock.now + 10 * DAY,
                                  fast.game_id: clock.now}
    assert (await service.status(THERE)).deadline == deadline
    with pytest.raises(BadInput) as refused:
        await service.take_vacation(CY.id, 1)
    assert refused.value.code == "no_vacations"


async def test_an_event_game_follows_the_events_clock(service: GameService,
                                                      clock: Clock) -> None:
    """An event played on the fast clock (no vacations): a vacation Ana takes in her
    casual slow game does not reach her event game."""
    guild = HERE.guild
    admin = Actor("900", "Admin", admin=True)
    await service.set_organiser_role(guild, admin, "org")
    await started(service, [ANA, BEN], clocked("slow"))
    info = await service.create_event(Where(guild, "hall"), admin, "Cup",
                                      EventConfig(Format.SWISS, rounds=1), clocked("fast"))
    for user in (ANA, CY):
        info = await service.sign_up(info.id, user)
    info, (pairing,) = await service.start_event(info.id, admin)
    await service.take_vacation(ANA.id, 10)
    clock.now += HOUR
    cup = Where(guild, "cup-thread")
    game = await ana_to_act(service, await service.open_event_game(info.id, pairing, cup), cup)
    assert game.options.clock == PRESETS["fast"]
    assert game.deadline == clock.now + 8 * HOUR


def test_a_games_count_of_vacations_cut_per_vacation_and_per_month() -> None:
    normal = PRESETS["normal"]  # 7 days a month, UTC
    nov_14 = 1_699_920_000.0  # 2023-11-14 00:00 UTC
    assert game_vacations(PRESETS["fast"], [(nov_14, nov_14 + DAY)]) == []
    assert game_vacations(normal, [(nov_14, nov_14 + 10 * DAY)]) == [
        (nov_14, nov_14 + 7 * DAY)]
    # Four days, then five more in the same month: the second is cut to three.
    later = nov_14 + 8 * DAY
    assert game_vacations(normal, [(nov_14, nov_14 + 4 * DAY), (later, later + 5 * DAY)]) \
        == [(nov_14, nov_14 + 4 * DAY), (later, later + 3 * DAY)]
    # Across the month's end: each month has its own seven days. Three days were left in
    # November, and the vacation needs four of them there: it stops at the third.
    nov_27 = nov_14 + 13 * DAY
    assert game_vacations(normal, [(nov_14, nov_14 + 4 * DAY), (nov_27, nov_27 + 7 * DAY)]) \
        == [(nov_14, nov_14 + 4 * DAY), (nov_27, nov_27 + 3 * DAY)]
    nov_28 = nov_27 + DAY  # three days in November, four in December: all of it
    assert game_vacations(normal, [(nov_14, nov_14 + 4 * DAY), (nov_28, nov_28 + 7 * DAY)]) \
        == [(nov_14, nov_14 + 4 * DAY), (nov_28, nov_28 + 7 * DAY)]
