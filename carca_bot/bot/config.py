"""Settings from the environment, checked once at start-up with messages an admin can act on."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carca_bot.observe import ObserveSettings
from carca_bot.service import Limits, PrivacySettings, SettingError
from carca_bot.service.shards import Shards

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
    limits: Limits = field(default_factory=Limits)  # what one user or server may hold
    # Several processes on one PostgreSQL: the Discord shards this one runs (None: one
    # process runs them all, as discord.py decides).
    shards: Shards | None = None
    workers: str = "threads"  # where pictures and replays run: "threads" or "processes"
    # Players' data: how long a removed server's data waits, and how long a finished game
    # is kept (CARCA_LEAVE_GRACE_DAYS, CARCA_RETENTION_DAYS).
    privacy: PrivacySettings = field(default_factory=PrivacySettings)
    # Health checks and Prometheus metrics (CARCA_METRICS_PORT, CARCA_HEALTH_*).
    observe: ObserveSettings = field(default_factory=ObserveSettings)

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
            limits=_limits(env.get("CARCA_LIMITS", "")),
            shards=_shards(env.get("CARCA_SHARDS", ""), env.get("CARCA_SHARD_COUNT", "")),
            workers=_workers(env.get("CARCA_WORKERS", "")),
            privacy=_privacy(env),
            observe=_observe(env),
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


MAX_SHARDS = 10_000  # far past what Discord gives any bot; a typo, not a plan


def _shards(raw_ids: str, raw_count: str) -> Shards | None:
    """`CARCA_SHARDS` ("0-3", "0,2", "5") of `CARCA_SHARD_COUNT`: both or neither."""
    raw_ids, raw_count = raw_ids.strip(), raw_count.strip()
    if not raw_ids and not raw_count:
        return None
    if not raw_count:
        raise ConfigError("CARCA_SHARDS needs CARCA_SHARD_COUNT, the number of shards all "
                          "the bot's processes run together (e.g. CARCA_SHARD_COUNT=2)")
    try:
        count = int(raw_count)
    except ValueError:
        raise ConfigError(f"CARCA_SHARD_COUNT must be a whole number, not {raw_count[:40]!r}"
                          ) from None
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"CARCA_SHARD_COUNT must be between 1 and {MAX_SHARDS}")
    if not raw_ids:
        raise ConfigError("CARCA_SHARD_COUNT needs CARCA_SHARDS, the shards this process "
                          f"runs: a range like 0-{count - 1}, a list like 0,1, or one number")
    ids: set[int] = set()
    for item in raw_ids.split(","):
        first, dash, last = (part.strip() for part in item.strip().partition("-"))
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise ConfigError(f"CARCA_SHARDS: {item.strip()[:40]!r} is not a shard number or "
                              "a range like 0-3") from None
        if low > high:
            raise ConfigError(f"CARCA_SHARDS: the range {low}-{high} runs backwards")
        if low < 0 or high >= count:
            raise ConfigError(f"CARCA_SHARDS: shard {high if high >= count else low} is "
                              f"outside 0-{count - 1} (CARCA_SHARD_COUNT={count})")
        ids.update(range(low, high + 1))
    return Shards.of(ids, count)


def shard_arguments(shards: Shards | None) -> dict[str, Any]:
    """What discord.py's AutoShardedClient is given: the shards this process runs, or
    nothing (discord.py asks Discord how many shards the bot needs, and runs them all)."""
    if shards is None:
        return {}
    return {"shard_ids": sorted(shards.ids), "shard_count": shards.count}


def _privacy(env: Mapping[str, str]) -> PrivacySettings:
    """CARCA_LEAVE_GRACE_DAYS and CARCA_RETENTION_DAYS (`PrivacySettings.from_env`)."""
    try:
        return PrivacySettings.from_env(env)
    except SettingError as exc:
        raise ConfigError(str(exc)) from None


def _observe(env: Mapping[str, str]) -> ObserveSettings:
    """CARCA_METRICS_PORT, CARCA_METRICS_HOST, CARCA_HEALTH_MAX_LAG and
    CARCA_HEALTH_DISCORD_GRACE (`carca_bot.observe.server`)."""
    try:
        return ObserveSettings.from_env(env)
    except ValueError as exc:  # the message names the variable
        raise ConfigError(str(exc)) from None


WORKER_KINDS = ("threads", "processes")


def _workers(raw: str) -> str:
    """`CARCA_WORKERS`: threads (the default) or processes (see carca_bot/service/workers.py)."""
    kind = raw.strip().lower() or "threads"
    if kind not in WORKER_KINDS:
        raise ConfigError(f"CARCA_WORKERS must be one of {', '.join(WORKER_KINDS)}, "
                          f"not {raw.strip()[:40]!r}")
    return kind


LIMIT_NAMES = tuple(f.name for f in dataclasses.fields(Limits))
FLOAT_LIMITS = ("lobby_lifetime", "import_seconds")  # seconds; the rest are counts or bytes


def _limits(raw: str) -> Limits:
    """`CARCA_LIMITS`: comma-separated `name=value` pairs overriding `Limits`' defaults."""
    changed: dict[str, int | float] = {}
    for item in raw.split(","):
        if not item.strip():
            continue
        key, eq, value = (part.strip() for part in item.partition("="))
        if key not in LIMIT_NAMES:
            raise ConfigError(f"CARCA_LIMITS: unknown limit {key[:40]!r}; the limits are "
                              f"{', '.join(LIMIT_NAMES)}")
        if not eq or not value:
            raise ConfigError(f"CARCA_LIMITS: {key} needs a value ({key}=NUMBER)")
        try:
            number: int | float = float(value) if key in FLOAT_LIMITS else int(value)
        except ValueError:
            raise ConfigError(f"CARCA_LIMITS: {key} must be a number, not {value[:40]!r}"
                              ) from None
        if not 0 < number < 10**12:
            raise ConfigError(f"CARCA_LIMITS: {key} must be more than 0")
        changed[key] = number
    return Limits(**changed)  # type: ignore[arg-type]


NO_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run the bot:
  1. Create an application at https://discord.com/developers/applications,
     add a bot to it and copy the bot's token.
  2. Invite it to your server (see "Deploying" in README.md for the link and the
     permissions it needs).
  3. Put the token in an env file only you can read (never on a command line,
     where `ps` and shell history show it), e.g. carca.env holding the line
       DISCORD_TOKEN=paste-the-token-here
     then start the bot with it in the environment:
       set -a && . ./carca.env && set +a && .venv/bin/carca-bot run

To play without Discord, on this computer:
  carca-bot local --demo     # watch a whole game played in seconds
  carca-bot local            # hot-seat game in this terminal
"""
