"""A player out of time has their move played by the AI (easy level, short budget), and
by `auto_move`'s plainest move when the AI fails or there is none."""

from __future__ import annotations

from pathlib import Path

from carca_bot.engine.moves import Deploy, PlaceTile
from carca_bot.service import GameOptions, GameService
from carca_bot.service.clocks import HOUR, ClockRules
from carca_bot.service.model import clock_rules
from tests.service.ai_helpers import Recording
from tests.service.helpers import ANA, BEN, CY, HERE, Clock, said, started, who

TEN_HOURS = ClockRules(bank=10 * HOUR, increment=HOUR, cap=20 * HOUR)


def tile_of(action: dict[str, object]) -> PlaceTile:
    at = action["at"]
    assert isinstance(at, list) and isinstance(action["rot"], int)
    return PlaceTile(str(action["tile"]), (at[0], at[1]), action["rot"] // 90)


async def test_a_timer_game_plays_the_late_move_with_the_easy_ai(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        view = await started(service, options=GameOptions(turn_timer=60, auto_play=True,
                                                          seed=4))
        late = who(view)
        (report,) = await service.check_timers(clock.now + 61)
        assert report.reason == "auto_played" and report.auto_played
        assert [(a.level, a.seconds) for a in thinker.asked] == [("easy", 0.5)]
        (action,) = report.actions
        plan = thinker.answers[0]
        assert action["by"] == late.name and tile_of(action) == plan[0]
        deploy = next((m for m in plan if isinstance(m, Deploy)), None)
        assert action.get("deploy") == (None if deploy is None else {
            "figure": deploy.figure, "on": deploy.on})
        assert f"{late.name} ran out of time: their move was played for them" in said(
            report.view)
    finally:
        await service.close()


async def test_a_clock_game_plays_the_late_move_with_the_ai(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        t0 = clock.now
        view = await started(service, options=GameOptions(seed=4,
                                                          clock=clock_rules(TEN_HOURS)))
        late = who(view)
        clock.now = t0 + 10 * HOUR
        reports = [r for r in await service.check_timers() if r.reason == "auto_played"]
        assert [r.user_id for r in reports] == [late.id]
        assert [a.level for a in thinker.asked] == ["easy"]
        assert tile_of(reports[0].actions[0]) == thinker.answers[0][0]
    finally:
        await service.close()


async def test_when_the_ai_fails_the_plainest_move_is_played(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock, thinker=Recording(fail=True))
    try:
        view = await started(service, options=GameOptions(turn_timer=60, auto_play=True,
                                                          seed=4))
        late = who(view)
        (report,) = await service.check_timers(clock.now + 61)
        (action,) = report.actions
        assert action["by"] == late.name and "deploy" not in action  # auto_move's move
        assert report.view.deciding is not None and report.view.deciding.user_id != late.id
    finally:
        await service.close()


async def test_a_resigned_players_turns_stay_plain_without_asking_the_ai(
        db: Path, clock: Clock) -> None:
    """Today's rule, kept: a resigned player's turns are played, plainly (no figure):
    figures for a player who scores nothing more would only spoil the others' game."""
    thinker = Recording()
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        view = await started(service, (ANA, BEN, CY),
                             GameOptions(seed=4))
        quitter = who(view)
        view = await service.resign(HERE, quitter)
        assert thinker.asked == []
        action = (await service.export(HERE))["actions"][0]
        assert action["by"] == quitter.name and "deploy" not in action
    finally:
        await service.close()


async def test_an_ai_seat_has_no_clock(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        await service.create(HERE, ANA, GameOptions(seed=4, clock=clock_rules(TEN_HOURS)))
        await service.add_ai(HERE, ANA, "easy", "AI (easy)")
        await service.start(HERE, ANA)
        await service.wait_for_ai()
        view = await service.status(HERE, ANA.id)
        ai = next(s for s in view.seats if s.ai is not None)
        assert ai.bank is None and view.deadline is not None  # Ana's turn: her clock runs
        row = await service.store.game(view.game_id)
        assert row is not None and row.alarm is not None
    finally:
        await service.close()
