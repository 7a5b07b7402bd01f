"""Limits through Discord: `CARCA_LIMITS` reaches the service, refusals come privately and
before anything is made (no thread for a user past the thread limit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carca_bot.bot.config import ConfigError, Settings
from carca_bot.service import Limits
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, offline_bot
from tests.bot.fake_discord import Request
from tests.bot.test_lobby import assert_private_refusal, assert_public_reply
from tests.engine.records import record, turn

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


async def test_import_hands_the_service_the_file_and_never_fetches_a_huge_one(
        tmp_path: Path) -> None:
    data = record([turn("Ana", "U", (1, 0), figure="follower", on="E")], seed=4)
    compact = json.dumps(data).encode()
    spaced = json.dumps(data, indent=8).encode()  # the same record, as bytes over the limit
    limit = (len(compact) + len(spaced)) // 2
    async with offline_bot(tmp_path / "bot.sqlite3",
                           {"CARCA_LIMITS": f"record_bytes={limit}"}) as h:
        huge = h.fake.upload("huge.json", b" " * (limit + 1))
        assert_private_refusal(await h.command(ANA, "import", record=huge), "at most")
        assert h.fake.downloads == []  # refused on the announced size alone
        # Measured as the file's bytes (by the service), not as re-encoded JSON, even
        # when the announced size is wrong.
        padded = dict(h.fake.upload("padded.json", spaced), size=len(compact))
        assert_private_refusal(await h.command(ANA, "import", record=padded), "at most")
        assert len(h.fake.downloads) == 1
        post = assert_card_reply(await h.command(ANA, "import", record=h.fake.upload(
            "game.json", compact)))
        assert "imported game #" in post.content
