"""The front end's shape, kept: small functions and modules (ruff's C901 at most 10, no
function over 50 lines, no module over 500), a real package, and Discord's limits on the
commands it syncs, counted with the longest translation of each word.

Each check is also run on a made-up case, so it is seen to fail."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from carca_bot.bot.translator import CommandTranslator, command_tree, payloads

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "carca_bot" / "bot"
MAX_COMPLEXITY = 10
MAX_FUNCTION_LINES = 50
MAX_MODULE_LINES = 500
# Discord refuses a command whose names, descriptions and choices (with their values)
# add up to more than 4,000 characters, counting each localization; the bulk sync then
# fails as a whole. Kept below that so a longer translation is caught here first.
MAX_COMMAND_CHARACTERS = 3900
MAX_SUBCOMMANDS = 25  # in a group, and options in a command


def _ruff() -> str:
    local = Path(sys.executable).with_name("ruff")
    return str(local) if local.exists() else "ruff"


def complex_functions(folder: Path) -> str:
    """ruff's report of the functions over MAX_COMPLEXITY in `folder` (empty if none)."""
    proc = subprocess.run(
        [_ruff(), "check", "--no-cache", "--select", "C901", "--config",
         f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", "--output-format", "concise",
         str(folder)], cwd=ROOT, capture_output=True, text=True, check=False)
    return proc.stdout.strip() if proc.returncode else ""


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def long_functions(folder: Path, most: int = MAX_FUNCTION_LINES) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > most:
                    found.append(f"{_shown(path)}:{node.lineno} {node.name} "
                                 f"({size} lines)")
    return found


def long_modules(folder: Path, most: int = MAX_MODULE_LINES) -> list[str]:
    return [f"{_shown(p)} ({n} lines)" for p in sorted(folder.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > most]


def test_bot_is_a_package_in_every_folder() -> None:
    folders = {p.parent for p in BOT.rglob("*.py")}
    assert sorted(str(f.relative_to(ROOT)) for f in folders
                  if not (f / "__init__.py").exists()) == []


def test_no_function_in_bot_is_too_complex() -> None:
    assert complex_functions(BOT) == ""


def test_no_function_in_bot_is_too_long() -> None:
    assert long_functions(BOT) == []


def test_no_module_in_bot_is_too_long() -> None:
    assert long_modules(BOT) == []


def test_the_shape_checks_can_fail(tmp_path: Path) -> None:
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(12))
    (tmp_path / "tangled.py").write_text(f"def f(x: int) -> int:\n{branches}\n    return -1\n",
                                         encoding="utf-8")
    assert "C901" in complex_functions(tmp_path)
    assert long_functions(tmp_path, most=20) and long_modules(tmp_path, most=20)


# -- Discord's limits on commands ----------------------------------------------------------


def command_characters(command: dict[str, Any]) -> int:
    """The characters Discord counts in a command (its options, subcommands and choices
    included): each name and description at the length of its longest localization,
    and each choice's value."""
    total = 0
    for key in ("name", "description"):
        if key in command:
            texts = [command[key], *(command.get(f"{key}_localizations") or {}).values()]
            total += max(len(str(t)) for t in texts)
    for choice in command.get("choices", []):
        total += command_characters(choice) + len(str(choice["value"]))
    return total + sum(command_characters(o) for o in command.get("options", []))


def too_big(commands: list[dict[str, Any]]) -> list[str]:
    """The commands Discord would refuse: too many characters, or too many subcommands
    or options in one place."""
    found = [f"/{c['name']}: {n} characters" for c in commands
             if (n := command_characters(c)) > MAX_COMMAND_CHARACTERS]
    stack = list(commands)
    while stack:
        item = stack.pop()
        options = item.get("options", [])
        if len(options) > MAX_SUBCOMMANDS:
            found.append(f"{item['name']}: {len(options)} subcommands or options")
        stack.extend(options)
    return found


async def test_every_command_fits_discords_limits_in_every_language() -> None:
    sent = await payloads(command_tree(), CommandTranslator())
    assert too_big(sent) == []
    sizes = {c["name"]: command_characters(c) for c in sent}
    assert 3000 < sizes["carc"] <= MAX_COMMAND_CHARACTERS  # the biggest, counted for real


@pytest.mark.parametrize(("extra", "expected"), [
    ({"description": "x" * 100, "description_localizations": {"es-ES": "y" * 3900}},
     "characters"),
    ({"options": [{"name": f"o{i}", "description": "d"} for i in range(26)]}, "26 subcommands"),
])
def test_the_limits_check_can_fail(extra: dict[str, Any], expected: str) -> None:
    command = {"name": "carc", "description": "Carcassonne", **extra}
    assert command_characters({"name": "ab", "description": "cde", "choices": [
        {"name": "f", "name_localizations": {"es-ES": "ghij"}, "value": "kl"}]}) == 2 + 3 + 4 + 2
    (found,) = too_big([command])
    assert expected in found
