"""`carca-bot backup` and `carca-bot check`: consistent copies of a live database, and
finding what would stop a game from coming back after a restart."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import sqlite3
from pathlib import Path

import pytest

from carca_bot.local.randomplayer import play_random_move
from carca_bot.ops import OpsError, backup, check, run_backup, run_check
from carca_bot.service import GameOptions, GameService, TurnView, User, Where
from carca_bot.store import Store
from carca_bot.store.schema import SCHEMA_VERSION

GAMES = 6


def seats(table: int) -> list[User]:
    return [User(f"user-{table}-{n}", f"P{n}") for n in range(2)]


async def deal(service: GameService, table: int, expansions: frozenset[str] = frozenset()
               ) -> TurnView:
    where = Where("guild", f"table-{table}")
    first, second = seats(table)
    await service.create(where, first, GameOptions(expansions=expansions, seed=table))
    await service.join(where, second)
    return await service.start(where, first)


async def play(service: GameService, table: int, moves: int, rng: random.Random) -> TurnView:
    """`moves` random committed moves (fewer if the game ends), with a pause between."""
    where = Where("guild", f"table-{table}")
    view = await service.status(where)
    for _ in range(moves):
        if view.finished:
            break
        assert view.deciding is not None
        user = next(u for u in seats(table) if u.id == view.deciding.user_id)
        view, _ = await play_random_move(service, where, user, rng)
        await asyncio.sleep(0)
    return view


async def populated(path: Path) -> None:
    """A finished game, running ones (one mid-turn), a lobby and a cancelled game."""
    service = await GameService.open(path, synchronous="NORMAL")
    try:
        rng = random.Random(3)
        for table in range(3):
            await deal(service, table, frozenset({"abbot", "abbey_mayor", "tunnel"}))
        await play(service, 0, 500, rng)  # to the end
        await play(service, 1, 9, rng)
        view = await play(service, 2, 4, rng)
        assert view.deciding is not None
        mid = next(u for u in seats(2) if u.id == view.deciding.user_id)
        legal = await service.legal_moves(Where("guild", "table-2"), mid)
        if legal.must == "choose":
            await service.draw(Where("guild", "table-2"), mid)
            legal = await service.legal_moves(Where("guild", "table-2"), mid)
        x, y, rot = legal.placements[0]
        await service.place_tile(Where("guild", "table-2"), mid, x, y, rot)  # unconfirmed
        await service.create(Where("guild", "lobby"), User("host", "Host"), GameOptions())
        await service.create(Where("guild", "gone"), User("host", "Host"), GameOptions())
        await service.cancel(Where("guild", "gone"), User("host", "Host"))
        assert (await service.status(Where("guild", "table-0"))).status == "finished"
    finally:
        await service.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def dump(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def moves_in(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


# -- backup ---------------------------------------------------------------------------


async def test_backup_while_games_are_played_is_consistent(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    service = await GameService.open(db, synchronous="NORMAL")
    rng = random.Random(11)
    for table in range(GAMES):
        await deal(service, table, frozenset({"river", "abbot", "tunnel"}))
    stop = asyncio.Event()

    async def players() -> None:
        while not stop.is_set():
            await asyncio.gather(*(play(service, t, 1, rng) for t in range(GAMES)))

    playing = asyncio.create_task(players())
    seen: list[int] = []
    try:
        for n in range(8):
            await asyncio.sleep(0.05)
            copy = tmp_path / f"copy-{n}.sqlite3"
            report = await asyncio.to_thread(backup, db, copy)
            assert report.ok and report.lines()[0].startswith("backup written"), report.lines()
            assert report.games == GAMES
            checked = await asyncio.to_thread(check, copy)
            assert checked.ok and checked.games == GAMES, checked.lines()
            assert not list(tmp_path.glob(".copy-*"))  # no partial file left behind
            seen.append(report.actions)
    finally:
        stop.set()
        await playing
    assert seen == sorted(seen) and seen[-1] > seen[0], f"no move between backups: {seen}"

    # The copy is a working database: the bot can open it and play on.
    restored = await GameService.open(tmp_path / "copy-7.sqlite3")
    try:
        await play(restored, 0, 2, random.Random(1))
    finally:
        await restored.close()
        await service.close()


async def test_backup_is_one_self_contained_file(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    service = await GameService.open(db)  # held open: its WAL may hold the latest writes
    try:
        await play(service, 1, 2, random.Random(5))
        report = backup(db, tmp_path / "copy.sqlite3")
    finally:
        await service.close()
    copy = tmp_path / "copy.sqlite3"
    assert report.ok and report.actions == moves_in(db) and report.dest == copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite3", "games.sqlite3"]
    journal = sqlite3.connect(copy).execute("PRAGMA journal_mode").fetchone()[0]
    assert journal == "delete"


async def test_backup_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    dest = tmp_path / "backup.sqlite3"
    dest.write_bytes(b"last week's backup")
    with pytest.raises(OpsError, match="already exists"):
        backup(db, dest)
    assert dest.read_bytes() == b"last week's backup"
    status = run_backup(argparse.Namespace(db=str(db), dest=str(dest), overwrite=False))
    assert status == 2 and "already exists" in capsys.readouterr().err
    assert dest.read_bytes() == b"last week's backup"

    assert backup(db, dest, overwrite=True).ok
    assert check(dest).ok
    with pytest.raises(OpsError, match="cannot overwrite the database"):
        backup(db, db, overwrite=True)


async def test_backup_of_nothing_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(OpsError, match="no database"):
        backup(tmp_path / "typo.sqlite3", tmp_path / "copy.sqlite3")
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(OpsError):
        backup(tmp_path / "junk.sqlite3", tmp_path / "copy.sqlite3")
    with pytest.raises(OpsError, match="no folder"):
        backup(tmp_path / "junk.sqlite3", tmp_path / "nowhere" / "copy.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite3"]


async def test_run_backup_uses_carca_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    monkeypatch.setenv("CARCA_DB", str(db))
    assert run_backup(argparse.Namespace(db=None, dest=str(tmp_path / "b.sqlite3"),
                                         overwrite=False)) == 0
    out = capsys.readouterr().out
    assert "backup written" in out and "integrity: ok" in out and "5 games" in out


# -- check ------------------------------------------------------------------------------


async def test_check_passes_a_good_database_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    before, content = digest(db), dump(db)
    report = check(db)
    assert report.ok and report.games == 5 and report.schema_version == SCHEMA_VERSION
    assert report.lines()[0].endswith(": ok")
    assert run_check(argparse.Namespace(db=str(db), quick=False)) == 0
    assert "games replayed: 5, failing: 0" in capsys.readouterr().out
    assert digest(db) == before
    # No -wal or -shm left behind: a read-only reading of a WAL database makes them,
    # owned by whoever ran the check, and they would lock a bot of another user out.
    assert [p.name for p in tmp_path.iterdir()] == ["games.sqlite3"]
    quick = check(db, quick=True)
    assert quick.ok and quick.games == 5 and quick.quick
    assert "write test: ok" in quick.lines()
    assert dump(db) == content  # the health check's write changes no data
    assert [p.name for p in tmp_path.iterdir()] == ["games.sqlite3"]


async def test_check_of_a_new_or_missing_database(tmp_path: Path) -> None:
    with pytest.raises(OpsError, match="no database"):
        check(tmp_path / "missing.sqlite3")
    assert not (tmp_path / "missing.sqlite3").exists()
    assert run_check(argparse.Namespace(db=str(tmp_path / "missing.sqlite3"),
                                        quick=True)) == 2
    empty = tmp_path / "empty.sqlite3"
    empty.touch()  # what sqlite3 leaves when it only created the file
    report = check(empty)
    assert report.ok and report.schema_version == 0 and "empty database" in report.lines()[3]
    fresh = tmp_path / "fresh.sqlite3"
    await (await Store.open(fresh)).close()
    assert check(fresh).ok and check(fresh).games == 0


def corrupt_game(db: Path, channel: str, sql: str, *params: object) -> int:
    con = sqlite3.connect(db)
    try:
        game_id = int(con.execute("SELECT id FROM games WHERE channel_id = ?",
                                  (channel,)).fetchone()[0])
        con.execute(sql.replace(":game", str(game_id)), params)
        con.commit()
        return game_id
    finally:
        con.close()


async def test_check_names_a_game_with_an_illegal_move(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    # A tile on top of the start tile, appended after the last move of game table-1.
    bad = corrupt_game(
        db, "table-1",
        "INSERT INTO actions (game_id, seq, user_id, action, at) SELECT :game, max(seq) + 1, "
        "NULL, ?, 0 FROM actions WHERE game_id = :game",
        '{"by":"P0","tile":"D","at":[0,0],"rot":0}')
    report = check(db)
    assert not report.ok and report.games == 5
    (problem,) = report.problems
    assert problem.game_id == bad and problem.channel_id == "table-1"
    assert problem.status == "active" and "does not replay" in problem.error
    assert run_check(argparse.Namespace(db=str(db), quick=False)) == 1
    out = capsys.readouterr().out
    assert "PROBLEMS FOUND" in out and f"game {bad} (guild guild, channel table-1" in out
    assert check(db, quick=True).ok  # the quick check only asks whether the file is sound


@pytest.mark.parametrize(("channel", "sql", "params", "words"), [
    ("table-1", "DELETE FROM actions WHERE game_id = :game AND seq = 3", (), "gap"),
    ("table-1", "UPDATE actions SET action = ? WHERE game_id = :game AND seq = 0",
     ("{not json",), "JSONDecodeError"),
    ("table-1", "UPDATE actions SET action = json_set(action, '$.bogus', 1) "
     "WHERE game_id = :game AND seq = 2", (), "stored move 2 is malformed"),
    ("table-0", "UPDATE actions SET action = json_set(action, '$.deploy.extra', 1) "
     "WHERE game_id = :game AND seq = (SELECT min(seq) FROM actions WHERE game_id = :game "
     "AND json_extract(action, '$.deploy') IS NOT NULL)", (), "is malformed: "),
    ("table-0", "UPDATE games SET status = 'active', outcome = NULL WHERE id = :game", (),
     "marked active"),
    ("table-2", "UPDATE games SET pending = ? WHERE id = :game",
     ('{"seat":0,"seq":0,"steps":[]}',), "unconfirmed turn"),
    ("lobby", "UPDATE games SET options = ? WHERE id = :game", ('{"max_players":9}',),
     "BadInput"),
])
async def test_check_reports_each_kind_of_damage(tmp_path: Path, channel: str, sql: str,
                                                 params: tuple[object, ...], words: str) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    bad = corrupt_game(db, channel, sql, *params)
    report = check(db)
    assert [p.game_id for p in report.problems] == [bad], report.lines()
    assert words in report.problems[0].error, report.problems[0].error


async def test_check_of_a_damaged_file(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(random.Random(1).randbytes(64 * 1024))
    with pytest.raises(OpsError, match="not a database"):
        check(garbage)
    assert run_check(argparse.Namespace(db=str(garbage), quick=True)) == 2

    # A sound header over damaged pages: SQLite opens it and its check finds the damage.
    db = tmp_path / "games.sqlite3"
    await populated(db)
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page:5 * page] = random.Random(2).randbytes(2 * page)
    db.write_bytes(bytes(data))
    report = check(db)
    assert not report.ok and report.integrity != ["ok"], report.lines()
    assert "integrity: DAMAGED" in report.lines()
    assert not check(db, quick=True).ok
    assert run_check(argparse.Namespace(db=str(db), quick=False)) == 1


async def test_check_refuses_to_judge_a_newer_schema(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    await populated(db)
    con = sqlite3.connect(db)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    report = check(db)
    assert not report.ok and any("newer" in line for line in report.lines())
