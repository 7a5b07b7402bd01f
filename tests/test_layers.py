"""The layers, enforced: data flows one way, engine -> render -> store -> service -> front ends.

Every `import` in the package counts, wherever it is written: at the top, inside a
function, or under `TYPE_CHECKING` (a type-only cycle is still two modules that cannot be
understood one without the other). The checker reads the source with `ast`, so it needs no
tool and no import of the code; it is tested on throw-away packages below, so it can fail.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = "carca_bot"

# Which of our packages (besides itself and the root `carca_bot`, which holds only the
# version) each layer may import, and which libraries outside the standard library.
# `cli` and `ops` are the command line: they wire everything together and may import all.
ALLOWED: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "engine": (frozenset(), frozenset()),
    # i18n: the language being spoken and the catalogues; Babel only in its tool.
    "i18n": (frozenset(), frozenset({"babel"})),
    "render": (frozenset({"engine", "i18n"}), frozenset({"PIL"})),
    "store": (frozenset({"engine"}), frozenset({"aiosqlite", "asyncpg"})),
    "league": (frozenset({"engine"}), frozenset({"openskill", "rustworkx"})),
    # words: the engine's codes in players' language; the front ends' text layer.
    "words": (frozenset({"engine", "i18n"}), frozenset()),
    "service": (frozenset({"ai", "engine", "league", "render", "store", "workers"}),
                frozenset()),
    # replay_html: the HTML replay page, built from the service's public history.
    "replay_html": (frozenset({"engine", "i18n", "render", "service"}), frozenset()),
    # bot: replay_html for the HTML replay attached to the last post and the export.
    "bot": (frozenset({"engine", "i18n", "render", "service", "words", "replay_html",
                       "workers", "observe"}),
            frozenset({"discord", "aiohttp"})),  # aiohttp: discord.py's transport errors
    "local": (frozenset({"engine", "i18n", "render", "service", "words"}), frozenset()),
    "ai": (frozenset({"engine"}), frozenset()),
    # workers: CPU work (pictures, the AI) in worker processes, for the bot to submit.
    "workers": (frozenset({"engine", "render", "ai"}), frozenset()),
    # observe: health checks and metrics of a running process, served on an opt-in port;
    # what only a front end knows (Discord, its worker pool) it is given as probes.
    "observe": (frozenset({"service", "store"}), frozenset({"aiohttp", "prometheus_client"})),
}
# Imports against the layers that are known debts, as (module, target module): remove an
# entry when its import is gone (test_known_layer_debts_still_exist says when).
KNOWN_LAYER_DEBTS: frozenset[tuple[str, str]] = frozenset()
# The art generator is a tool: only its own modules import it, never the running bot.
TOOLS = ("render.art",)

# Known cycles, as the edges that close them: none is left, and none may come back (a
# type-only import counts). Kept as the place a debt would have to be named.
KNOWN_CYCLE_EDGES: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Import:
    source: str  # importing module, dotted, without the package prefix ("" = the root)
    target: str  # the imported name, dotted and absolute
    line: int


def modules(src: Path, pkg: str = PKG) -> dict[str, Path]:
    """Every module of the package, by its dotted name without the `pkg.` prefix."""
    out: dict[str, Path] = {}
    for path in sorted((src / pkg).rglob("*.py")):
        parts = list(path.relative_to(src / pkg).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _absolute(module: str, path: Path, node: ast.ImportFrom, pkg: str) -> str:
    """The absolute name a `from ... import` reads from (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    here = [pkg, *module.split(".")] if module else [pkg]
    if path.name != "__init__.py":
        here.pop()
    base = here[:len(here) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imports(src: Path, pkg: str = PKG) -> list[Import]:
    """Every import in the package. `from a import b` names `a.b` when that is a module."""
    mods = modules(src, pkg)
    found: list[Import] = []
    for module, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found += [Import(module, a.name, node.lineno) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, path, node, pkg)
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    inner = sub.removeprefix(f"{pkg}.")
                    found.append(Import(module, sub if inner in mods else base, node.lineno))
    return found


def _ours(target: str, mods: Mapping[str, Path], pkg: str) -> str | None:
    """The module of ours an import names (its longest known prefix), or None."""
    if target != pkg and not target.startswith(f"{pkg}."):
        return None
    parts = target.split(".")[1:]
    while parts and ".".join(parts) not in mods:
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str:
    return module.split(".")[0]


def layer_violations(src: Path, pkg: str = PKG) -> list[str]:
    """Imports that go against the layers, as readable lines."""
    mods = modules(src, pkg)
    stdlib = sys.stdlib_module_names
    bad: list[str] = []
    for imp in imports(src, pkg):
        where = f"{pkg}.{imp.source} line {imp.line} imports {imp.target}"
        mine = _ours(imp.target, mods, pkg)
        for tool in TOOLS:
            inside = imp.source == tool or imp.source.startswith(f"{tool}.")
            if mine is not None and (mine == tool or mine.startswith(f"{tool}.")) \
                    and not inside:
                bad.append(f"{where}: only the art tool itself may import {pkg}.{tool}")
        layer = _layer(imp.source)
        if layer not in ALLOWED:
            continue
        ours, libraries = ALLOWED[layer]
        if mine is not None:
            if (imp.source, mine) in KNOWN_LAYER_DEBTS or (
                    imp.source, _layer(mine)) in KNOWN_LAYER_DEBTS:
                continue
            if mine and _layer(mine) not in {layer, *ours}:
                bad.append(f"{where}: {layer} may import only {sorted(ours) or 'itself'}")
        elif imp.target.split(".")[0] not in stdlib | libraries:
            bad.append(f"{where}: {layer} may use only {sorted(libraries) or 'the stdlib'}")
    return bad


def graph(src: Path, pkg: str = PKG) -> dict[str, set[str]]:
    mods = modules(src, pkg)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for imp in imports(src, pkg):
        mine = _ours(imp.target, mods, pkg)
        if mine is not None and mine != imp.source:
            edges[imp.source].add(mine)
    return edges


def cycles(edges: Mapping[str, Iterable[str]],
           ignore: frozenset[tuple[str, str]] = frozenset()) -> list[list[str]]:
    """Groups of modules that import each other, round and round (Tarjan's algorithm)."""
    succ = {m: sorted(t for t in ts if (m, t) not in ignore) for m, ts in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in succ.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


# --- the contract on carca_bot ---------------------------------------------------------------

def test_every_layer_imports_only_what_lies_below_it() -> None:
    assert layer_violations(ROOT) == []


def test_the_engine_has_no_cycle_inside_it() -> None:
    """The engine v2 split left no cycle inside the engine (the words compat aside)."""
    engine = {m: {t for t in ts if _layer(t) == "engine"}
              for m, ts in graph(ROOT).items() if _layer(m) == "engine"}
    assert cycles(engine) == []


def test_no_import_cycles() -> None:
    assert cycles(graph(ROOT), KNOWN_CYCLE_EDGES) == []


def test_no_cycle_is_a_known_debt() -> None:
    """The package has no import cycle at all, the front end included."""
    assert not KNOWN_CYCLE_EDGES
    assert cycles(graph(ROOT)) == []


def test_the_front_end_is_seen_as_a_package() -> None:
    """`bot/` and its folders are packages (import tools skip a folder without an
    `__init__.py`), and the checker sees every one of its modules and their imports."""
    mods = modules(ROOT)
    folders = {p.parent for p in (ROOT / PKG / "bot").rglob("*.py")}
    assert all((f / "__init__.py").exists() for f in folders)
    assert {"bot", "bot.client", "bot.commands.turn", "bot.core.run"} <= set(mods)
    edges = graph(ROOT)
    assert "bot.commands" in edges["bot.client"] and "service" in edges["bot.seam"]


def test_known_cycles_still_exist() -> None:
    """An allow-list entry whose import is gone must leave the list."""
    edges = graph(ROOT)
    assert sorted(e for e in KNOWN_CYCLE_EDGES if e[1] not in edges.get(e[0], ())) == []
    with_debts = cycles(edges)
    stale = sorted(e for e in KNOWN_CYCLE_EDGES if not any(set(e) <= set(g) for g in with_debts))
    assert stale == [], "this edge no longer closes a cycle: remove it from the list"


def test_known_layer_debts_still_exist() -> None:
    mods = modules(ROOT)  # once: a walk of the tree per import made this test take 40 s
    made = {(imp.source, _ours(imp.target, mods, PKG)) for imp in imports(ROOT)}
    made |= {(source, _layer(target)) for source, target in made if target}
    assert sorted(KNOWN_LAYER_DEBTS - made) == []


def test_every_package_is_under_contract() -> None:
    packages = {_layer(m) for m in modules(ROOT) if m and (ROOT / PKG / _layer(m)).is_dir()}
    assert packages <= set(ALLOWED), packages - set(ALLOWED)


# --- the checker itself, on throw-away packages -------------------------------------------------

def _package(tmp: Path, files: Mapping[str, str]) -> Path:
    """A package `carca_bot` under `tmp` with these files; folders get an empty __init__."""
    for name, body in files.items():
        path = tmp / PKG / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    for folder in [tmp / PKG, *(tmp / PKG).rglob("*")]:
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("", encoding="utf-8")
    return tmp


def test_a_clean_package_passes(tmp_path: Path) -> None:
    src = _package(tmp_path, {
        "engine/game.py": "import random\n",
        "render/board.py": "from PIL import Image\nfrom carca_bot.engine import game\n",
        "service/core.py": "from carca_bot.render.board import Image\nimport carca_bot.store\n",
        "store/__init__.py": "import aiosqlite\n",
        "bot/client.py": "import discord\nfrom carca_bot.service import core\n",
        "render/art/make.py": "from carca_bot.render import board\n",
    })
    assert layer_violations(src) == []
    assert cycles(graph(src)) == []


@pytest.mark.parametrize(("files", "expected"), [
    ({"engine/game.py": "from carca_bot.render import board\n", "render/board.py": ""},
     "engine may import only itself"),
    ({"engine/game.py": "def f():\n    import PIL\n"}, "engine may use only the stdlib"),
    ({"service/core.py": "import discord.ui\n"}, "service may use only the stdlib"),
    ({"service/core.py": "from carca_bot.bot import client\n", "bot/client.py": ""},
     "service may import only ['ai', 'engine', 'league', 'render', 'store', 'workers']"),
    ({"store/store.py": "from ..render import board\n", "render/board.py": ""},
     "store may import only ['engine']"),
    ({"bot/client.py": "from carca_bot.store import store\n", "store/store.py": ""},
     "bot may import only"),
    ({"render/board.py": "from carca_bot.render.art import make\n", "render/art/make.py": ""},
     "only the art tool itself may import carca_bot.render.art"),
])
def test_a_layer_violation_is_caught(tmp_path: Path, files: dict[str, str],
                                     expected: str) -> None:
    found = layer_violations(_package(tmp_path, files))
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.parametrize("files", [
    {"bot/a.py": "from carca_bot.bot import b\n", "bot/b.py": "import carca_bot.bot.a\n"},
    {"engine/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from carca_bot.engine.b import B\n",
     "engine/b.py": "def f():\n    from . import a\n"},
    {"service/__init__.py": "from carca_bot.service.a import x\n",
     "service/a.py": "from carca_bot.service.b import y\nx = 1\n",
     "service/b.py": "from carca_bot.service import a\ny = 2\n"},
])
def test_a_cycle_is_caught(tmp_path: Path, files: dict[str, str]) -> None:
    found = cycles(graph(_package(tmp_path, files)))
    assert len(found) == 1 and len(found[0]) >= 2, found


def test_importing_a_submodule_from_its_package_is_no_cycle(tmp_path: Path) -> None:
    """`from pkg import errors` runs pkg/__init__ first, but it depends on errors only."""
    src = _package(tmp_path, {
        "service/__init__.py": "from carca_bot.service.lobby import Lobby\n",
        "service/lobby.py": "from carca_bot.service import errors\nclass Lobby: ...\n",
        "service/errors.py": "",
    })
    assert cycles(graph(src)) == []
