"""Ratings through the service: games that end are recorded and rated (openskill,
Plackett–Luce), amended results re-rate, profiles and leaderboards read them back."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from carca_bot.league import Pool, RatedGame, RatingBook
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import BadInput, GameOptions, GameService, TurnView, User, Where
from carca_bot.service.ratings_ops import MIN_OWN_MOVES
from tests.service.helpers import ANA, BEN, CY, DEE, HERE, Clock, started, who

GUILD = HERE.guild


async def play_turns(service: GameService, view: TurnView, each: int = MIN_OWN_MOVES,
                     where: Where = HERE) -> TurnView:
    """Every seat makes `each` turns of its own (first legal square, no figure): real
    play, so that a game ended afterwards is rated (fewer makes it an abort)."""
    for _ in range(each * len(view.seats)):
        deciding = view.deciding
        assert deciding is not None and deciding.user_id is not None
        user = User(deciding.user_id, deciding.name)
        x, y, rot = (await service.legal_moves(where, user)).placements[0]
        view = await service.place(where, user, x, y, rot, confirm=True)
    return view


async def resigned_out(service: GameService, view: TurnView, order: list[User],
                       where: Where = HERE, clock: Clock | None = None,
                       real_play: bool = True) -> TurnView:
    """End a running game by resignations, in `order` (the last one left wins), after
    everyone made MIN_OWN_MOVES turns (unless not `real_play`: then it is an abort)."""
    if real_play:
        view = await play_turns(service, view, where=where)
    for user in order:
        if clock is not None:
            clock.now += 30
        view = await service.resign(where, user)
    assert view.status == "finished" and view.outcome == "resigned"
    return view


async def played_out(service: GameService, view: TurnView, seed: int,
                     where: Where = HERE, clock: Clock | None = None) -> TurnView:
    """Play a running game to its end with random legal moves."""
    rng = random.Random(seed)
    while not view.finished:
        if clock is not None:
            clock.now += 7
        view, _ = await play_random_move(service, where, who(view), rng)
    return view


async def test_a_duel_ended_by_resignation_is_rated_as_a_forfeit(service: GameService,
                                                                   clock: Clock) -> None:
    view = await started(service, [ANA, BEN])
    await resigned_out(service, view, [BEN])
    results = await service.store.results_of_game(view.game_id)
    assert [(r.user_id, r.rank, r.ending, r.left_game) for r in results] in (
        [(ANA.id, 1, "forfeit", False), (BEN.id, 2, "forfeit", True)],
        [(BEN.id, 2, "forfeit", True), (ANA.id, 1, "forfeit", False)])
    expected = RatingBook.from_games([RatedGame("g", 0.0, (ANA.id, BEN.id), (1, 2))])
    rows = await service.store.ratings(GUILD, Pool.DUEL.value)
    assert [r.user_id for r in rows] == [ANA.id, BEN.id]
    for row in rows:
        want = expected.get(row.user_id, Pool.DUEL)
        assert row.mu == pytest.approx(want.mu) and row.sigma == pytest.approx(want.sigma)
        assert row.games == 1
    # One opponent each: not listed on the board (MIN_OPPONENTS), provisional or not.
    found = await service.leaderboard(GUILD, "duel")
    assert found.rows == () and found.unlisted == 2


async def test_a_four_player_game_moves_ratings_as_openskill_says(service: GameService,
                                                                   clock: Clock) -> None:
    """The done-when check: the service's update for a multiplayer result is openskill's
    Plackett–Luce update for that ranking, computed here with openskill itself."""
    view = await started(service, [ANA, BEN, CY, DEE],
                         GameOptions(seed=5, expansions=frozenset({"abbey_mayor"})))
    view = await played_out(service, view, seed=5, clock=clock)
    assert view.outcome == "complete"
    scores = {s.user_id or "": s.score for s in view.seats}
    order = [s.user_id or "" for s in view.seats]
    ranks = [1 + sum(scores[o] > scores[p] for o in order) for p in order]
    model = PlackettLuce()
    teams = [[model.rating()] for _ in order]
    after = model.rate(teams, ranks=[float(r) for r in ranks])
    rows = {r.user_id: r for r in await service.store.ratings(GUILD, "multi")}
    for player, (new,) in zip(order, after, strict=True):
        assert rows[player].mu == pytest.approx(new.mu)
        assert rows[player].sigma == pytest.approx(new.sigma)
    winner = max(order, key=lambda p: scores[p])
    assert rows[winner].mu > 25 and min(r.mu for r in rows.values()) < 25
    # The profile reads it back: one game, the score, the expansion, a time per move.
    assert winner is not None
    card = await service.profile(GUILD, winner)
    assert card.games == 1 and card.wins == 1 and card.average_score == scores[winner]
    assert card.favourite_expansions == (("abbey_mayor", 1),)
    assert card.median_move_seconds is not None and card.median_move_seconds > 0
    assert card.recent_results == ((1, 4),)
    (pool,) = card.ratings
    # three opponents in one game: listed on the board, marked provisional
    assert pool.pool is Pool.MULTI and pool.provisional and pool.place == 1
    assert pool.opponents == 3 and pool.sigma < 25 / 3


async def test_unrated_games_and_cancelled_games_change_no_rating(service: GameService) -> None:
    view = await started(service, [ANA, BEN], GameOptions(seed=3, unrated=True))
    await resigned_out(service, view, [ANA])
    assert await service.store.results_of_game(view.game_id)  # recorded for the profile
    view = await started(service, [ANA, BEN], GameOptions(seed=4))
    await service.cancel(HERE, ANA)
    assert await service.store.results_of_game(view.game_id) == []
    assert await service.store.ratings(GUILD) == []
    card = await service.profile(GUILD, BEN.id)
    assert card.games == 1 and card.wins == 1 and card.ratings == ()
    assert card.recent_results == ((1, 2),)
    assert (await service.profile(GUILD, ANA.id)).recent_results == ((2, 2),)


async def test_an_amended_result_rates_again_from_that_game_on(service: GameService,
                                                               clock: Clock) -> None:
    """Three duels; the first one's result is amended: the ratings after it equal the
    ratings of the amended list computed from scratch, and undoing it restores them."""
    games = []
    for loser in (BEN, CY, BEN):
        clock.now += 100
        view = await started(service, [ANA, loser])
        await resigned_out(service, view, [loser])
        games.append((view.game_id, loser))
    before = {r.user_id: (r.mu, r.sigma) for r in await service.store.ratings(GUILD)}
    first, _ = games[0]
    assert await service.amend_result(first, {ANA.id: 2, BEN.id: 1})
    assert not await service.amend_result(first, {ANA.id: 2, BEN.id: 1})  # no change
    rows = {r.user_id: r for r in await service.store.ratings(GUILD)}
    results = [await service.store.results_of_game(g) for g, _ in games]
    scratch = RatingBook.from_games(
        RatedGame(f"{r[0].game_id:012d}", r[0].ended_at, tuple(x.user_id or "" for x in r),
                  tuple(x.rank for x in r)) for r in results)
    for player, row in rows.items():
        want = scratch.get(player, Pool.DUEL)
        assert row.mu == pytest.approx(want.mu) and row.sigma == pytest.approx(want.sigma)
        assert row.games == want.games
    assert rows[BEN.id].mu > before[BEN.id][0]
    history = await service.store.rating_history(GUILD)
    assert len(history) == 6 and {h.game_id for h in history} == {g for g, _ in games}
    assert await service.amend_result(first, None)  # back to the result as played
    restored = {r.user_id: (r.mu, r.sigma) for r in await service.store.ratings(GUILD)}
    assert restored.keys() == before.keys()
    for player, (mu, sigma) in restored.items():
        assert (mu, sigma) == pytest.approx(before[player])
    with pytest.raises(BadInput):
        await service.amend_result(first, {ANA.id: 1})


async def test_leaderboard_pages_and_refuses_unknown_pools(service: GameService,
                                                          clock: Clock) -> None:
    """Four players, each against the three others: all listed (3 opponents each),
    provisional (fewer than 10 rated games), ranked by the rating shown."""
    for first, second in ((ANA, BEN), (ANA, CY), (ANA, DEE), (BEN, CY), (BEN, DEE),
                          (CY, DEE)):
        clock.now += 60
        view = await started(service, [first, second])
        await resigned_out(service, view, [second])
    board = await service.leaderboard(GUILD, "duel", per_page=1)
    assert board.total == 4 and board.pages == 4 and board.unlisted == 0
    assert [e.user_id for e in board.rows] == [ANA.id] and board.rows[0].place == 1
    assert board.rows[0].provisional and board.rows[0].opponents == 3
    page_2 = await service.leaderboard(GUILD, "duel", page=2, per_page=1)
    assert [(e.user_id, e.place) for e in page_2.rows] == [(BEN.id, 2)]
    last = await service.leaderboard(GUILD, "duel", page=4, per_page=1)
    assert [(e.user_id, e.place) for e in last.rows] == [(DEE.id, 4)]
    assert (await service.profile(GUILD, ANA.id)).ratings[0].place == 1
    assert (await service.leaderboard(GUILD, "duel", include_provisional=False)).rows == ()
    with pytest.raises(BadInput):
        await service.leaderboard(GUILD, "team")
    with pytest.raises(BadInput):
        await service.leaderboard(GUILD, "duel", page=0)
