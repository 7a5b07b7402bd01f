"""Shard settings, the shard of a server, the leases and the reminder claim on both
backends, and a process doing the background work of its own servers only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from carca_bot.bot.config import ConfigError, Settings
from carca_bot.service import GameOptions, GameService, User, Where
from carca_bot.service.shards import Shards, shard_of, spans
from carca_bot.store import Store
from tests.store.pg_server import fresh_database, server_or_skip


def test_shard_of_follows_discords_rule() -> None:
    assert shard_of(str(1000 << 22), 2) == 0
    assert shard_of(str(1001 << 22), 2) == 1
    assert shard_of(str((7 << 22) + 12345), 4) == 3  # the low bits do not count
    assert shard_of("local", 4) == 0  # not a Discord id: as direct messages, shard 0
    assert shard_of("0", 3) == 0


def test_shards_own_their_servers() -> None:
    one = Shards.of([1], 2)
    assert one.owns(str(1001 << 22)) and not one.owns(str(1000 << 22))
    assert Shards.of([0, 1], 2).everything
    assert Shards.of([0, 1, 2, 5], 8).describe() == "shards 0-2,5 of 8"
    assert spans([3]) == "3"
    with pytest.raises(ValueError):
        Shards.of([2], 2)


@pytest.mark.parametrize(("ids", "count", "expected"), [
    ("0-3", "8", {0, 1, 2, 3}), ("0,1", "2", {0, 1}), ("5", "6", {5}),
    (" 0 - 1 , 3 ", "4", {0, 1, 3}),
])
def test_shard_settings(ids: str, count: str, expected: set[int]) -> None:
    shards = Settings.from_env({"CARCA_SHARDS": ids, "CARCA_SHARD_COUNT": count}).shards
    assert shards is not None and shards.ids == expected and shards.count == int(count)


def test_no_shard_settings_is_one_process() -> None:
    assert Settings.from_env({}).shards is None
    assert Settings.from_env({}).workers == "threads"


@pytest.mark.parametrize(("env", "words"), [
    ({"CARCA_SHARDS": "0-1"}, "CARCA_SHARDS needs CARCA_SHARD_COUNT"),
    ({"CARCA_SHARD_COUNT": "2"}, "CARCA_SHARD_COUNT needs CARCA_SHARDS"),
    ({"CARCA_SHARDS": "0", "CARCA_SHARD_COUNT": "two"}, "must be a whole number"),
    ({"CARCA_SHARDS": "0", "CARCA_SHARD_COUNT": "0"}, "between 1 and"),
    ({"CARCA_SHARDS": "2", "CARCA_SHARD_COUNT": "2"}, "shard 2 is outside 0-1"),
    ({"CARCA_SHARDS": "3-1", "CARCA_SHARD_COUNT": "4"}, "runs backwards"),
    ({"CARCA_SHARDS": "a-b", "CARCA_SHARD_COUNT": "4"}, "'a-b' is not a shard number"),
    ({"CARCA_SHARDS": "-1", "CARCA_SHARD_COUNT": "4"}, "is not a shard number"),
    ({"CARCA_WORKERS": "fibers"}, "CARCA_WORKERS must be one of threads, processes"),
])
def test_bad_shard_settings_say_what_is_wrong(env: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        Settings.from_env(env)


@pytest.fixture(params=("sqlite", "postgresql"))
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        opened = await Store.open(tmp_path / "s.sqlite3")
        yield opened
        await opened.close()
        return
    async with fresh_database(server_or_skip()) as url:
        opened = await Store.open(url)
        yield opened
        await opened.close()


async def test_a_lease_has_one_holder_until_it_expires(store: Store) -> None:
    assert await store.take_lease("timer:1", "a", 100.0, 60.0)
    assert await store.take_lease("timer:1", "a", 110.0, 60.0)  # its holder again
    assert not await store.take_lease("timer:1", "b", 120.0, 60.0)
    assert await store.take_lease("timer:2", "b", 120.0, 60.0)  # another piece of work
    assert await store.take_lease("timer:1", "b", 170.0, 60.0)  # a's ran out at 170
    await store.release_lease("timer:1", "a")  # not a's any more: nothing happens
    assert not await store.take_lease("timer:1", "a", 171.0, 60.0)
    await store.release_lease("timer:1", "b")
    assert await store.take_lease("timer:1", "a", 172.0, 60.0)


async def test_leases_asked_at_once_go_to_one(store: Store) -> None:
    got = await asyncio.gather(*(store.take_lease("post:9", f"p{n}", 50.0, 60.0)
                                 for n in range(8)))
    assert sum(got) == 1


async def test_one_reminder_a_day_per_user_even_asked_at_once(store: Store) -> None:
    got = await asyncio.gather(*(store.claim_reminder("u1", 1000.0, 86400.0)
                                 for _ in range(6)))
    assert sum(got) == 1
    assert not await store.claim_reminder("u1", 1000.0 + 86399.0, 86400.0)
    assert await store.claim_reminder("u1", 1000.0 + 86400.0, 86400.0)
    assert await store.last_reminded("u1") == 1000.0 + 86400.0


async def test_a_process_does_the_timers_of_its_own_servers(tmp_path: Path) -> None:
    now = [1_700_000_000.0]
    service = await GameService.open(tmp_path / "g.sqlite3", clock=lambda: now[0])
    try:
        ids = {}
        for shard, guild in ((0, str(1000 << 22)), (1, str(1001 << 22))):
            where = Where(guild, "c")
            await service.create(where, User(f"{shard}1", "A"),
                                 GameOptions(seed=1, turn_timer=300))
            await service.join(where, User(f"{shard}2", "B"))
            ids[shard] = (await service.start(where, User(f"{shard}1", "A"))).game_id
        service.shards = Shards.of([1], 2)
        reports = await service.check_timers(now=now[0] + 301)
        assert [r.game_id for r in reports] == [ids[1]]
        assert [r.reason for r in reports] == ["reminder"]
        service.shards = Shards.of([0], 2)
        assert [r.game_id for r in await service.check_timers(now=now[0] + 302)] == [ids[0]]
        owed = {p.game_id for p in await service.pending_posts()}
        assert owed == {ids[0]}  # game 1's owed post is the other process's
    finally:
        await service.close()


def _command_syncs(requests: Sequence[object]) -> int:
    return sum(1 for r in requests if getattr(r, "method", "") == "PUT"
               and str(getattr(r, "path", "")).endswith("/commands"))


@pytest.mark.parametrize(("shards", "syncs"), [("0", 1), ("1", 0), (None, 1)])
async def test_only_shard_zeros_process_registers_the_commands(
        tmp_path: Path, shards: str | None, syncs: int) -> None:
    from tests.bot.conftest import offline_bot

    env = {} if shards is None else {"CARCA_SHARDS": shards, "CARCA_SHARD_COUNT": "2"}
    async with offline_bot(tmp_path / "bot.sqlite3", env) as h:
        assert _command_syncs(h.fake.requests) == syncs
        preferred = Settings.from_env(env).shards
        if preferred is None:
            assert h.bot.service.shards is None and h.bot.keeper is None
        else:  # held through leases, its range the preference (on SQLite: all its own)
            assert h.bot.service.shards is h.bot.keeper and h.bot.keeper is not None
            assert h.bot.keeper.preferred == preferred and h.bot.keeper.ids == preferred.ids
        expected = {} if shards is None else {"shard_ids": [int(shards)], "shard_count": 2}
        assert {k: getattr(h.bot, k) for k in expected} == expected


async def test_ai_turns_and_event_timers_are_resumed_by_their_servers_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process resumes the AI turns and runs the event timers of its own servers only
    (another process does the rest): else each process would think for every AI game."""
    from types import SimpleNamespace

    service = await GameService.open(tmp_path / "g.sqlite3")
    try:
        ids = {}
        for shard, guild in ((0, str(1000 << 22)), (1, str(1001 << 22))):
            view = await service.create(Where(guild, "c"), User(f"{shard}1", "A"),
                                        GameOptions(seed=1))
            ids[shard] = view.game_id
        resumed: list[int] = []
        events: list[int] = []

        async def ai_games() -> list[int]:
            return [ids[0], ids[1]]

        async def act_on(game_id: int, *args: object, **kwargs: object) -> None:
            resumed.append(game_id)

        async def running(**kwargs: object) -> list[SimpleNamespace]:
            return [SimpleNamespace(id=7, guild_id=str(1000 << 22)),
                    SimpleNamespace(id=8, guild_id=str(1001 << 22))]

        async def missed(event_id: int) -> None:
            events.append(event_id)

        async def timers(event_id: int, now: float) -> list[object]:
            return []

        monkeypatch.setattr(service.store, "ai_games", ai_games)
        monkeypatch.setattr(service.store, "events", running)
        monkeypatch.setattr(service, "_act_on", act_on)
        monkeypatch.setattr(service, "_take_missed_reports", missed)
        monkeypatch.setattr(service, "_event_timers", timers)
        service.shards = Shards.of([1], 2)
        assert await service.resume_ai_turns() == 1 and resumed == [ids[1]]
        await service.check_events(now=1_700_000_000.0)
        assert events == [8]
        service.shards = None  # one process: everything
        resumed.clear()
        events.clear()
        assert await service.resume_ai_turns() == 2
        await service.check_events(now=1_700_000_000.0)
        assert events == [7, 8]
    finally:
        await service.close()
