"""Events run end to end through the service with a controllable clock: sign-ups,
pairings, games opened in threads, results taken from the games, rulings, deadlines,
standings; a Swiss, a round robin, a knockout of best-of-3 series, a league season of
two divisions, and a league of 4-player tables with 5-3-2-1 points.

Games are ended by resignations where what matters is who won (a played game is not the
point there), and played out with random legal moves where the scores matter.
"""

from __future__ import annotations

import csv
import io
import random

import pytest

from carca_bot.league import EventConfig, Format, Pool
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import (
    Actor,
    BadInput,
    EventInfo,
    GameOptions,
    GameService,
    NotAllowed,
    NotNow,
    Pairing,
    TurnView,
    User,
    Where,
    event_config,
)
from carca_bot.store import Conflict
from tests.service.helpers import Clock

GUILD = "guild-1"
HALL = Where(GUILD, "hall")
ADMIN = Actor("900", "Admin", admin=True)
ORGANISER = Actor("901", "Olga", roles=frozenset({"role-org"}))
NOBODY = Actor("902", "Nico", roles=frozenset({"role-other"}))
PLAYERS = [User(f"10{i}", name) for i, name in
           enumerate(["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"], 1)]
DAY = 24 * 3600.0


@pytest.fixture(autouse=True)
def rated_without_real_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games here end by resignations at once (who won is what matters), which the
    fair-play rule makes aborts (unrated); the rule itself is tested in
    test_fair_ratings.py, so here a game counts from its first move."""
    monkeypatch.setattr("carca_bot.service.ratings_ops.MIN_OWN_MOVES", 0)


def thread(p: Pairing) -> Where:
    return Where(GUILD, f"t-{p.event_id}-{p.match_id}-{p.game_index}")


async def organised(service: GameService) -> None:
    await service.set_organiser_role(GUILD, ADMIN, "role-org")


async def new_event(service: GameService, config: EventConfig, players: list[User],
                    options: GameOptions | None = None) -> EventInfo:
    await organised(service)
    info = await service.create_event(HALL, ORGANISER, "Autumn cup", config,
                                      options or GameOptions())
    for user in players:
        info = await service.sign_up(info.id, user)
    return info


async def open_all(service: GameService, pairings: list[Pairing]) -> dict[str, TurnView]:
    views = {}
    for p in pairings:
        view = await service.open_event_game(p.event_id, p, thread(p))
        assert view.status == "active"
        assert [s.user_id for s in view.seats] == [u.id for u in p.players]
        views[p.match_id] = view
    return views


async def win(service: GameService, p: Pairing, winner: str, clock: Clock) -> None:
    """End the pairing's game: everyone but `winner` resigns."""
    for user in p.players:
        if user.id != winner:
            clock.now += 60
            view = await service.resign(thread(p), user)
    assert view.status == "finished"


async def play_out(service: GameService, p: Pairing, seed: int, clock: Clock) -> TurnView:
    where = thread(p)
    view = await service.status(where)
    rng = random.Random(seed)
    while not view.finished:
        clock.now += 11
        assert view.deciding is not None and view.deciding.user_id is not None
        user = User(view.deciding.user_id, view.deciding.name)
        view, _ = await play_random_move(service, where, user, rng)
    return view


def higher_seat_wins(p: Pairing) -> str:
    """A fixed rule for who wins a duel: the lower-numbered player."""
    return min(u.id for u in p.players)


def wins_of(info: EventInfo) -> dict[str, float]:
    return {r.player: r.wins for r in info.event.standings()}


async def test_only_organisers_run_events_and_players_act_for_themselves(
        service: GameService) -> None:
    config = EventConfig(Format.SWISS, rounds=3)
    with pytest.raises(NotAllowed) as refused:
        await service.create_event(HALL, ORGANISER, "Cup", config)
    assert refused.value.code == "not_organiser"  # no role chosen yet: admins only
    with pytest.raises(NotAllowed):
        await service.set_organiser_role(GUILD, ORGANISER, "role-org")
    info = await new_event(service, config, PLAYERS[:4])
    for refused_call in (service.start_event(info.id, NOBODY),
                         service.withdraw(info.id, NOBODY, PLAYERS[0].id)):
        with pytest.raises(NotAllowed):
            await refused_call
    with pytest.raises(BadInput) as twice:
        await service.sign_up(info.id, PLAYERS[0])
    assert twice.value.code == "league_already_entered"
    # A player withdraws themselves before the start: they are simply out.
    info = await service.withdraw(info.id, Actor(PLAYERS[3].id, "Dee"))
    assert [e.player for e in info.event.entrants] == [u.id for u in PLAYERS[:3]]
    assert (await service.event_info(info.id)).status == "signup"


async def test_swiss_of_8_players_over_3_rounds(service: GameService, clock: Clock) -> None:
    """Sign-up to final standings, with a withdrawal, a no-show's forfeit and an
    overridden result (which re-rates the game it replaced)."""
    info = await new_event(service, EventConfig(Format.SWISS, rounds=3), PLAYERS)
    info, pairings = await service.start_event(info.id, ORGANISER)
    assert info.status == "running" and len(pairings) == 4
    await open_all(service, pairings)
    for p in pairings:
        await win(service, p, higher_seat_wins(p), clock)
    info = await service.event_info(info.id)
    assert info.event.current is not None and info.event.current.complete
    assert sorted(wins_of(info).values()) == [0, 0, 0, 0, 1, 1, 1, 1]
    notices = await service.check_events(clock.now)
    assert [(n.kind, n.round) for n in notices] == [("round_over", 1)]
    assert await service.check_events(clock.now) == []  # said once
    # Duel ratings moved for everyone who played.
    assert len(await service.store.ratings(GUILD, Pool.DUEL.value)) == 8

    # Hal withdraws between rounds: round 2 pairs 7 players, one of them with a bye.
    hal = PLAYERS[7]
    info = await service.withdraw(info.id, Actor(hal.id, hal.name))
    info, pairings = await service.pair_next_round(info.id, ORGANISER)
    assert len(pairings) == 3 and all(hal.id not in {u.id for u in p.players} for p in pairings)
    current = info.event.current
    assert current is not None and sum(m.bye for m in current.matches) == 1
    await open_all(service, pairings)
    # A no-show: the organiser awards the match; its game is cancelled, nothing rated.
    no_show = pairings[0]
    absent = max(u.id for u in no_show.players)
    info = await service.forfeit_match(info.id, ORGANISER, no_show.match_id, [absent])
    assert (await service.status(thread(no_show))).status == "cancelled"
    assert info.event.match(no_show.match_id).winner == min(u.id for u in no_show.players)
    for p in pairings[1:]:
        await win(service, p, higher_seat_wins(p), clock)

    info, pairings = await service.pair_next_round(info.id, ORGANISER)
    await open_all(service, pairings)
    for p in pairings:
        await win(service, p, higher_seat_wins(p), clock)
    # The organiser overrides the result of a game already played and rated.
    amended = pairings[0]
    loser = max(u.id for u in amended.players)
    game_id = (await service.status(thread(amended))).game_id
    before = {r.user_id: r.rank for r in await service.store.results_of_game(game_id)}
    assert before[loser] == 2
    info = await service.override_result(
        info.id, ORGANISER, amended.match_id,
        [[(u.id, 90 if u.id == loser else 60) for u in amended.players]], note="scoring error")
    after = {r.user_id: r.rank for r in await service.store.results_of_game(game_id)}
    assert after[loser] == 1
    assert info.event.match(amended.match_id).winner == loser

    notices = await service.check_events(clock.now)
    assert [n.kind for n in notices] == ["finished"]
    info = await service.event_info(info.id)
    assert info.status == "finished" and info.event.finished
    # Nobody met the same opponent twice.
    met = [frozenset(m.seats) for m in info.event.matches if len(m.seats) == 2]
    assert len(met) == len(set(met))
    rows = info.event.standings()
    assert len(rows) == 8 and rows[0].place == 1
    assert [r.wins for r in rows] == sorted((r.wins for r in rows), reverse=True)
    assert next(r for r in rows if r.player == hal.id).withdrawn
    table = list(csv.reader(io.StringIO(await service.standings_csv(info.id))))
    assert table[0][:3] == ["place", "name", "player"] and len(table) == 9
    with pytest.raises(BadInput):  # the last round was played
        await service.pair_next_round(info.id, ORGANISER)


async def test_round_robin_of_5_with_deadlines(service: GameService, clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.ROUND_ROBIN, round_seconds=3 * DAY),
                           PLAYERS[:5])
    info, pairings = await service.start_event(info.id, ORGANISER)
    for number in range(1, 6):
        assert len(pairings) == 2
        await open_all(service, pairings)
        # Two days and a bit later: the players of the open games are reminded, once.
        clock.now += 2.5 * DAY
        notices = await service.check_events(clock.now)
        assert [n.kind for n in notices] == ["reminder"]
        assert {g.match_id for g in notices[0].games} == {p.match_id for p in pairings}
        await win(service, pairings[0], higher_seat_wins(pairings[0]), clock)
        # Past the deadline: the organisers' digest names the late game, once a day.
        clock.now += DAY
        notices = await service.check_events(clock.now)
        assert [n.kind for n in notices] == ["late_digest"]
        assert [g.match_id for g in notices[0].games] == [pairings[1].match_id]
        assert notices[0].games[0].overdue > 0
        assert await service.check_events(clock.now + 3600) == []
        await win(service, pairings[1], higher_seat_wins(pairings[1]), clock)
        kinds = [n.kind for n in await service.check_events(clock.now)]
        assert kinds == (["finished"] if number == 5 else ["round_over"])
        if number < 5:
            info, pairings = await service.pair_next_round(info.id, ORGANISER)
    info = await service.event_info(info.id)
    assert info.status == "finished"
    rows = info.event.standings()
    assert all(r.played == 4 for r in rows)
    # The lowest-numbered player won all four; everyone met everyone once.
    assert rows[0].player == PLAYERS[0].id and rows[0].wins == 4
    assert [r.wins for r in rows] == [4, 3, 2, 1, 0]


async def test_knockout_of_best_of_3_series(service: GameService, clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.KNOCKOUT, best_of=3), PLAYERS[:4])
    info, pairings = await service.start_event(info.id, ORGANISER)
    assert len(pairings) == 2 and all(p.game_index == 0 for p in pairings)
    champion = PLAYERS[0].id
    for _ in range(2):  # semi-finals, then the final
        await open_all(service, pairings)
        # Game 1: the higher seat wins; game 2: the other player; game 3: the higher seat.
        for p in pairings:
            await win(service, p, higher_seat_wins(p), clock)
        nxt = await service.pairings_to_open(info.id)
        assert [(p.match_id, p.game_index) for p in nxt] == [(p.match_id, 1) for p in pairings]
        # The first player moves one seat for the series' next game.
        for old, new in zip(pairings, nxt, strict=True):
            first, *rest = [u.id for u in old.players]
            assert [u.id for u in new.players] == [*rest, first]
        notices = await service.check_events(clock.now)
        assert [n.kind for n in notices] == ["open_games"]
        await open_all(service, list(notices[0].pairings))
        for p in notices[0].pairings:
            await win(service, p, max(u.id for u in p.players), clock)
        third = await service.pairings_to_open(info.id)
        assert [p.game_index for p in third] == [2] * len(pairings)
        await open_all(service, third)
        for p in third:
            await win(service, p, higher_seat_wins(p), clock)
        info = await service.event_info(info.id)
        if info.event.finished:
            break
        assert [n.kind for n in await service.check_events(clock.now)] == ["round_over"]
        info, pairings = await service.pair_next_round(info.id, ORGANISER)
        assert len(pairings) == 1
    rows = info.event.standings()
    assert rows[0].player == champion and rows[0].place == 1
    assert [r.place for r in rows] == [1, 2, 3, 3]
    assert info.status == "running"  # until the timers announce the final standings
    assert [n.kind for n in await service.check_events(clock.now)] == ["finished"]
    assert (await service.event_info(info.id)).status == "finished"


async def test_a_season_of_two_divisions_with_promotion_and_relegation(
        service: GameService, clock: Clock) -> None:
    await organised(service)
    top, bottom = PLAYERS[:4], PLAYERS[4:]
    config = EventConfig(Format.ROUND_ROBIN)
    season = await service.create_season(HALL, ORGANISER, "Winter league", config, [top, bottom])
    assert [(i.season, i.division) for i in season] == [(1, 1), (1, 2)]
    assert [len(i.event.entrants) for i in season] == [4, 4]
    with pytest.raises(NotAllowed):  # a league's first season is made once
        await service.create_season(HALL, ORGANISER, "Winter league", config, [top])
    with pytest.raises(BadInput):  # not before the season is over
        await service.next_season_of(HALL, ORGANISER, "Winter league", 1)
    for division in season:
        info, pairings = await service.start_event(division.id, ORGANISER)
        for _ in range(3):
            await open_all(service, pairings)
            for p in pairings:
                # In each division the higher-numbered player wins every game.
                await win(service, p, max(u.id for u in p.players), clock)
            info = await service.event_info(info.id)
            if info.event.finished:
                break
            info, pairings = await service.pair_next_round(info.id, ORGANISER)
    assert [n.kind for n in await service.check_events(clock.now)] == ["finished", "finished"]
    nxt = await service.next_season_of(HALL, ORGANISER, "Winter league", 1)
    assert [(i.season, i.division) for i in nxt] == [(2, 1), (2, 2)]
    divisions = [[e.player for e in i.event.entrants] for i in nxt]
    # Dee won the top division; Ana came last there and goes down; Hal won the bottom
    # one and goes up.
    assert set(divisions[0]) == {PLAYERS[1].id, PLAYERS[2].id, PLAYERS[3].id, PLAYERS[7].id}
    assert set(divisions[1]) == {PLAYERS[0].id, PLAYERS[4].id, PLAYERS[5].id, PLAYERS[6].id}
    assert divisions[0][0] == PLAYERS[3].id  # seeded by last season's places


@pytest.mark.slow
async def test_a_league_of_4_player_tables_with_5_3_2_1(service: GameService,
                                                       clock: Clock) -> None:
    """Two rounds of two tables, played out, with a late entry, a withdrawal (who leaves
    their table's game as if resigning) and a no-show's forfeit."""
    config = EventConfig(Format.TABLES, rounds=2, table_size=4)
    info = await new_event(service, config, PLAYERS[:7], GameOptions(language="es"))
    info, pairings = await service.start_event(info.id, ORGANISER)
    assert sorted(len(p.players) for p in pairings) == [3, 4]
    late = PLAYERS[7]
    info = await service.sign_up(info.id, late)  # a late entry: from round 2
    assert info.event.entrant(late.id).joined == 2
    views = await open_all(service, pairings)
    assert all(v.options.language == "es" for v in views.values())
    three, four = sorted(pairings, key=lambda p: len(p.players))
    await play_out(service, four, seed=11, clock=clock)
    # At the 3-player table one player withdraws mid-game: the other two play on.
    leaver = three.players[0]
    info = await service.withdraw(info.id, Actor(leaver.id, leaver.name))
    view = await service.status(thread(three))
    assert view.status == "active" and next(s for s in view.seats
                                            if s.user_id == leaver.id).resigned
    await play_out(service, three, seed=12, clock=clock)
    info = await service.event_info(info.id)
    (left,) = info.event.match(three.match_id).games
    assert left.placing((5.0, 3.0, 2.0, 1.0))[leaver.id] == 0.0
    for p in pairings:
        game_id = (await service.status(thread(p))).game_id
        results = await service.store.results_of_game(game_id)
        (result,) = info.event.match(p.match_id).games
        # The event took the game's final scores, and who left it.
        assert dict(result.scores) == {r.user_id: r.score for r in results}
        assert result.absent == {r.user_id for r in results if r.left_game}
        points = result.placing((5.0, 3.0, 2.0, 1.0))
        present = sorted((r for r in results if not r.left_game), key=lambda r: -r.score)
        if present[0].score > present[1].score:
            assert points[present[0].user_id or ""] == 5.0
        assert sum(points.values()) == sum([5.0, 3.0, 2.0, 1.0][:len(present)])
    # The multiplayer pool was rated from both tables.
    assert len(await service.store.ratings(GUILD, Pool.MULTI.value)) == 7

    info, pairings = await service.pair_next_round(info.id, ORGANISER)
    seated = {u.id for p in pairings for u in p.players}
    assert late.id in seated and leaver.id not in seated and len(seated) == 7
    await open_all(service, pairings)
    # A no-show at one table: the organiser rules them absent; the rest play the other.
    first = max(pairings, key=lambda p: len(p.players))
    missing = first.players[-1].id
    others = [p for p in pairings if p is not first]
    info = await service.forfeit_match(info.id, ORGANISER, first.match_id, [missing])
    assert (await service.status(thread(first))).status == "cancelled"
    for k, p in enumerate(others):
        await play_out(service, p, seed=20 + k, clock=clock)
    notices = await service.check_events(clock.now)
    assert [n.kind for n in notices] == ["finished"]
    rows = notices[0].standings
    assert [r.placing for r in rows] == sorted((r.placing for r in rows), reverse=True)
    assert next(r for r in rows if r.player == missing).placing == (
        next(r for r in (await service.event_info(info.id)).event.standings()
             if r.player == missing).placing)
    assert sum(r.placing for r in rows) > 0


async def test_results_lost_to_a_stop_are_recorded_and_reported_by_the_timers(
        service: GameService, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose end was stored but whose result was never recorded (the process
    stopped in between), and a result the event was too busy to take: the event timers
    record, rate and report both."""
    info = await new_event(service, EventConfig(Format.SWISS, rounds=1), PLAYERS[:4])
    info, pairings = await service.start_event(info.id, ORGANISER)
    await open_all(service, pairings)
    first, second = pairings
    with monkeypatch.context() as patch:
        patch.setattr(type(service), "_game_ended", lambda self, live: None)
        await win(service, first, higher_seat_wins(first), clock)
    game_id = (await service.status(thread(first))).game_id
    assert await service.store.results_of_game(game_id) == []
    # The second game's result meets an event changed under it, once.
    real = service.store.put_event
    calls: list[int] = []

    async def busy(event_id: int, version: int, now: float, changes: dict[str, object]) -> int:
        calls.append(event_id)
        if len(calls) == 1:
            raise Conflict("busy")
        return await real(event_id, version, now, changes)

    with monkeypatch.context() as patch:
        patch.setattr(service.store, "put_event", busy)
        await win(service, second, higher_seat_wins(second), clock)
    assert calls and not (await service.event_info(info.id)).event.match(
        second.match_id).decided
    notices = await service.check_events(clock.now)
    assert [n.kind for n in notices] == ["finished"]
    info = await service.event_info(info.id)
    assert all(m.decided for m in info.event.matches)
    assert len(await service.store.results_of_game(game_id)) == 2
    assert len(await service.store.ratings(GUILD, Pool.DUEL.value)) == 4
    assert await service.record_missed_results(clock.now) == 0  # nothing twice


async def test_a_game_opens_once_and_again_after_it_was_cancelled(
        service: GameService, clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=2), PLAYERS[:2])
    info, (pairing,) = await service.start_event(info.id, ORGANISER)
    first = await service.open_event_game(info.id, pairing, thread(pairing))
    with pytest.raises(NotNow) as again:
        await service.open_event_game(info.id, pairing, Where(GUILD, "elsewhere"))
    assert again.value.code == "game_already_open"
    assert await service.pairings_to_open(info.id) == []
    # The host cancels the game: the match needs a game again, in a new thread.
    host = next(u for u in PLAYERS if u.id == first.host_id)
    await service.cancel(thread(pairing), host)
    clock.now += 3600
    (reopen,) = await service.pairings_to_open(info.id)
    assert reopen == pairing
    notices = await service.check_events(clock.now)
    assert [n.kind for n in notices] == ["open_games"]
    second = await service.open_event_game(info.id, reopen, Where(GUILD, "second-thread"))
    assert second.game_id != first.game_id and second.status == "active"
    await service.resign(Where(GUILD, "second-thread"), pairing.players[1])
    assert (await service.event_info(info.id)).event.match(pairing.match_id).decided
    with pytest.raises(NotNow) as stale:  # the match is decided: no game to open
        await service.open_event_game(info.id, pairing, Where(GUILD, "third"))
    assert stale.value.code == "pairing_stale"


def test_event_settings_from_plain_values() -> None:
    swiss = event_config("swiss")
    assert swiss.rounds == 5 and swiss.round_seconds == 7 * DAY
    assert event_config("tables", table_size=5, round_days=2).rounds == 3
    assert event_config("knockout", best_of=3).best_of == 3
    for bad in (dict(best_of=2), dict(groups=0), dict(tiebreaks=["luck"])):
        with pytest.raises(BadInput):
            event_config("knockout", **bad)
    with pytest.raises(BadInput) as refused:
        event_config("knockout", best_of=4)
    assert refused.value.code == "league_bad_best_of"
    with pytest.raises(BadInput):
        event_config("ladder")


async def test_an_appeal_undoes_an_override_and_its_rating(service: GameService,
                                                          clock: Clock) -> None:
    info = await new_event(service, EventConfig(Format.SWISS, rounds=1), PLAYERS[:2])
    info, (pairing,) = await service.start_event(info.id, ORGANISER)
    await open_all(service, [pairing])
    winner, loser = pairing.players[0].id, pairing.players[1].id
    await win(service, pairing, winner, clock)
    played = {r.user_id: (r.mu, r.sigma) for r in await service.store.ratings(GUILD)}
    assert played[winner][0] > played[loser][0]
    info = await service.override_result(info.id, ORGANISER, pairing.match_id,
                                         [[(winner, 40), (loser, 80)]])
    assert info.event.match(pairing.match_id).winner == loser
    flipped = {r.user_id: r.mu for r in await service.store.ratings(GUILD)}
    assert flipped[loser] > flipped[winner]
    with pytest.raises(NotAllowed):
        await service.appeal(info.id, NOBODY, pairing.match_id)
    info = await service.appeal(info.id, ORGANISER, pairing.match_id)
    assert info.event.match(pairing.match_id).winner == winner
    back = {r.user_id: (r.mu, r.sigma) for r in await service.store.ratings(GUILD)}
    for player, (mu, sigma) in played.items():
        assert back[player] == pytest.approx((mu, sigma))
    with pytest.raises(BadInput) as nothing:
        await service.appeal(info.id, ORGANISER, pairing.match_id)
    assert nothing.value.code == "league_nothing_to_appeal"
