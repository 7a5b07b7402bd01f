"""The engine's imports: nothing of ours outside the engine, and no cycle at all.

Imports under `if TYPE_CHECKING:` count too (a cycle for the type checker is still
a tangle for a reader); imports inside functions are not module structure and are
left out (the temporary compat members that reach `carca_bot.words`).
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "carca_bot" / "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Modules of ours that `path` imports at module level (TYPE_CHECKING blocks included)."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If):
                visit(node.body)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)

    visit(ast.parse(path.read_text("utf-8")).body)
    return {name for name in found if name.startswith("carca_bot")}


GRAPH = {module_name(p): imports(p) for p in ENGINE.rglob("*.py")}


def test_the_engine_imports_nothing_of_ours_outside_it() -> None:
    for module, names in GRAPH.items():
        outside = {n for n in names if not n.startswith("carca_bot.engine")}
        assert not outside, (module, outside)


def test_no_engine_module_imports_one_that_imports_it_back() -> None:
    graph = {m: {n for n in names if n in GRAPH and n != m} for m, names in GRAPH.items()}
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError(" -> ".join([*path[path.index(module):], module]))
        if module in done:
            return
        for target in sorted(graph[module]):
            walk(target, [*path, module])
        done.add(module)

    for module in sorted(graph):
        walk(module, [])
    assert len(graph) > 20
