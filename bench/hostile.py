"""How long an unrelated channel waits while hostile work runs: the worst deferral.

Through the real discord.py code paths against the local fake Discord (the test
harness), some channels keep the bot busy with hostile work: importing a long
6-player record with every expansion (replayed before it is stored), the same
record with 2,500-character player names, and drawing its huge board. Meanwhile
another channel sends `/carc status` every PROBE_EVERY seconds, and the time from
the interaction arriving to its deferral (callback type 5) reaching Discord is
measured. The fake Discord runs on the bot's event loop, so any stall of the loop
shows up in these times. Target: worst < 1 s.
Run: python bench/hostile.py [seconds]
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.record import parse_record, write_record
from tests.bot.conftest import ANA, BEN, BotHarness, offline_bot
from tests.bot.fake_discord import Interactions

PROBE_EVERY = 0.1  # seconds between probes
TARGET = 1.0  # seconds: the worst deferral allowed
LONG_NAME = 2500


def long_game(seed: int = 7) -> dict[str, Any]:
    """A whole random 6-player game with every expansion, as a record."""
    record = parse_record({"format": "carca-record/1", "players": [f"P{i}" for i in range(6)],
                           "expansions": list(EXPANSIONS), "seed": seed, "actions": []})
    return write_record(random_game(record.setup, random.Random(seed)))


def renamed(record: dict[str, Any], length: int, actions: int = 30) -> dict[str, Any]:
    """The record's first `actions` moves with every player named by a `length`-character
    name (the whole game would pass the bot's 256 KiB limit for a record)."""
    names = {old: (f"{i}" + "W" * length)[:length] for i, old in enumerate(record["players"])}
    data: dict[str, Any] = json.loads(json.dumps(record))
    data["actions"] = data["actions"][:actions]
    data["players"] = [names[n] for n in record["players"]]
    for action in data["actions"]:
        if action.get("by") in names:
            action["by"] = names[action["by"]]
    return data


async def answer_of(h: BotHarness, payload: dict[str, Any], timeout: float = 120.0) -> None:
    """Deliver an interaction and wait until its follow-up (or a direct answer) is sent."""
    token = payload["token"]
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    give_up = time.perf_counter() + timeout
    while time.perf_counter() < give_up:
        await asyncio.sleep(0.02)
        for r in reversed(h.fake.requests):
            if token in r.path and (r.path.startswith("/webhooks/") or (
                    r.path.endswith("/callback") and r.json.get("type") == 4)):
                return


async def hostile_imports(h: BotHarness, records: list[dict[str, Any]],
                          stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Import the records again and again, each in a new channel, and show its board."""
    turn = 0
    while not stop.is_set():
        make = Interactions(h.fake, channel_id=h.fake.new_id())
        data = json.dumps(records[turn % len(records)]).encode()
        upload = h.fake.upload("game.json", data)
        await answer_of(h, make.command(ANA, "import", record=upload))
        await answer_of(h, make.command(ANA, "board"))
        counts["imports"] += 1
        turn += 1


async def probe(h: BotHarness, stop: asyncio.Event, waits: list[float]) -> None:
    """`/carc status` in a quiet channel; the time until its deferral reached Discord."""
    make = Interactions(h.fake, channel_id=h.fake.new_id())
    await answer_of(h, make.command(BEN, "create"))
    while not stop.is_set():
        payload = make.command(BEN, "status")
        token = payload["token"]
        sent = time.perf_counter()
        h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        while True:
            await asyncio.sleep(0.005)
            found = [r for r in h.fake.requests[-50:]
                     if r.path.endswith(f"/{token}/callback")]
            if found:
                waits.append(found[0].at - sent)
                break
        await asyncio.sleep(PROBE_EVERY)


async def main(seconds: float) -> None:
    started = time.perf_counter()
    record = await asyncio.to_thread(long_game)
    records = [record, renamed(record, LONG_NAME)]
    print(f"hostile record: {len(record['actions'])} actions, 6 players, every expansion "
          f"(built in {time.perf_counter() - started:.1f} s); a copy with "
          f"{LONG_NAME}-character names")
    waits: list[float] = []
    counts = {"imports": 0}
    with tempfile.TemporaryDirectory() as tmp:
        async with offline_bot(Path(tmp) / "hostile.sqlite3") as h:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(hostile_imports(h, records[i % 2:] + records[:i % 2],
                                                         stop, counts)) for i in range(2)]
            tasks.append(asyncio.create_task(probe(h, stop, waits)))
            await asyncio.sleep(seconds)
            stop.set()
            await asyncio.wait(tasks, timeout=300)
    waits.sort()
    p95 = waits[max(int(len(waits) * 0.95) - 1, 0)]
    worst = waits[-1]
    print(f"hostile imports + boards finished: {counts['imports']} in {seconds:.0f} s")
    print(f"unrelated channel, interaction -> deferral sent: {len(waits)} probes, "
          f"p50 {statistics.median(waits) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"worst {worst * 1000:.0f} ms (target worst < {TARGET * 1000:.0f} ms)")


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0))
