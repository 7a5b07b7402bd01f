"""Every example record gives its `expect` through the replay contract.

The project keeps its own copies in tests/scenarios/; the shared folder beside the
checkout is read too when it is there, so new shared examples are checked at once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from carca_bot.engine.record import replay

HERE = Path(__file__).resolve().parent
FOLDERS = [HERE / "scenarios", HERE.parents[1] / "shared" / "scenarios"]
FILES = sorted({p.name: p for folder in FOLDERS if folder.is_dir()
                for p in folder.glob("*.json")}.values())


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_scenario(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text())
    status, out = replay(data)
    for key, expected in data.get("expect", {}).items():
        got = (out.get("error") or {}).get("index") if key == "error_index" else out.get(key)
        assert got == expected, f"{key}: expected {expected!r}, got {got!r}"
    if data.get("expect", {}).get("error_index") is None:
        assert status == 0


def test_scenarios_were_found() -> None:
    assert len(FILES) >= 6
