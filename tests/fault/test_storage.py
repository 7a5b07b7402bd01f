"""The database file locked by someone else, or full: refused cleanly, nothing lost.

"Acknowledged" below means a command returned normally: the player was told the
move was made. Every acknowledged move must be in the log after a restart, and a
command that failed must have changed nothing, whatever it raised.

The service opens the store with a 10 s busy timeout; to test a lock that outlasts
it without waiting 10 s, `shorten_busy_timeout` lowers it on the open connection.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from carca_bot.local.randomplayer import play_random_move
from carca_bot.ops import check
from carca_bot.service import (
    GameOptions,
    GameService,
    ServiceError,
    TurnView,
    Unavailable,
    User,
    Where,
)
from tests.fault.invariants import assert_sound
from tests.service.helpers import words

ANA, BEN = User("100000000000000001", "Ana"), User("100000000000000002", "Ben")
HERE = Where("guild", "channel")


async def shorten_busy_timeout(service: GameService, ms: int) -> None:
    await service.store._db.execute(f"PRAGMA busy_timeout = {ms}")


async def dealt(path: Path) -> tuple[GameService, TurnView]:
    service = await GameService.open(path)
    await service.create(HERE, ANA, GameOptions(seed=4, expansions=frozenset({"abbot"})))
    await service.join(HERE, BEN)
    return service, await service.start(HERE, ANA)


def actor(view: TurnView) -> User:
    assert view.deciding is not None
    return ANA if view.deciding.user_id == ANA.id else BEN


class Locker:
    """Another process's connection holding the write lock (BEGIN EXCLUSIVE)."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        self.db.execute("COMMIT")
        self.db.close()


# -- locked ---------------------------------------------------------------------------


async def test_a_short_lock_is_waited_out(tmp_path: Path) -> None:
    service, view = await dealt(tmp_path / "games.sqlite3")
    try:
        x, y, rot = (await service.legal_moves(HERE, actor(view))).placements[0]
        locker = Locker(tmp_path / "games.sqlite3")
        timer = threading.Timer(0.5, locker.release)
        timer.start()
        began = time.monotonic()
        after = await service.place_tile(HERE, actor(view), x, y, rot)
        assert time.monotonic() - began >= 0.4  # it really waited for the lock
        assert after.must == "finish"
        timer.join()
    finally:
        await service.close()


async def _under_a_long_lock(tmp_path: Path) -> tuple[list[BaseException], TurnView, TurnView]:
    """Commands while another connection holds the lock past the busy timeout.

    Returns what the writes raised, the game before, and the game after the lock.
    """
    db = tmp_path / "games.sqlite3"
    service, view = await dealt(db)
    try:
        await shorten_busy_timeout(service, 200)
        player = actor(view)
        x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
        before = await service.status(HERE, player.id)
        locker = Locker(db)
        raised: list[BaseException] = []
        try:
            commands: list[Callable[[], Awaitable[TurnView]]] = [
                lambda: service.place_tile(HERE, player, x, y, rot),
                lambda: service.cancel(HERE, ANA),
                lambda: service.resign(HERE, player)]
            for command in commands:
                try:
                    await command()
                except Exception as exc:
                    raised.append(exc)
                else:
                    raise AssertionError("a write succeeded while the file was locked")
            # Reading needs no lock in WAL mode: players can still look at the game.
            during = await service.status(HERE, player.id)
            assert during == before
        finally:
            locker.release()
        after = await service.status(HERE, player.id)
        await service.place_tile(HERE, player, x, y, rot)  # the lock is gone: play goes on
        await service.confirm(HERE, player)
        await assert_sound(service, {}, [None, player.id])
        return raised, before, after
    finally:
        await service.close()


async def test_a_long_lock_changes_nothing_and_play_resumes(tmp_path: Path) -> None:
    raised, before, after = await _under_a_long_lock(tmp_path)
    assert len(raised) == 3
    assert after == before  # nothing of the refused commands landed


async def test_a_long_lock_is_a_clear_refusal(tmp_path: Path) -> None:
    raised, _, _ = await _under_a_long_lock(tmp_path)
    for exc in raised:
        assert isinstance(exc, ServiceError) and words(exc), repr(exc)


# -- full -----------------------------------------------------------------------------


async def _until_full(tmp_path: Path) -> tuple[list[BaseException], int]:
    """Random moves with the file capped at its size, until writes fail (pages fill up).

    Returns what the failing commands raised and how many moves were acknowledged;
    checks that every acknowledged move survives a restart and play then goes on.
    """
    db = tmp_path / "games.sqlite3"
    service, view = await dealt(db)
    rng = random.Random(8)
    acknowledged: list[dict[str, Any]] = []
    raised: list[BaseException] = []
    try:
        rows = await service.store._db.execute_fetchall("PRAGMA page_count")
        pages = int(next(iter(rows))[0])
        await service.store._db.execute(f"PRAGMA max_page_count = {pages}")
        while len(raised) < 5:
            assert not view.finished, "the cap was never reached"
            try:
                view, _ = await play_random_move(service, HERE, actor(view), rng)
            except Exception as exc:
                raised.append(exc)
                view = await service.status(HERE)  # reading still works
            else:
                acknowledged = (await service.export(HERE))["actions"]
        assert len(acknowledged) >= 3, "the cap left no room for even a few moves"
    finally:
        await service.close()

    reopened = await GameService.open(db)  # a restart, with the space back
    try:
        logged = (await reopened.export(HERE))["actions"]
        assert logged[:len(acknowledged)] == acknowledged
        view = await reopened.status(HERE)
        for _ in range(3):
            view, _ = await play_random_move(reopened, HERE, actor(view), rng)
        assert view.moves >= len(acknowledged) + 3
        await assert_sound(reopened, {}, [None, ANA.id])
    finally:
        await reopened.close()
    assert check(db).ok
    return raised, len(acknowledged)


async def test_a_full_disk_loses_no_acknowledged_move(tmp_path: Path) -> None:
    raised, _ = await _until_full(tmp_path)
    assert len(raised) == 5


async def test_a_full_disk_is_a_clear_refusal(tmp_path: Path) -> None:
    raised, _ = await _until_full(tmp_path)
    for exc in raised:
        assert isinstance(exc, ServiceError) and words(exc), repr(exc)
        assert "cannot rollback" not in str(exc)


async def test_a_full_disk_does_not_wedge_the_connection(tmp_path: Path) -> None:
    """After a failed write the same open service goes on once there is room again."""
    service, view = await dealt(tmp_path / "games.sqlite3")
    rng = random.Random(2)
    try:
        rows = await service.store._db.execute_fetchall("PRAGMA page_count")
        await service.store._db.execute(f"PRAGMA max_page_count = {next(iter(rows))[0]}")
        with pytest.raises(Unavailable):
            for _ in range(200):
                view, _ = await play_random_move(service, HERE, actor(view), rng)
        await service.store._db.execute("PRAGMA max_page_count = 1073741823")
        view = await service.status(HERE)
        moves = view.moves
        for _ in range(3):
            view, _ = await play_random_move(service, HERE, actor(view), rng)
        assert view.moves == moves + 3
        await assert_sound(service, {}, [None])
    finally:
        await service.close()


async def test_lock_and_full_together_under_concurrent_commands(tmp_path: Path) -> None:
    """Commands racing a lock that comes and goes: each one lands whole or not at all."""
    db = tmp_path / "games.sqlite3"
    service, view = await dealt(db)
    rng = random.Random(3)
    try:
        await shorten_busy_timeout(service, 50)
        stop = threading.Event()

        def lock_now_and_then() -> None:
            while not stop.is_set():
                locker = Locker(db)
                time.sleep(0.08)
                locker.release()
                time.sleep(0.05)

        thread = threading.Thread(target=lock_now_and_then)
        thread.start()
        versions: dict[int, int] = {}
        failures = 0
        try:
            for _ in range(40):
                try:
                    view, _ = await play_random_move(service, HERE, actor(view), rng)
                except Exception:
                    failures += 1
                    view = await service.status(HERE)
                await assert_sound(service, versions, [None])
                await asyncio.sleep(0)
        finally:
            stop.set()
            thread.join()
        assert failures > 0, "the lock never got in the way: the test proved nothing"
        assert view.moves > 5
    finally:
        await service.close()
