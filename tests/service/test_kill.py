"""kill -9 in the middle of moves leaves every game before or after a move, never between."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameService, Where
from carca_bot.service.live import rebuild
from carca_bot.store import Store
from tests.service.kill_child import TABLES, seats

ROOT = Path(__file__).resolve().parents[2]
KILLS = 5


def _run_and_kill(db: Path, seed: int, rng: random.Random) -> None:
    child = subprocess.Popen([sys.executable, "-m", "tests.service.kill_child", str(db),
                              str(seed)], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == "ready", (line, child.stderr.read() if child.stderr else "")
        time.sleep(rng.uniform(0.2, 0.8))
        assert child.poll() is None, child.stderr.read() if child.stderr else ""
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL


async def test_kill_dash_nine_never_leaves_half_a_move(tmp_path: Path) -> None:
    db = tmp_path / "victim.sqlite3"
    rng = random.Random(42)
    for round_ in range(KILLS):
        _run_and_kill(db, round_, rng)

    store = await Store.open(db)
    try:
        total = 0
        for game_id in await store.game_ids():
            data = await store.load(game_id)
            assert data is not None
            assert [a.seq for a in data.actions] == list(range(len(data.actions)))  # no gaps
            assert data.game.version >= len(data.actions)
            live = rebuild(data)  # raises if the log does not replay
            if data.game.pending is not None:
                assert live.pending is not None, "a stored unconfirmed turn no longer applies"
            if data.game.status == "finished":
                assert live.game is not None and live.game.finished
            if data.game.status == "active":
                assert live.game is not None and not live.game.finished
            total += len(data.actions)
        assert total >= 30, f"the child barely played ({total} moves): the test proves nothing"
    finally:
        await store.close()

    # A new process carries on every running game.
    service = await GameService.open(db)
    try:
        for table in range(TABLES):
            where = Where("kill", f"table-{table}")
            view = await service.status(where)
            if view.status != "active":
                continue
            assert view.deciding is not None
            user = next(u for u in seats(table) if u.id == view.deciding.user_id)
            after, _ = await play_random_move(service, where, user, random.Random(table))
            assert after.moves > view.moves
    finally:
        await service.close()
