"""A database with a bit of everything a player leaves behind, made through the service
as players would (games played out and resigned, an event with a ruling, preferences),
plus the rows only a front end or a timer writes (pings, vote messages, hints), and
ways to look at all of it: every row of every table, and where a text occurs."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from carca_bot.league import EventConfig, Format
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import Actor, GameOptions, GameService, TurnView, User, Where
from carca_bot.store.privacy_map import TABLES, live_columns, quoted
from tests.service.helpers import Clock

ZOE = User("100000000000000071", "Zoë Quill")  # the one who asks to be erased
BEN = User("100000000000000072", "Benedikt")
CY = User("100000000000000073", "Cyrano")
DEE = User("100000000000000074", "Dolores")
ADMIN = Actor("100000000000000079", "Olga", admin=True)
G1 = "111111111111111111"
G2 = "222222222222222222"
DAY = 24 * 3600.0


@dataclass
class World:
    games: dict[str, int] = field(default_factory=dict)  # by a name the tests use
    events: dict[str, int] = field(default_factory=dict)


async def played_out(service: GameService, where: Where, users: list[User], seed: int,
                     clock: Clock, language: str = "en", thread: bool = False) -> TurnView:
    """A game created, joined, started and played to its end with random legal moves."""
    await service.create(where, users[0], GameOptions(seed=seed, language=language),
                         new_thread=thread)
    for user in users[1:]:
        await service.join(where, user)
    view = await service.start(where, users[0])
    rng = random.Random(seed)
    people = {u.id: u for u in users}
    while not view.finished:
        clock.now += 13
        assert view.deciding is not None and view.deciding.user_id is not None
        view, _ = await play_random_move(service, where, people[view.deciding.user_id], rng)
    return view


async def resigned(service: GameService, where: Where, users: list[User], leavers: list[User],
                   clock: Clock, language: str = "en", moves: int = 4) -> TurnView:
    """A game played a few moves, then left by `leavers` in order."""
    view = await started(service, where, users, clock, language, moves)
    for user in leavers:
        clock.now += 30
        view = await service.resign(where, user)
    return view


async def started(service: GameService, where: Where, users: list[User], clock: Clock,
                  language: str = "en", moves: int = 4) -> TurnView:
    await service.create(where, users[0], GameOptions(seed=len(users) * 11 + moves,
                                                      language=language))
    for user in users[1:]:
        await service.join(where, user)
    view = await service.start(where, users[0])
    rng = random.Random(moves)
    people = {u.id: u for u in users}
    for _ in range(moves):
        clock.now += 20
        assert view.deciding is not None and view.deciding.user_id is not None
        view, _ = await play_random_move(service, where, people[view.deciding.user_id], rng)
    return view


async def finished_world(service: GameService, clock: Clock) -> World:
    """Only what is over: finished games of two servers, a finished event with a ruling
    that names Zoë, a record she imported, and her settings."""
    world = World()
    await service.set_language("guild", G1, "es")
    await service.set_language("user", ZOE.id, "es")
    await service.set_notify(ZOE.id, "dm", True)
    await service.store.add_vacation(ZOE.id, clock.now + DAY, clock.now + 3 * DAY)
    assert await service.store.claim_reminder(ZOE.id, clock.now, DAY)
    duel = await played_out(service, Where(G1, "duel"), [ZOE, BEN], 3, clock, thread=True)
    world.games["duel"] = duel.game_id
    three = await resigned(service, Where(G1, "three"), [ZOE, BEN, CY], [CY, BEN], clock, "es")
    world.games["three"] = three.game_id
    world.games["other"] = (await played_out(service, Where(G2, "other"), [BEN, CY], 5,
                                             clock)).game_id
    world.games["g1_without"] = (await resigned(service, Where(G1, "without"), [BEN, DEE],
                                                [DEE], clock)).game_id
    world.events["cup"] = await finished_event(service, world, clock)
    record = await service.export(Where(G2, "other"))
    imported = await service.import_record(Where(G1, "study"), ZOE, record)
    world.games["study"] = imported.game_id
    await front_end_rows(service, world, clock)
    return world


async def finished_event(service: GameService, world: World, clock: Clock) -> int:
    """A one-round Swiss of four in G1; Zoë's match gets a ruling that names her."""
    await service.set_organiser_role(G1, ADMIN, "role-org")
    info = await service.create_event(Where(G1, "hall"), ADMIN, "Cup of Zoë Quill",
                                      EventConfig(Format.SWISS, rounds=1), GameOptions())
    for user in (ZOE, BEN, CY, DEE):
        info = await service.sign_up(info.id, user)
    info, pairings = await service.start_event(info.id, ADMIN)
    for p in pairings:
        where = Where(G1, f"cup-{p.match_id}")
        await service.open_event_game(p.event_id, p, where)
        loser = max(p.players, key=lambda u: u.id)
        clock.now += 60
        await service.resign(where, loser)
        world.games[f"cup-{p.match_id}"] = (await service.status(where)).game_id
    zoes = next(p for p in pairings if ZOE in p.players)
    other = next(u for u in zoes.players if u != ZOE)
    await service.override_result(info.id, ADMIN, zoes.match_id, [[(ZOE.id, 40), (other.id, 10)]],
                                  note=f"{ZOE.name} played on after the game ended")
    await service.check_events(clock.now)  # announces the final standings: finished
    assert (await service.event_info(info.id)).status == "finished"
    return info.id


async def front_end_rows(service: GameService, world: World, clock: Clock) -> None:
    """What the Discord side and the timers keep: a card and the last ping (to Zoë, in
    her DM channel), a vote message about her, a hint she asked for, a take-back."""
    duel = world.games["duel"]
    await service.set_card_message(duel, "555", "556")
    await service.set_ping_message(duel, "dm-zoe-777", "778", ZOE.id, 40)
    await service.store.add_vote_message(duel, "expel", ZOE.id, "555", "779")
    await service.store.add_vote_message(duel, "takeback", "3", "555", "780")
    await service.store.add_hint(duel, 2, 0, ZOE.id, clock.now, [{"move": "recall"}])
    await service.store.open_takeback(duel, 2, 3, ZOE.id, 0, clock.now)
    await service.set_card_message(world.games["other"], "655", "656")
    await service.set_ping_message(world.games["other"], "655", "657", BEN.id, 30)
    await service.check_timers(clock.now)  # takes and gives back leases


async def live_world(service: GameService, clock: Clock) -> World:
    """The finished world, and what is not over: a running game of three, a lobby she
    hosts, an event taking sign-ups."""
    world = await finished_world(service, clock)
    world.games["running"] = (await started(service, Where(G1, "running"), [ZOE, BEN, CY],
                                            clock, moves=5)).game_id
    await service.create(Where(G2, "lobby"), ZOE, GameOptions(seed=9))
    world.games["lobby"] = (await service.join(Where(G2, "lobby"), DEE)).game_id
    info = await service.create_event(Where(G1, "hall"), ADMIN, "Spring cup",
                                      EventConfig(Format.SWISS, rounds=2), GameOptions())
    for user in (ZOE, BEN):
        info = await service.sign_up(info.id, user)
    world.events["spring"] = info.id
    return world


# -- looking at the whole database ---------------------------------------------------------

Snapshot = dict[str, dict[str, dict[str, Any]]]  # table -> key (JSON) -> row


async def snapshot(service: GameService) -> Snapshot:
    """Every row of every table, by its key (every column for a table without one)."""
    out: Snapshot = {}
    db = service.store._db
    for table, spec in TABLES.items():
        names = list(spec.columns)
        rows = await db.execute_fetchall(
            f"SELECT {', '.join(quoted(c) for c in names)} FROM {table}")
        out[table] = {}
        for values in rows:
            row = dict(zip(names, values, strict=True))
            out[table][row_key(table, row)] = row
    return out


def row_key(table: str, row: dict[str, Any]) -> str:
    spec = TABLES[table]
    return json.dumps([row[c] for c in spec.key or spec.columns])


async def occurrences(service: GameService, *needles: str) -> list[str]:
    """Every stored value (of every table and column the database has) that contains
    one of the needles, as "table.column: value"."""
    db = service.store._db
    found = []
    for table, columns in (await live_columns(db, db.kind)).items():
        quoted_names = ", ".join(quoted(c) for c in columns)
        for values in await db.execute_fetchall(f"SELECT {quoted_names} FROM {table}"):
            for column, value in zip(columns, values, strict=True):
                if value is not None and any(n in str(value) for n in needles):
                    found.append(f"{table}.{column}: {str(value)[:200]}")
    return found
