"""Two bot processes on one PostgreSQL: every move, timer step, reminder and owed post
happens once, however the two race.

Two real OS processes (multiprocessing spawn, `driver.py`) run a `GameService` each on
one database. In each round both read every game, then at one barrier both send the
same move aimed at the same version: exactly one lands, the other is told the game
moved on. Then both fire the timers at the same instants (`check_timers(now=...)`):
each turn timer, lobby expiry, clock reminder and clock timeout is reported by exactly
one process. Then both ask for the owed posts at once: each game goes to one.
The process ranges overlap on purpose: A runs shards 0 and 1 of 2, B runs shard 1
only, so shard 1's games are raced and shard 0's are A's alone.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import Counter, defaultdict
from typing import Any

from carca_bot.service import GameOptions, GameService, User, Where
from carca_bot.service.clocks import HOUR, PRESETS
from carca_bot.service.shards import shard_of
from carca_bot.store import Store
from tests.scale.driver import Plan, run
from tests.store.pg_server import PgServer

T0 = 1_700_000_000.0
TIMER = 300
LIFETIME = 7 * 86400.0  # the default `Limits.lobby_lifetime`, as the drivers have
GUILDS = {0: str(1000 << 22), 1: str(1001 << 22)}  # a server on each of 2 shards
ROUNDS = 3
PROCESS_SECONDS = 240


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _set_up(url: str) -> dict[str, Any]:
    """Two timed games per shard (moved in, then auto-played), a clock game per shard (its
    own players: the one-a-day rule does not hold its reminder back) and an old lobby."""
    clock = Clock(T0 - LIFETIME - 60)
    service = await GameService.open(url, clock=clock)
    players: dict[str, str] = {}
    made: dict[str, list[Any]] = defaultdict(list)
    try:
        for shard, guild in GUILDS.items():
            host = User(f"9{shard}0", f"Host{shard}")
            await service.create(Where(guild, "lobby"), host, GameOptions())
            made["lobbies"].append((guild, "lobby"))
        clock.now = T0
        for shard, guild in GUILDS.items():
            assert shard_of(guild, 2) == shard
            for n in range(3):
                where = Where(guild, f"game-{n}")
                users = [User(f"{shard}{n}{k}", f"P{shard}{n}{k}") for k in range(2)]
                players.update((u.id, u.name) for u in users)
                options = (GameOptions(seed=10 * shard + n, clock=PRESETS["fast"]) if n == 2
                           else GameOptions(seed=10 * shard + n, turn_timer=TIMER,
                                            auto_play=True))
                await service.create(where, users[0], options)
                await service.join(where, users[1])
                view = await service.start(where, users[0])
                made["clock" if n == 2 else "timed"].append((guild, where.channel))
                made["ids"].append(view.game_id)
    finally:
        await service.close()
    made["players"] = [players]
    return made


async def _logs(url: str, ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    store = await Store.open(url)
    try:
        logs = {}
        for game_id in ids:
            data = await store.load(game_id)
            assert data is not None
            logs[game_id] = [a.action for a in data.actions]
        return logs
    finally:
        await store.close()


async def _owed(url: str) -> set[int]:
    store = await Store.open(url)
    try:
        return {u.game_id for u in await store.unposted(1000)}
    finally:
        await store.close()


async def _guilds(url: str) -> dict[int, str]:
    store = await Store.open(url)
    try:
        return await store.guilds_of(await store.game_ids())
    finally:
        await store.close()


def _processes(url: str, plans: dict[str, Plan]) -> dict[str, dict[str, Any]]:
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(len(plans))
    results = spawn.Queue()
    procs = [spawn.Process(target=run, args=(name, url, T0, plan, barrier, results),
                           name=f"carca-{name}") for name, plan in plans.items()]
    for proc in procs:
        proc.start()
    try:
        got = dict(results.get(timeout=PROCESS_SECONDS) for _ in procs)
    finally:
        for proc in procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()
    for name, out in got.items():
        assert "error" not in out, f"process {name} failed:\n{out['error']}"
    return got


def test_two_processes_apply_every_move_and_timer_once(pg_server: PgServer) -> None:
    from tests.store.pg_server import create_database, drop_database

    url = asyncio.run(create_database(pg_server))
    try:
        _check(url)
    finally:
        asyncio.run(drop_database(pg_server, url))


def _check(url: str) -> None:
    made = asyncio.run(_set_up(url))
    ids: list[int] = made["ids"]
    before = asyncio.run(_logs(url, ids))
    timed = tuple(made["timed"])
    times = (T0 + TIMER + 1, T0 + 4 * HOUR + 10, T0 + 8 * HOUR + 10)
    plans = {
        "A": Plan(timed, made["players"][0], ROUNDS, times, ((0, 1), 2)),
        "B": Plan(timed, made["players"][0], ROUNDS, times, ((1,), 2)),
    }
    got = _processes(url, plans)
    guilds = asyncio.run(_guilds(url))
    shard = {g: shard_of(guilds[g], 2) for g in guilds}

    # Every round, each game: the same move from both, one applied, one "moved on".
    by_aim: dict[tuple[int, int], list[str]] = defaultdict(list)
    for out in got.values():
        for move in out["moves"]:
            by_aim[(move["game"], move["from"])].append(move["outcome"])
    assert len(by_aim) == ROUNDS * len(timed)
    for aim, outcomes in by_aim.items():
        assert sorted(outcomes) == ["applied", "moved_on"], (aim, outcomes)

    # The timers: each game's step at each instant reported once, by one process.
    fired = Counter((r["game"], r["version"], r["reason"])
                    for out in got.values() for r in out["timers"])
    assert all(n == 1 for n in fired.values()), fired
    reasons = Counter(reason for (_, _, reason) in fired)
    # 4 timed games auto-played at each of 3 instants; 2 lobbies expired; the clock
    # games: a reminder at half their bank, then played for at its end.
    assert reasons == {"auto_played": 3 * 4 + 2, "lobby_expired": 2, "clock_reminder": 2}
    for r in got["B"]["timers"]:
        assert shard[r["game"]] == 1, "B runs shard 1 only"

    # The action log has each move once: what was there, then every applied move and
    # every timer's moves in version order, nothing twice, nothing missing.
    after = asyncio.run(_logs(url, ids))
    landed: dict[int, list[tuple[int, list[dict[str, Any]]]]] = defaultdict(list)
    for out in got.values():
        for move in out["moves"]:
            if move["outcome"] == "applied":
                landed[move["game"]].append((move["version"], move["played"]))
        for r in out["timers"]:
            if r["played"]:
                landed[r["game"]].append((r["version"], r["played"]))
    for game_id in ids:
        expected = list(before[game_id])
        for _, played in sorted(landed[game_id], key=lambda item: item[0]):
            expected.extend(played)
        assert after[game_id] == expected, game_id

    # The owed posts: each game to one process only, all of them to someone.
    posts_a = {p["game"] for p in got["A"]["posts"]}
    posts_b = {p["game"] for p in got["B"]["posts"]}
    assert not posts_a & posts_b
    assert posts_a | posts_b == asyncio.run(_owed(url))
    assert all(shard[g] == 1 for g in posts_b)
