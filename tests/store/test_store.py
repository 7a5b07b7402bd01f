"""The store's guarantees: one live game per channel, optimistic writes, atomic appends.

Each test runs on SQLite and on PostgreSQL (the `store` fixture, tests/store/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from carca_bot.store import ChannelBusy, Conflict, SeatRow, Store

HOST = SeatRow(0, "u1", "Ana", 0)
GUEST = SeatRow(1, "u2", "Ben", 1)
TILE = {"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0}


async def _game(store: Store, channel: str = "c") -> int:
    return await store.create_game("g", channel, HOST, {"expansions": []}, 5, 10.0)


async def test_create_and_load(store: Store) -> None:
    game_id = await _game(store)
    data = await store.load(game_id)
    assert data is not None
    assert (data.game.status, data.game.host_id, data.game.seed) == ("lobby", "u1", 5)
    assert data.game.options == {"expansions": []} and data.game.version == 0
    assert data.seats == [HOST] and data.actions == []
    assert await store.load(game_id + 1) is None and await store.game(game_id + 1) is None


async def test_one_lobby_or_running_game_per_channel(store: Store) -> None:
    game_id = await _game(store)
    with pytest.raises(ChannelBusy):
        await _game(store)
    other_guild = await store.create_game("h", "c", HOST, {}, 1, 10.0)
    assert other_guild != game_id
    await store.update(game_id, 0, 11.0, {"status": "active"})
    with pytest.raises(ChannelBusy):
        await _game(store)
    await store.update(game_id, 1, 12.0, {"status": "finished"})
    newer = await _game(store)
    assert await store.live_game("g", "c") == newer
    assert await store.latest_game("g", "c") == newer
    assert await store.latest_game("g", "nowhere") is None


async def test_writes_need_the_version_they_read(store: Store) -> None:
    game_id = await _game(store)
    assert await store.update(game_id, 0, 11.0, {"pending": {"seat": 0}}) == 1
    with pytest.raises(Conflict):
        await store.update(game_id, 0, 12.0, {"pending": None})
    with pytest.raises(Conflict):
        await store.put_seats(game_id, 0, 12.0, [HOST, GUEST])
    with pytest.raises(Conflict):
        await store.append(game_id, 0, 0, "u1", TILE, 12.0)
    row = await store.game(game_id)
    assert row is not None and row.version == 1 and row.pending == {"seat": 0}
    assert row.updated_at == 11.0
    with pytest.raises(ValueError, match="cannot change"):
        await store.update(game_id, 1, 12.0, {"seed": 3})


async def test_an_append_lands_whole_or_not_at_all(store: Store) -> None:
    game_id = await _game(store)
    version = await store.append(game_id, 0, 0, "u1", TILE, 11.0,
                                 {"pending": None, "deadline": 70.0})
    # Right version, but action 0 exists already: the version bump is rolled back too.
    with pytest.raises(Conflict):
        await store.append(game_id, version, 0, "u2", TILE, 12.0, {"deadline": 99.0})
    data = await store.load(game_id)
    assert data is not None and data.game.version == version == 1
    assert data.game.deadline == 70.0
    assert [(a.seq, a.user_id, a.action) for a in data.actions] == [(0, "u1", TILE)]


async def test_seats_are_replaced_as_a_whole(store: Store) -> None:
    game_id = await _game(store)
    await store.put_seats(game_id, 0, 11.0, [GUEST, HOST], {"host_id": "u2"})
    data = await store.load(game_id)
    assert data is not None and data.game.host_id == "u2"
    assert data.seats == [HOST, GUEST]  # ordered by seat number


async def test_games_of_a_user_and_overdue_games(store: Store) -> None:
    first = await _game(store, "a")
    second = await _game(store, "b")
    await store.put_seats(second, 0, 20.0, [HOST, GUEST], {"status": "active",
                                                          "deadline": 50.0})
    third = await _game(store, "c")
    await store.update(third, 0, 16.0, {"status": "finished"})
    assert [g.id for g in await store.games_of("u1")] == [second, third, first]
    await store.update(first, 0, 15.0, {"status": "cancelled"})
    # A cancelled game has nothing left to do or see: it leaves the list.
    assert [g.id for g in await store.games_of("u1")] == [second, third]
    assert [g.id for g in await store.games_of("u1", live_only=True)] == [second]
    assert [g.id for g in await store.games_of("u2")] == [second]
    assert await store.overdue(49.0) == [] and await store.overdue(50.0) == [second]


async def test_import_stores_a_whole_log(store: Store) -> None:
    actions: list[dict[str, Any]] = [TILE, {"by": "Ben", "discard": "C"}]
    game_id = await store.import_game("g", "c", "u1", "finished", {}, None,
                                      [SeatRow(0, None, "Ana", 0), SeatRow(1, None, "Ben", 1)],
                                      actions, 10.0)
    data = await store.load(game_id)
    assert data is not None and data.game.version == 2 and data.game.outcome == "complete"
    assert [a.action for a in data.actions] == actions
    assert all(a.user_id is None for a in data.actions)
    assert await store.live_game("g", "c") is None
