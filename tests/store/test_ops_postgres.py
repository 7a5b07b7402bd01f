"""The command line with CARCA_DB naming a PostgreSQL server: the start-up check says
what is wrong in one line; `carca-bot check` replays every game and checks the outbox
(passes on a migrated database, fails on a corrupted stored move); `carca-bot backup`
is a `pg_dump` that `pg_restore` brings back whole, as docs/postgresql.md says."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import asyncpg
import pytest

from carca_bot.cli import main
from carca_bot.ops import database_problem, shown
from carca_bot.pgops import postgres_tool, split_password
from carca_bot.service import GameService, Where
from carca_bot.store import SCHEMA_VERSION, Store
from tests.deploy.test_ops import play, populated
from tests.store.backends import set_schema_version
from tests.store.pg_server import PgServer, create_database


async def test_the_start_up_check_on_a_server(pg_url: str, pg_server: PgServer,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert await database_problem(pg_url) is None  # sets it up, like the bot would
    missing = pg_server.url("no_such_database")
    assert "cannot use postgresql://postgres@127.0.0.1" in str(await database_problem(missing))
    assert "no_such_database" in str(await database_problem(missing))
    nobody = f"postgresql://u:secret@127.0.0.1:{pg_server.port + 1}/x"  # nothing listens
    problem = str(await database_problem(nobody))
    assert problem.startswith("cannot use postgresql://u:***@127.0.0.1") and "secret" not in problem
    monkeypatch.setenv("CARCA_DB_POOL_SIZE", "lots")
    assert "CARCA_DB_POOL_SIZE must be a whole number" in str(await database_problem(pg_url))
    monkeypatch.delenv("CARCA_DB_POOL_SIZE")
    await set_schema_version(pg_url, SCHEMA_VERSION + 1)
    assert "set up by a newer version" in str(await database_problem(pg_url))


def test_passwords_are_never_shown() -> None:
    assert shown("postgresql://bot:s3cr:et@host:5432/db") == "postgresql://bot:***@host:5432/db"
    assert shown("postgresql://bot@host/db") == "postgresql://bot@host/db"
    assert split_password("postgresql://bot:p%40ss@db.example:5433/carca?sslmode=require") == (
        "postgresql://bot@db.example:5433/carca?sslmode=require", {"PGPASSWORD": "p@ss"})
    assert split_password("postgresql://bot@db/carca") == ("postgresql://bot@db/carca", {})


async def _cli(*args: str) -> int:
    """The command line, in a thread: it runs its own event loop."""
    return await asyncio.to_thread(main, list(args))


async def _migrated(tmp_path: Path, url: str) -> None:
    """A bot's SQLite games in every state (tests/deploy), moved over by `migrate`."""
    source = tmp_path / "bot.sqlite3"
    await populated(source)
    assert await _cli("migrate", str(source), url) == 0


async def test_check_passes_on_a_migrated_database(tmp_path: Path, pg_url: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    await _migrated(tmp_path, pg_url)
    capsys.readouterr()
    assert await _cli("check", "--db", pg_url) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"check of {pg_url}: ok"), out
    assert f"schema version {SCHEMA_VERSION}" in out
    assert "games replayed: 5, failing: 0" in out and "outbox: ok" in out
    assert await _cli("check", "--quick", "--db", pg_url) == 0
    assert "write test: ok" in capsys.readouterr().out


async def test_check_fails_on_a_corrupted_stored_move(tmp_path: Path, pg_url: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    await _migrated(tmp_path, pg_url)
    conn = await asyncpg.connect(pg_url)
    try:
        game = await conn.fetchval("SELECT id FROM games WHERE channel_id = 'table-1'")
        await conn.execute("UPDATE actions SET action = '{\"tile\": 3}' "
                           "WHERE game_id = $1 AND seq = 2", game)
    finally:
        await conn.close()
    capsys.readouterr()
    assert await _cli("check", "--db", pg_url) == 1
    out = capsys.readouterr().out
    assert "PROBLEMS FOUND" in out and "games replayed: 5, failing: 1" in out
    assert f"game {game} (guild guild, channel table-1, active): stored move 2 is malformed" \
        in out


async def test_check_finds_an_outbox_out_of_step(tmp_path: Path, pg_url: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    await _migrated(tmp_path, pg_url)
    conn = await asyncpg.connect(pg_url)
    try:
        game = await conn.fetchval("SELECT id FROM games WHERE channel_id = 'table-2'")
        await conn.execute("UPDATE games SET public_version = version + 1 WHERE id = $1", game)
    finally:
        await conn.close()
    capsys.readouterr()
    assert await _cli("check", "--db", pg_url) == 1
    out = capsys.readouterr().out
    assert "outbox: 1 games whose delivered post is past their last public change, or whose " \
           f"public change is past their version: {game}" in out
    assert "games owed a post with no stored change to post" in out


async def test_check_leaves_an_older_schema_alone(pg_url: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    await (await Store.open(pg_url)).close()
    await set_schema_version(pg_url, SCHEMA_VERSION - 1)
    assert await _cli("check", "--db", pg_url) == 1
    assert "is older than this program's" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["check", "--db", pg_url.rsplit("/", 1)[0]
                                          + "/no_such_database"]) == 2


async def test_backup_and_restore(tmp_path: Path, pg_url: str, pg_server: PgServer,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The documented procedure: `carca-bot backup` (pg_dump), a new database,
    `pg_restore --no-owner`, `carca-bot check`; every game comes back the same, and play
    goes on in the copy."""
    await _migrated(tmp_path, pg_url)
    dump = tmp_path / "carca.dump"
    capsys.readouterr()
    assert await _cli("backup", "--db", pg_url, str(dump)) == 0
    assert "backup written" in capsys.readouterr().out and dump.stat().st_size > 0
    assert await _cli("backup", "--db", pg_url, str(dump)) == 2  # kept, not overwritten
    restored = await create_database(pg_server)
    done = await asyncio.to_thread(
        subprocess.run, [postgres_tool("pg_restore"), "--no-owner", f"--dbname={restored}",
                         str(dump)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    capsys.readouterr()
    assert await _cli("check", "--db", restored) == 0
    assert "games replayed: 5, failing: 0" in capsys.readouterr().out
    first, second = await Store.open(pg_url), await Store.open(restored)
    try:
        ids = await first.game_ids()
        assert ids == await second.game_ids()
        for game_id in ids:
            assert await first.load(game_id) == await second.load(game_id)
    finally:
        await first.close()
        await second.close()
    service = await GameService.open(restored)
    try:
        import random

        before = (await service.status(Where("guild", "table-1"))).moves
        after = await play(service, 1, 1, random.Random(5))
        assert after.moves == before + 1
    finally:
        await service.close()
