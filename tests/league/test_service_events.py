"""Issue 28 through the service: pairing off the event loop, results amended after the end,
the pairings' reasons, tie-breaks in the CSV, event clocks, forfeits at the deadline,
the organiser role in digests, leagues of divisions, and knockout brackets."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest

from carca_bot.league import Event, EventConfig, Format, Pool, event_to_json
from carca_bot.league.event import paired
from carca_bot.service import GameOptions, GameService, NotAllowed, event_config
from carca_bot.service import events as event_ops
from carca_bot.service.model import clock_rules
from tests.service.helpers import Clock
from tests.service.test_league_events import (
    DAY,
    GUILD,
    HALL,
    ORGANISER,
    PLAYERS,
    higher_seat_wins,
    new_event,
    open_all,
    organised,
    thread,
    win,
)


@pytest.fixture(autouse=True)
def rated_from_the_first_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """These games end by resignations at once, which the fair-play rule makes aborts; as
    in tests/service/test_league_events.py, a game here counts from its first move."""
    monkeypatch.setattr("carca_bot.service.ratings_ops.MIN_OWN_MOVES", 0)


async def play_to_the_end(service: GameService, clock: Clock, info_id: int) -> None:
    """Open and win every game (the lower-numbered player wins) until the event is over."""
    info = await service.event_info(info_id)
    while True:
        pairings = await service.pairings_to_open(info_id)
        await open_all(service, pairings)
        for p in pairings:
            await win(service, p, higher_seat_wins(p), clock)
        info = await service.event_info(info_id)
        if info.event.finished:
            return
        info, _ = await service.pair_next_round(info_id, ORGANISER)


async def test_a_large_swiss_is_paired_while_the_event_loop_keeps_answering(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """512 players: the pairing runs in a worker process, and a heartbeat task on the
    loop keeps ticking while it does (on the loop it could not tick at all)."""
    event = Event(EventConfig(Format.SWISS, rounds=5))
    for i in range(512):
        event = event.sign_up(f"p{i:03}", f"Player {i}", seed=float(512 - i))
    await organised(service)
    event_id = await service.store.insert_event(
        GUILD, "hall", "Big Swiss", event_to_json(event), GameOptions().to_json(), "organiser",
        0.0)
    ticks = 0
    during: list[int] = []
    original = event_ops._PROCESSES.pair

    async def watched(e: Event, now: float) -> Event:
        start = ticks
        out = await original(e, now)
        during.append(ticks - start)
        return out

    monkeypatch.setattr(event_ops._PROCESSES, "pair", watched)
    done = asyncio.Event()

    async def heartbeat() -> None:
        nonlocal ticks
        while not done.is_set():
            await asyncio.sleep(0.001)
            ticks += 1

    beat = asyncio.create_task(heartbeat())
    try:
        info, pairings = await service.start_event(event_id, ORGANISER)
    finally:
        done.set()
        await beat
    assert len(during) == 1 and during[0] >= 10  # the loop answered all along
    assert len(pairings) == 256
    # The same pairing as the library's, made here on the loop.
    here = paired(event, info.event.rounds[0].opened_at)
    assert [m.seats for m in here.rounds[0].matches] == [
        m.seats for m in info.event.rounds[0].matches]


async def test_an_appeal_after_the_end_keeps_the_event_finished_and_says_so(
        service: GameService, clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=2), PLAYERS[:4])
    info, _ = await service.start_event(info.id, ORGANISER)
    await play_to_the_end(service, clock, info.id)
    notices = await service.check_events()
    assert [n.kind for n in notices] == ["finished"]
    info = await service.event_info(info.id)
    assert info.status == "finished"
    match = info.event.rounds[-1].matches[0]
    winner, loser = (sorted(match.seats))
    rated = {u: (await service.rating_of(GUILD, u, Pool.DUEL)) for u in match.seats}

    # The organiser reverses the last round's first result: the loser won after all.
    seats = match.seats
    scores = [(p, 90 if p == loser else 10) for p in seats]
    after = await service.override_result(info.id, ORGANISER, match.id, [scores], "miscount")
    assert after.status == "finished" and after.event.finished
    assert (await service.event_info(info.id)).status == "finished"
    assert info.id not in [i.id for i in await service.events(GUILD)]  # not listed as live
    now_rated = {u: (await service.rating_of(GUILD, u, Pool.DUEL)) for u in seats}
    assert now_rated[loser].mu > rated[loser].mu and now_rated[winner].mu < rated[winner].mu
    (news,) = await service.check_events()
    assert news.kind == "amended" and news.event.id == info.id
    assert (news.news["match"], news.news["note"], news.news["by"], news.news["rated"]) == (
        match.id, "miscount", ORGANISER.id, True)
    assert news.standings == after.event.standings()
    moved = {p for p, _, _ in news.news["moves"]}
    assert loser in moved or not news.news["moves"]
    assert await service.check_events() == []  # told once

    # The appeal puts it back: ratings as they were, still finished, announced again.
    back = await service.appeal(info.id, ORGANISER, match.id)
    assert back.status == "finished"
    again = {u: (await service.rating_of(GUILD, u, Pool.DUEL)) for u in seats}
    assert again == rated
    assert [n.kind for n in await service.check_events()] == ["amended"]


async def test_a_ruling_after_the_end_cannot_reopen_the_event(
        service: GameService, clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=1), PLAYERS[:2])
    info, (p,) = await service.start_event(info.id, ORGANISER)
    await service.forfeit_match(info.id, ORGANISER, p.match_id, [PLAYERS[1].id])
    assert [n.kind for n in await service.check_events()] == ["finished"]
    with pytest.raises(NotAllowed) as refused:  # the forfeit was its only result
        await service.appeal(info.id, ORGANISER, p.match_id)
    assert refused.value.code == "event_would_reopen"
    assert (await service.event_info(info.id)).event.match(p.match_id).rulings


async def test_the_pairings_say_why_each_pair_was_made(service: GameService,
                                                       clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=3), PLAYERS[:5])
    info, pairings = await service.start_event(info.id, ORGANISER)
    view = await service.event_pairings(info.id)
    assert (view.round, view.format, view.crossings, view.rematches, view.seat_limit) == (
        1, "swiss", 0, 0, 2)
    codes = [(m.match_id, m.why.code if m.why else None, m.why.seat if m.why else None)
             for m in view.matches]
    assert codes == [("r1-1", "same_group", "alternating_boards"),
                     ("r1-2", "same_group", "alternating_boards"),
                     ("r1-bye", "bye", "")]
    assert [u.name for u in view.matches[0].players] == ["Ana", "Cy"]
    await open_all(service, pairings)
    for p in pairings:
        await win(service, p, higher_seat_wins(p), clock)
    await service.pair_next_round(info.id, ORGANISER)
    view = await service.event_pairings(info.id)
    assert view.round == 2 and all(m.why is not None for m in view.matches)
    assert {m.why.seat for m in view.matches if m.why and m.why.code != "bye"} <= {
        "fewer_first_seats", "second_last_time", "alternating_boards"}
    assert (await service.event_pairings(info.id, 1)).round == 1


async def test_tie_breaks_chosen_by_the_organiser_are_the_csv_columns(
        service: GameService, clock: Clock) -> None:
    config = event_config("swiss", rounds=2, tiebreaks=["wins", "sonneborn_berger",
                                                        "buchholz_cut1", "scored"])
    info = await new_event(service, config, PLAYERS[:4])
    info, _ = await service.start_event(info.id, ORGANISER)
    await play_to_the_end(service, clock, info.id)
    table = list(csv.reader(io.StringIO(await service.standings_csv(info.id))))
    assert table[0] == ["place", "name", "player", "group", "played", "wins", "byes",
                        "sonneborn_berger", "buchholz_cut1", "scored", "withdrawn"]
    rows = (await service.event_info(info.id)).event.standings()
    assert [float(t[7]) for t in table[1:]] == [r.sonneborn_berger for r in rows]
    robin = event_config("round_robin")
    assert "buchholz" not in [t.value for t in robin.chain]


async def test_event_games_get_every_clock_option(service: GameService, clock: Clock) -> None:
    rules = clock_rules({"bank": 2 * 3600, "increment": 3600, "cap": 4 * 3600,
                         "quiet": [1380, 420], "timezone": "Europe/Madrid",
                         "on_timeout": "skip"})
    info = await new_event(service, EventConfig(Format.SWISS, rounds=1), PLAYERS[:2],
                           GameOptions(clock=rules))
    info, (p,) = await service.start_event(info.id, ORGANISER)
    view = await service.open_event_game(info.id, p, thread(p))
    assert view.options.clock == rules


async def test_a_match_open_at_the_deadline_is_lost_by_whoever_it_waits_for(
        service: GameService, clock: Clock) -> None:
    config = EventConfig(Format.SWISS, rounds=2, round_seconds=DAY, forfeit_at_deadline=True)
    info = await new_event(service, config, PLAYERS[:4])
    info, pairings = await service.start_event(info.id, ORGANISER)
    views = await open_all(service, pairings)
    done, stuck = pairings
    await win(service, done, higher_seat_wins(done), clock)
    waiting = views[stuck.match_id].deciding
    assert waiting is not None and waiting.user_id is not None
    clock.now += DAY + 60
    notices = await service.check_events()
    assert [n.kind for n in notices] == ["round_over", "deadline_forfeit"]
    assert notices[1].news["absent"] == [waiting.user_id]
    match = (await service.event_info(info.id)).event.match(stuck.match_id)
    assert match.decided and match.games[0].absent == {waiting.user_id}
    game = await service.store.game(views[stuck.match_id].game_id)
    assert game is not None and game.status == "cancelled"


async def test_late_games_digest_pings_the_organiser_role(service: GameService,
                                                         clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=1, round_seconds=DAY),
                           PLAYERS[:2])
    info, pairings = await service.start_event(info.id, ORGANISER)
    await open_all(service, pairings)
    clock.now += 2 * DAY
    (digest,) = [n for n in await service.check_events() if n.kind == "late_digest"]
    assert digest.ping_roles == ("role-org",) and digest.ping_users == (ORGANISER.id,)


async def test_a_league_is_made_from_sign_ups_and_run_division_by_division(
        service: GameService, clock: Clock) -> None:
    signup = await new_event(service, EventConfig(Format.ROUND_ROBIN), PLAYERS)
    divisions = await service.create_season_from_event(HALL, ORGANISER, "Winter league",
                                                       signup.id, 2)
    assert [(d.division, d.season, len(d.event.entrants)) for d in divisions] == [
        (1, 1, 4), (2, 1, 4)]
    assert (await service.event_info(signup.id)).status == "cancelled"
    assert await service.leagues(GUILD) == ["Winter league"]
    started = await service.start_season(GUILD, ORGANISER, "Winter league")
    assert [len(p) for _, p in started.paired] == [2, 2] and started.refused == ()
    for _, pairings in started.paired:
        await open_all(service, list(pairings))
    again = await service.pair_season(GUILD, ORGANISER, "Winter league")
    assert again.paired == () and again.refused == ((1, "league_round_open"),
                                                    (2, "league_round_open"))
    season = await service.season_overview(GUILD, "Winter league")
    assert season.number == 1 and [d.number for d in season.divisions] == [1, 2]
    assert not season.finished
    with pytest.raises(NotAllowed):
        await service.create_season_from_event(HALL, ORGANISER, "Winter league", signup.id, 2)


async def test_league_names_ignore_letter_case_and_a_division_is_no_sign_up_list(
        service: GameService, clock: Clock) -> None:
    signup = await new_event(service, EventConfig(Format.ROUND_ROBIN), PLAYERS)
    (top, _) = await service.create_season_from_event(HALL, ORGANISER, "Winter league",
                                                      signup.id, 2)
    season = await service.season_overview(GUILD, "  winter   LEAGUE ")
    assert season.series == "Winter league" and season.number == 1
    assert [len(p) for _, p in (await service.start_season(GUILD, ORGANISER, "WINTER league")
                                ).paired] == [2, 2]
    other = await new_event(service, EventConfig(Format.ROUND_ROBIN), PLAYERS)
    with pytest.raises(NotAllowed) as named:
        await service.create_season_from_event(HALL, ORGANISER, "winter league", other.id, 2)
    assert named.value.code == "league_exists"
    with pytest.raises(NotAllowed) as division:
        await service.create_season_from_event(HALL, ORGANISER, "Spring", top.id, 1)
    assert (division.value.code, division.value.params) == (
        "league_from_division", {"event": top.id, "league": "Winter league"})
    assert await service.leagues(GUILD) == ["Winter league"]


async def test_knockouts_with_a_third_place_and_double_elimination(
        service: GameService, clock: Clock) -> None:
    third = event_config("knockout", third_place=True)
    info = await new_event(service, third, PLAYERS[:4])
    info, _ = await service.start_event(info.id, ORGANISER)
    await play_to_the_end(service, clock, info.id)
    info = await service.event_info(info.id)
    assert [m.id for m in info.event.rounds[-1].matches] == ["r2-1", "r2-3rd"]
    assert [r.place for r in info.event.standings()] == [1, 2, 3, 4]
    double = await new_event(service, event_config("double_elimination"), PLAYERS[4:8])
    double, _ = await service.start_event(double.id, ORGANISER)
    await play_to_the_end(service, clock, double.id)
    double = await service.event_info(double.id)
    assert double.event.finished and len(double.event.rounds) == 4
    assert double.event.standings()[0].player == PLAYERS[4].id
