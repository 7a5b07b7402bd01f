"""docker-compose.yml agrees with the settings: the shard variables it sets are ones the
bot reads and accepts, its bot processes cover every shard once, the token stays in the
env file, every service has a health check, and the bots' health check asks the running
process (`python -m carca_bot.observe.probe`): healthy while its database answers, not
once it is gone, nor when the process does not answer.

Read as text (PyYAML is not among the project's packages): the file keeps to plain
`key: value` lines, two spaces per level, which is what `_services` reads.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from carca_bot.bot.config import Settings
from carca_bot.observe import Observer, ObserveSettings
from carca_bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "docker-compose.yml").read_text()
# The settings the bot reads: its own, and the health and metrics ones.
CONFIG = "\n".join((ROOT / "carca_bot" / part).read_text()
                   for part in ("bot/config.py", "observe/server.py", "observe/probe.py"))


def _services() -> dict[str, list[str]]:
    """Each service's lines (its own indentation removed), by name."""
    found: dict[str, list[str]] = {}
    inside = False
    current: str | None = None
    for line in COMPOSE.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            inside = line.rstrip() == "services:"
            current = None
            continue
        if not inside:
            continue
        if re.fullmatch(r"  [\w-]+:", line.rstrip()):
            current = line.strip()[:-1]
            found[current] = []
        elif current is not None:
            found[current].append(line[4:])
    return found


def _environment(lines: list[str]) -> dict[str, str]:
    env: dict[str, str] = {}
    inside = False
    for line in lines:
        if line.rstrip() == "environment:":
            inside = True
        elif inside and line.startswith("  "):
            key, _, value = line.strip().partition(":")
            env[key] = value.strip().strip('"')
        else:
            inside = False
    return env


def _bots() -> dict[str, dict[str, str]]:
    return {name: _environment(lines) for name, lines in _services().items()
            if name.startswith("bot")}


def test_two_bot_processes_share_out_every_shard_once() -> None:
    bots = _bots()
    assert len(bots) == 2
    counts = set()
    seen: list[int] = []
    for env in bots.values():
        shards = Settings.from_env({"DISCORD_TOKEN": "x", **env}).shards
        assert shards is not None
        counts.add(shards.count)
        seen.extend(shards.ids)
    assert counts == {2}
    assert sorted(seen) == [0, 1]


def test_the_variables_it_sets_are_the_bots_settings() -> None:
    read = set(re.findall(r'"(CARCA_[A-Z_]+|DISCORD_TOKEN)"', CONFIG))
    assert {"CARCA_SHARDS", "CARCA_SHARD_COUNT", "CARCA_DB"} <= read
    for env in _bots().values():
        assert set(env) <= read, set(env) - read
    for name in set(re.findall(r"\b(CARCA_[A-Z_]+)\b", COMPOSE)):
        assert name in read, f"docker-compose.yml names {name}, which the bot does not read"


def test_the_token_and_password_stay_in_env_files() -> None:
    services = _services()
    assert "DISCORD_TOKEN" not in "\n".join(line for lines in services.values()
                                             for line in lines)
    for name in _bots():
        assert "env_file: carca.env" in [line.strip() for line in services[name]]
    assert "env_file: postgres.env" in [line.strip() for line in services["db"]]
    assert not re.search(r"(?m)^\s+POSTGRES_PASSWORD:", COMPOSE)


def test_every_service_has_a_health_check_and_the_data_a_volume() -> None:
    services = _services()
    assert set(services) == {"db", "bot-0", "bot-1"}
    for name, lines in services.items():
        assert any(line.startswith("healthcheck:") for line in lines), name
        assert any(line.startswith("restart: unless-stopped") for line in lines), name
    assert "- carca-pg:/var/lib/postgresql/data" in [s.strip() for s in services["db"]]
    for lines in services.values():
        for line in lines:
            if line.strip().startswith("- ") and ":/" in line:
                volume = line.strip()[2:].split(":")[0]
                assert re.search(rf"(?m)^  {re.escape(volume)}: \{{\}}$", COMPOSE), volume


def _bot_health() -> list[str]:
    line = next(line for line in _services()["bot-0"] if line.strip().startswith("test:"))
    command = json.loads(line.strip()[len("test:"):])
    assert command[:2] == ["CMD", "python"]
    return [str(part) for part in command[1:]]


def _probe(port: int) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, *_bot_health()[1:]]
    env = {**os.environ, "CARCA_METRICS_PORT": str(port)}
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60,
                          check=False)


async def test_the_bots_health_check_asks_the_running_process(pg_url: str) -> None:
    """The health check is the process's /healthz: no answer is unhealthy (2); a process
    whose database answers is healthy (0); one whose database is gone is not (1)."""
    assert _bots()["bot-0"]["CARCA_METRICS_PORT"] == _bots()["bot-1"]["CARCA_METRICS_PORT"]
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    nobody = await asyncio.to_thread(_probe, port)
    assert nobody.returncode == 2, nobody.stderr
    store = await Store.open(pg_url)
    observer = Observer(store, ObserveSettings(port=0, max_lag=3600.0))
    await observer.start()
    try:
        assert observer.port is not None
        ready = await asyncio.to_thread(_probe, observer.port)
        assert ready.returncode == 0, ready.stdout + ready.stderr
        assert "database: ok (postgresql" in ready.stdout
        await store.close()
        gone = await asyncio.to_thread(_probe, observer.port)
        assert gone.returncode == 1 and "database: FAILING" in gone.stdout, gone.stdout
    finally:
        await observer.close()
