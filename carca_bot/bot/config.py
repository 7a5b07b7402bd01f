"""Settings from the environment, checked once at start-up with messages an admin can act on."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: str = "carca.sqlite3"
    log_level: str = "INFO"
    test_guild: int | None = None  # sync commands to this guild at once (for development)
    default_timer: int | None = None  # seconds per turn for new games; None: no timer
    render_threads: int = 2  # the board and a tile image are drawn side by side
    rate_limit: int = 8  # commands per user in any 10 seconds
    warm_up: bool = True  # prepare the renderer at start-up rather than on the first board

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        token = (env.get("DISCORD_TOKEN") or "").strip() or None
        level = env.get("CARCA_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"CARCA_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, "
                              f"not {level!r}")
        return cls(
            token=token,
            database=env.get("CARCA_DB", "carca.sqlite3").strip() or "carca.sqlite3",
            log_level=level,
            test_guild=_whole(env, "CARCA_TEST_GUILD", minimum=1),
            default_timer=_whole(env, "CARCA_DEFAULT_TIMER", minimum=60),
            render_threads=_whole(env, "CARCA_RENDER_THREADS", minimum=1) or 2,
            rate_limit=_whole(env, "CARCA_RATE_LIMIT", minimum=1) or 8,
        )


def _whole(env: Mapping[str, str], name: str, minimum: int) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}")
    return value


NO_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run the bot:
  1. Create an application at https://discord.com/developers/applications,
     add a bot to it and copy the bot's token.
  2. Invite it to your server (see "Deploying" in README.md for the link and the
     permissions it needs).
  3. Start it with the token in the environment:
       DISCORD_TOKEN=your-token carca-bot run

To play without Discord, on this computer:
  carca-bot local --demo     # watch a whole game played in seconds
  carca-bot local            # hot-seat game in this terminal
"""
