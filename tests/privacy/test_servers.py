"""Servers the bot left and games past retention, on SQLite and PostgreSQL: a removed
server's rows are gone after the grace period and kept when the bot returns in time;
other servers' rows and players' own settings are untouched; finished games are
deleted after the retention time only when it is set."""

from __future__ import annotations

from typing import Any

import pytest

from carca_bot.service import GameService, PrivacySettings, SettingError, Where
from carca_bot.service.privacy_servers import PERIOD
from carca_bot.service.shards import Shards, shard_of
from carca_bot.store.privacy_map import TABLES
from tests.privacy.world import (
    BEN,
    CY,
    DAY,
    DEE,
    G1,
    G2,
    ZOE,
    Snapshot,
    finished_world,
    played_out,
    resigned,
    snapshot,
    started,
)
from tests.service.helpers import Clock


def of_server(rows: Snapshot, guild: str, games: set[int], events: set[int]
              ) -> list[str]:
    """The rows that belong to the server: by its id, or to its games or events."""
    out = []
    for table, by_key in rows.items():
        spec = TABLES[table]
        for key, row in by_key.items():
            mine = (spec.server is not None and row[spec.server] == guild
                    and (spec.server_when is None
                         or row[spec.server_when[0]] == spec.server_when[1]))
            mine = mine or (spec.game is not None and row[spec.game] in games)
            mine = mine or (spec.event is not None and row[spec.event] in events)
            if mine:
                out.append(f"{table} {key}")
    return out


def ids(rows: Snapshot, table: str, guild: str) -> set[int]:
    return {int(r["id"]) for r in rows[table].values() if r["guild_id"] == guild}


def without(rows: Snapshot, gone: list[str]) -> dict[str, dict[str, Any]]:
    """The rows but those `gone`, and but the tables that change with time alone
    (leases; usage, a day old at most) or are the departures themselves."""
    return {t: {k: r for k, r in by_key.items() if f"{t} {k}" not in gone}
            for t, by_key in rows.items() if t not in ("leases", "usage", "guild_departures")}


async def test_a_server_left_is_forgotten_after_the_grace_period(service: GameService,
                                                                 clock: Clock) -> None:
    await finished_world(service, clock)
    await started(service, Where(G1, "still-running"), [BEN, CY], clock)
    before = await snapshot(service)
    g1 = of_server(before, G1, ids(before, "games", G1), ids(before, "league_events", G1))
    assert {line.split()[0] for line in g1} >= {
        "games", "seats", "actions", "game_results", "ratings", "rating_history",
        "league_events", "event_games", "organiser_roles", "language_prefs", "usage"}
    due = await service.guild_left(G1)
    assert due == clock.now + 30 * DAY
    clock.now += 29 * DAY
    await service.check_timers(clock.now)
    assert of_server(await snapshot(service), G1, ids(before, "games", G1),
                     ids(before, "league_events", G1)) != []
    assert await service.guild_left(G1) == due  # told again: the first time holds
    clock.now += 2 * DAY
    await service.check_timers(clock.now)
    after = await snapshot(service)
    assert of_server(after, G1, ids(before, "games", G1), ids(before, "league_events", G1)) == []
    assert without(after, []) == without(before, g1)  # G2's games, everyone's settings
    assert after["notify_prefs"] and after["vacations"]
    assert await service.departures() == []


async def test_coming_back_in_time_keeps_everything(service: GameService,
                                                    clock: Clock) -> None:
    await finished_world(service, clock)
    before = await snapshot(service)
    await service.guild_left(G1)
    clock.now += 10 * DAY
    assert await service.guild_back(G1)
    assert not await service.guild_back(G1)
    clock.now += 60 * DAY
    await service.check_timers(clock.now)
    assert without(await snapshot(service), []) == without(before, [])


async def test_the_operator_forgets_a_server_at_once(service: GameService,
                                                     clock: Clock) -> None:
    await finished_world(service, clock)
    before = await snapshot(service)
    g2 = of_server(before, G2, ids(before, "games", G2), set())
    counts = await service.forget_guild(G2)
    assert counts["games"] == len(ids(before, "games", G2)) and counts["seats"] >= 2
    assert without(await snapshot(service), []) == without(before, g2)


async def test_the_servers_present_at_start_up_settle_departures(
        service: GameService, clock: Clock) -> None:
    """At start-up the bot says which servers it is in: one with data it is no longer
    in is left, one waiting for deletion that it is in again is back; DMs ("0") and
    the terminal's tables are never left; with shards, only this process's servers."""
    await played_out(service, Where(G1, "a"), [BEN, CY], 3, clock)
    await played_out(service, Where(G2, "b"), [BEN, CY], 4, clock)
    await resigned(service, Where("0", "dm"), [BEN, DEE], [DEE], clock)
    await resigned(service, Where("local", "terminal-1"), [BEN, DEE], [DEE], clock)
    assert await service.guilds_present({G1}) == ([G2], [])
    assert [g for g, _, _ in await service.departures()] == [G2]
    assert await service.guilds_present({G1, G2}) == ([], [G2])
    assert await service.departures() == []
    theirs = 1 - shard_of(G2, 2)
    service.shards = Shards.of([theirs], 2)  # another process runs G2
    assert await service.guilds_present({G1}) == ([], [])
    service.shards = Shards.of([1 - theirs], 2)
    assert await service.guilds_present({G1}) == ([G2], [])


async def test_finished_games_go_after_the_retention_time_only_if_set(
        service: GameService, clock: Clock) -> None:
    old = await played_out(service, Where(G1, "old"), [ZOE, BEN], 3, clock)
    cancelled = await started(service, Where(G1, "cancelled"), [BEN, CY], clock)
    await service.cancel(Where(G1, "cancelled"), BEN)
    clock.now += 10 * DAY
    recent = await resigned(service, Where(G1, "recent"), [BEN, CY], [CY], clock)
    running = await started(service, Where(G1, "running"), [ZOE, CY], clock)
    ratings = (await snapshot(service))["ratings"]
    clock.now += 5 * DAY
    await service.check_timers(clock.now)  # no retention set: nothing goes
    assert set(await service.store.game_ids()) == {old.game_id, cancelled.game_id,
                                                   recent.game_id, running.game_id}
    service.privacy = PrivacySettings(keep_finished=7 * DAY)
    await service.check_timers(clock.now)  # they looked a moment ago: not yet again
    assert len(await service.store.game_ids()) == 4
    clock.now += PERIOD
    await service.check_timers(clock.now)
    assert set(await service.store.game_ids()) == {recent.game_id, running.game_id}
    after = await snapshot(service)
    assert {r["game_id"] for r in after["game_results"].values()} == {recent.game_id}
    assert {r["game_id"] for r in after["actions"].values()} == {recent.game_id,
                                                                 running.game_id}
    assert after["ratings"] == ratings  # the ratings the old game gave stay


def test_settings_from_the_environment() -> None:
    assert PrivacySettings.from_env({}) == PrivacySettings(30 * DAY, None)
    assert PrivacySettings.from_env({"CARCA_LEAVE_GRACE_DAYS": "0",
                                     "CARCA_RETENTION_DAYS": " 365 "}) == PrivacySettings(
        0.0, 365 * DAY)
    for name, value in (("CARCA_LEAVE_GRACE_DAYS", "-1"), ("CARCA_LEAVE_GRACE_DAYS", "a week"),
                        ("CARCA_RETENTION_DAYS", "0"), ("CARCA_RETENTION_DAYS", "1.5"),
                        ("CARCA_RETENTION_DAYS", "²")):
        with pytest.raises(SettingError, match=name):
            PrivacySettings.from_env({name: value})
