"""Erasing a player (issue 32), on SQLite and PostgreSQL: afterwards no table holds their
id or name; every other player's ratings, rating history, results, standings and
exported records are byte for byte as before (the pseudonym aside); every stored game
still replays; `privacy_export` listed every row the erasure removed or rewrote."""

from __future__ import annotations

import json
from typing import Any

import pytest

from carca_bot.engine.record import replay
from carca_bot.league import EventConfig, Format
from carca_bot.service import GameOptions, GameService, MessageRef, NotNow, User, Where
from carca_bot.service.live import rebuild
from carca_bot.store.privacy_map import TABLES
from carca_bot.words.privacy import former_player
from tests.privacy.world import (
    ADMIN,
    BEN,
    CY,
    DEE,
    G1,
    G2,
    ZOE,
    Snapshot,
    World,
    finished_world,
    live_world,
    occurrences,
    played_out,
    row_key,
    snapshot,
)
from tests.service.helpers import Clock

NOWHERE = Where("", "")
# The game languages of `finished_world`: what the pseudonym reads in each.
LANGUAGE = {"duel": "en", "three": "es", "cup-r1-1": "en", "cup-r1-2": "en"}


async def records(service: GameService) -> dict[int, dict[str, Any]]:
    """Every stored game's exported record, by game."""
    out = {}
    for game_id in await service.store.game_ids():
        row = await service.store.game(game_id)
        if row is not None and row.status != "lobby":
            out[game_id] = await service.export(NOWHERE, game_id)
    return out


def renamed(record: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The record with one player's name changed, in `players` and in `by`."""
    return {**record, "players": [new if p == old else p for p in record["players"]],
            "actions": [{**a, "by": new} if a.get("by") == old else a
                        for a in record["actions"]]}


def others(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The rows of everyone but Zoë (as she was, and as her pseudonym)."""
    return {k: r for k, r in rows.items() if r["user_id"] not in (ZOE.id, "former:1")}


async def erase(service: GameService) -> None:
    plan = await service.erase_plan(ZOE.id)
    await service.erase_user(ZOE.id, plan.token, former_player)


async def test_erased_without_a_trace_and_nobody_else_changes(service: GameService,
                                                              clock: Clock) -> None:
    world = await finished_world(service, clock)
    assert await occurrences(service, ZOE.id, ZOE.name)  # she is everywhere before
    before, shown = await snapshot(service), await service.privacy_export(ZOE.id)
    records_before = await records(service)
    standings_before = await service.event_standings(world.events["cup"])
    plan = await service.erase_plan(ZOE.id)
    assert [(g.game_id, g.action) for g in plan.games] == [(world.games["study"], "delete")]
    assert plan.events == () and plan.rows == sum(len(r) for r in shown["tables"].values())
    erased = await service.erase_user(ZOE.id, plan.token, former_player)
    assert erased.pseudonym_id == "former:1"
    assert set(erased.messages) == {MessageRef("dm-zoe-777", "778"), MessageRef("555", "779")}
    assert await occurrences(service, ZOE.id, ZOE.name) == []
    after = await snapshot(service)
    assert_listed(before, after, shown)
    for table in ("ratings", "rating_history", "game_results"):
        assert others(after[table]) == others(before[table]), table
    standings = await service.event_standings(world.events["cup"])
    assert [(s.place, s.wins, s.scored) for s in standings] == [
        (s.place, s.wins, s.scored) for s in standings_before]
    assert {s.player: s.name for s in standings} == {
        ("former:1" if s.player == ZOE.id else s.player):
            (former_player(1, "en") if s.player == ZOE.id else s.name)
        for s in standings_before}
    await assert_records(service, world, records_before)


def assert_listed(before: Snapshot, after: Snapshot, shown: dict[str, Any]) -> None:
    """Every row the erasure removed or changed was in the export, and nothing else."""
    touched = {(t, k) for t, rows in before.items() for k, row in rows.items()
               if after[t].get(k) != row}
    listed = {(t, row_key(t, row)) for t, rows in shown["tables"].items() for row in rows}
    assert touched == listed


async def assert_records(service: GameService, world: World,
                         records_before: dict[int, dict[str, Any]]) -> None:
    """Every game left replays; the records of games without her are the same bytes, of
    games with her the same with the pseudonym for her name."""
    records_after = await records(service)
    assert set(records_after) == set(records_before) - {world.games["study"]}
    by_id = {v: k for k, v in world.games.items()}
    for game_id, record in records_after.items():
        data = await service.store.load(game_id)
        assert data is not None and rebuild(data).game is not None
        status, result = replay(record)
        assert status == 0, result
        old = records_before[game_id]
        if ZOE.name in old["players"]:
            pseudonym = former_player(1, LANGUAGE[by_id[game_id]])
            assert record == renamed(old, ZOE.name, pseudonym)
            scores = replay(old)[1]["scores"]
            assert result["scores"] == {pseudonym if n == ZOE.name else n: v
                                        for n, v in scores.items()}
        else:
            assert json.dumps(record) == json.dumps(old)


async def test_running_games_are_left_first_as_the_plan_says(service: GameService,
                                                             clock: Clock) -> None:
    world = await live_world(service, clock)
    plan = await service.erase_plan(ZOE.id)
    assert [(g.game_id, g.action) for g in plan.games] == [
        (world.games["study"], "delete"), (world.games["running"], "resign"),
        (world.games["lobby"], "leave")]
    assert [e.event_id for e in plan.events] == [world.events["spring"]]
    ratings_before = others((await snapshot(service))["ratings"])
    await service.erase_user(ZOE.id, plan.token, former_player)
    assert await occurrences(service, ZOE.id, ZOE.name) == []
    running = await service.status(NOWHERE, game_id=world.games["running"])
    assert running.status == "active"  # Ben and Cy play on
    assert [(s.name, s.resigned) for s in running.seats if s.resigned] == [
        (former_player(1, "en"), True)]
    assert {s.user_id for s in running.seats} == {"former:1", BEN.id, CY.id}
    lobby = await service.status(Where(G2, "lobby"))
    assert [s.user_id for s in lobby.seats] == [DEE.id]  # Dolores hosts it now
    spring = await service.event_info(world.events["spring"])
    assert [e.player for e in spring.event.entrants] == [BEN.id]
    assert others((await snapshot(service))["ratings"]) == ratings_before
    for game_id in await service.store.game_ids():
        data = await service.store.load(game_id)
        assert data is not None
        rebuild(data)


async def test_a_plan_that_changed_is_refused_and_nothing_is_erased(
        service: GameService, clock: Clock) -> None:
    await finished_world(service, clock)
    plan = await service.erase_plan(ZOE.id)
    await service.create(Where("333", "new"), ZOE, GameOptions(seed=1))
    before = await snapshot(service)
    with pytest.raises(NotNow) as refused:
        await service.erase_user(ZOE.id, plan.token, former_player)
    assert refused.value.code == "erase_plan_changed"
    assert await snapshot(service) == before
    plan = await service.erase_plan(ZOE.id)
    assert "leave" in {g.action for g in plan.games}
    await service.erase_user(ZOE.id, plan.token, former_player)
    assert await occurrences(service, ZOE.id, ZOE.name) == []


async def test_each_erased_player_has_a_number_of_their_own(service: GameService,
                                                            clock: Clock) -> None:
    """Two erased players of one game get different pseudonyms, in every table, and a
    number already taken as a name (in any language, any case) is passed over."""
    world = await finished_world(service, clock)
    posing = User(DEE.id, "ANTIGUO JUGADOR 1")
    await played_out(service, Where("333", "posing"), [posing, CY], 8, clock)
    await erase(service)
    ben = await service.erase_plan(BEN.id)
    await service.erase_user(BEN.id, ben.token, former_player)
    record = await service.export(NOWHERE, world.games["duel"])
    assert record["players"] in (["Former player 2", "Former player 3"],
                                 ["Former player 3", "Former player 2"])
    assert replay(record)[0] == 0
    ratings = {r.user_id: r.name for r in await service.store.ratings(G1)}
    assert ratings["former:2"] == "Antiguo jugador 2"  # the server speaks Spanish
    assert ratings["former:3"] == "Antiguo jugador 3"
    assert await occurrences(service, BEN.id, BEN.name) == []


async def test_another_process_sees_the_pseudonym_at_once(service: GameService,
                                                          db_target: str, clock: Clock) -> None:
    """A bot process that has her games in memory reloads them: the erasure bumps the
    version of every game it rewrites."""
    world = await finished_world(service, clock)
    other = await GameService.open(db_target, clock=clock)
    try:
        seen = await other.status(NOWHERE, game_id=world.games["duel"])
        assert ZOE.name in [s.name for s in seen.seats]
        await erase(service)
        seen = await other.status(NOWHERE, game_id=world.games["duel"])
        assert [s.user_id for s in seen.seats if s.name == "Former player 1"] == ["former:1"]
    finally:
        await other.close()


async def test_show_is_everything_stored_about_the_caller(service: GameService,
                                                          clock: Clock) -> None:
    world = await finished_world(service, clock)
    shown = await service.privacy_export(ZOE.id)
    assert shown["format"] == "carca-privacy/1" and shown["user_id"] == ZOE.id
    tables = shown["tables"]
    assert {r["language"] for r in tables["language_prefs"]} == {"es"}
    assert [(r["mode"], r["early"]) for r in tables["notify_prefs"]] == [("dm", 1)]
    assert {r["game_id"] for r in tables["seats"]} >= {world.games["duel"],
                                                      world.games["three"]}
    assert all(a["user_id"] in (ZOE.id, None) for a in tables["actions"])
    assert all(a["action"].get("by") == ZOE.name for a in tables["actions"]
               if a["game_id"] != world.games["study"])
    assert json.loads(json.dumps(shown)) == shown  # plain JSON
    assert {t for t in tables} <= set(TABLES)
    assert await service.privacy_export(DEE.id) != shown
    assert (await service.privacy_export("100000000000000099"))["tables"] == {}


async def test_show_keeps_a_running_games_secrets(service: GameService, clock: Clock) -> None:
    """The seed of a game still dealing tells every tile to come; the turn another
    player has not confirmed is theirs: neither is in the export until the game ends."""
    world = await live_world(service, clock)
    running = await service.store.game(world.games["running"])
    assert running is not None and running.seed is not None
    view = await service.status(NOWHERE, game_id=world.games["running"])
    mover = next(u for u in (BEN, CY, ZOE) if view.deciding and view.deciding.user_id == u.id)
    place = (await service.legal_moves(Where(G1, "running"), mover)).placements[0]
    await service.place_tile(Where(G1, "running"), mover, *place)
    rows = {r["id"]: r for r in (await service.privacy_export(ZOE.id))["tables"]["games"]}
    shown = rows[running.id]
    assert shown["seed"] is None and shown["pending"] is None
    assert shown["options"]["seed"] is None and running.options["seed"] == running.seed
    duel = await service.store.game(world.games["duel"])
    assert duel is not None and rows[duel.id]["seed"] == duel.seed  # over: public


async def test_a_running_event_forfeits_her_open_match(service: GameService,
                                                       clock: Clock) -> None:
    """Withdrawn from a running event: her open duel is forfeited to her opponent and
    its game cancelled; the other match and everyone else's standing are untouched."""
    await service.set_organiser_role(G1, ADMIN, "role-org")
    info = await service.create_event(Where(G1, "hall"), ADMIN, "Summer cup",
                                      EventConfig(Format.SWISS, rounds=2), GameOptions())
    for user in (ZOE, BEN, CY, DEE):
        info = await service.sign_up(info.id, user)
    info, pairings = await service.start_event(info.id, ADMIN)
    for p in pairings:
        await service.open_event_game(p.event_id, p, Where(G1, f"summer-{p.match_id}"))
    hers = next(p for p in pairings if ZOE in p.players)
    rival = next(u for u in hers.players if u != ZOE)
    plan = await service.erase_plan(ZOE.id)
    assert [e.event_id for e in plan.events] == [info.id]
    assert [g.action for g in plan.games] == ["resign"]
    await service.erase_user(ZOE.id, plan.token, former_player)
    assert await occurrences(service, ZOE.id, ZOE.name) == []
    after = await service.event_info(info.id)
    assert after.event.match(hers.match_id).winner == rival.id
    assert (await service.status(Where(G1, f"summer-{hers.match_id}"))).status == "cancelled"
    others_match = next(p for p in pairings if ZOE not in p.players)
    assert (await service.status(Where(G1, f"summer-{others_match.match_id}"))).status == "active"
    entrant = next(e for e in after.event.entrants if e.player == "former:1")
    assert entrant.name == "Former player 1" and entrant.withdrawn
