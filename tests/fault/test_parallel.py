"""Many games at once through the bot's real code paths: 20 channels, 2 players each.

Every table plays random legal turns concurrently (asyncio.gather), each command
a real interaction answered by the real handlers, boards rendered and uploaded.
Each interaction gets exactly one deferral and one follow-up, nothing is logged as
an error, every game ends where its own moves took it, and the database checks out.
"""

from __future__ import annotations

import asyncio
import random
import time

from carca_bot.ops import check
from carca_bot.service import User, Where
from tests.bot.conftest import BotHarness
from tests.bot.fake_discord import GUILD_ID, Interactions
from tests.fault.discord_driver import Answer, collect, deliver
from tests.service.helpers import prompt

TABLES = 20
TURNS = 12  # per table; two tables play their game to the end
FULL_GAMES = (0, 1)
CHANNEL = 820000000000000000


async def play_table(h: BotHarness, n: int, answers: list[tuple[Answer, int]]) -> int:
    """Create, join, start and play; returns the moves made."""
    make = Interactions(h.fake, channel_id=CHANNEL + n)
    where = Where(str(GUILD_ID), str(make.channel_id))
    players = [(300000000000000000 + 2 * n, f"Host{n}"), (300000000000000001 + 2 * n, f"Guest{n}")]
    rng = random.Random(n)
    expansions = "abbot" if n % 2 else "none"

    async def send(payload: dict[str, object]) -> Answer:
        start = len(h.fake.requests)
        answer = await deliver(h, payload)
        answers.append((answer, start))
        answer.assert_one_answer()
        return answer

    await send(make.command(players[0], "create", expansions=expansions))
    await send(make.command(players[1], "join"))
    await send(make.command(players[0], "start"))
    moves = 0
    service = h.bot.service
    while moves < TURNS or n in FULL_GAMES:
        view = await service.status(where)
        if view.finished:
            break
        assert view.deciding is not None
        player = next(p for p in players if str(p[0]) == view.deciding.user_id)
        user = User(str(player[0]), player[1])
        legal = await service.legal_moves(where, user)
        if legal.must == "choose":  # the abbey could go down: draw instead, with the button
            await send(make.component(player, f"carc:draw:{view.game_id}:{view.version}"))
            legal = await service.legal_moves(where, user)
        if legal.must == "abbey_round":
            await send(make.component(player, f"carc:skip:{view.game_id}:{view.version}"))
        elif legal.must == "wagon":
            await send(make.command(player, "wagon", target="return"))
        else:
            assert legal.must == "place", legal.must
            x, y, rot = rng.choice(legal.placements)
            figure: dict[str, str] = {}
            if rng.random() < 0.3:
                auto = await send(make.command(player, "place", focused="on",
                                               square=f"{x},{y}", rotation=rot,
                                               figure="follower", on=""))
                spots = auto.callbacks[0].json["data"]["choices"]
                if spots:
                    figure = {"figure": "follower", "on": spots[0]["value"]}
            reply = await send(make.command(player, "place", square=f"{x},{y}", rotation=rot,
                                            confirm=True, **figure))
            # Not refused: the actor is told privately, the move is on the game's card.
            assert "is up to date" in reply.text, reply.text
        moves = (await service.status(where)).moves
    return moves


async def test_twenty_tables_at_once(harness: BotHarness) -> None:
    answers: list[tuple[Answer, int]] = []
    peak = 0

    async def watch() -> None:
        nonlocal peak
        while True:
            peak = max(peak, harness.bot.actions.in_flight)
            await asyncio.sleep(0.002)

    watcher = asyncio.create_task(watch())
    began = time.monotonic()
    try:
        moves = await asyncio.gather(*(play_table(harness, n, answers) for n in range(TABLES)))
    finally:
        watcher.cancel()
    elapsed = time.monotonic() - began
    assert peak >= TABLES // 2, f"at most {peak} commands ran at once: not a parallel test"
    await harness.settle()  # no handler still running, nothing logged as an error
    for answer, start in answers:  # nothing more arrived for any of them since
        collect(harness, answer.payload, start).assert_one_answer()
    service = harness.bot.service
    for n, made in enumerate(moves):
        view = await service.status(Where(str(GUILD_ID), str(CHANNEL + n)))
        assert view.moves == made
        if n in FULL_GAMES:
            assert view.finished and view.outcome == "complete", prompt(view)
        else:
            assert made >= TURNS
    report = await asyncio.to_thread(check, harness.db)
    assert report.ok and report.games == TABLES, report.lines()
    print(f"{sum(moves)} moves at {TABLES} tables in {elapsed:.1f} s, "
          f"{len(answers)} interactions, up to {peak} at once")
