"""Ratings: openskill's Plackett–Luce updates, pools, ties, skipped games, amendments."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from carca_bot.league.ratings import (
    PROVISIONAL_GAMES,
    REPEAT_WINDOW,
    Ending,
    Pool,
    RatedGame,
    RatingBook,
    ranks_from_scores,
)


def game(gid: str, t: float, players: str, ranks: tuple[int, ...],
         ending: Ending = Ending.NORMAL, rated: bool = True) -> RatedGame:
    return RatedGame(gid, t, tuple(players), ranks, ending, rated)


def test_a_duel_matches_openskill_directly() -> None:
    book = RatingBook.from_games([game("g1", 1, "AB", (1, 2))])
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert book.get("A", Pool.DUEL).mu == pytest.approx(a.mu)
    assert book.get("A", Pool.DUEL).sigma == pytest.approx(a.sigma)
    assert book.get("B", Pool.DUEL).mu == pytest.approx(b.mu)
    assert book.get("A", Pool.DUEL).mu > 25 > book.get("B", Pool.DUEL).mu


def test_a_multiplayer_sequence_with_ties_matches_openskill_directly() -> None:
    """Three games of 3-5 players, ties included, each rated from the last ratings."""
    games = [game("g1", 1, "ABCD", (1, 2, 2, 4)), game("g2", 2, "CBE", (2, 1, 3)),
             game("g3", 3, "EDCBA", (1, 1, 3, 4, 4))]
    book = RatingBook.from_games(games)
    model = PlackettLuce()
    mine = {p: model.rating() for p in "ABCDE"}
    for g in games:
        new = model.rate([[mine[p]] for p in g.players], ranks=[float(r) for r in g.ranks])
        for p, (r,) in zip(g.players, new, strict=True):
            mine[p] = r
    for p in "ABCDE":
        assert book.get(p, Pool.MULTI).mu == pytest.approx(mine[p].mu, abs=1e-12)
        assert book.get(p, Pool.MULTI).sigma == pytest.approx(mine[p].sigma, abs=1e-12)
        assert book.get(p, Pool.DUEL).games == 0  # pools are apart
    assert book.get("C", Pool.MULTI).games == 3


def test_winner_gains_and_loser_drops_in_every_size() -> None:
    for n in range(2, 7):
        players = "ABCDEF"[:n]
        book = RatingBook.from_games([game("g", 1, players, tuple(range(1, n + 1)))])
        pool = Pool.of(n)
        mus = [book.get(p, pool).mu for p in players]
        assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[-1]


def test_a_tie_between_equals_leaves_them_equal() -> None:
    book = RatingBook.from_games([game("g1", 1, "AB", (1, 1)),
                                  game("g2", 2, "CDE", (1, 1, 3))])
    a, b = book.get("A", Pool.DUEL), book.get("B", Pool.DUEL)
    assert a.mu == pytest.approx(b.mu) == pytest.approx(25.0)
    assert a.sigma == pytest.approx(b.sigma)
    c, d = book.get("C", Pool.MULTI), book.get("D", Pool.MULTI)
    assert (c.mu, c.sigma) == pytest.approx((d.mu, d.sigma))


def test_only_games_ended_normally_or_by_forfeit_are_rated() -> None:
    book = RatingBook.from_games([
        game("g1", 1, "AB", (1, 2), Ending.FORFEIT),
        game("g2", 2, "AB", (1, 2), Ending.CANCELLED),
        game("g3", 3, "AB", (1, 2), Ending.ABANDONED),
        game("g4", 4, "AB", (1, 2), rated=False),
    ])
    assert book.get("A", Pool.DUEL).games == 1
    assert [row.game_id for row in book.history] == ["g1", "g1"]


def test_history_rows_chain_before_and_after() -> None:
    book = RatingBook.from_games([game("g2", 2, "AB", (2, 1)), game("g1", 1, "AB", (1, 2))])
    rows = [r for r in book.history if r.player == "A"]
    assert [r.game_id for r in rows] == ["g1", "g2"]  # rated in end-time order
    assert rows[0].before_mu == 25.0 and rows[0].before_ordinal == pytest.approx(0.0)
    assert (rows[1].before_mu, rows[1].before_sigma) == (rows[0].after_mu, rows[0].after_sigma)
    assert rows[0].change > 0 > rows[1].change
    assert rows[1].games == 2 and rows[1].after == book.get("A", Pool.DUEL)


def test_provisional_until_the_threshold_and_left_off_the_leaderboard() -> None:
    # a week apart: the same pair's games in one week count less and less (fair play)
    games = [game(f"g{i}", i * REPEAT_WINDOW, "AB", (1, 2))
             for i in range(PROVISIONAL_GAMES - 1)]
    book = RatingBook.from_games(games)
    assert book.get("A", Pool.DUEL).provisional()
    assert book.leaderboard(Pool.DUEL) == ()
    book = book.rate([game("last", 100 * REPEAT_WINDOW, "AB", (1, 2))])
    assert not book.get("A", Pool.DUEL).provisional()
    board = book.leaderboard(Pool.DUEL)
    assert [(r.place, r.player) for r in board] == [(1, "A"), (2, "B")]
    assert [r.player for r in book.leaderboard(Pool.MULTI, include_provisional=True)] == []


def test_ranks_from_scores_share_ties_and_put_the_absent_last() -> None:
    assert ranks_from_scores([30, 50, 30, 10]) == (2, 1, 2, 4)
    assert ranks_from_scores([30, 50, 30, 10], out=[1]) == (1, 4, 1, 3)
    assert ranks_from_scores([0, 0], out=[0, 1]) == (1, 1)


def test_a_game_with_a_player_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        RatedGame("g", 1, ("A", "A"), (1, 2))


def _close(a: RatingBook, b: RatingBook) -> bool:
    if a.ratings.keys() != b.ratings.keys() or len(a.history) != len(b.history):
        return False
    same = all(math.isclose(a.ratings[k].mu, b.ratings[k].mu, abs_tol=1e-9)
               and math.isclose(a.ratings[k].sigma, b.ratings[k].sigma, abs_tol=1e-9)
               and a.ratings[k].games == b.ratings[k].games for k in a.ratings)
    return same and [(r.game_id, r.player) for r in a.history] == \
        [(r.game_id, r.player) for r in b.history]


_games = st.lists(st.tuples(st.permutations("ABCDE").map(lambda p: p[:3]),
                            st.integers(2, 3),
                            st.lists(st.integers(1, 3), min_size=3, max_size=3)),
                  min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(_games, st.data())
def test_re_rating_after_an_amendment_equals_rating_the_amended_history(
        raw: list[tuple[list[str], int, list[int]]], data: st.DataObject) -> None:
    games = [RatedGame(f"g{i}", float(i), tuple(p[:n]), tuple(r[:n]))
             for i, (p, n, r) in enumerate(raw)]
    book = RatingBook.from_games(games)
    i = data.draw(st.integers(0, len(games) - 1))
    old = games[i]
    new_ranks = tuple(data.draw(st.lists(st.integers(1, 3), min_size=len(old.players),
                                         max_size=len(old.players))))
    change = data.draw(st.sampled_from(["ranks", "unrated", "removed"]))
    amended = list(games)
    if change == "ranks":
        amended[i] = RatedGame(old.game_id, old.ended_at, old.players, new_ranks)
    elif change == "unrated":
        amended[i] = RatedGame(old.game_id, old.ended_at, old.players, old.ranks, rated=False)
    else:
        del amended[i]
    assert _close(book.amend(amended, old), RatingBook.from_games(amended))


def test_an_amendment_changes_later_games_too() -> None:
    games = [game("g1", 1, "AB", (1, 2)), game("g2", 2, "AC", (1, 2))]
    book = RatingBook.from_games(games)
    fixed = [game("g1", 1, "AB", (2, 1)), games[1]]
    amended = book.amend(fixed, games[0])
    assert amended.get("A", Pool.DUEL).mu < book.get("A", Pool.DUEL).mu
    assert amended.get("C", Pool.DUEL).mu != book.get("C", Pool.DUEL).mu
    assert _close(amended, RatingBook.from_games(fixed))


def test_the_book_round_trips_through_json() -> None:
    import json
    book = RatingBook.from_games([game("g1", 1, "ABC", (1, 2, 2)), game("g2", 2, "AB", (1, 2))])
    again = RatingBook.from_json(json.loads(json.dumps(book.to_json())))
    assert again == book
