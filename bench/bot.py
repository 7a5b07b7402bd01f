"""Bot latency: from an interaction arriving to the follow-up with the board being sent.

Plays a 2-player base game through the real discord.py code paths against a local
fake Discord (the test harness), and times `/carc place ... confirm` turns late in
the game (after 50 tiles), each including the service, rendering and the upload.
Run: python bench/bot.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from carca_bot.service import User, Where
from tests.bot.conftest import ANA, BEN, BotHarness, offline_bot
from tests.bot.fake_discord import GUILD_ID

LATE = 50  # tiles placed before timing starts


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with offline_bot(Path(tmp) / "bench.sqlite3") as h:
            timings = await play(h)
    timings.sort()
    p95 = timings[int(len(timings) * 0.95) - 1]
    print(f"turns timed (after {LATE} tiles): {len(timings)}")
    print(f"interaction -> follow-up with board: p50 {statistics.median(timings) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms (target p95 < 300 ms)")


async def play(h: BotHarness) -> list[float]:
    """A whole game; the time of every `/carc place ... confirm` after the first LATE."""
    bot = h.bot
    await h.command(ANA, "create")
    await h.command(BEN, "join")
    await h.command(ANA, "start")
    where = Where(str(GUILD_ID), str(h.make.channel_id))
    players = {str(ANA[0]): ANA, str(BEN[0]): BEN}
    rng = random.Random(1)
    timings: list[float] = []
    placed = 0
    while True:
        view = await bot.service.status(where, None)
        if view.finished or view.deciding is None or view.deciding.user_id is None:
            return timings
        player = players[view.deciding.user_id]
        legal = await bot.service.legal_moves(where, User(str(player[0]), player[1]))
        x, y, rot = rng.choice(legal.placements)
        start = time.perf_counter()
        requests = await h.command(player, "place", square=f"{x},{y}", rotation=rot,
                                   confirm=True)
        elapsed = time.perf_counter() - start
        assert any(r.files for r in requests), "no board was sent"
        placed += 1
        if placed > LATE:
            timings.append(elapsed)


if __name__ == "__main__":
    asyncio.run(main())
