"""Limits through Discord: `CARCA_LIMITS` reaches the service, refusals come privately and
before anything is made (no thread for a user past the thread limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from carca_bot.bot.config import ConfigError, Settings
from carca_bot.service import Limits
from tests.bot.conftest import ANA, offline_bot
from tests.bot.fake_discord import Request
from tests.bot.test_lobby import assert_private_refusal, assert_public_reply

OTHER = 810000000000000055


def test_limits_come_from_one_variable() -> None:
    settings = Settings.from_env({"CARCA_LIMITS": " lobbies_per_user=3, games_per_user=20,"
                                                  "lobby_lifetime=3600.5 "})
    assert settings.limits == Limits(lobbies_per_user=3, games_per_user=20,
                                     lobby_lifetime=3600.5)
    assert Settings.from_env({}).limits == Limits()
    with pytest.raises(ConfigError, match=r"CARCA_LIMITS.*unknown limit 'games'"):
        Settings.from_env({"CARCA_LIMITS": "games=3"})
    with pytest.raises(ConfigError, match=r"CARCA_LIMITS: games_per_user must be a number"):
        Settings.from_env({"CARCA_LIMITS": "games_per_user=many"})
    with pytest.raises(ConfigError, match=r"CARCA_LIMITS: threads_per_day must be more than 0"):
        Settings.from_env({"CARCA_LIMITS": "threads_per_day=0"})
    with pytest.raises(ConfigError, match=r"CARCA_LIMITS: imports_per_hour needs a value"):
        Settings.from_env({"CARCA_LIMITS": "imports_per_hour"})


def threads(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.path.endswith("/threads")]


async def test_a_user_past_the_thread_limit_gets_no_thread(tmp_path: Path) -> None:
    async with offline_bot(tmp_path / "bot.sqlite3",
                           {"CARCA_LIMITS": "threads_per_day=1"}) as h:
        assert h.bot.service.limits.threads_per_day == 1  # the bot opened it with the setting
        first = await h.command(ANA, "create", thread=True)
        assert len(threads(first)) == 1
        assert_public_reply(first)
        second = await h.command(ANA, "create", thread=True, _channel=OTHER)
        assert threads(second) == []
        assert_private_refusal(second, "game thread")
        assert_private_refusal(second, "in the last 24 hours")
