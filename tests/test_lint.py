"""ruff and mypy run as part of the test command, so CI keeps the code clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    local = Path(sys.executable).with_name(name)
    if local.exists():
        return [str(local)]
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: install the 'test' extra")
    return [found]


def test_ruff_is_clean() -> None:
    proc = subprocess.run([*_tool("ruff"), "check", "carca_bot", "tests", "bench"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean() -> None:
    proc = subprocess.run([*_tool("mypy")], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
