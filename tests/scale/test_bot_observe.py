"""Health and metrics of the Discord front end (issue 30): the settings are checked at
start-up, `serve` opens the port before it connects to Discord, the health check fails
when the gateway is down past its grace, and every interaction is counted with its
latency beside the service calls.

The bot is the real client against the fake Discord of tests/bot, which has no
gateway: the bot is "not connected" until the test says it is ready.
"""

from __future__ import annotations

import dataclasses
import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from carca_bot.bot.client import Unreachable, serve, watch
from carca_bot.bot.config import ConfigError, Settings
from carca_bot.observe import Observer, ObserveSettings
from tests.bot.conftest import ANA, BotHarness


class Ticks:
    """The health check's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def watched(harness: BotHarness) -> AsyncIterator[Observer]:
    harness.bot.settings = dataclasses.replace(
        harness.bot.settings,
        observe=ObserveSettings(port=0, max_lag=3600.0, discord_grace=60.0))
    observer = watch(harness.bot)
    await observer.start()
    yield observer  # closed with the bot


async def get(observer: Observer, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{observer.port}{path}") as answer:
        return answer.status, await answer.text()


def checks(body: str) -> dict[str, tuple[bool, str]]:
    return {c["check"]: (c["ok"], c["detail"]) for c in json.loads(body)["checks"]}


def test_bad_observe_settings_are_refused_naming_the_variable() -> None:
    base = {"DISCORD_TOKEN": "t"}
    for name, value in (("CARCA_METRICS_PORT", "http"), ("CARCA_METRICS_PORT", "70000"),
                        ("CARCA_HEALTH_MAX_LAG", "-1"),
                        ("CARCA_HEALTH_DISCORD_GRACE", "soon")):
        with pytest.raises(ConfigError, match=name):
            Settings.from_env({**base, name: value})
    settings = Settings.from_env({**base, "CARCA_METRICS_PORT": "9300",
                                  "CARCA_METRICS_HOST": "0.0.0.0",
                                  "CARCA_HEALTH_MAX_LAG": "1.5"})
    assert settings.observe == ObserveSettings(9300, "0.0.0.0", 1.5, 60.0)
    assert Settings.from_env(base).observe.port is None  # off unless asked for


async def test_health_fails_when_the_gateway_is_down_past_its_grace(
        harness: BotHarness, watched: Observer, monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = Ticks()
    watched.health.clock = ticks
    status, body = await get(watched, "/healthz")
    assert status == 200, body  # not connected yet: reconnecting, within the grace
    assert checks(body)["discord"] == (True, "reconnecting for 0 s")
    assert checks(body)["workers"][0] and checks(body)["database"][0]
    ticks.now += 61
    status, body = await get(watched, "/healthz")
    assert status == 503 and checks(body)["discord"] == (False, "not connected for 61 s")
    monkeypatch.setattr(harness.bot, "is_ready", lambda: True)
    status, body = await get(watched, "/healthz")
    assert status == 200 and checks(body)["discord"][0], body
    status, text = await get(watched, "/metrics")
    assert 'carca_health_ok{check="discord"} 1.0' in text
    assert "carca_discord_connected 1.0" in text


async def test_health_fails_when_the_picture_workers_are_gone(
        harness: BotHarness, watched: Observer) -> None:
    await harness.bot.pictures.close()
    status, body = await get(watched, "/healthz")
    assert status == 503 and not checks(body)["workers"][0], body


async def test_interactions_are_counted_with_their_latency(
        harness: BotHarness, watched: Observer) -> None:
    await harness.command(ANA, "create")
    await harness.command(ANA, "create")  # refused: one open lobby per channel
    status, text = await get(watched, "/metrics")
    assert status == 200
    assert 'carca_commands_total{command="/create",outcome="ok"} 1.0' in text
    assert 'carca_commands_total{command="/create",outcome="refused"} 1.0' in text
    assert 'carca_command_seconds_count{command="/create"} 2.0' in text
    assert 'carca_commands_total{command="create",outcome="ok"} 1.0' in text  # the service
    assert "carca_lobbies 1.0" in text


async def test_serve_opens_the_port_before_discord_and_names_a_busy_one(
        tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(token="test-token", database=str(tmp_path / "bot.sqlite3"),
                            warm_up=False, observe=ObserveSettings(port=port))
        with pytest.raises(Unreachable, match=f"CARCA_METRICS_PORT: cannot listen on "
                                              f"127.0.0.1:{port}"):
            await serve(settings)
