"""The command-sync marker: beside a SQLite file, and somewhere writable for a URL."""

from __future__ import annotations

from pathlib import Path

from carca_bot.bot.client import command_marker


def test_a_sqlite_file_keeps_its_marker_beside_it(tmp_path: Path) -> None:
    assert command_marker(tmp_path / "carca.sqlite3") == tmp_path / "carca.sqlite3.commands"


def test_a_postgresql_url_gets_a_marker_file_of_its_own_without_the_password() -> None:
    one = command_marker("postgresql://carca:secret@db:5432/carca")
    other = command_marker("postgresql://carca:secret@db:5432/other")
    assert one != other
    assert one.parent == Path(".") and "secret" not in str(one) and "/" not in one.name
