"""Issue 26's rating farm through the service: aborts (no rating without real play),
repeat games counting less, the leaderboard's distinct opponents, and an admin's void,
recomputed in order and announced."""

from __future__ import annotations

import pytest

from carca_bot.i18n import speaking
from carca_bot.league import Pool, RatedGame, RatingBook
from carca_bot.league.ratings import DAY, MIN_OPPONENTS, REPEAT_WINDOW
from carca_bot.service import (
    GameOptions,
    GameService,
    NotAllowed,
    NotNow,
    TurnView,
    User,
    Where,
)
from carca_bot.service.ratings_ops import MIN_OWN_MOVES
from carca_bot.store import RatingRow
from carca_bot.words import say
from tests.service.helpers import ANA, BEN, CY, DEE, HERE, Clock, said, started, who
from tests.service.test_league_ratings import play_turns, resigned_out

GUILD = HERE.guild
ADMIN = "900"


def board_of(rows: list[RatingRow]) -> dict[tuple[str, str], tuple[float, float, int]]:
    return {(r.pool, r.user_id): (r.mu, r.sigma, r.games) for r in rows}


async def round_robin(service: GameService, clock: Clock,
                      players: tuple[User, ...] = (ANA, BEN, CY, DEE)) -> None:
    """Every pair plays one real duel, the first of the pair winning."""
    for i, first in enumerate(players):
        for second in players[i + 1:]:
            clock.now += 3600
            view = await started(service, [first, second])
            await resigned_out(service, view, [second])


async def join_and_resign(service: GameService, host: User, alt: User,
                          where: Where = HERE) -> TurnView:
    """The farm of issue 26: the alt joins, the game starts, the alt resigns at once."""
    await service.create(where, host, GameOptions())
    await service.join(where, alt)
    await service.start(where, host)
    return await service.resign(where, alt)


async def test_forty_join_and_resign_games_change_no_rating_and_no_leaderboard(
        service: GameService, clock: Clock) -> None:
    """The done-when check: on a server with a leaderboard, an alt account that joins
    and resigns at once, 40 times, moves no rating and no place; each game says why."""
    await round_robin(service, clock)
    ratings = board_of(await service.store.ratings(GUILD))
    board = await service.leaderboard(GUILD, "duel")
    assert board.total == 4
    farmer, alt = DEE, User("100000000000000099", "Alt")
    for n in range(40):
        clock.now += 120
        view = await join_and_resign(service, farmer, alt)
        assert view.status == "finished" and view.outcome == "resigned"
        assert said(view)[-1] == (f"this game will not be rated: Alt left before making "
                                  f"{MIN_OWN_MOVES} moves of their own"), n
        (status,) = {r.ending for r in await service.store.results_of_game(view.game_id)}
        assert status == "aborted"
    assert board_of(await service.store.ratings(GUILD)) == ratings
    assert await service.leaderboard(GUILD, "duel") == board
    result = await service.rating_result(view.game_id)
    assert result.status == "aborted" and {s.before for s in result.seats} == {None}
    # The profile keeps aborts out of the record, and counts them apart.
    card = await service.profile(GUILD, farmer.id)
    assert (card.games, card.aborted) == (3, 40)


async def test_a_player_who_left_after_real_play_loses_a_rated_game(
        service: GameService, clock: Clock) -> None:
    view = await started(service, [ANA, BEN])
    view = await play_turns(service, view, MIN_OWN_MOVES)
    view = await service.resign(HERE, BEN)
    assert not any("not be rated" in line for line in said(view))
    result = await service.rating_result(view.game_id)
    assert result.status == "rated" and all(s.weight == 1.0 for s in result.seats)
    assert {s.user_id: s.rank for s in result.seats} == {ANA.id: 1, BEN.id: 2}
    ana = next(s for s in result.seats if s.user_id == ANA.id)
    assert ana.before is not None and ana.after is not None and ana.after > ana.before


async def test_one_move_short_is_an_abort_for_everyone_at_a_table(
        service: GameService, clock: Clock) -> None:
    """At a table of three, one player leaves a move short of the minimum: the other two
    play on, and the game is unrated for all three (said once, when it happened)."""
    view = await started(service, [ANA, BEN, CY])
    leaver = who(view)
    for _ in range(3 * (MIN_OWN_MOVES - 1)):
        user = who(view)
        x, y, rot = (await service.legal_moves(HERE, user)).placements[0]
        view = await service.place(HERE, user, x, y, rot, confirm=True)
    view = await service.resign(HERE, leaver)
    assert view.status == "active"
    assert (f"this game will not be rated: {leaver.name} left before making "
            f"{MIN_OWN_MOVES} moves of their own") in said(view)
    others = [u for u in (ANA, BEN, CY) if u != leaver]
    view = await service.resign(HERE, others[0])
    assert view.status == "finished"
    assert not any("not be rated" in line for line in said(view))  # said once
    assert await service.store.ratings(GUILD) == []
    assert (await service.rating_result(view.game_id)).status == "aborted"


async def test_a_game_played_out_around_an_absent_player_is_an_abort(
        service: GameService, clock: Clock) -> None:
    """Ben never moves: every turn of his is played for him at the timer. The game is
    played to its end, and is unrated, said when it ends."""
    view = await started(service, [ANA, BEN], GameOptions(seed=4, turn_timer=60,
                                                          auto_play=True))
    while not view.finished:
        if who(view) == ANA:
            x, y, rot = (await service.legal_moves(HERE, ANA)).placements[0]
            view = await service.place(HERE, ANA, x, y, rot, confirm=True)
            continue
        clock.now += 61
        (report,) = await service.check_timers()
        view = report.view
    assert view.outcome == "complete"
    assert said(view)[-1] == (f"this game is not rated: Ben made fewer than {MIN_OWN_MOVES} "
                              f"moves of their own (the others were played for them)")
    assert (await service.rating_result(view.game_id)).status == "aborted"
    assert await service.store.ratings(GUILD) == []


async def test_repeat_games_of_a_pair_count_less_then_not_at_all_within_a_week(
        service: GameService, clock: Clock) -> None:
    """Eight real games of Ana against Ben in a day: three count fully, then a half, a
    quarter and an eighth, then none; a week on, a game counts fully again. The ratings
    are what the pure library gives for the same games."""
    statuses, games = [], []
    for _ in range(8):
        clock.now += 600
        view = await started(service, [ANA, BEN])
        view = await resigned_out(service, view, [BEN])
        result = await service.rating_result(view.game_id)
        statuses.append(result.status)
        games.append([next(s.weight for s in result.seats if s.user_id == ANA.id)])
    assert statuses == ["rated"] * 3 + ["reduced"] * 3 + ["repeat_limit"] * 2
    assert [w for (w,) in games] == [1.0, 1.0, 1.0, 0.5, 0.25, 0.125, 0.0, 0.0]
    rows = {r.user_id: r for r in await service.store.ratings(GUILD, "duel")}
    assert rows[ANA.id].games == 6
    results = [await service.store.results_of_game(g)
               for g in sorted({h.game_id for h in await service.store.rating_history(GUILD)})]
    assert len(results) == 6
    clock.now += REPEAT_WINDOW + DAY
    view = await resigned_out(service, await started(service, [ANA, BEN]), [BEN])
    assert (await service.rating_result(view.game_id)).status == "rated"
    recorded = [await service.store.results_of_game(g) for g in range(1, view.game_id + 1)]
    everything = [RatedGame(f"{r[0].game_id:012d}", r[0].ended_at,
                            tuple(x.user_id or "" for x in r), tuple(x.rank for x in r))
                  for r in recorded]
    scratch = RatingBook.from_games(everything)
    for user in (ANA.id, BEN.id):
        row = next(r for r in await service.store.ratings(GUILD, "duel") if r.user_id == user)
        want = scratch.get(user, Pool.DUEL)
        assert (row.mu, row.sigma, row.games) == pytest.approx((want.mu, want.sigma, 7))


async def test_the_leaderboard_needs_three_different_opponents(
        service: GameService, clock: Clock) -> None:
    await round_robin(service, clock, (ANA, BEN, CY))
    board = await service.leaderboard(GUILD, "duel")
    assert MIN_OPPONENTS == 3 and board.total == 0 and board.unlisted == 3
    clock.now += 3600
    await round_robin(service, clock, (DEE, ANA))
    board = await service.leaderboard(GUILD, "duel")
    assert [e.user_id for e in board.rows] == [ANA.id] and board.unlisted == 3
    card = await service.profile(GUILD, BEN.id)
    assert card.ratings[0].place is None and card.ratings[0].opponents == 2


async def test_an_admin_voids_a_players_results_recomputed_in_order_and_announced(
        service: GameService, clock: Clock) -> None:
    """Dee's rated games stop counting for everyone; the ratings equal rating the other
    games from scratch; lifting the void gives the old ratings back."""
    await round_robin(service, clock)
    before = board_of(await service.store.ratings(GUILD))
    with pytest.raises(NotAllowed) as refused:
        await service.void_results(GUILD, DEE.id, by="901", admin=False)
    assert refused.value.code == "void_admin_only"
    report = await service.void_results(GUILD, DEE.id, by=ADMIN, admin=True)
    assert report.voided and report.games == 3 and report.name == "Dee"
    with speaking("en"):
        assert say(report.note) == (
            "a server admin voided the rated results of Dee: 3 games no longer count for "
            "anyone, and the ratings were worked out again without them")
    assert {c.user_id for c in report.changes} == {ANA.id, BEN.id, CY.id, DEE.id}
    dee = next(c for c in report.changes if c.user_id == DEE.id)
    assert dee.before is not None and dee.after is None and dee.games_after == 0
    results = [await service.store.results_of_game(g) for g in range(1, 7)]
    kept = [RatedGame(f"{r[0].game_id:012d}", r[0].ended_at,
                      tuple(x.user_id or "" for x in r), tuple(x.rank for x in r))
            for r in results if all(x.user_id != DEE.id for x in r)]
    scratch = RatingBook.from_games(kept)
    after = board_of(await service.store.ratings(GUILD))
    assert set(after) == {("duel", u.id) for u in (ANA, BEN, CY)}
    for (_pool, user), (mu, sigma, games) in after.items():
        want = scratch.get(user, Pool.DUEL)
        assert (mu, sigma, games) == pytest.approx((want.mu, want.sigma, want.games))
    voided_game = next(r[0].game_id for r in results if any(x.user_id == DEE.id for x in r))
    assert (await service.rating_result(voided_game)).status == "voided"
    with pytest.raises(NotNow) as again:
        await service.void_results(GUILD, DEE.id, by=ADMIN, admin=True)
    assert again.value.code == "nothing_to_void"
    # A game of Dee's after the void counts as usual.
    clock.now += 3600
    view = await resigned_out(service, await started(service, [DEE, ANA]), [ANA])
    assert (await service.rating_result(view.game_id)).status == "rated"
    back = await service.restore_results(GUILD, DEE.id, by=ADMIN, admin=True)
    assert not back.voided and back.games == 3 and back.note.code == "ratings_restored"
    with pytest.raises(NotNow):
        await service.restore_results(GUILD, DEE.id, by=ADMIN, admin=True)
    restored = board_of(await service.store.ratings(GUILD))
    everything = RatingBook.from_games(
        RatedGame(f"{r[0].game_id:012d}", r[0].ended_at, tuple(x.user_id or "" for x in r),
                  tuple(x.rank for x in r))
        for r in [await service.store.results_of_game(g) for g in range(1, view.game_id + 1)]
        if r)
    for (_pool, user), (mu, sigma, games) in restored.items():
        want = everything.get(user, Pool.DUEL)
        assert (mu, sigma, games) == pytest.approx((want.mu, want.sigma, want.games))
    assert restored.keys() == before.keys()
