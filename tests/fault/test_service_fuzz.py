"""Random commands, valid and not, by players and strangers: the service refuses cleanly.

Each example opens a fresh database and runs a random sequence of commands on two
channels: lobby commands, every turn command with random squares, rotations and
names, stale and future `expect` versions, timers, records in and out, and legal
moves drawn from `legal_moves` (so games get far enough for wagons, abbeys and
endings). After every command the invariants of `tests.fault.invariants` hold, and
the only exceptions that left the service were ServiceErrors.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar
from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import (
    GameOptions,
    GameService,
    Limits,
    TurnOrder,
    User,
    Where,
)
from tests.fault.invariants import allowed, assert_sound
from tests.service.helpers import Clock

T = TypeVar("T")
USERS = [User("100000000000000001", "Ana"), User("100000000000000002", "Ben"),
         User("100000000000000003", "Cy"), User("100000000000000004", "Ana"),  # same name
         User("100000000000000009", "Stranger  with   spaces" + "x" * 40)]
PLACES = [Where("guild-1", "channel-1"), Where("guild-1", "thread-2")]
SIDES = ["N", "E", "S", "W", "C", "G", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "I1",
         "I2", "NW", "NE", "SE", "SW", "", "X", "c", "N E", "∞"]
FIGURE_NAMES = ["follower", "abbot", "mayor", "wagon", "barn", "", "dragon", "FOLLOWER"]
ROTATIONS = [0, 90, 180, 270, 45, -90, 360, 1]
# In CI the examples are the same every run; locally each run explores new ones, and
# CARCA_FUZZ_EXAMPLES=1000 searches longer.
FUZZ = settings(max_examples=int(os.environ.get("CARCA_FUZZ_EXAMPLES", "60")), deadline=None,
                database=None, derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Small enough that the fuzz meets every limit now and then.
LIMITS = Limits(lobbies_per_user=1, lobbies_per_server=2, games_per_user=2, threads_per_day=2,
                imports_per_hour=3)

coords = st.one_of(st.integers(-4, 4), st.integers(-10**12, 10**12))


@dataclass
class Run:
    service: GameService
    clock: Clock
    data: st.DataObject
    versions: dict[int, int] = field(default_factory=dict)

    def draw(self, strategy: st.SearchStrategy[T]) -> T:
        return self.data.draw(strategy)

    def user(self) -> User:
        return self.draw(st.sampled_from(USERS))

    def place(self) -> Where:
        return self.draw(st.sampled_from([*PLACES, PLACES[0], PLACES[0]]))

    async def expect(self, where: Where) -> int | None:
        """None, or the game's version as it is, just was, or will be."""
        game_id = await self.service.store.live_game(where.guild, where.channel)
        row = await self.service.store.game(game_id) if game_id is not None else None
        current = row.version if row is not None else 0
        return self.draw(st.sampled_from([None, current, current, current - 1,
                                          current + 1]))


Op = Callable[[Run], Awaitable[object]]


async def op_create(r: Run) -> object:
    valid = r.draw(st.integers(0, 4)) > 0
    timer = r.draw(st.sampled_from([None, 60, 3600] if valid else [None, 30]))
    options = GameOptions(
        expansions=frozenset(r.draw(st.sets(st.sampled_from(EXPANSIONS), max_size=3))),
        wagon_rule=r.draw(st.sampled_from(["c2", "c1"] if valid else ["c2", "c3"])),
        turn_timer=timer,
        auto_play=r.draw(st.booleans()) and (timer is not None or not valid),
        max_players=r.draw(st.integers(1, 6) if valid else st.integers(0, 7)),
        allow_solo=r.draw(st.booleans()),
        seed=r.draw(st.one_of(st.none(), st.integers(0, 2**31 - 1))))
    where, user, thread = r.place(), r.user(), r.draw(st.booleans())
    if r.draw(st.booleans()):
        await r.service.check_can_create(where.guild, user.id, thread)
    return await r.service.create(where, user, options, new_thread=thread)


async def op_lobby(r: Run) -> object:
    where, user = r.place(), r.user()
    verb = r.draw(st.sampled_from(["join", "join", "leave", "start", "start", "resign",
                                   "cancel", "kick"]))
    expect = await r.expect(where)
    svc = r.service
    if verb == "join":
        return await svc.join(where, user, expect)
    if verb == "leave":
        return await svc.leave(where, user, expect)
    if verb == "start":
        return await svc.start(where, user, expect)
    if verb == "resign":
        return await svc.resign(where, user, expect)
    if verb == "cancel":
        return await svc.cancel(where, user, r.draw(st.booleans()), expect)
    target = r.draw(st.sampled_from([u.id for u in USERS] + ["nobody"]))
    return await svc.kick(where, user, target, r.draw(st.booleans()), expect)


async def op_turn(r: Run) -> object:
    """Any turn command, with arguments that are mostly wrong."""
    where, user, svc = r.place(), r.user(), r.service
    expect = await r.expect(where)
    verb = r.draw(st.sampled_from(["begin", "draw", "tile", "abbey", "skip", "deploy",
                                   "recall", "token", "confirm", "undo", "wagon", "return",
                                   "turn"]))
    x, y = r.draw(coords), r.draw(coords)
    if verb == "begin":
        return await svc.begin_turn(where, user)
    if verb == "draw":
        return await svc.draw(where, user, expect)
    if verb == "tile":
        return await svc.place_tile(where, user, x, y, r.draw(st.sampled_from(ROTATIONS)),
                                    expect)
    if verb == "abbey":
        return await svc.place_abbey(where, user, x, y, expect)
    if verb == "skip":
        return await svc.skip_abbey(where, user, expect)
    if verb == "deploy":
        return await svc.deploy(where, user, r.draw(st.sampled_from(FIGURE_NAMES)),
                                r.draw(st.one_of(st.sampled_from(SIDES), st.text(max_size=4))),
                                expect)
    if verb == "recall":
        return await svc.recall(where, user, expect)
    if verb == "token":
        return await svc.place_token(where, user, x, y, r.draw(st.sampled_from(SIDES)),
                                     r.draw(st.integers(-1, 4)), expect)
    if verb == "confirm":
        return await svc.confirm(where, user, expect)
    if verb == "undo":
        return await svc.undo(where, user, expect)
    if verb == "wagon":
        return await svc.move_wagon(where, user, x, y, r.draw(st.sampled_from(SIDES)), expect)
    if verb == "return":
        return await svc.return_wagon(where, user, expect)
    token = r.draw(st.one_of(st.none(), st.tuples(coords, coords, st.sampled_from(SIDES),
                                                  st.integers(-1, 4))))
    order = TurnOrder(at=(x, y), rot=r.draw(st.sampled_from(ROTATIONS)),
                      abbey=r.draw(st.booleans()),
                      figure=r.draw(st.one_of(st.none(), st.sampled_from(FIGURE_NAMES))),
                      on=r.draw(st.one_of(st.none(), st.sampled_from(SIDES))),
                      recall=r.draw(st.booleans()), token=token,
                      token_first=r.draw(st.booleans()))
    return await svc.play_turn(where, user, order, expect)


async def _decider(r: Run, where: Where) -> User | None:
    view = await r.service.status(where)
    if view.status != "active" or view.deciding is None:
        return None
    acting = view.deciding.user_id or view.host_id  # an imported game: the host plays all
    return next((u for u in USERS if u.id == acting), None)


async def op_legal(r: Run) -> object:
    """One legal step for whoever must act, chosen among `legal_moves`."""
    where, svc = r.place(), r.service
    user = await _decider(r, where)
    if user is None:
        return None
    c = await svc.legal_moves(where, user)
    options: list[Callable[[], Awaitable[object]]] = []
    pick = r.draw(st.randoms(use_true_random=False))
    if c.must == "choose":
        options.append(lambda: svc.draw(where, user))
    if c.abbey_squares:
        ax, ay = pick.choice(c.abbey_squares)
        options.append(lambda: svc.place_abbey(where, user, ax, ay))
    if c.placements:
        px, py, rot = pick.choice(c.placements)
        options.append(lambda: svc.place_tile(where, user, px, py, rot))
        options.append(lambda: svc.play_turn(where, user, TurnOrder(at=(px, py), rot=rot)))
    if c.deployments:
        figure, on = pick.choice(c.deployments)
        options.append(lambda: svc.deploy(where, user, figure, on))
    if c.can_recall:
        options.append(lambda: svc.recall(where, user))
    if c.tokens:
        tx, ty, side, pair = pick.choice(c.tokens)
        options.append(lambda: svc.place_token(where, user, tx, ty, side, pair))
    if c.can_confirm:
        options += [lambda: svc.confirm(where, user)] * 2
        options.append(lambda: svc.undo(where, user))
    if c.wagon_moves:
        wx, wy, won = pick.choice(c.wagon_moves)
        options.append(lambda: svc.move_wagon(where, user, wx, wy, won))
    if c.must == "wagon":
        options.append(lambda: svc.return_wagon(where, user))
    if c.can_skip_abbey:
        options.append(lambda: svc.skip_abbey(where, user))
    assert options, f"nothing legal to do, yet {user.name} must {c.must}"
    return await pick.choice(options)()


async def op_fast_forward(r: Run) -> object:
    """Several random committed moves, to reach the late game."""
    where = r.place()
    rng = r.draw(st.randoms(use_true_random=False))
    for _ in range(r.draw(st.integers(1, 40))):
        user = await _decider(r, where)
        if user is None:
            break
        await play_random_move(r.service, where, user, rng)
    return None


async def op_look(r: Run) -> object:
    where, user, svc = r.place(), r.user(), r.service
    verb = r.draw(st.sampled_from(["status", "game", "export", "legal", "mine", "old"]))
    if verb == "status":
        return await svc.status(where, user.id)
    if verb == "game":
        return await svc.game(where)
    if verb == "export":
        return await svc.export(where)
    if verb == "legal":
        return await svc.legal_moves(where, user)
    if verb == "mine":
        return await svc.my_games(user.id, r.draw(st.booleans()))
    return await svc.status(where, user.id, r.draw(st.integers(-1, 5)))


async def op_timers(r: Run) -> object:
    r.clock.now += r.draw(st.sampled_from([0, 59, 61, 3600, 3601, 86400]))
    return await r.service.check_timers()


async def op_import(r: Run) -> object:
    where, user, svc = r.place(), r.user(), r.service
    source = PLACES[1 - PLACES.index(where)]
    kind = r.draw(st.sampled_from(["export", "export", "garbage", "cut"]))
    if kind == "garbage":
        data: object = r.draw(st.sampled_from([None, [], {"format": "carca-record/1"},
                                               {"format": "carca-record/1", "players": ["A"],
                                                "actions": [{"end": True}]}, "{",
                                               b"{", b"[" * 20000, b"\xff\xfe",
                                               b" " * (LIMITS.record_bytes + 1),
                                               b'{"format": "carca-record/1", "players": '
                                               b'["A", "B"], "seed": 5, "actions": []}']))
        return await svc.import_record(where, user, data)
    record = await svc.export(source)
    if kind == "cut" and record["actions"]:
        record["actions"] = [*record["actions"][:-1], dict(record["actions"][-1], by="Nobody")]
    return await svc.import_record(where, user, record)


async def op_posts(r: Run) -> object:
    """The front end's side of the outbox: list, catch up, confirm (also wrongly)."""
    svc = r.service
    owed = await svc.pending_posts(r.draw(st.integers(1, 5)))
    ids = [p.game_id for p in owed] or await svc.store.game_ids()
    if not ids:
        return owed
    game_id = r.draw(st.sampled_from(ids))
    row = await svc.store.game(game_id)
    assert row is not None
    version = r.draw(st.sampled_from([row.posted_version, row.public_version, row.version,
                                      row.version + 3, 0, -1]))
    if r.draw(st.booleans()):
        catch_up = await svc.events_since(game_id, version)
        assert catch_up.view.tile is None  # a post for everybody: nobody's tile in it
        version = catch_up.version
    await svc.mark_posted(game_id, version)
    after = await svc.store.game(game_id)
    assert after is not None and after.posted_version >= row.posted_version  # never back
    return None


async def check_outbox_and_secrets(service: GameService) -> None:
    """Posts owed are never lost or invented, and no running game exports its seed."""
    for game_id in await service.store.game_ids():
        row = await service.store.game(game_id)
        assert row is not None
        assert 0 <= row.posted_version <= row.public_version <= row.version, row
        if row.public_version > row.posted_version:
            stored = await service.store.public_events(game_id, row.posted_version)
            assert stored and stored[-1].version == row.public_version
        if row.status == "active" and not row.options.get("analysis"):
            record = await service.export(Where(row.guild_id, row.channel_id), game_id)
            assert "seed" not in record


OPS: list[Op] = [op_create, op_lobby, op_lobby, op_lobby, op_turn, op_turn, op_legal,
                 op_legal, op_legal, op_legal, op_legal, op_legal, op_fast_forward, op_look,
                 op_timers, op_import, op_posts]


async def _host_and_players(r: Run) -> None:
    """Usually start from a dealt game, so most examples get to turns quickly."""
    if r.draw(st.integers(0, 3)) == 0:
        return
    where = PLACES[0]
    await r.service.create(where, USERS[0], GameOptions(
        expansions=frozenset(r.draw(st.sets(st.sampled_from(EXPANSIONS)))),
        seed=r.draw(st.integers(0, 999)), turn_timer=3600, auto_play=r.draw(st.booleans())))
    await r.service.join(where, USERS[1])
    await r.service.start(where, USERS[0])


@FUZZ
@given(data=st.data())
async def test_random_commands_never_break_a_game(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = Clock()
        service = await GameService.open(Path(folder) / "fuzz.sqlite3", clock=clock,
                                         synchronous="NORMAL", limits=LIMITS)
        run = Run(service, clock, data)
        viewers: list[str | None] = [None, USERS[0].id, USERS[4].id]
        seeds = mock.patch("carca_bot.service.lobby.secrets.randbits",  # replayable seeds
                           lambda bits: data.draw(st.integers(0, 2**bits - 1), label="seed"))
        try:
            seeds.start()
            await _host_and_players(run)
            for _ in range(data.draw(st.integers(5, 60), label="steps")):
                op = data.draw(st.sampled_from(OPS))
                try:
                    await op(run)
                    event(f"{op.__name__}: ok")
                except Exception as exc:
                    if not allowed(exc):
                        raise
                    event(f"{op.__name__}: {type(exc).__name__}")
                await assert_sound(service, run.versions, viewers)
                await check_outbox_and_secrets(service)
            for place in PLACES:
                game_id = await service.store.latest_game(place.guild, place.channel)
                row = await service.store.game(game_id) if game_id else None
                event(f"end: {row.status if row else 'no game'}, "
                      f"{'deep' if row and row.version > 60 else 'shallow'}")
        finally:
            seeds.stop()
            await service.close()


async def test_the_invariants_hold_over_a_whole_game(tmp_path: Path) -> None:
    """The checks themselves accept every stage of a game, up to its final scoring."""
    service = await GameService.open(tmp_path / "far.sqlite3", synchronous="NORMAL")
    try:
        where = PLACES[0]
        await service.create(where, USERS[0], GameOptions(seed=5, expansions=frozenset(
            EXPANSIONS)))
        await service.join(where, USERS[1])
        view = await service.start(where, USERS[0])
        rng, versions = random.Random(5), dict[int, int]()
        while not view.finished:
            assert view.deciding is not None
            user = next(u for u in USERS if u.id == view.deciding.user_id)
            view, _ = await play_random_move(service, where, user, rng)
            if view.moves % 10 == 0:
                await assert_sound(service, versions, [None, USERS[0].id])
        await assert_sound(service, versions, [None, USERS[0].id])
        assert view.outcome == "complete"
    finally:
        await service.close()

