"""The optional mypyc build (setup.py): opt-in only, and the same code either way.

The default install and CI are pure Python; these tests hold that they need no mypy
and no compiler. `CARCA_TEST_COMPILED=1` also builds the compiled engine in a scratch
copy and runs the engine suite and the shared scenarios against it (a few minutes).
"""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from carca_bot.engine import game as game_module
from carca_bot.engine import spots
from carca_bot.engine.game import Game
from carca_bot.engine.moves import PlaceTile
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup

ROOT = Path(__file__).resolve().parents[2]
COMPILED_HERE = not str(game_module.__file__).endswith(".py")


def _setup_script() -> ModuleType:
    """setup.py as a module: not run as __main__, so it defines but does not build."""
    spec = importlib.util.spec_from_file_location("carca_setup_script", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pure_build_imports_no_mypy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without CARCA_COMPILE, setup.py builds no extension and never imports mypyc."""
    monkeypatch.setitem(sys.modules, "mypyc", None)  # any import of it now fails
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    monkeypatch.delenv("CARCA_COMPILE", raising=False)
    script = _setup_script()
    assert script.extensions() == []
    monkeypatch.setenv("CARCA_COMPILE", "1")  # the opt-in really is what asks for mypyc
    with pytest.raises(ImportError):
        script.extensions()


def test_compiled_sources_are_the_engine_but_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # setup.py's paths are relative, as pip runs it
    sources = _setup_script().compiled_sources()
    assert "carca_bot/engine/game.py" in sources
    assert "carca_bot/engine/expansions/river.py" in sources
    assert "carca_bot/engine/record.py" not in sources
    assert not [s for s in sources if s.endswith("__init__.py")]
    assert sources[-1] == "carca_bot/ai/evaluate.py"  # the AI's leaf evaluation too
    assert all((ROOT / s).is_file() for s in sources)


def test_engine_runs_without_mypy_installed() -> None:
    """A whole game in a fresh interpreter where mypy, mypyc and mypy_extensions are absent."""
    code = (
        "import sys\n"
        "for name in ('mypy', 'mypyc', 'mypy_extensions'):\n"
        "    sys.modules[name] = None\n"
        "import random\n"
        "from carca_bot.engine.game import Game\n"
        "from carca_bot.engine.randomplay import play_random_turn\n"
        "from carca_bot.engine.setup import Setup\n"
        "from carca_bot.engine import record\n"
        "game = Game(Setup(('A', 'B'), frozenset({'river', 'abbot'}), seed=3))\n"
        "rng = random.Random(3)\n"
        "while not game.finished:\n"
        "    play_random_turn(game, rng)\n"
        "print(sum(game.scores) > 0)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


def test_copy_takes_every_attribute() -> None:
    """`Game._share` spells the attributes out (no __dict__ when compiled): none forgotten."""
    if COMPILED_HERE:
        pytest.skip("compiled classes have no __dict__ to compare")
    game = Game(Setup(("A", "B"), frozenset({"river", "abbot", "tunnel"}), seed=5))
    rng = random.Random(5)
    for _ in range(30):
        play_random_turn(game, rng)
    other = game.copy()
    assert set(vars(other)) == set(vars(game))
    shared = {"setup", "rules", "hooks", "catalogue", "completed", "slots", "tile_order",
              "tunnels", "drawn", "current", "part", "phase", "turn", "ending",
              "last_placed"}  # immutable values (`slots`: a dict never changed in place)
    for name, value in vars(game).items():
        if name in shared:
            assert getattr(other, name) == value, name
        else:  # containers: copied, never shared, or a change to one would reach the other
            assert getattr(other, name) is not value, name


def test_bare_constructor_only_for_plain_classes() -> None:
    """Pure Python fills PlaceTile's slots directly; compiled, the constructor is used."""
    assert spots._BARE is (not COMPILED_HERE)
    moves = spots.place_tiles(Game(Setup(("A", "B"), frozenset(), seed=1)).catalogue["A"],
                              {(0, 1): "...."})
    assert moves and all(type(m) is PlaceTile for m in moves)
    first = moves[0]
    assert isinstance(first, PlaceTile)
    assert first == PlaceTile("A", (0, 1), first.rot)
    assert hash(first) == hash(PlaceTile("A", (0, 1), first.rot))


@pytest.mark.skipif(os.environ.get("CARCA_TEST_COMPILED") != "1",
                    reason="opt-in: CARCA_TEST_COMPILED=1 builds the engine with mypyc")
def test_engine_suite_passes_compiled(tmp_path: Path) -> None:
    """Build the compiled engine in a scratch copy, then run the engine tests against it."""
    pytest.importorskip("mypyc")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    copy = tmp_path / "src"
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"],
                           capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        source = ROOT / name
        if source.is_file() and not name.endswith(".so"):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    env = {**os.environ, "CARCA_COMPILE": "1", "PYTHONPATH": str(copy)}
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=copy,
                           env=env, capture_output=True, text=True, timeout=900, check=False)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    check = subprocess.run(
        [sys.executable, "-c", "import carca_bot.engine.game as g, carca_bot.ai.evaluate as e; "
         "print(g.__file__); print(e.__file__)"],
        cwd=copy, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert not [name for name in check.stdout.split() if name.endswith(".py")]
    suite = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/engine",
         "tests/test_scenarios.py", "tests/ai/test_search.py", "tests/ai/test_medium.py",
         "-k", "not test_engine_suite_passes_compiled"],
        cwd=copy, env={**env, "CARCA_TEST_COMPILED": "0"}, capture_output=True, text=True,
        timeout=1800, check=False)
    assert suite.returncode == 0, suite.stdout[-5000:]
