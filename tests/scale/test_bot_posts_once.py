"""Each public post exactly once, through the Discord front end (issue 30): the real bot
against the fake Discord of tests/bot, killed right after Discord made a message and
before the bot could note it, then started again on the same database and the same
"Discord".

The kill is the bot's task cancelled where the service records the message
(`Store.post_sent`): nothing after it runs, as with SIGKILL. The restarted bot's
first act is the catch-up of what is owed (`CarcaBot._timers`); it must find the
message in the channel's history by its marker, not post it again. Discord's own
nonce check is put out of play by moving the fake Discord's clock past its window, so
only the record and the history can keep a post from being repeated.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from carca_bot.bot.posts.sending import ChannelPost, ReplyPost, marker_line
from carca_bot.service import User
from carca_bot.service.posts import CARD, POST, PostKey
from tests.bot.conftest import ANA, BEN, BotHarness, offline_bot
from tests.bot.fake_discord import NONCE_WINDOW, FakeDiscord, texts
from tests.bot.test_lobby import lobby
from tests.bot.test_turns import place_of, started

CHANNEL = 810000000000000001


class Clock:
    """The fake Discord's clock: real time, moved on past the nonce window at will."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    discord = FakeDiscord(Clock())
    await discord.start()
    yield discord
    await discord.stop()


def killed_at_record(h: BotHarness, kind: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The next time the bot records a `kind` message as sent, its task dies there."""
    store = h.bot.service.store
    real: Callable[..., Any] = store.post_sent
    killed: list[str] = []

    async def post_sent(game_id: int, k: str, version: int, message_id: str,
                        *args: Any, **kwargs: Any) -> None:
        if k == kind and not killed:
            killed.append(message_id)
            raise asyncio.CancelledError  # SIGKILL: nothing after this runs
        await real(game_id, k, version, message_id, *args, **kwargs)

    monkeypatch.setattr(store, "post_sent", post_sent)
    return killed


async def interact(h: BotHarness, payload: dict[str, Any]) -> None:
    """An interaction whose handler may die: its task ends, nothing is logged."""
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    for _ in range(400):
        await asyncio.sleep(0.01)
        if not [t for t in asyncio.all_tasks() if not t.done()
                and t.get_name().startswith(("CommandTree-invoker",
                                             "discord-ui-dynamic-item"))]:
            return


@asynccontextmanager
async def restarted(db: Path, fake: FakeDiscord) -> AsyncIterator[BotHarness]:
    """The bot started again, Discord's nonce window long past: its first catch-up done."""
    clock = fake.clock
    assert isinstance(clock, Clock)
    clock.ahead += NONCE_WINDOW + 60
    async with offline_bot(db, fake=fake) as h:
        await asyncio.wait_for(h.bot.caught_up.wait(), 30)
        yield h


def marked(fake: FakeDiscord, key: PostKey) -> list[dict[str, Any]]:
    """The channel's messages (and public answers) carrying the key's marker."""
    line = marker_line(key.marker)
    return [m for m in [*fake.messages.values(), *fake.replies.values()]
            if line in m["content"].splitlines() or line in texts(m["components"])]


async def test_a_public_answer_that_reached_the_channel_is_not_posted_again(
        tmp_path: Path, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/carc cancel` on a running game: its public answer (an interaction follow-up,
    which takes no nonce) reached the channel, then the bot died before noting it."""
    db = tmp_path / "bot.sqlite3"
    async with offline_bot(db, fake=fake) as h:
        await started(h)
        killed = killed_at_record(h, POST, monkeypatch)
        await interact(h, h.make.command(ANA, "cancel"))
        assert killed  # the answer was made, its record never written
        view = await h.bot.service.status(place_of(h))
        assert view.status == "cancelled" and await h.bot.service.owes_post(view.game_id)
        monkeypatch.undo()
    async with restarted(db, fake) as again:
        (answer,) = marked(fake, PostKey(view.game_id, view.version))
        assert "cancelled" in answer["content"] and answer["id"] == killed[0]
        assert not [m for m in fake.messages.values() if "could not be posted" in
                    m["content"]]  # no catch-up telling it again
        assert not await again.bot.service.owes_post(view.game_id)  # settled: found


async def test_a_late_post_that_reached_the_channel_is_not_posted_again(
        tmp_path: Path, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game ended by a command whose post never went out (the service alone): the
    timer loop's catch-up post reached the channel, the bot died before noting it; the
    next one finds it, rather than post the result a second time."""
    db = tmp_path / "bot.sqlite3"
    async with offline_bot(db, fake=fake) as h:
        await started(h)
        await asyncio.wait_for(h.bot.caught_up.wait(), 30)
        ended = await h.bot.service.resign(place_of(h), User(str(ANA[0]), ANA[1]))
        assert ended.finished
        killed = killed_at_record(h, POST, monkeypatch)
        with pytest.raises(asyncio.CancelledError):
            await h.bot.deliver_pending(min_age=0.0)
        assert killed
        monkeypatch.undo()
    async with restarted(db, fake) as again:
        (post,) = marked(fake, PostKey(ended.game_id, ended.version))
        assert "could not be posted" in post["content"] and post["id"] == killed[0]
        late = [m for m in fake.messages.values() if "could not be posted" in m["content"]]
        assert len(late) == 1
        assert await again.bot.deliver_pending(min_age=0.0) == 0
        assert not await again.bot.service.owes_post(ended.game_id)


async def test_a_card_is_not_created_twice(tmp_path: Path, fake: FakeDiscord,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`/carc start`: the card reached the channel, the bot died before noting it. The
    next bot finds the card by its marker and edits it: one card."""
    db = tmp_path / "bot.sqlite3"
    async with offline_bot(db, fake=fake) as h:
        await lobby(h, BEN)
        killed = killed_at_record(h, CARD, monkeypatch)
        await interact(h, h.make.command(ANA, "start"))
        assert killed
        view = await h.bot.service.status(place_of(h))
        assert view.status == "active"
        assert (await h.bot.service.game_messages(view.game_id)).card_id is None
        monkeypatch.undo()
    start = len(fake.requests)
    async with restarted(db, fake) as again:
        cards = [m for m in fake.channel_messages(CHANNEL) if m["flags"] & (1 << 15)]
        assert [c["id"] for c in cards] == killed  # the one card, edited
        edits = [r for r in fake.since(start) if r.method == "PATCH"
                 and r.path == f"/channels/{CHANNEL}/messages/{killed[0]}"]
        assert edits and not [r for r in fake.since(start) if r.method == "POST" and r.v2]
        saved = await again.bot.service.game_messages(view.game_id)
        assert saved.card_id == killed[0]  # remembered: the next move edits it directly
        assert not await again.bot.service.owes_post(view.game_id)


async def test_the_marker_is_found_only_on_the_bots_own_recent_messages(
        harness: BotHarness) -> None:
    """A player's message quoting the marker, or a post of ours older than the attempt,
    is not taken for the post."""
    key = PostKey(7, 3)
    fake = harness.fake
    mine = ChannelPost(harness.bot, str(CHANNEL), key.marker, "words")
    ours = await mine.send(key.nonce())
    assert await mine.find(key.marker, time.time() - 10) == ours
    assert await mine.find(key.marker, time.time() + 60) is None  # posted before it
    assert await mine.find(PostKey(7, 34).marker, time.time() - 10) is None
    fake.messages[int(ours)]["author"] = {**fake.messages[int(ours)]["author"],
                                          "id": str(ANA[0]), "bot": False}
    assert await mine.find(key.marker, time.time() - 10) is None


async def test_a_send_repeated_within_the_nonce_window_makes_one_message(
        harness: BotHarness) -> None:
    key = PostKey(7, 3)
    first = ChannelPost(harness.bot, str(CHANNEL), key.marker, "words")
    again = ChannelPost(harness.bot, str(CHANNEL), key.marker, "words")
    assert await first.send(key.nonce()) == await again.send(key.nonce())
    assert len(harness.fake.channel_messages(CHANNEL)) == 1
    assert harness.fake.deduplicated == 1


async def test_a_late_post_among_a_newer_games_messages_says_which_game(
        harness: BotHarness) -> None:
    """Game 1 ended while its post could not go out; game 2 has begun in the channel
    since: the late post about game 1 says it is not about the game now played."""
    h = harness
    await started(h)
    await asyncio.wait_for(h.bot.caught_up.wait(), 30)
    first = await h.bot.service.resign(place_of(h), User(str(ANA[0]), ANA[1]))
    await lobby(h, BEN)
    newer = await h.bot.service.status(place_of(h))
    start = len(h.fake.requests)
    assert await h.bot.deliver_pending(min_age=0.0) == 1
    (late,) = [r for r in h.fake.since(start) if r.method == "POST"
               and "could not be posted" in r.content]
    assert f"About the earlier game #{first.game_id}, not game #{newer.game_id}" in \
        late.content
    assert marker_line(PostKey(first.game_id, first.version).marker) in late.content


async def test_an_edit_of_a_message_gone_says_so(harness: BotHarness) -> None:
    """`edit` shows the message anew where it is, and answers False once it is gone (or
    was just found not editable), so that `deliver` sends a new one."""
    key = PostKey(7, 0, CARD)
    post = ChannelPost(harness.bot, str(CHANNEL), key.marker, "first")
    sent = await post.send(key.nonce())
    post.content = "second"
    assert await post.edit(sent)
    assert harness.fake.messages[int(sent)]["content"] == "second"
    del harness.fake.messages[int(sent)]  # a moderator deleted it
    assert not await post.edit(sent)
    before = len(harness.fake.requests)
    assert not await ChannelPost(harness.bot, str(CHANNEL), key.marker, "third",
                                 gone=sent).edit(sent)
    assert len(harness.fake.requests) == before  # known gone: not asked again


async def test_a_second_copy_is_taken_back_where_it_was_sent(harness: BotHarness) -> None:
    """`discard` (two live processes both sent a post, the other's was recorded first):
    a message deletes its channel message, a public answer its follow-up through the
    interaction's webhook; one already gone is no error."""
    key = PostKey(7, 3)
    fake = harness.fake
    post = ChannelPost(harness.bot, str(CHANNEL), key.marker, "words")
    sent = await post.send(key.nonce())
    await post.discard(sent)
    assert int(sent) not in fake.messages
    await post.discard(sent)  # gone already
    fake.tokens["token-7"] = CHANNEL
    followup = discord.Webhook.partial(harness.bot.application_id or 0, "token-7",
                                       client=harness.bot)
    reply = ReplyPost(harness.bot, str(CHANNEL), followup, key.marker, "words")
    answered = await reply.send(key.nonce())
    assert int(answered) in fake.replies
    await reply.discard(answered)
    assert int(answered) not in fake.replies
