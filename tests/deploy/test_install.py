"""The image's install steps, run here: the package as `docker build` copies it, into a
fresh virtual environment, then the commands the image and its operator use.

Non-editable, from a copy holding only what the Dockerfile's COPY lines bring in,
so a file the package needs at run time but the image leaves out fails here. pip
may use its cache (the image passes --no-cache-dir; that changes nothing installed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.context import COMPILE_TOOLS, COMPILE_WHEEL, ROOT, stage

SCENARIO = ROOT / "tests" / "scenarios" / "01-two-tile-city.json"
INSTALL_TIMEOUT = 180.0  # seconds; about 15 with a warm pip cache
COMPILE_TIMEOUT = 900.0  # seconds; mypyc and the C compiler take about 70 on one idle core
# The image compiles the package (Dockerfile, first stage); without a C compiler here the
# pure package is installed instead and the test of the compiled build is skipped.
COMPILER = shutil.which("cc") or shutil.which("gcc")


@dataclass
class Installed:
    venv: Path
    home: Path  # a folder outside the repository, where the commands run
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.venv / "bin" / "carca-bot"), *args], cwd=self.home,
                              env=self.env, capture_output=True, text=True, check=False,
                              stdin=subprocess.DEVNULL, timeout=timeout)

    def python(self, code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.venv / "bin" / "python"), "-c", code], cwd=self.home,
                              env=self.env, capture_output=True, text=True, check=False,
                              timeout=60)


def _env(home: Path) -> dict[str, str]:
    """The environment of a container: no token, no database setting, nothing from here."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISCORD_TOKEN", "CARCA_DB", "PYTHONPATH", "PYTHONHOME",
                        "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env.update(HOME=env.get("HOME", str(home)), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PYTHONDONTWRITEBYTECODE="1")
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("install")
    image = base / "image"
    stage(image)
    source = image / "src"  # the Dockerfile's WORKDIR for the build
    assert (source / "pyproject.toml").is_file()
    venv, home = base / "venv", base / "home"
    home.mkdir()
    env = _env(home)
    package = _compiled_wheel(base, source, env) if COMPILER else source
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=60, env=env)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-c",
                          str(source / "constraints.txt"), str(package)],
                         capture_output=True, text=True, check=False,
                         timeout=INSTALL_TIMEOUT, env=env)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    yield Installed(venv, home, env)


def _compiled_wheel(base: Path, source: Path, env: dict[str, str]) -> Path:
    """The image's first stage: the compiling tools at their pins, then the package's
    wheel built with CARCA_COMPILE=1 (mypyc and the C compiler)."""
    build, wheels = base / "build", base / "wheels"
    subprocess.run([sys.executable, "-m", "venv", str(build)], check=True, timeout=60, env=env)
    pip = [str(build / "bin" / "python"), "-m", "pip"]
    tools = subprocess.run([*pip, "install", "-q", "-c", str(source / "constraints.txt"),
                            *COMPILE_TOOLS], capture_output=True, text=True, check=False,
                           timeout=INSTALL_TIMEOUT, env=env)
    assert tools.returncode == 0, tools.stdout + tools.stderr
    made = subprocess.run([*pip, *COMPILE_WHEEL.split()[1:], str(wheels), "."], cwd=source,
                          capture_output=True, text=True, check=False, timeout=COMPILE_TIMEOUT,
                          env={**env, "CARCA_COMPILE": "1"})
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    (wheel,) = wheels.glob("carca_bot-*.whl")
    return wheel


def test_installed_from_the_copy_not_the_repository(installed: Installed) -> None:
    proc = installed.python("import carca_bot, pathlib; print(pathlib.Path(carca_bot.__file__)"
                            ".resolve())")
    assert proc.returncode == 0, proc.stderr
    where = Path(proc.stdout.strip())
    assert installed.venv in where.parents and ROOT not in where.parents


@pytest.mark.skipif(COMPILER is None, reason="no C compiler: the pure package was installed")
def test_the_image_runs_the_compiled_engine_and_its_ai_answers(installed: Installed) -> None:
    """The engine and the AI's evaluation are C extensions, and a strong decision made
    on the bot's own pool of workers is a search's answer, not the stand-in a worker
    that cannot read the game leaves (a compiled frozen dataclass once failed there)."""
    proc = installed.python(
        "import asyncio\n"
        "import carca_bot.engine.game as g, carca_bot.ai.estimate as e\n"
        "from carca_bot.ai.players import Budget\n"
        "from carca_bot.engine.setup import Setup\n"
        "from carca_bot.workers import Thinker\n"
        "async def main():\n"
        "    thinker = Thinker(processes=2)\n"
        "    game = g.Game(Setup(('A', 'B'), frozenset({'river'}), seed=3))\n"
        "    game.push((await thinker.think(game, 'strong', None, 1, Budget(0.2)))[0])\n"
        "    plan = await thinker.think(game, 'strong', game.draw(), 2, Budget(0.5))\n"
        "    await thinker.close()\n"
        "    print(g.__file__, e.__file__, thinker.searched[0], type(plan[0]).__name__)\n"
        "asyncio.run(main())\n")
    assert proc.returncode == 0, proc.stderr
    game_file, estimate_file, searched, first = proc.stdout.split()
    assert game_file.endswith(".so") and estimate_file.endswith(".so"), proc.stdout
    assert int(searched) > 0 and first == "PlaceTile", proc.stdout + proc.stderr


def test_help_lists_every_command(installed: Installed) -> None:
    proc = installed.run("--help")
    assert proc.returncode == 0, proc.stderr
    for command in ("replay", "run", "local", "backup", "check"):
        assert command in proc.stdout


def test_replay_a_scenario(installed: Installed) -> None:
    proc = installed.run("replay", str(SCENARIO))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout)
    assert result["format"] == "carca-result/1" and result["error"] is None


def test_run_without_a_token_explains_what_to_do(installed: Installed) -> None:
    proc = installed.run("run", timeout=30)
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and "carca-bot local" in proc.stderr, proc.stderr


def test_check_and_backup_of_a_new_database(installed: Installed) -> None:
    missing = installed.home / "nothing-here.sqlite3"
    proc = installed.run("check", "--db", str(missing))
    assert proc.returncode == 2 and "no database" in proc.stderr, proc.stdout + proc.stderr
    assert not missing.exists(), "check must not create a database"

    fresh = installed.home / "fresh.sqlite3"  # as the bot leaves it on its first start
    made = installed.python(
        "import asyncio, sys\n"
        "from carca_bot.service import GameService\n"
        "async def main():\n"
        f"    await (await GameService.open({str(fresh)!r})).close()\n"
        "asyncio.run(main())\n")
    assert made.returncode == 0, made.stderr
    proc = installed.run("check", "--db", str(fresh))
    assert proc.returncode == 0 and "games replayed: 0" in proc.stdout, proc.stdout + proc.stderr

    # The image's health check: CARCA_DB names the database, as in the Dockerfile.
    env = dict(installed.env, CARCA_DB=str(fresh))
    health = subprocess.run([str(installed.venv / "bin" / "carca-bot"), "check", "--quick"],
                            cwd=installed.home, env=env, capture_output=True, text=True,
                            check=False, timeout=30)
    assert health.returncode == 0, health.stdout + health.stderr

    copy = installed.home / "backup.sqlite3"
    proc = installed.run("backup", "--db", str(fresh), str(copy))
    assert proc.returncode == 0 and copy.is_file(), proc.stdout + proc.stderr
    assert installed.run("backup", "--db", str(fresh), str(copy)).returncode == 2
    assert installed.run("check", "--db", str(copy)).returncode == 0
