"""The renderer runs on the committed art alone: it never imports the generator, finds
every file in the installed package, and never scales a picture up."""

from __future__ import annotations

import random
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render import figure_art, tile_art
from carca_bot.render.board import BoardRenderer

ROOT = Path(__file__).resolve().parents[2]

RUN_THE_BOT_PATHS = """
import random, sys, time
from carca_bot.bot import client
from carca_bot import cli, ops
from carca_bot import local
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.board import render_board, render_your_tile, warm_up

start = time.perf_counter()
warm_up()
warm = time.perf_counter() - start
game = Game(Setup(("A", "B"), frozenset(EXPANSIONS), seed=5))
rng = random.Random(5)
for _ in range(30):
    play_random_turn(game, rng)
render_board(game)
render_your_tile(game, game.draw())
print(sorted(m for m in sys.modules if m.startswith("carca_bot.render.art")))
print(warm)
"""


def test_the_running_bot_never_loads_the_art_generator() -> None:
    proc = subprocess.run([sys.executable, "-c", RUN_THE_BOT_PATHS], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=120)
    loaded, warm = proc.stdout.splitlines()
    assert loaded == "[]"
    assert float(warm) < 5.0  # reading PNGs and one JSON file; it was seconds of drawing


def test_the_package_data_ships_every_asset() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    assert setuptools["package-dir"]["carca_bot.tiles_art"] == "tiles_art"
    globs = setuptools["package-data"]["carca_bot.tiles_art"]
    assets = ROOT / "tiles_art"
    files = [p for p in assets.rglob("*") if p.is_file() and p.name != "README.md"]
    assert len(files) > 100
    for path in files:
        rel = PurePosixPath(path.relative_to(assets).as_posix())
        assert any(len(rel.parts) == len(PurePosixPath(g).parts) and rel.match(g)
                   for g in globs), rel


def _recording(module: Any, name: str, size_at: int, seen: list[tuple[str, int]],
               monkeypatch: pytest.MonkeyPatch) -> None:
    real: Callable[..., Any] = getattr(module, name)

    def wrapper(*args: Any) -> Any:
        seen.append((name, args[size_at]))
        return real(*args)

    monkeypatch.setattr(module, name, wrapper)


@pytest.fixture
def sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    seen: list[tuple[str, int]] = []
    _recording(tile_art, "_cached", 2, seen, monkeypatch)
    _recording(figure_art, "_figure", 2, seen, monkeypatch)
    _recording(figure_art, "_token", 2, seen, monkeypatch)
    _recording(figure_art, "_marker", 1, seen, monkeypatch)
    yield seen


@pytest.mark.parametrize(("players", "placed"), [(2, 3), (6, 150)])
def test_pictures_are_only_ever_scaled_down(sizes: list[tuple[str, int]], players: int,
                                            placed: int) -> None:
    """From a first move (largest tiles) to a full board (largest panel font)."""
    names = tuple("ABCDEF"[:players])
    game = Game(Setup(names, frozenset(EXPANSIONS), seed=players))
    rng = random.Random(players)
    while len(game.board.tiles) < placed and game.tiles_left > 1:
        play_random_turn(game, rng)
    while game.phase is not Phase.TILE:
        play_random_turn(game, rng)
    renderer = BoardRenderer()
    renderer.render(game)
    renderer.your_tile(game, game.draw())
    largest = {"_cached": tile_art.TILE_SIZE, "_figure": figure_art.FIGURE_SIZE,
               "_marker": figure_art.FIGURE_SIZE, "_token": figure_art.TOKEN_SIZE}
    assert sizes
    assert [(k, s) for k, s in sizes if s > largest[k]] == []


def test_every_package_is_listed_for_the_install() -> None:
    """The package list is written by hand (for tiles_art/), so a new package must join it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "carca_bot").rglob("*.py") if "__pycache__" not in p.parts}
    assert found <= listed, sorted(found - listed)
    assert "carca_bot.tiles_art" in listed
