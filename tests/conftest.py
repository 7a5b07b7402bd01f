"""Marks the slow tests, by where they are, so a developer's quick run skips them.

`pytest -m "not slow"` is the quick run (under a minute); CI runs everything. The slow ones
install the package into a fresh venv, fuzz or kill whole games, or redraw all the art.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from carca_bot import i18n

SLOW_FOLDERS = ("tests/deploy/", "tests/fault/")
SLOW_FILES = ("tests/service/test_kill.py", "tests/bot/test_full_games.py",
              "tests/local/test_terminal.py", "tests/scale/test_kill_processes.py")
SLOW_TESTS = (
    "tests/bot/test_game.py::test_full_game_from_create_to_final_scores",
    "tests/render/test_board.py::test_move_by_move_equals_from_scratch",
    "tests/render/test_art.py::test_committed_art_is_current",
    "tests/league/test_pairing.py::test_swiss_pairing_properties",
)


def is_slow(nodeid: str) -> bool:
    path, _, name = nodeid.partition("::")
    test = f"{path}::{name.split('[')[0]}"
    return path.startswith(SLOW_FOLDERS) or path in SLOW_FILES or test in SLOW_TESTS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _each_test_starts_in_english() -> Iterator[None]:
    """A front end that sets the language for its whole process (the terminal game's
    `use_language`) would otherwise leave it set for the tests that run after it."""
    i18n.use_language(i18n.DEFAULT)
    yield
    i18n.use_language(i18n.DEFAULT)
