"""Migrations: from nothing, from version-1, -2, -3 and -4 files, all or nothing, never
backwards."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.setup import Setup
from carca_bot.service import GameService, LanguagePrefs, NotAllowed, User, Where
from carca_bot.store import SCHEMA_VERSION, SchemaTooNew, Store
from carca_bot.store import schema as schema_module

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


def _version_1_file(path: Path) -> list[dict[str, object]]:
    actions = _two_turns()
    whole = random_game(Setup(("Ana", "Ben"), seed=5), random.Random(5)).history
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    games: tuple[tuple[int, str, str, list[dict[str, object]]], ...] = (
        (1, "c1", "active", actions), (2, "c2", "finished", actions),
        (3, "c3", "active", whole),  # its last move was written, its status not
        (4, "c4", "cancelled", []), (5, "c5", "cancelled", actions))
    for gid, channel, status, log in games:
        db.execute("INSERT INTO games VALUES (?, 'g', ?, ?, 'u1', ?, 5, 0, 0)",
                   (gid, channel, status, json.dumps(OPTIONS)))
        db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                       [(gid, 0, "u1", "Ana", 0), (gid, 1, "u2", "Ben", 1)])
        db.executemany("INSERT INTO actions VALUES (?, ?, 'u1', ?, 0)",
                       [(gid, i, json.dumps(a)) for i, a in enumerate(log)])
    db.commit()
    db.close()
    return actions


def _columns(path: Path, table: str) -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


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


async def test_a_version_1_file_is_migrated_and_its_games_go_on(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    actions = _version_1_file(path)
    service = await GameService.open(path)
    try:
        assert (await service.store._rows("PRAGMA user_version"))[0][0] == SCHEMA_VERSION
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
    finally:
        await service.close()


async def test_a_failed_migration_changes_nothing(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.sqlite3"
    _version_1_file(path)
    broken = (schema_module.V1, (*schema_module.V2, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "version" not in _columns(path, "games")


async def test_a_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew, match="knows versions up to"):
        await Store.open(path)


def _version_2_file(path: Path) -> None:
    """A file as version 2 of the program left it (its games made with version 1)."""
    _version_1_file(path)
    with sqlite3.connect(path) as db:
        for statement in schema_module.V2:
            db.execute(statement)
        db.execute("PRAGMA user_version = 2")


async def test_a_version_2_file_owes_no_posts_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite3"
    _version_2_file(path)
    service = await GameService.open(path)
    try:
        assert (await service.store._rows("PRAGMA user_version"))[0][0] == SCHEMA_VERSION == 9
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
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v2.sqlite3"
    _version_2_file(path)
    broken = (schema_module.V1, schema_module.V2, (*schema_module.V3, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        tables = {t for (t,) in db.execute("SELECT name FROM sqlite_master")}
    assert "public_version" not in _columns(path, "games")
    assert "public_events" not in tables and "usage" not in tables


def _version_3_file(path: Path) -> None:
    """A file as version 3 of the program left it: options without a language, and an
    undelivered public post stored as plain sentences."""
    _version_2_file(path)
    with sqlite3.connect(path) as db:
        for statement in schema_module.V3:
            db.execute(statement)
        db.execute("UPDATE games SET public_version = version + 1, version = version + 1 "
                   "WHERE id = 1")
        db.execute("INSERT INTO public_events VALUES (1, (SELECT version FROM games "
                   "WHERE id = 1), 2, 0, ?)",
                   (json.dumps(["Ana +4 for completed city of 2 tiles (2 per tile and "
                                "pennant)", "Ben resigned"]),))
        db.execute("PRAGMA user_version = 3")


async def test_a_version_3_file_gets_language_overrides_and_keeps_its_games(
        tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    _version_3_file(path)
    assert "language_prefs" not in _tables(path)
    service = await GameService.open(path)
    try:
        assert (await service.store._rows("PRAGMA user_version"))[0][0] == SCHEMA_VERSION
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
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT scope, scope_id, language FROM language_prefs").fetchall() \
            == [("guild", "g", "es")]


async def test_a_failed_version_4_migration_leaves_version_3(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v3.sqlite3"
    _version_3_file(path)
    broken = (*schema_module.MIGRATIONS[:3], (*schema_module.V4, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    assert "language_prefs" not in _tables(path)


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _version_4_file(path: Path) -> None:
    """A file as version 4 of the program left it: game 1 running with a 60 s turn timer,
    its deadline already past, and a language override."""
    _version_3_file(path)
    with sqlite3.connect(path) as db:
        for statement in schema_module.V4:
            db.execute(statement)
        db.execute("UPDATE games SET deadline = 100, options = ? WHERE id = 1",
                   (json.dumps({**OPTIONS, "turn_timer": 60, "auto_play": True}),))
        db.execute("INSERT INTO language_prefs VALUES ('user', 'u1', 'es', 0)")
        db.execute("PRAGMA user_version = 4")


async def test_a_version_4_file_gets_clocks_and_its_timers_go_on(tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite3"
    _version_4_file(path)
    assert {"reminded", "vacations"} & _tables(path) == set()
    service = await GameService.open(path, clock=lambda: 1000.0)
    try:
        assert (await service.store._rows("PRAGMA user_version"))[0][0] == SCHEMA_VERSION == 9
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
    assert {"clock", "alarm"} <= _columns(path, "games")
    assert "exit_score" in _columns(path, "seats")
    assert {"reminded", "vacations"} <= _tables(path)


async def test_a_failed_version_5_migration_leaves_version_4(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v4.sqlite3"
    _version_4_file(path)
    broken = (*schema_module.MIGRATIONS[:4], (*schema_module.V5, "THIS IS NOT SQL"))
    monkeypatch.setattr(schema_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4
    assert "clock" not in _columns(path, "games")
    assert "vacations" not in _tables(path)
