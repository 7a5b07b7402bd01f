"""A committed move whose card update Discord refused is still told: the player hears it
was saved, and the card shows it later (the next timer period, or after a restart),
exactly once, with the turn's ping."""

from __future__ import annotations

import asyncio
from pathlib import Path

from carca_bot.service import User
from tests.bot.cards import card_requests, pings
from tests.bot.conftest import BotHarness, offline_bot
from tests.bot.fake_discord import FakeDiscord, Request
from tests.bot.outgoing import assert_clean
from tests.bot.test_lobby import followups
from tests.bot.test_turns import place_of, started

Player = tuple[int, str]
CHANNEL = 810000000000000001


def card_change(r: Request) -> bool:
    """The game's card edited, or posted again: how a move is shown in the channel."""
    return r.method in ("PATCH", "POST") and r.path.startswith("/channels/") and r.v2


async def refused_move(h: BotHarness) -> tuple[Player, Player]:
    """The player to act confirms a whole turn; Discord refuses to show it on the card
    (both the edit and a new card)."""
    await asyncio.wait_for(h.bot.caught_up.wait(), 10)  # the start-up delivery is over
    first, other = await started(h)
    user = User(str(first[0]), first[1])
    x, y, rot = (await h.bot.service.legal_moves(place_of(h), user)).placements[0]
    h.fake.fail_when.extend([(card_change, 403)] * 2)
    requests = await h.command(first, "place", square=f"{x},{y}", rotation=rot, confirm=True)
    assert [r.method for r in card_requests(requests)] == ["PATCH", "POST"]  # both refused
    (told,) = followups(requests)
    assert told.ephemeral and "saved" in told.content and "Do not repeat" in told.content
    assert "will be posted" in told.content and "nothing" not in told.content.lower()
    assert not pings(requests)  # the turn is not announced before the card shows it
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
    (card,) = card_requests(requests)
    assert card.method == "PATCH"  # the same card, edited
    assert "placed" in card.text and f"<@{other[0]}>" in card.text
    assert card.files and card.files[0].data.startswith(b"\x89PNG")
    (ping,) = pings(requests)  # who is to act now, pinged alone
    assert f"<@{other[0]}>" in ping.content
    assert [str(u) for u in ping.json["allowed_mentions"]["users"]] == [str(other[0])]
    assert_clean(requests, pinged=[other[0]])
    assert await harness.bot.service.pending_posts() == []
    assert len(harness.fake.channel_messages(CHANNEL)) == 2  # one card, one ping


async def test_a_delivery_for_one_game_leaves_the_others_owed(harness: BotHarness) -> None:
    """The AI's posting hook delivers its own game's post only: another game's owed post
    may be one its command is still sending."""
    await refused_move(harness)
    game_id = (await harness.bot.service.status(place_of(harness))).game_id
    assert await harness.bot.deliver_pending(min_age=0.0, game_id=game_id + 1) == 0
    assert [p.game_id for p in await harness.bot.service.pending_posts()] == [game_id]
    assert await harness.bot.deliver_pending(min_age=0.0, game_id=game_id) == 1
    assert await harness.bot.service.pending_posts() == []


async def test_a_post_owed_before_a_restart_is_delivered_once(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    fake = FakeDiscord()  # outlives the first bot: the second one talks to the same "Discord"
    await fake.start()
    try:
        async with offline_bot(db, fake=fake) as h:
            _, other = await refused_move(h)
        (card_id,) = [i for i, m in fake.messages.items() if m["flags"] & (1 << 15)]
        start = len(fake.requests)
        async with offline_bot(db, fake=fake) as again:
            await asyncio.wait_for(again.bot.caught_up.wait(), 10)  # in the timer task
            assert await again.bot.deliver_pending(min_age=0.0) == 0
            (card,) = card_requests(fake.since(start))
            # The card the game started with, edited by the new process.
            assert card.method == "PATCH" and card.path.endswith(f"/messages/{card_id}")
            (ping,) = pings(fake.since(start))
            assert f"<@{other[0]}>" in ping.content
            assert await again.bot.service.pending_posts() == []
    finally:
        await fake.stop()
