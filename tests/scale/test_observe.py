"""Health checks and metrics (issue 30): `/healthz` fails when the Discord connection,
the event loop, the database or the worker pool is unhealthy, saying which and why;
`/metrics` has the commands and their latency, the posts owed, the loop's lag, the
database pool's queue and the games running. Served on a port of the test's own."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from carca_bot.observe import DiscordState, Observer, ObserveSettings, WorkerState
from carca_bot.observe.probe import main as probe
from carca_bot.service import GameOptions, GameService, NotAllowed
from carca_bot.service.shards import ShardLeases, Shards
from carca_bot.store import Unavailable
from tests.service.helpers import ANA, BEN, HERE, Clock, started


@dataclass
class Front:
    """What a front end tells the checks; the test changes it."""

    discord: DiscordState
    workers: WorkerState


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    opened = await GameService.open(tmp_path / "g.sqlite3", clock=Clock())
    yield opened
    await opened.close()


@pytest.fixture
def front() -> Front:
    return Front(DiscordState(True, 0.042), WorkerState(2, 2, 0, 16))


@pytest.fixture
async def observer(service: GameService, front: Front) -> AsyncIterator[Observer]:
    watching = Observer(service.store, ObserveSettings(port=0, max_lag=0.5, discord_grace=5.0),
                        discord=lambda: front.discord, workers=lambda: front.workers,
                        service=service)
    await watching.start()
    yield watching
    await watching.close()


async def _get(observer: Observer, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{observer.port}{path}") as answer:
        return answer.status, await answer.text()


async def _health(observer: Observer) -> tuple[int, dict[str, tuple[bool, str]]]:
    status, text = await _get(observer, "/healthz")
    body = json.loads(text)
    assert body["ok"] == (status == 200)
    return status, {c["check"]: (c["ok"], c["detail"]) for c in body["checks"]}


async def test_a_healthy_process(observer: Observer) -> None:
    status, checks = await _health(observer)
    assert status == 200, checks
    assert checks["discord"] == (True, "connected, heartbeat 42 ms")
    assert checks["database"] == (True, "sqlite, 0 of 1 connections in use, 0 waiting")
    assert checks["workers"] == (True, "2 of 2 workers alive, 0 of 16 queued")
    assert checks["event loop"][0]


async def test_discord_down_past_its_grace(observer: Observer, front: Front) -> None:
    clock = [1000.0]
    observer.health.clock = lambda: clock[0]
    front.discord = DiscordState(False, None, "shard 1 down")
    status, checks = await _health(observer)
    assert status == 200 and checks["discord"] == (True, "reconnecting for 0 s (shard 1 down)")
    clock[0] += 6
    status, checks = await _health(observer)
    assert status == 503 and checks["discord"] == (False, "not connected for 6 s (shard 1 down)")
    front.discord = DiscordState(True, 0.05)
    assert (await _health(observer))[0] == 200


async def test_a_blocked_event_loop(observer: Observer) -> None:
    await asyncio.sleep(observer.lag.interval * 2)
    time.sleep(0.8)  # what a heavy job run on the loop does
    await asyncio.sleep(observer.lag.interval * 2)
    status, checks = await _health(observer)
    assert status == 503
    ok, detail = checks["event loop"]
    assert not ok and "something blocks the loop" in detail


async def test_a_database_that_does_not_answer(observer: Observer, service: GameService,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    async def refused() -> None:
        raise Unavailable("cannot connect to the database server: refused")

    monkeypatch.setattr(service.store, "ping", refused)
    status, checks = await _health(observer)
    assert status == 503
    assert checks["database"] == (False, "cannot connect to the database server: refused")

    async def hangs() -> None:
        await asyncio.sleep(3600)

    monkeypatch.setattr(service.store, "ping", hangs)
    observer.health.database_timeout = 0.2
    status, checks = await _health(observer)
    assert status == 503 and checks["database"] == (False, "no answer within 0.2 s")


@pytest.mark.parametrize(("state", "why"), [
    (WorkerState(2, 0, 3, 16), "2 workers alive"),
    (WorkerState(2, 2, 16, 16), "the queue is full"),
])
async def test_an_unhealthy_worker_pool(observer: Observer, front: Front, state: WorkerState,
                                        why: str) -> None:
    front.workers = state
    status, checks = await _health(observer)
    assert status == 503 and not checks["workers"][0]
    assert why.split()[-1] in checks["workers"][1]


def _value(text: str, name: str, **labels: str) -> float:
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = re.escape(name + (f"{{{wanted}}}" if labels else "")) + r" ([0-9.e+-]+)$"
    found = re.search(pattern, text, re.MULTILINE)
    assert found, f"{name} {labels} not in the metrics"
    return float(found.group(1))


async def test_the_metrics(observer: Observer, service: GameService) -> None:
    view = await started(service)
    with pytest.raises(NotAllowed):
        await service.start(HERE, BEN)  # refused: counted as such
    await service.create(HERE.__class__("guild-1", "lobby"), ANA, GameOptions())
    service.shards = ShardLeases(Shards.of({1}, 2), service.store, service.holder,
                                 service.clock)
    await service.shards.renew()
    status, text = await _get(observer, "/metrics")
    assert status == 200
    assert _value(text, "carca_commands_total", command="create", outcome="ok") == 2
    assert _value(text, "carca_commands_total", command="start", outcome="ok") == 1
    assert _value(text, "carca_commands_total", command="start", outcome="refused") == 1
    assert _value(text, "carca_command_seconds_count", command="join") == 1
    assert _value(text, "carca_games_running") == 1 and _value(text, "carca_lobbies") == 1
    assert _value(text, "carca_posts_owed") == 1  # the start's post, not marked posted
    assert _value(text, "carca_db_pool_size") == 1
    assert _value(text, "carca_db_pool_waiting") == 0
    assert _value(text, "carca_workers_alive") == 2
    assert _value(text, "carca_discord_connected") == 1
    assert _value(text, "carca_shard_held", shard="1") == 1
    assert _value(text, "carca_shard_held", shard="0") == 0
    assert _value(text, "carca_health_ok", check="database") == 1
    assert "carca_event_loop_lag_seconds " in text
    await service.mark_posted(view.game_id, view.version)
    assert _value((await _get(observer, "/metrics"))[1], "carca_posts_owed") == 0


async def test_the_probe_a_container_runs(observer: Observer, front: Front) -> None:
    url = f"http://127.0.0.1:{observer.port}/healthz"
    assert await asyncio.to_thread(probe, [url]) == 0
    front.workers = WorkerState(2, 0, 0, 16)
    assert await asyncio.to_thread(probe, [url]) == 1
    await observer.close()
    assert await asyncio.to_thread(probe, [url]) == 2


def test_settings() -> None:
    assert ObserveSettings.from_env({}) == ObserveSettings()
    assert ObserveSettings.from_env({}).port is None  # opt-in: no port unless asked
    got = ObserveSettings.from_env({"CARCA_METRICS_PORT": "9108", "CARCA_METRICS_HOST": "0.0.0.0",
                                    "CARCA_HEALTH_MAX_LAG": "0.5"})
    assert got == ObserveSettings(9108, "0.0.0.0", 0.5, 60.0)
    with pytest.raises(ValueError, match="CARCA_METRICS_PORT must be a port number"):
        ObserveSettings.from_env({"CARCA_METRICS_PORT": "http"})
    with pytest.raises(ValueError, match="CARCA_HEALTH_MAX_LAG must be a number of seconds"):
        ObserveSettings.from_env({"CARCA_HEALTH_MAX_LAG": "-2"})
