"""The command line with CARCA_DB naming a PostgreSQL server: the start-up check says
what is wrong in one line, and the SQLite-only commands say so instead of guessing."""

from __future__ import annotations

import asyncio

import pytest

from carca_bot.cli import main
from carca_bot.ops import database_problem, shown
from carca_bot.store import SCHEMA_VERSION
from tests.store.backends import set_schema_version
from tests.store.pg_server import PgServer


async def test_the_start_up_check_on_a_server(pg_url: str, pg_server: PgServer) -> None:
    assert await database_problem(pg_url) is None  # sets it up, like the bot would
    missing = pg_server.url("no_such_database")
    assert "cannot use postgresql://postgres@127.0.0.1" in str(await database_problem(missing))
    assert "no_such_database" in str(await database_problem(missing))
    nobody = f"postgresql://u:secret@127.0.0.1:{pg_server.port + 1}/x"  # nothing listens
    problem = str(await database_problem(nobody))
    assert problem.startswith("cannot use postgresql://u:***@127.0.0.1") and "secret" not in problem
    await set_schema_version(pg_url, SCHEMA_VERSION + 1)
    assert "set up by a newer version" in str(await database_problem(pg_url))


@pytest.mark.parametrize("command", ["check", "backup"])
async def test_sqlite_only_commands_say_so(command: str, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARCA_DB", "postgresql://bot:pw@db.example/carca")
    argv = [command] + (["copy.sqlite3"] if command == "backup" else [])
    assert await asyncio.to_thread(main, argv) == 2
    err = capsys.readouterr().err
    assert f"{command} works on SQLite files" in err and "pw@" not in err


def test_passwords_are_never_shown() -> None:
    assert shown("postgresql://bot:s3cr:et@host:5432/db") == "postgresql://bot:***@host:5432/db"
    assert shown("postgresql://bot@host/db") == "postgresql://bot@host/db"
