"""Migrations: from nothing, from version-1, -2, -3 and -4 databases, all or nothing, never
backwards; on SQLite (real old files) and on PostgreSQL (the same migrations, the same data).

`db_target` (tests/store/conftest.py) is a new SQLite file or PostgreSQL database per test.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.setup import Setup
from carca_bot.service import GameService, LanguagePrefs, NotAllowed, User, Where
from carca_bot.store import SCHEMA_VERSION, SchemaTooNew, SeatRow, Store
from carca_bot.store import schema as schema_module
from carca_bot.store.driver import Database
from tests.store.backends import columns, opened, schema_version, set_schema_version, tables

# The schema as version 1 of the program wrote it; kept here, frozen, so the
# migration is tested against what is really on disk, not the current code.
V1_SCHEMA = """
CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id    TEXT NOT NULL,
    options    TEXT NOT NULL,
    seed       INTEGER,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX games_live_channel ON games (guild_id, channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_channel ON games (guild_id, channel_id, id);
CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      TEXT,
    display_name TEXT NOT NULL,
    colour       INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    UNIQUE (game_id, display_name)
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    user_id TEXT,
    action  TEXT NOT NULL,
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
PRAGMA user_version = 1;
"""
OPTIONS: dict[str, object] = {"expansions": [], "wagon_rule": "c2", "turn_timer": None,
                              "max_players": 6}


def _two_turns() -> list[dict[str, object]]:
    game = Game(Setup(("Ana", "Ben"), seed=5))
    for player in (0, 1):
        tile = game.draw()
        spot = game.legal_placements(tile)[0]
        game.place_tile(player, tile, spot.pos, spot.rot)
        game.end_turn(player)
    return game.history


GameLog = tuple[int, str, str, list[dict[str, object]]]
INSERTS = ("INSERT INTO games VALUES (?, 'g', ?, ?, 'u1', ?, 5, 0, 0)",
           "INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
           "INSERT INTO actions VALUES (?, ?, 'u1', ?, 0)")


def _version_1_games() -> tuple[list[dict[str, object]], tuple[GameLog, ...]]:
    actions = _two_turns()
    whole = random_game(Setup(("Ana", "Ben"), seed=5), random.Random(5)).history
    return actions, ((1, "c1", "active", actions), (2, "c2", "finished", actions),
                     (3, "c3", "active", whole),  # its last move was written, its status not
                     (4, "c4", "cancelled", []), (5, "c5", "cancelled", actions))


def _rows(game: GameLog) -> tuple[tuple[object, ...], list[tuple[object, ...]],
                                  list[tuple[object, ...]]]:
    gid, channel, status, log = game
    return ((gid, channel, status, json.dumps(OPTIONS)),
            [(gid, 0, "u1", "Ana", 0), (gid, 1, "u2", "Ben", 1)],
            [(gid, i, json.dumps(a)) for i, a in enumerate(log)])


def _version_1_file(path: Path) -> list[dict[str, object]]:
    actions, games = _version_1_games()
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    for game in games:
        row, seats, logged = _rows(game)
        db.execute(INSERTS[0], row)
        db.executemany(INSERTS[1], seats)
        db.executemany(INSERTS[2], logged)
    db.commit()
    db.close()
    return actions


async def _version_1(target: str) -> list[dict[str, object]]:
    """A version-1 database: on SQLite the file as version 1 of the program wrote it; on
    PostgreSQL (which came later) the first migration, with the same games."""
    if not target.startswith("postgresql://"):
        return _version_1_file(Path(target))
    actions, games = _version_1_games()
    async with opened(target) as db:
        await schema_module.migrate(db, 1)
        async with db.transaction() as tx:
            for game in games:
                row, seats, logged = _rows(game)
                await tx.execute(INSERTS[0], row)
                await tx.executemany(INSERTS[1], seats)
                await tx.executemany(INSERTS[2], logged)
            # ids given explicitly: the next game must not take one of them
            await tx.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), 5)")
    return actions


async def _upgrade(target: str, version: int, then: str = "", *params: object) -> None:
    """Migrate to `version` as that version of the program did, then run `then`."""
    async with opened(target) as db:
        await schema_module.migrate(db, version)
        if then:
            async with db.transaction() as tx:
                for statement in then.split(";"):
                    count = statement.count("?")
                    await tx.execute(statement, params[:count])
                    params = params[count:]


async def _version(db: Database) -> int:
    return await db.schema_version()


# What a failed migration raises: the database's own error, for the admin to read.
SQL_ERROR: dict[str, type[Exception]] = {"sqlite": sqlite3.OperationalError,
                                          "postgresql": asyncpg.PostgresSyntaxError}


def _columns(path: Path, table: str) -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


async def test_an_empty_database_gets_the_whole_schema(db_target: str) -> None:
    store = await Store.open(db_target)
    await store.close()
    assert await schema_version(db_target) == SCHEMA_VERSION
    assert {"version", "pending", "deadline", "outcome", "public_version", "posted_version",
            "clock", "alarm"} <= await columns(db_target, "games")
    assert {"resigned", "exit_score"} <= await columns(db_target, "seats")
    assert {"games", "seats", "actions", "public_events", "usage", "language_prefs",
            "reminded", "vacations"} <= await tables(db_target)
    again = await Store.open(db_target)  # a second start finds nothing to do
    await again.close()
    assert await schema_version(db_target) == SCHEMA_VERSION


async def test_an_empty_file_gets_the_whole_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    store = await Store.open(path)
    try:
        rows = [await store._rows(f"PRAGMA {p}")
                for p in ("user_version", "journal_mode", "foreign_keys", "busy_timeout")]
        assert [r[0][0] for r in rows] == [SCHEMA_VERSION, "wal", 1, 10000]
    finally:
        await store.close()
    assert {"version", "pending", "deadline", "outcome", "public_version",
            "posted_version"} <= _columns(path, "games")
    assert "resigned" in _columns(path, "seats")


async def test_a_version_1_file_is_migrated_and_its_games_go_on(db_target: str) -> None:
    actions = await _version_1(db_target)
    service = await GameService.open(db_target)
    try:
        assert await _version(service.store._db) == SCHEMA_VERSION
        running = await service.store.game(1)
        assert running is not None and running.version == 2 and running.pending is None
        assert running.outcome is None
        done = await service.store.game(2)
        assert done is not None and done.outcome == "complete"
        view = await service.status(Where("g", "c1"), "u1")
        assert view.moves == 2 and view.status == "active"
        assert view.deciding is not None and view.deciding.name == "Ana"
        assert not any(s.resigned for s in view.seats)
        assert (await service.export(Where("g", "c1")))["actions"] == actions
        assert [(await service.status(Where("g", c))).outcome for c in ("c4", "c5")] == [
            "lobby_closed", "cancelled"]
        assert (await service.status(Where("g", "c5"))).moves == 2
        finished = await service.status(Where("g", "c3"))
        assert (finished.status, finished.outcome, finished.must) == (
            "finished", "complete", "over")
        # The migrated game takes moves like any other.
        ana, where = User("u1", "Ana"), Where("g", "c1")
        x, y, rot = (await service.legal_moves(where, ana)).placements[0]
        await service.place_tile(where, ana, x, y, rot)
        assert (await service.confirm(where, ana)).moves == 3
        # a new game gets a new id, not one the migrated games had
        assert await service.store.create_game("g", "c6", SeatRow(0, "u1", "Ana", 0), {},
                                               1, 1.0) == 6
    finally:
        await service.close()


async def test_a_failed_migration_changes_nothing(db_target: str, backend: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    await _version_1(db_target)
    broken = (schema_module.V1, (*schema_module.V2, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(SQL_ERROR[backend]):
        await Store.open(db_target)
    assert await schema_version(db_target) == 1
    assert "version" not in await columns(db_target, "games")


async def test_a_newer_database_is_refused(db_target: str) -> None:
    await set_schema_version(db_target, SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNew, match="knows versions up to"):
        await Store.open(db_target)


async def test_processes_starting_at_once_migrate_once(db_target: str) -> None:
    """Four stores opening one new database together: each migration runs once (a second
    run would fail: its tables exist), and all of them work."""
    stores = await asyncio.gather(*(Store.open(db_target) for _ in range(4)))
    try:
        assert await schema_version(db_target) == SCHEMA_VERSION
        made = [await s.create_game("g", f"c{n}", SeatRow(0, "u1", "Ana", 0), {}, 1, 1.0)
                for n, s in enumerate(stores)]
        assert sorted(made) == [1, 2, 3, 4]
    finally:
        for store in stores:
            await store.close()


async def _version_2(target: str) -> None:
    """A database as version 2 of the program left it (its games made with version 1)."""
    await _version_1(target)
    await _upgrade(target, 2)


async def test_a_version_2_file_owes_no_posts_and_goes_on(db_target: str) -> None:
    await _version_2(db_target)
    service = await GameService.open(db_target)
    try:
        assert await _version(service.store._db) == SCHEMA_VERSION
        for game_id in await service.store.game_ids():
            row = await service.store.game(game_id)
            assert row is not None and row.posted_version == row.public_version == row.version
        assert await service.pending_posts() == []  # nobody is owed a post from before
        ana, where = User("u1", "Ana"), Where("g", "c1")
        x, y, rot = (await service.legal_moves(where, ana)).placements[0]
        await service.place_tile(where, ana, x, y, rot)
        view = await service.confirm(where, ana)
        assert [(p.game_id, p.version) for p in await service.pending_posts()] == [
            (1, view.version)]
    finally:
        await service.close()


async def test_a_failed_version_3_migration_leaves_version_2(
        db_target: str, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    await _version_2(db_target)
    broken = (schema_module.V1, schema_module.V2, (*schema_module.V3, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(SQL_ERROR[backend]):
        await Store.open(db_target)
    assert await schema_version(db_target) == 2
    assert "public_version" not in await columns(db_target, "games")
    assert {"public_events", "usage"} & await tables(db_target) == set()


async def _version_3(target: str) -> None:
    """A database as version 3 of the program left it: options without a language, and an
    undelivered public post stored as plain sentences."""
    await _version_2(target)
    await _upgrade(
        target, 3,
        "UPDATE games SET public_version = version + 1, version = version + 1 WHERE id = 1;"
        "INSERT INTO public_events VALUES (1, (SELECT version FROM games WHERE id = 1), "
        "2, 0, ?)",
        json.dumps(["Ana +4 for completed city of 2 tiles (2 per tile and pennant)",
                    "Ben resigned"]))


async def test_a_version_3_file_gets_language_overrides_and_keeps_its_games(
        db_target: str) -> None:
    await _version_3(db_target)
    assert "language_prefs" not in await tables(db_target)
    service = await GameService.open(db_target)
    try:
        assert await _version(service.store._db) == SCHEMA_VERSION
        assert (await service.status(Where("g", "c1"))).options.language == "en"
        assert await service.language_prefs("u1", "g") == LanguagePrefs(None, None)
        await service.set_language("guild", "g", "es")
        assert await service.language_prefs("u1", "g") == LanguagePrefs(None, "es")
        # the post version 3 stored as sentences is still owed, and delivered word for word
        (owed,) = await service.pending_posts()
        catch = await service.events_since(owed.game_id, owed.posted_version)
        assert catch.lines == ("Ana +4 for completed city of 2 tiles (2 per tile and pennant)",
                               "Ben resigned")
    finally:
        await service.close()
    async with opened(db_target) as db:
        assert await db.execute_fetchall(
            "SELECT scope, scope_id, language FROM language_prefs") == [("guild", "g", "es")]


async def test_a_failed_version_4_migration_leaves_version_3(
        db_target: str, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    await _version_3(db_target)
    broken = (*schema_module.MIGRATIONS[:3], (*schema_module.V4, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(SQL_ERROR[backend]):
        await Store.open(db_target)
    assert await schema_version(db_target) == 3
    assert "language_prefs" not in await tables(db_target)


async def _version_4(target: str) -> None:
    """A database as version 4 of the program left it: game 1 running with a 60 s turn
    timer, its deadline already past, and a language override."""
    await _version_3(target)
    await _upgrade(target, 4,
                   "UPDATE games SET deadline = 100, options = ? WHERE id = 1;"
                   "INSERT INTO language_prefs VALUES ('user', 'u1', 'es', 0)",
                   json.dumps({**OPTIONS, "turn_timer": 60, "auto_play": True}))


async def test_a_version_4_file_gets_clocks_and_its_timers_go_on(db_target: str) -> None:
    await _version_4(db_target)
    assert {"reminded", "vacations"} & await tables(db_target) == set()
    service = await GameService.open(db_target, clock=lambda: 1000.0)
    try:
        assert await _version(service.store._db) == SCHEMA_VERSION
        row = await service.store.game(1)
        assert row is not None and row.clock is None and row.alarm is None
        assert row.deadline == 100
        assert await service.language_prefs("u1", None) == LanguagePrefs("es", None)
        # the old per-decision timer still fires, once, as before the upgrade
        (report,) = await service.check_timers()
        assert (report.game_id, report.reason, len(report.actions)) == (1, "auto_played", 1)
        assert report.view.deadline == 1060
        assert await service.check_timers() == []
        with pytest.raises(NotAllowed, match="no_clock_games"):
            await service.take_vacation("u1", 2)  # a timer game is not a clock game
    finally:
        await service.close()
    assert {"clock", "alarm"} <= await columns(db_target, "games")
    assert "exit_score" in await columns(db_target, "seats")
    assert {"reminded", "vacations"} <= await tables(db_target)


async def test_a_failed_version_5_migration_leaves_version_4(
        db_target: str, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    await _version_4(db_target)
    broken = (*schema_module.MIGRATIONS[:4], (*schema_module.V5, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(SQL_ERROR[backend]):
        await Store.open(db_target)
    assert await schema_version(db_target) == 4
    assert "clock" not in await columns(db_target, "games")
    assert "vacations" not in await tables(db_target)


async def test_a_new_file_another_process_is_migrating_still_opens(tmp_path: Path) -> None:
    """Switching a file to write-ahead logging while another connection holds the write
    lock fails at once ("database is locked": busy_timeout does not apply), which is
    what a bot process starting while another migrates the new file meets. It must wait
    for the lock, not fail."""
    path = tmp_path / "new.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # the other process, migrating
    asyncio.get_running_loop().call_later(0.3, other.execute, "COMMIT")
    try:
        store = await Store.open(path)
    finally:
        other.close()
    await store.close()
    assert await schema_version(str(path)) == SCHEMA_VERSION
