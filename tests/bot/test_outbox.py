"""A committed move whose public post Discord refused is still told: the player hears it
was saved, and the channel gets it later (the next timer period, or after a restart),
exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from carca_bot.service import User
from tests.bot.conftest import BotHarness, offline_bot
from tests.bot.fake_discord import APP_ID, FakeDiscord, Request
from tests.bot.outgoing import assert_clean
from tests.bot.test_lobby import followups
from tests.bot.test_turns import place_of, started

Player = tuple[int, str]
CHANNEL = 810000000000000001


def public_followup(r: Request) -> bool:
    return r.method == "POST" and r.path.startswith(f"/webhooks/{APP_ID}/") and not r.ephemeral


def channel_posts(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.method == "POST" and r.path ==
            f"/channels/{CHANNEL}/messages"]


async def refused_move(h: BotHarness) -> tuple[Player, Player]:
    """The player to act confirms a whole turn; Discord refuses its public post once."""
    await asyncio.wait_for(h.bot.caught_up.wait(), 10)  # the start-up delivery is over
    first, other = await started(h)
    user = User(str(first[0]), first[1])
    x, y, rot = (await h.bot.service.legal_moves(place_of(h), user)).placements[0]
    h.fake.fail_when.append((public_followup, 403))
    requests = await h.command(first, "place", square=f"{x},{y}", rotation=rot, confirm=True)
    refused, told = followups(requests)
    assert not refused.ephemeral  # the public post, refused by the fake
    assert told.ephemeral and "saved" in told.content and "Do not repeat" in told.content
    assert "will be posted" in told.content and "nothing" not in told.content.lower()
    view = await h.bot.service.status(place_of(h))
    assert view.moves == 1  # stored all the same
    return first, other


async def test_a_refused_post_is_delivered_once_by_the_timer(harness: BotHarness) -> None:
    _, other = await refused_move(harness)
    start = len(harness.fake.requests)
    assert await harness.bot.deliver_pending() == 0  # too fresh: the command may post it
    assert await harness.bot.deliver_pending(min_age=0.0) == 1
    assert await harness.bot.deliver_pending(min_age=0.0) == 0
    requests = harness.fake.since(start)
    (post,) = channel_posts(requests)
    assert "could not be posted when it happened" in post.content
    assert f"<@{other[0]}>" in post.content  # who is to act now, pinged alone
    assert [str(u) for u in post.json["allowed_mentions"]["users"]] == [str(other[0])]
    assert post.files and post.files[0].data.startswith(b"\x89PNG")
    assert_clean(requests, pinged=[other[0]])
    assert await harness.bot.service.pending_posts() == []


async def test_a_post_owed_before_a_restart_is_delivered_once(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    fake = FakeDiscord()  # outlives the first bot: the second one talks to the same "Discord"
    await fake.start()
    try:
        async with offline_bot(db, fake=fake) as h:
            _, other = await refused_move(h)
        start = len(fake.requests)
        async with offline_bot(db, fake=fake) as again:
            await asyncio.wait_for(again.bot.caught_up.wait(), 10)  # in the timer task
            assert await again.bot.deliver_pending(min_age=0.0) == 0
            (post,) = channel_posts(fake.since(start))
            assert f"<@{other[0]}>" in post.content
            assert await again.bot.service.pending_posts() == []
    finally:
        await fake.stop()
