"""Running for real: settings, rate limit, graceful shutdown, the no-token message."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from carca_bot.bot.config import ConfigError, Settings
from carca_bot.bot.core.gate import RateLimit
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.test_lobby import lobby

ROOT = Path(__file__).resolve().parents[2]


def test_settings_from_the_environment() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": " abc ", "CARCA_DB": "/data/c.db",
                                  "CARCA_LOG_LEVEL": "debug", "CARCA_TEST_GUILD": "42",
                                  "CARCA_DEFAULT_TIMER": "86400", "CARCA_RATE_LIMIT": "5"})
    assert (settings.token, settings.database, settings.log_level, settings.test_guild,
            settings.default_timer, settings.rate_limit) == ("abc", "/data/c.db", "DEBUG", 42,
                                                             86400, 5)
    assert Settings.from_env({}).token is None
    with pytest.raises(ConfigError, match="CARCA_DEFAULT_TIMER must be a whole number"):
        Settings.from_env({"CARCA_DEFAULT_TIMER": "soon"})
    with pytest.raises(ConfigError, match="CARCA_LOG_LEVEL"):
        Settings.from_env({"CARCA_LOG_LEVEL": "LOUD"})


def test_rate_limit_window() -> None:
    limit = RateLimit(burst=2, window=10.0)
    assert limit.allow(1, now=0.0) and limit.allow(1, now=1.0)
    assert not limit.allow(1, now=2.0)
    assert limit.allow(2, now=2.0)  # per user
    assert limit.allow(1, now=10.5)  # the first command left the window


async def test_too_many_commands_get_a_friendly_private_reply(harness: BotHarness) -> None:
    harness.bot.actions.limit = RateLimit(burst=2, window=60.0)
    await harness.command(ANA, "rules")
    await harness.command(ANA, "rules")
    (answer,) = await harness.command(ANA, "rules")
    assert answer.json["type"] == 4 and answer.json["data"]["flags"] == 64
    assert "wait a few seconds" in answer.json["data"]["content"]


async def test_shutdown_finishes_commands_in_flight_and_refuses_new_ones(
        harness: BotHarness) -> None:
    await lobby(harness, BEN)
    service = harness.bot.service
    real_start = service.start
    gate = asyncio.Event()

    async def slow_start(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await real_start(*args, **kwargs)

    service.start = slow_start  # type: ignore[method-assign]
    start = len(harness.fake.requests)
    harness.bot._connection.parse_interaction_create(
        harness.make.command(ANA, "start"))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    closing = asyncio.create_task(harness.bot.close())
    await asyncio.sleep(0.05)
    before = len(harness.fake.requests)
    harness.bot._connection.parse_interaction_create(
        harness.make.command(BEN, "status"))  # type: ignore[arg-type]
    refused = (await harness.fake.wait_for(before + 1))[before]
    assert "restarting" in refused.json["data"]["content"]
    assert not closing.done()  # still waiting for the start in flight
    gate.set()
    await asyncio.wait_for(closing, 30)
    started = [r for r in harness.fake.since(start) if r is not refused]
    post = assert_card_reply(started)
    assert post.files  # the start went through, with its board, before the database closed


def test_run_without_a_token_explains_and_offers_the_local_game() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run([sys.executable, "-m", "carca_bot", "run"], capture_output=True,
                          text=True, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=60,
                          check=False)
    assert proc.returncode == 1
    assert "DISCORD_TOKEN is not set" in proc.stderr and "carca-bot local" in proc.stderr
