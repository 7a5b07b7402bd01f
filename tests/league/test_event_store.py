"""The store's statements for events' news, owed reminders and time-outs, on SQLite and
PostgreSQL both (the fixtures of tests/store)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from carca_bot.league import Event, EventConfig, Format, event_to_json
from carca_bot.store import ReminderRow, SeatRow, Store
from tests.store.backends import backend, db_target
from tests.store.pg_server import pg_server

__all__ = ["backend", "db_target", "pg_server"]  # offered here as fixtures


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


async def test_news_reminders_and_time_outs(store: Store) -> None:
    event_id = await store.insert_event("g", "c", "Cup", event_to_json(
        Event(EventConfig(Format.SWISS, rounds=1))), {}, "u0", 1.0)
    first = await store.add_event_news(event_id, "amended", {"match": "r1-1", "moves": []}, 2.0)
    await store.add_event_news(event_id, "timeout_expelled", {"player": "u1"}, 3.0)
    assert await store.events_with_news() == [event_id]
    news = await store.untold_event_news(event_id)
    assert [(n.kind, n.data) for n in news] == [("amended", {"match": "r1-1", "moves": []}),
                                                ("timeout_expelled", {"player": "u1"})]
    assert await store.tell_event_news(first, 4.0)
    assert not await store.tell_event_news(first, 5.0)  # told once
    assert [n.kind for n in await store.untold_event_news(event_id)] == ["timeout_expelled"]

    game = await store.create_game("g", "c", SeatRow(0, "u1", "Ana", 0), {}, 7, 1.0)
    owed = ReminderRow("u1", game, 5000, 10.0, 99.0, None)
    await store.put_reminder(owed)
    assert await store.reminder("u1", game, 5000) == owed
    assert await store.owed_reminders() == [owed] == await store.owed_reminders("u1")
    await store.put_reminder(ReminderRow("u1", game, 5000, 10.0, 99.0, 11.0))
    assert await store.owed_reminders() == []
    await store.drop_reminder("u1", game, 5000)
    assert await store.reminder("u1", game, 5000) is None
    assert await store.clock_turns_of("u1") == []  # a lobby, not a running clock game

    assert await store.add_timeout(event_id, "u1", game, 20.0)
    assert not await store.add_timeout(event_id, "u1", game, 20.0)
    assert await store.add_timeout(event_id, "u1", game, 21.0)
    assert await store.timeouts(event_id, "u1") == [game, game]
    assert await store.timeouts(event_id, "u2") == []
