"""Bot latency and channel traffic, through the real discord.py code paths against a
local fake Discord (the test harness).

Plays a 6-player base game (PLAYERS) with `/carc place ... confirm` turns and reports:
- the interaction -> card update time (the game card's edit reaching Discord) for the
  turns late in the game (after LATE tiles), each including the service, rendering
  and the upload; and interaction -> the command's last request (the private answer);
- bytes posted per turn over the whole game (every attachment uploaded during the turn:
  the card's picture, plus the end-of-game post), and the card edits per turn;
- before each late turn, the autocomplete answers a player waits on while typing
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
from tests.bot.conftest import ANA, BEN, CY, BotHarness, offline_bot
from tests.bot.fake_discord import GUILD_ID, Request

LATE = 50  # tiles placed before timing starts
PLAYERS = (ANA, BEN, CY, (100000000000000004, "Dee"), (100000000000000005, "Eli"),
           (100000000000000006, "Fay"))
STARTED: list[float] = []  # when the autocomplete interaction being timed was sent


async def main() -> None:
    time_answers(STARTED)
    with tempfile.TemporaryDirectory() as tmp:
        async with offline_bot(Path(tmp) / "bench.sqlite3") as h:
            timings, suggestions = await play(h)
    print(f"{len(PLAYERS)} players; turns timed (after {LATE} tiles): {len(CARD)}")
    report("interaction -> card update", CARD, "p95 < 200 ms")
    report("interaction -> private answer (the command done)", timings, "p95 < 300 ms")
    per_turn = sorted(BYTES)
    print(f"bytes posted per turn over the game ({len(per_turn)} turns): mean "
          f"{statistics.mean(per_turn) / 1024:.0f} KiB, median "
          f"{statistics.median(per_turn) / 1024:.0f} KiB, max {per_turn[-1] / 1024:.0f} KiB; "
          f"total {sum(per_turn) / 1024 / 1024:.1f} MiB (target: typical under 250 KB)")
    print(f"card edits per turn: {statistics.mean(EDITS):.2f}; new channel messages per "
          f"turn: {statistics.mean(POSTS):.2f}; pings deleted per turn: "
          f"{statistics.mean(DELETES):.2f}")
    report("autocomplete answer, end to end", suggestions, "p95 < 10 ms")
    report("autocomplete answer, the bot's own part", ANSWERED, "p95 < 10 ms")


ANSWERED: list[float] = []  # interaction sent -> answer handed to discord.py
CARD: list[float] = []  # interaction sent -> the card's edit reaching the fake Discord
BYTES: list[int] = []  # attachment bytes uploaded per turn
EDITS: list[int] = []  # card edits per turn
POSTS: list[int] = []  # new channel messages per turn (pings, the end-of-game post)
DELETES: list[int] = []  # messages deleted per turn (the last ping)


def traffic(requests: list[Request], start: float) -> None:
    """Note one turn's uploads, card edits, posts and deletes, and when the card changed."""
    BYTES.append(sum(len(p.data) for r in requests for p in r.files))
    edits = [r for r in requests if r.method == "PATCH" and r.v2]
    EDITS.append(len(edits))
    POSTS.append(len([r for r in requests if r.method == "POST" and r.path.startswith(
        "/channels/") and r.path.endswith("/messages")]))
    DELETES.append(len([r for r in requests if r.method == "DELETE"]))
    if edits:
        CARD.append(edits[0].at - start)


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
    for player in PLAYERS[1:]:
        await h.command(player, "join")
    await h.command(ANA, "start")
    where = Where(str(GUILD_ID), str(h.make.channel_id))
    players = {str(p[0]): p for p in PLAYERS}
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
        late = placed > LATE
        if late:
            timings.append(elapsed)
        card = len(CARD)
        traffic(requests, start)
        if not late:
            del CARD[card:]  # early turns count for the traffic, not the latency


if __name__ == "__main__":
    asyncio.run(main())
