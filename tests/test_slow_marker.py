"""The quick run's list of slow tests names tests that exist, and marks what it should."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SLOW_FILES, SLOW_FOLDERS, SLOW_TESTS, is_slow

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_place_exists() -> None:
    for folder in SLOW_FOLDERS:
        assert (ROOT / folder).is_dir(), folder
    for file in SLOW_FILES:
        assert (ROOT / file).is_file(), file
    for test in SLOW_TESTS:
        path, _, name = test.partition("::")
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^(async )?def {name}\(", source, re.M), test


def test_marking_by_place() -> None:
    assert is_slow("tests/deploy/test_install.py::test_help_lists_every_command")
    assert is_slow("tests/service/test_kill.py::test_x[3]")
    assert is_slow("tests/render/test_art.py::test_committed_art_is_current")
    assert not is_slow("tests/render/test_art.py::test_every_tile_has_art")
    assert not is_slow("tests/render/test_art.py::test_committed_art_is_current_too")
    assert not is_slow("tests/engine/test_river.py::test_river")
    assert is_slow("tests/store/test_store.py::test_x[postgresql]")
    assert is_slow("tests/privacy/test_erase.py::test_y[postgresql-2]")
    assert not is_slow("tests/store/test_store.py::test_x[sqlite]")
