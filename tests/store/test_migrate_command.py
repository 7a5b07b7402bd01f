"""`carca-bot migrate SQLITE_FILE postgresql://...`: every table copied with its ids, every
game rebuilt from PostgreSQL as from SQLite, the games go on there; a target with data is
refused and nothing changes."""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from carca_bot.cli import main
from carca_bot.pgcopy import _check, copy_to_postgres
from carca_bot.service import GameOptions, GameService, User, Where
from carca_bot.store import SeatRow, Store
from carca_bot.store.postgres_db import statements
from tests.deploy.test_ops import play, populated

TABLES = ("games", "seats", "actions", "public_events", "usage", "language_prefs",
          "reminded", "vacations")


async def _source(path: Path) -> None:
    """Games in every state (tests/deploy), and a row in every other table."""
    await populated(path)
    store = await Store.open(path)
    try:
        await store.set_language("user", "host", "es", 1.0)
        await store.set_reminded("host", 2.0)
        await store.add_vacation("host", 10.0, 20.5)
        await store.create_game("guild", "limited", SeatRow(0, "u9", "Nine", 0), {}, 3, 4.0,
                                check=None, thread=True)  # a usage row
    finally:
        await store.close()


async def _cli(*args: str) -> int:
    """The command line, in a thread: it runs its own event loop."""
    return await asyncio.to_thread(main, ["migrate", *args])


def _counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        return {t: int(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in TABLES}


async def _pg_counts(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        return {t: int(await conn.fetchval(f"SELECT count(*) FROM {t}")) for t in TABLES}
    finally:
        await conn.close()


async def test_every_game_moves_over_and_goes_on(tmp_path: Path, pg_url: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bot.sqlite3"
    await _source(source)
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    counts = _counts(source)
    assert all(counts.values()), counts  # every table has something to copy

    assert await _cli(str(source), pg_url) == 0
    out = capsys.readouterr().out
    assert f"checked: all {counts['games']} games rebuilt from PostgreSQL match" in out
    assert f"games {counts['games']}, " in out and f"actions {counts['actions']}" in out
    assert await _pg_counts(pg_url) == counts
    assert hashlib.sha256(source.read_bytes()).hexdigest() == before  # never written

    sqlite_service = await GameService.open(source)
    pg_service = await GameService.open(pg_url)
    try:
        for table in range(3):  # the same games, seen from either database
            where = Where("guild", f"table-{table}")
            assert await pg_service.status(where) == await sqlite_service.status(where)
        assert await pg_service.language_prefs("host", None) == \
            await sqlite_service.language_prefs("host", None)
        assert await pg_service.store.vacations(["host"]) == {"host": [(10.0, 20.5)]}
        # the running game goes on in PostgreSQL, and a new game gets a new id
        view = await play(pg_service, 1, 2, random.Random(5))
        assert view.moves > (await sqlite_service.status(Where("guild", "table-1"))).moves
        made = await pg_service.create(Where("guild", "new"), User("u7", "Seven"),
                                       GameOptions())
        assert made.game_id == counts["games"] + 1
    finally:
        await sqlite_service.close()
        await pg_service.close()


async def test_a_target_with_games_is_refused_and_kept(tmp_path: Path, pg_url: str,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    source = tmp_path / "bot.sqlite3"
    await _source(source)
    assert await _cli(str(source), pg_url) == 0
    capsys.readouterr()
    kept = await _pg_counts(pg_url)
    assert await _cli(str(source), pg_url) == 2
    err = capsys.readouterr().err
    assert "already holds data (in games, language_prefs," in err and "nothing was changed" in err
    assert await _pg_counts(pg_url) == kept


async def test_the_check_finds_a_game_that_differs(tmp_path: Path, pg_url: str) -> None:
    """The check is not a formality: a changed move in PostgreSQL is found."""
    source = tmp_path / "bot.sqlite3"
    await _source(source)
    report = await copy_to_postgres(source, pg_url)
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE actions SET action = '{\"by\": \"P0\", \"discard\": \"A\"}' "
                           "WHERE game_id = 2 AND seq = 3")
        with sqlite3.connect(source) as db:
            games, _, problems = await _check(db, statements(conn), report.rows)
    finally:
        await conn.close()
    assert games == report.games_checked and problems == ["game 2: its rows differ"]


async def test_bad_arguments_change_nothing(tmp_path: Path, pg_url: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bot.sqlite3"
    await _source(source)
    assert await _cli(str(source), str(tmp_path / "other.sqlite3")) == 2
    assert "must be a postgresql:// URL" in capsys.readouterr().err
    assert await _cli(str(tmp_path / "missing.sqlite3"), pg_url) == 2
    assert "no database at" in capsys.readouterr().err
    conn = await asyncpg.connect(pg_url)
    try:  # not even the schema was made
        assert await conn.fetchval("SELECT to_regclass('games') IS NULL")
    finally:
        await conn.close()
    gone = pg_url.rsplit("/", 1)[0] + "/no_such_database"
    assert await _cli(str(source), gone) == 2
    assert "cannot use postgresql://" in capsys.readouterr().err
