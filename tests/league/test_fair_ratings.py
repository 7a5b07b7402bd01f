"""Fair play in the pure ratings (issue 26): repeat games counting less within a week, the
scaled update, and the leaderboard's distinct opponents."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from carca_bot.league.ratings import (
    DAY,
    MIN_OPPONENTS,
    REPEAT_WINDOW,
    Ending,
    Pool,
    RatedGame,
    RatingBook,
    distinct_opponents,
    repeat_weight,
)


def duel(gid: str, t: float, a: str = "A", b: str = "B") -> RatedGame:
    return RatedGame(gid, t, (a, b), (1, 2))


def test_the_weights_of_a_pairs_repeat_games() -> None:
    assert [repeat_weight(n) for n in range(9)] == [1, 1, 1, 0.5, 0.25, 0.125, 0, 0, 0]


def test_forty_games_of_one_pair_in_a_day_count_as_under_four() -> None:
    """The farm in one sitting: the first three count fully, three more count less, the
    other thirty-four not at all (no history row, no game counted)."""
    book = RatingBook.from_games(duel(f"g{i:02d}", 60.0 * i) for i in range(40))
    a = book.get("A", Pool.DUEL)
    assert a.games == 6 and len(book.history) == 12
    six = RatingBook.from_games(duel(f"g{i:02d}", 60.0 * i) for i in range(6))
    assert (a.mu, a.sigma) == (six.get("A", Pool.DUEL).mu, six.get("A", Pool.DUEL).sigma)
    full = RatingBook.from_games(duel(f"g{i:02d}", REPEAT_WINDOW * i) for i in range(40))
    assert full.get("A", Pool.DUEL).games == 40  # a week apart, every one counts


def test_a_reduced_game_moves_mu_and_variance_by_its_weight() -> None:
    first = RatingBook.from_games(duel(f"g{i}", float(i)) for i in range(3))
    then = first.rate([duel("g3", 3.0)])
    a0, a1 = first.get("A", Pool.DUEL), then.get("A", Pool.DUEL)
    model = PlackettLuce()
    [[full], [_b]] = model.rate([[model.rating(mu=a0.mu, sigma=a0.sigma)],
                                 [model.rating(mu=first.get("B", Pool.DUEL).mu,
                                               sigma=first.get("B", Pool.DUEL).sigma)]],
                                ranks=[1.0, 2.0])
    assert a1.mu == pytest.approx(a0.mu + 0.5 * (full.mu - a0.mu))
    assert a1.sigma == pytest.approx(math.sqrt(a0.sigma**2 + 0.5 * (full.sigma**2
                                                                   - a0.sigma**2)))
    assert then.weights(duel("g4", 4.0)) == (0.25, 0.25)


def test_the_window_slides_and_pools_and_pairs_are_apart() -> None:
    games = [duel(f"g{i}", float(i)) for i in range(6)]
    book = RatingBook.from_games(games)
    assert book.weights(duel("later", REPEAT_WINDOW - 1)) == (0.0, 0.0)  # all six within
    assert book.weights(duel("week", REPEAT_WINDOW + 2.5)) == (0.5, 0.5)  # g0-g2 left
    assert book.weights(duel("new", 7.0, "A", "C")) == (1.0, 1.0)
    assert book.weights(RatedGame("multi", 7.0, ("A", "B", "C"), (1, 2, 3))) == (1.0,) * 3


def test_at_a_table_only_the_pair_that_keeps_meeting_counts_less() -> None:
    games = [RatedGame(f"t{i}", float(i), ("X", "Y", f"S{i}", f"T{i}"), (1, 2, 3, 4))
             for i in range(4)]
    book = RatingBook.from_games(games)
    last = games[-1]
    rows = {r.player: r for r in book.history if r.game_id == last.game_id}
    assert set(rows) == {"X", "Y", "S3", "T3"}
    assert RatingBook.from_games(games[:3]).weights(last) == (0.5, 0.5, 1.0, 1.0)


def test_amending_with_repeat_weights_equals_rating_from_scratch() -> None:
    games = [duel(f"g{i}", float(i)) for i in range(8)]
    book = RatingBook.from_games(games)
    fixed = [RatedGame("g1", 1.0, ("A", "B"), (2, 1)), *games[2:]]
    fixed.insert(0, games[0])
    amended = book.amend(fixed, games[1])
    scratch = RatingBook.from_games(fixed)
    assert amended.ratings.keys() == scratch.ratings.keys()
    for key, rating in scratch.ratings.items():
        assert amended.ratings[key].mu == pytest.approx(rating.mu, abs=1e-12)
        assert amended.ratings[key].games == rating.games
    removed = book.amend([g for g in games if g.game_id != "g0"], games[0])
    assert removed.get("A", Pool.DUEL).games == 6  # the seventh game now counts an eighth


def test_the_leaderboard_lists_only_players_with_enough_opponents() -> None:
    games = [duel("g1", 1, "A", "B"), duel("g2", 2, "A", "C"), duel("g3", 3, "A", "D"),
             duel("g4", 4, "B", "C"), RatedGame("g5", 5, ("A", "E"), (1, 2), Ending.ABORTED)]
    book = RatingBook.from_games(games)
    met = distinct_opponents(book.history, Pool.DUEL)
    assert met == {"A": 3, "B": 2, "C": 2, "D": 1}
    board = book.leaderboard(Pool.DUEL, include_provisional=True, opponents=met)
    assert [r.player for r in board] == ["A"] and board[0].provisional
    assert MIN_OPPONENTS == 3
    assert len(book.leaderboard(Pool.DUEL, include_provisional=True)) == 4  # no filter
    assert distinct_opponents(book.history, Pool.MULTI) == {}
    assert DAY == 86400
