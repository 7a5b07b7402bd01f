"""`carca-bot check` reads without writing or leaving files; `check --quick`, the
container's health check, fails when the bot could not store a move.

Read-only folders and full disks are real ones: a read-only bind mount or a tiny
tmpfs in a private mount namespace (`unshare -m`, which needs root). Where that is
not allowed the tests that need it are skipped, and say why.
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from carca_bot import ops
from carca_bot.ops import OpsError, check, write_problem
from carca_bot.service import GameOptions, GameService, User, Where
from tests.deploy.context import ROOT

ANA, BEN = User("1", "Ana"), User("2", "Ben")


def small_database(path: Path) -> None:
    """A started game, as the bot leaves the file when it stops (no -wal, no -shm)."""
    async def make() -> None:
        service = await GameService.open(path)
        try:
            where = Where("guild", "table")
            await service.create(where, ANA, GameOptions(seed=4))
            await service.join(where, BEN)
            await service.start(where, ANA)
        finally:
            await service.close()
    asyncio.run(make())
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


@functools.cache
def _namespaces() -> str | None:
    """Why private mount namespaces cannot be used here, or None when they can."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return "no unshare or mount command"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt"],
                           capture_output=True, text=True, check=False, timeout=30)
    if probe.returncode != 0:
        return f"no private mount namespace here: {probe.stderr.strip()}"
    return None


def _need_namespaces() -> None:
    reason = _namespaces()
    if reason is not None:
        pytest.skip(reason)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CARCA_DB"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def in_namespace(setup: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run `argv` after the shell commands `setup`, in a private mount namespace."""
    return subprocess.run(["unshare", "-m", "sh", "-c", f'{setup} && exec "$@"', "sh", *argv],
                          capture_output=True, text=True, check=False, timeout=120,
                          env=_env(), cwd=ROOT)


def read_only(folder: Path) -> str:
    return f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} {folder}"


CLI = (sys.executable, "-m", "carca_bot")


def test_check_leaves_no_files_behind(tmp_path: Path) -> None:
    """Before: the read-only reading left games.sqlite3-wal and -shm, owned by the
    checker, beside a database the bot (another user) must be able to open."""
    db = tmp_path / "games.sqlite3"
    small_database(db)
    for quick in (False, True):
        report = check(db, quick=quick)
        assert report.ok, report.lines()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]


def test_check_in_a_read_only_folder(tmp_path: Path) -> None:
    """Before: exit 2, "unable to open database file" (SQLite wanted to make -shm)."""
    _need_namespaces()
    db = tmp_path / "games.sqlite3"
    small_database(db)
    proc = in_namespace(read_only(tmp_path), *CLI, "check", "--db", str(db))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "games replayed: 1, failing: 0" in proc.stdout


def test_check_while_the_bot_has_the_database_open(tmp_path: Path) -> None:
    """With -wal and -shm in place (the bot running), the normal read-only reading."""
    db = tmp_path / "games.sqlite3"
    small_database(db)
    holder = sqlite3.connect(db)  # a reader keeps -wal and -shm in place
    try:
        holder.execute("SELECT count(*) FROM games").fetchone()
        assert Path(f"{db}-wal").exists() and Path(f"{db}-shm").exists()
        assert check(db).ok and check(db, quick=True).ok
    finally:
        holder.close()


def test_a_file_that_changes_during_a_quiet_reading_is_read_again(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    small_database(db)
    with pytest.raises(ops._Changed), ops._open(db) as reader:
        reader.execute("SELECT count(*) FROM games").fetchone()
        writer = sqlite3.connect(db)  # the bot starts, writes, stops (a checkpoint)
        writer.execute("UPDATE games SET updated_at = updated_at + 1")
        writer.commit()
        writer.close()
    readings: list[bool] = []

    def reading(trust_quiet: bool) -> int:
        readings.append(trust_quiet)
        if len(readings) < ops.READS:
            raise ops._Changed
        return 7
    assert ops._read_steadily(reading) == 7
    assert readings == [True] * (ops.READS - 1) + [False]


def test_a_log_without_its_index_is_named(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    small_database(db)
    Path(f"{db}-wal").write_bytes(b"")
    with pytest.raises(OpsError, match=r"games\.sqlite3-shm is missing"):
        check(db)


def leave_wal_files(db: Path) -> str:
    """Shell commands that leave -wal and -shm beside `db`, as a running bot does."""
    code = (f"import sqlite3; c = sqlite3.connect('file:{db}?mode=ro', uri=True); "
            "c.execute('SELECT count(*) FROM games').fetchone()")
    return f"{sys.executable} -c \"{code}\" && test -e {db}-shm"


@pytest.mark.parametrize("bot_running", [False, True])
def test_quick_check_fails_on_a_read_only_file_system(tmp_path: Path, bot_running: bool
                                                      ) -> None:
    """Before: with the bot's -wal and -shm in place, exit 0 and "ok" though the bot
    could store nothing; without them, exit 2 "unable to open" (it could not read)."""
    _need_namespaces()
    db = tmp_path / "games.sqlite3"
    small_database(db)
    setup = read_only(tmp_path)
    if bot_running:
        setup = f"{leave_wal_files(db)} && {setup}"
    proc = in_namespace(setup, *CLI, "check", "--quick", "--db", str(db))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "PROBLEMS FOUND" in proc.stdout and "read-only" in proc.stdout, proc.stdout
    assert "integrity: ok" in proc.stdout and "Traceback" not in proc.stderr


@pytest.mark.parametrize("bot_running", [False, True])
def test_quick_check_fails_on_a_full_disk(tmp_path: Path, bot_running: bool) -> None:
    """A 1 MiB tmpfs filled up: the free-space test, and the test write meeting the
    full disk. Before: with -wal and -shm in place, exit 0 and "ok"."""
    _need_namespaces()
    source = tmp_path / "source" / "games.sqlite3"
    source.parent.mkdir()
    small_database(source)
    disk = tmp_path / "disk"
    disk.mkdir()
    db = disk / "games.sqlite3"
    fill = f"mount -t tmpfs -o size=1m tmpfs {disk} && cp {source} {db}"
    if bot_running:
        fill += f" && {leave_wal_files(db)}"
    fill += f" && (dd if=/dev/zero of={disk}/filler bs=4k 2>/dev/null || true)"
    proc = in_namespace(fill, *CLI, "check", "--quick", "--db", str(db))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "KiB free on the disk" in proc.stdout, proc.stdout
    # Without the free-space margin, the test write itself meets the full disk.
    probe = ("from pathlib import Path; from carca_bot import ops; ops.MIN_FREE = 0; "
             f"print(ops.write_problem(Path({str(db)!r})))")
    proc = in_namespace(fill, sys.executable, "-c", probe)
    assert proc.returncode == 0 and proc.stdout.strip() != "None", proc.stdout + proc.stderr
    assert ("the disk is full" in proc.stdout or "the disk refused the write" in proc.stdout
            ), proc.stdout


def test_quick_check_wants_room_to_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    db = tmp_path / "games.sqlite3"
    small_database(db)
    free = shutil.disk_usage(tmp_path).free
    monkeypatch.setattr(ops, "MIN_FREE", free + 2**40)  # more than this disk has
    report = check(db, quick=True)
    assert not report.ok and report.status == 1
    assert any("KiB free on the disk holding" in line for line in report.lines())
    assert check(db).ok  # the full check only reads


def test_quick_check_fails_while_the_database_is_locked(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    small_database(db)
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # a program that holds the write lock
        report = check(db, quick=True, write_timeout=0.2)
        assert not report.ok, report.lines()
        assert any("locked by another program" in line for line in report.lines())
        other.execute("ROLLBACK")
        assert write_problem(db, 0.2) is None
    finally:
        other.close()


def test_write_test_changes_no_data(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    small_database(db)
    con = sqlite3.connect(db)
    before = list(con.iterdump())
    con.close()
    assert write_problem(db) is None
    con = sqlite3.connect(db)
    assert list(con.iterdump()) == before
    con.close()
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    assert write_problem(empty) is None and empty.stat().st_size == 0
