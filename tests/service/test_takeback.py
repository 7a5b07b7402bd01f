"""Taking back a confirmed move with the others' consent (issue 15), the time limit of a
vote to expel, and vacations read for a game rebuilt from the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from carca_bot.engine.record import replay
from carca_bot.service import (
    GameMovedOn,
    GameOptions,
    GameService,
    NotAllowed,
    NotInGame,
    NotNow,
    TurnView,
    User,
    Where,
)
from carca_bot.service.clocks import DAY, HOUR, ClockRules
from carca_bot.service.model import clock_rules
from tests.service.helpers import (
    AM,
    ANA,
    BEN,
    CY,
    DEE,
    HERE,
    HOLE,
    RING,
    Clock,
    play_ring,
    rig,
    said,
    started,
    who,
)

PLAYERS = (ANA, BEN, CY)


async def move(service: GameService, figure: bool = True, where: Where = HERE) -> TurnView:
    """The player to act places the drawn tile on its first legal square, with a figure
    on its first spot if asked, and confirms."""
    view = await service.status(where)
    user = who(view)
    x, y, rot = (await service.legal_moves(where, user)).placements[0]
    await service.place_tile(where, user, x, y, rot)
    deployments = (await service.legal_moves(where, user)).deployments
    if figure and deployments:
        await service.deploy(where, user, *deployments[0])
    return await service.confirm(where, user)


async def last_mover(service: GameService) -> User:
    """The player whose move is the last in the log."""
    name = (await service.export(HERE))["actions"][-1]["by"]
    return next(u for u in PLAYERS if u.name == name)


def others(user: User) -> list[User]:
    return [u for u in PLAYERS if u != user]


async def test_an_accepted_take_back_leaves_the_game_as_if_never_played(
        service: GameService) -> None:
    await started(service, PLAYERS, GameOptions(seed=11))
    await move(service)
    before = await service.status(HERE)
    record_before = await service.export(HERE)
    mover = who(before)
    after = await move(service)
    asked = await service.propose_takeback(HERE, mover)
    assert asked.state == "open" and asked.seq == before.moves
    assert [a["by"] for a in asked.undone] == [mover.name]  # what goes, exactly
    assert {n for n, _ in asked.voters} <= {u.id for u in others(mover)}
    assert sorted(n for _, n in asked.voters) == sorted(u.name for u in others(mover))
    used = next(s for s in after.seats if s.user_id == mover.id)
    had = next(s for s in before.seats if s.user_id == mover.id)
    figures = {(n, f): c for n, f, c in asked.figures}
    for figure, count in had.in_hand.items():
        change = count - used.in_hand.get(figure, 0)
        assert figures.get((mover.name, figure), 0) == change
    assert dict(asked.points) == {s.name: s.score - b.score for s, b in
                                  zip(after.seats, before.seats, strict=True)
                                  if s.score != b.score}
    first, second = others(mover)
    half = await service.answer_takeback(HERE, first, True, asked.seq)
    assert (half.state, half.accepted) == ("open", (first.name,))
    with pytest.raises(NotAllowed, match="already_answered"):  # a double click
        await service.answer_takeback(HERE, first, True, asked.seq)
    done = await service.answer_takeback(HERE, second, True, asked.seq)
    assert done.state == "accepted" and done.view is not None
    assert said(done.view) == [f"{mover.name} took back their last move, as every other "
                               "player agreed"]
    now = await service.status(HERE)
    assert (now.moves, who(now), now.steps) == (before.moves, mover, ())
    assert [(s.score, s.in_hand) for s in now.seats] == [
        (s.score, s.in_hand) for s in before.seats]
    record = await service.export(HERE)
    assert record == record_before
    status, result = replay(record)
    assert status == 0 and result["scores"] == {s.name: s.score for s in before.seats}
    # the same tile comes again, and the game goes on from there
    again = await move(service)
    assert again.moves == after.moves
    with pytest.raises(NotNow, match="takeback_decided"):
        await service.answer_takeback(HERE, first, True, asked.seq)
    # the move made instead is a new one: it may be asked about in its turn
    second_ask = await service.propose_takeback(HERE, mover)
    assert (second_ask.seq, second_ask.state, second_ask.accepted) == (asked.seq, "open", ())


async def test_the_record_after_a_take_back_equals_a_game_never_taken_back(
        db: Path, tmp_path: Path, clock: Clock) -> None:
    """Two games from one seed: one takes a move back and plays it again with no figure,
    the other plays it with no figure straight away. Same records, move for move."""
    records = []
    for path, take_back in ((db, True), (tmp_path / "other.sqlite3", False)):
        service = await GameService.open(path, clock=clock)
        try:
            await started(service, (ANA, BEN), GameOptions(seed=23))
            await move(service)
            if take_back:
                view = await move(service, figure=True)
                mover = next(u for u in (ANA, BEN) if u != who(view))
                asked = await service.propose_takeback(HERE, mover)
                await service.answer_takeback(HERE, who(view), True, asked.seq)
            await move(service, figure=False)
            await move(service)
            records.append(await service.export(HERE))
        finally:
            await service.close()
    assert records[0] == records[1]


async def test_one_refusal_closes_it_and_it_cannot_be_asked_again(
        service: GameService) -> None:
    await started(service, PLAYERS, GameOptions(seed=11))
    view = await move(service)
    mover = await last_mover(service)
    record = await service.export(HERE)
    asked = await service.propose_takeback(HERE, mover)
    with pytest.raises(NotNow, match="takeback_open"):
        await service.propose_takeback(HERE, mover)
    with pytest.raises(NotAllowed, match="own_takeback"):
        await service.answer_takeback(HERE, mover, True, asked.seq)
    first, second = others(mover)
    await service.answer_takeback(HERE, first, True, asked.seq)
    refused = await service.answer_takeback(HERE, second, False, asked.seq)
    assert (refused.state, refused.refused_by) == ("refused", second.name)
    assert await service.export(HERE) == record
    assert (await service.status(HERE)).moves == view.moves
    with pytest.raises(NotAllowed, match="takeback_refused"):
        await service.propose_takeback(HERE, mover)


async def test_the_next_move_closes_it_and_then_it_is_too_late(service: GameService) -> None:
    await started(service, PLAYERS, GameOptions(seed=11))
    await move(service)
    mover = await last_mover(service)
    asked = await service.propose_takeback(HERE, mover)
    after = await move(service)  # the next player did not wait
    closed = await service.answer_takeback(HERE, others(mover)[0], True, asked.seq)
    assert closed.state == "closed" and closed.undone == ()
    assert (await service.status(HERE)).moves == after.moves
    with pytest.raises(NotAllowed, match="not_your_move"):
        await service.propose_takeback(HERE, mover)


async def test_not_once_the_next_player_has_begun(service: GameService) -> None:
    await started(service, PLAYERS, GameOptions(seed=11))
    view = await move(service)
    nxt = who(view)
    mover = await last_mover(service)
    x, y, rot = (await service.legal_moves(HERE, nxt)).placements[0]
    await service.place_tile(HERE, nxt, x, y, rot)
    with pytest.raises(NotNow, match="takeback_too_late"):
        await service.propose_takeback(HERE, mover)
    # a step asked about earlier closes an open request too
    await service.undo(HERE, nxt)
    await service.propose_takeback(HERE, mover)
    await service.place_tile(HERE, nxt, x, y, rot)
    closed = await service.takeback_of(view.game_id)
    assert closed is not None and closed.state == "closed"


async def test_only_players_still_in_vote_and_the_proposer_may_withdraw(
        service: GameService) -> None:
    await started(service, PLAYERS, GameOptions(seed=11))
    await move(service)
    mover = await last_mover(service)
    with pytest.raises(NotNow, match="no_takeback"):
        await service.answer_takeback(HERE, others(mover)[0], True, 0)
    with pytest.raises(NotAllowed, match="not_your_move"):
        await service.propose_takeback(HERE, others(mover)[0])
    asked = await service.propose_takeback(HERE, mover)
    with pytest.raises(NotInGame, match="not_playing"):
        await service.answer_takeback(HERE, DEE, True, asked.seq)
    with pytest.raises(NotAllowed, match="not_your_takeback"):
        await service.withdraw_takeback(HERE, others(mover)[0], asked.seq)
    gone = await service.withdraw_takeback(HERE, mover, asked.seq)
    assert gone.state == "withdrawn"
    with pytest.raises(NotNow, match="takeback_decided"):
        await service.answer_takeback(HERE, others(mover)[0], True, asked.seq)
    again = await service.propose_takeback(HERE, mover)  # withdrawn: may be asked again
    assert again.state == "open" and again.accepted == ()


async def test_a_restart_in_the_middle_of_the_vote_loses_nothing(
        db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock)
    try:
        await started(service, PLAYERS, GameOptions(seed=11))
        before = await service.export(HERE)
        await move(service)
        mover = await last_mover(service)
        asked = await service.propose_takeback(HERE, mover)
        first, second = others(mover)
        await service.answer_takeback(HERE, first, True, asked.seq)
    finally:
        await service.close()
    service = await GameService.open(db, clock=clock)
    try:
        shown = await service.takeback_of((await service.status(HERE)).game_id)
        assert shown is not None and (shown.state, shown.accepted) == ("open", (first.name,))
        with pytest.raises(NotAllowed, match="already_answered"):
            await service.answer_takeback(HERE, first, True, asked.seq)
        done = await service.answer_takeback(HERE, second, True, asked.seq)
        assert done.state == "accepted"
        assert await service.export(HERE) == before
    finally:
        await service.close()
    service = await GameService.open(db, clock=clock)
    try:  # applied once: the log stays cut, the request stays decided
        assert await service.export(HERE) == before
        with pytest.raises(NotNow, match="nothing_to_take_back"):
            await service.propose_takeback(HERE, mover)
    finally:
        await service.close()


async def test_a_solo_game_takes_back_at_once_and_the_game_over_cannot(
        service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions(seed=3, allow_solo=True))
    await service.start(HERE, ANA)
    record = await service.export(HERE)
    await move(service)
    done = await service.propose_takeback(HERE, ANA)
    assert done.state == "accepted" and await service.export(HERE) == record


async def test_a_clock_game_gives_the_mover_their_turn_back(
        service: GameService, clock: Clock) -> None:
    rules = ClockRules(bank=4 * HOUR, increment=HOUR, cap=8 * HOUR)
    view = await started(service, (ANA, BEN), GameOptions(seed=4, clock=clock_rules(rules)))
    mover = who(view)
    clock.now += HOUR
    await move(service)
    asked = await service.propose_takeback(HERE, mover)
    clock.now += 2 * HOUR  # the vote takes time; it is not charged to anybody
    opponent = next(u for u in (ANA, BEN) if u != mover)
    done = await service.answer_takeback(HERE, opponent, True, asked.seq)
    assert done.view is not None and who(done.view) == mover
    seat = next(s for s in done.view.seats if s.user_id == mover.id)
    assert seat.bank == 3 * HOUR  # what they had when they confirmed
    assert done.view.deadline == clock.now + 3 * HOUR


# -- the vote to expel closes after a day --------------------------------------------------


VOTE = ClockRules(bank=HOUR, increment=HOUR, cap=2 * HOUR, on_timeout="vote")


async def test_a_vote_to_expel_closes_after_a_day_and_the_turn_is_played(
        service: GameService, clock: Clock) -> None:
    view = await started(service, PLAYERS, GameOptions(seed=4, clock=clock_rules(VOTE)))
    late = who(view)
    clock.now += HOUR
    (opened,) = await service.check_timers()
    assert opened.reason == "expel_vote"
    await service.vote_expel(HERE, others(late)[0], late.id)
    clock.now += DAY - 1
    assert await service.check_timers() == []
    clock.now += 1
    (closed,) = await service.check_timers()
    assert (closed.reason, closed.user_id, closed.auto_played) == ("auto_played", late.id, True)
    assert closed.view.expel_vote is None and who(closed.view) != late
    assert said(closed.view)[:2] == [
        f"the vote to expel {late.name} closed without enough votes: their turn is played "
        "for them and the game goes on",
        f"{late.name} ran out of time: their move was played for them"]
    assert not next(s for s in closed.view.seats if s.user_id == late.id).resigned
    assert await service.check_timers() == []  # nothing fires twice
    with pytest.raises(NotNow, match="no_expel_vote"):
        await service.vote_expel(HERE, others(late)[1], late.id)


async def test_a_slow_games_vote_lasts_one_increment(service: GameService,
                                                      clock: Clock) -> None:
    slow = ClockRules(bank=HOUR, increment=3 * DAY, cap=6 * DAY, on_timeout="vote")
    view = await started(service, PLAYERS, GameOptions(seed=4, clock=clock_rules(slow)))
    clock.now += HOUR
    await service.check_timers()
    clock.now += 3 * DAY - 1
    assert await service.check_timers() == []
    clock.now += 1
    assert [r.reason for r in await service.check_timers()] == ["auto_played"]
    assert view.game_id


# -- vacations in a game rebuilt from the store ---------------------------------------------


async def test_a_rebuilt_game_shows_vacations_as_the_running_one_does(
        db: Path, clock: Clock) -> None:
    """Regression: a game loaded from disk had no vacations until a command read them,
    so the view of a refused (stale) command showed nobody on vacation."""
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service, (ANA, BEN),
                             GameOptions(seed=4, clock=clock_rules("normal")))
        resting = next(u for u in (ANA, BEN) if u != who(view))
        await service.take_vacation(resting.id, 2)
        stale = view.version
        await move(service)  # now the one on vacation is to act
    finally:
        await service.close()
    service = await GameService.open(db, clock=clock)
    try:
        with pytest.raises(GameMovedOn) as moved:
            await service.draw(HERE, who(view), expect=stale)
        seats = {s.user_id: s.on_vacation for s in moved.value.view.seats}
        assert seats == {resting.id: True, who(view).id: False}
        summary = await service.status(HERE)
        assert {s.user_id: s.on_vacation for s in summary.seats} == seats
    finally:
        await service.close()


async def _at_the_abbey_choice(service: GameService,
                               monkeypatch: pytest.MonkeyPatch) -> tuple[User, User]:
    """A 2-player game where the player to act may place their abbey in a hole or draw."""
    rig(monkeypatch, [*(t for t, _, _ in RING), "U", "U"])
    view = await play_ring(service, await started(service, options=GameOptions(
        expansions=AM, seed=1)))
    assert view.must == "choose"
    player = who(view)
    return player, next(u for u in (ANA, BEN) if u != player)


async def test_a_player_who_drew_rather_than_place_the_abbey_places_the_same_tile_again(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """They saw the tile: taking the move back gives them the tile again, not the choice
    (the draw cannot be taken back, as in an unconfirmed turn)."""
    player, opponent = await _at_the_abbey_choice(service, monkeypatch)
    record = await service.export(HERE)
    await service.draw(HERE, player)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place(HERE, player, x, y, rot, confirm=True)
    asked = await service.propose_takeback(HERE, player)
    done = await service.answer_takeback(HERE, opponent, True, asked.seq)
    assert done.view is not None
    assert (who(done.view), done.view.must, done.view.tile) == (player, "place", "U")
    with pytest.raises(NotNow, match="drew_place_it"):
        await service.place_abbey(HERE, player, *HOLE)
    assert await service.export(HERE) == record


async def test_a_player_who_placed_the_abbey_gets_the_choice_again(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    player, opponent = await _at_the_abbey_choice(service, monkeypatch)
    record = await service.export(HERE)
    await service.place_abbey(HERE, player, *HOLE)
    await service.confirm(HERE, player)
    asked = await service.propose_takeback(HERE, player)
    assert asked.figures == ((player.name, "abbey", 1),)  # the abbey goes back to them
    done = await service.answer_takeback(HERE, opponent, True, asked.seq)
    assert done.view is not None and (who(done.view), done.view.must) == (player, "choose")
    assert await service.export(HERE) == record
