"""Bot latency: from an interaction arriving to the follow-up with the board being sent.

Plays a 2-player base game through the real discord.py code paths against a local
fake Discord (the test harness), and times `/carc place ... confirm` turns late in
the game (after 50 tiles), each including the service, rendering and the upload; and,
before each of those turns, the autocomplete answers a player waits on while typing
(`square`, then `on` for a follower on the chosen square): end to end through the fake
Discord (its local HTTP round trip included), and the bot's own part, from the
interaction arriving to the answer being handed to discord.py.
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
from typing import Any

import discord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from carca_bot.service import User, Where
from tests.bot.conftest import ANA, BEN, BotHarness, offline_bot
from tests.bot.fake_discord import GUILD_ID

LATE = 50  # tiles placed before timing starts
STARTED: list[float] = []  # when the autocomplete interaction being timed was sent


async def main() -> None:
    time_answers(STARTED)
    with tempfile.TemporaryDirectory() as tmp:
        async with offline_bot(Path(tmp) / "bench.sqlite3") as h:
            timings, suggestions = await play(h)
    print(f"turns timed (after {LATE} tiles): {len(timings)}")
    report("interaction -> follow-up with board", timings, "p95 < 300 ms")
    report("autocomplete answer, end to end", suggestions, "p95 < 10 ms")
    report("autocomplete answer, the bot's own part", ANSWERED, "p95 < 10 ms")


ANSWERED: list[float] = []  # interaction sent -> answer handed to discord.py


def time_answers(started: list[float]) -> None:
    """Note when the bot hands its autocomplete answer to discord.py (before any HTTP)."""
    answer = discord.InteractionResponse.autocomplete

    async def timed(self: discord.InteractionResponse[Any], choices: Any) -> None:
        if started:
            ANSWERED.append(time.perf_counter() - started.pop())
        await answer(self, choices)

    discord.InteractionResponse.autocomplete = timed  # type: ignore[method-assign]


def report(what: str, timings: list[float], target: str) -> None:
    timings = sorted(timings)
    p95 = timings[max(0, int(len(timings) * 0.95) - 1)]
    print(f"{what}: n {len(timings)}, p50 {statistics.median(timings) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms (target {target})")


async def play(h: BotHarness) -> tuple[list[float], list[float]]:
    """A whole game; the times of every `/carc place ... confirm` after the first LATE,
    and of the autocomplete answers before each of them."""
    bot = h.bot
    await h.command(ANA, "create")
    await h.command(BEN, "join")
    await h.command(ANA, "start")
    where = Where(str(GUILD_ID), str(h.make.channel_id))
    players = {str(ANA[0]): ANA, str(BEN[0]): BEN}
    rng = random.Random(1)
    timings: list[float] = []
    suggestions: list[float] = []
    placed = 0
    while True:
        view = await bot.service.status(where, None)
        if view.finished or view.deciding is None or view.deciding.user_id is None:
            return timings, suggestions
        player = players[view.deciding.user_id]
        legal = await bot.service.legal_moves(where, User(str(player[0]), player[1]))
        x, y, rot = rng.choice(legal.placements)
        if placed >= LATE:
            for focused, options in (("square", {"square": ""}),
                                     ("on", {"square": f"{x},{y}", "rotation": rot,
                                             "figure": "follower", "on": ""})):
                start = time.perf_counter()
                STARTED.append(start)
                await h.autocomplete(player, "place", focused, **options)
                suggestions.append(time.perf_counter() - start)
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
