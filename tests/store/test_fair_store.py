"""The store's part of fair play (issue 26) and profiles (issue 28), on both backends:
closed lobbies deleted with everything of theirs, voids, distinct opponents, results of
many games and the recent rating history."""

from __future__ import annotations

from carca_bot.store import RatingHistoryRow, ResultRow, SeatRow, Store

HOST = SeatRow(0, "u1", "Ana", 0)


def _history(game: int, user: str, at: float) -> RatingHistoryRow:
    return RatingHistoryRow("g", game, user, "duel", at, 1, 2, 25.0, 8.3, 26.0, 8.0, 1)


def _result(game: int, seat: int, user: str, at: float) -> ResultRow:
    return ResultRow(game, seat, "g", user, user.upper(), 10 * seat, seat + 1, seat + 1, 2,
                     "normal", True, False, at, ())


async def test_closed_lobbies_are_deleted_after_the_grace_period_and_nothing_else(
        store: Store) -> None:
    closed = await store.create_game("g", "a", HOST, {}, 1, 10.0)
    await store.update(closed, 0, 20.0, {"status": "cancelled", "outcome": "lobby_closed"})
    await store.set_card_message(closed, "a", "m1")  # its messages go with it
    recent = await store.create_game("g", "b", HOST, {}, 1, 10.0)
    await store.update(recent, 0, 50.0, {"status": "cancelled", "outcome": "lobby_closed"})
    dealt = await store.create_game("g", "c", HOST, {}, 1, 10.0)
    await store.update(dealt, 0, 20.0, {"status": "cancelled", "outcome": "cancelled"})
    waiting = await store.create_game("g", "d", HOST, {}, 1, 10.0)
    assert await store.delete_closed_lobbies(30.0) == 1
    assert await store.game(closed) is None and await store.load(closed) is None
    assert all([await store.game(g) for g in (recent, dealt, waiting)])
    assert await store.delete_closed_lobbies(30.0) == 0
    assert await store.delete_closed_lobbies(60.0, limit=5) == 1


async def test_voids_opponents_and_recent_history(store: Store) -> None:
    for game in (1, 2, 3):
        await store.create_game("g", f"c{game}", HOST, {}, 1, 10.0)
    await store.put_results([_result(1, 0, "a", 100.0), _result(1, 1, "b", 100.0)])
    await store.put_results([_result(2, 0, "a", 200.0), _result(2, 1, "c", 200.0)])
    found = await store.results_of_games([2, 1, 2, 99])
    assert [(r.game_id, r.user_id) for r in found] == [(1, "a"), (1, "b"), (2, "a"), (2, "c")]
    await store.save_ratings("g", [_history(1, "a", 100.0), _history(1, "b", 100.0),
                                   _history(2, "a", 200.0), _history(2, "c", 200.0),
                                   _history(3, "a", 300.0), _history(3, "b", 300.0)], [])
    assert await store.opponent_counts("g", "duel") == {"a": 2, "b": 1, "c": 1}
    assert await store.opponent_counts("g", "multi") == {}
    assert [(h.game_id, h.user_id) for h in await store.rating_history_since("g", 200.0)] == [
        (2, "a"), (2, "c"), (3, "a"), (3, "b")]
    assert await store.rating_voids("g") == {}
    await store.add_rating_void("g", "b", 150.0, "admin", 150.0)
    await store.add_rating_void("g", "b", 250.0, "admin", 250.0)  # a later void reaches on
    await store.add_rating_void("h", "b", 1.0, "admin", 1.0)
    assert await store.rating_voids("g") == {"b": 250.0}
    assert await store.remove_rating_void("g", "b")
    assert not await store.remove_rating_void("g", "b")
    assert await store.rating_voids("g") == {} and await store.rating_voids("h") == {"b": 1.0}
