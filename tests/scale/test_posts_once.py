"""Each public post exactly once as players see it (issue 30): a post is recorded before
it is sent; after a crash the next process finds it in the channel and keeps it rather
than posting it again, however late; leases are taken only for posts the process will
deliver; a catch-up says when another game has begun in the channel since.

The channel is `fake_channel.FakeDiscord`, which honours a message nonce for two
minutes as Discord does; the late cases come after that, so only the record and the
look into the channel can keep a post from being repeated.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from carca_bot.service import GameOptions, GameService, TurnOrder, TurnView
from carca_bot.service.posts import CARD, POST, PostKey
from tests.scale.fake_channel import NONCE_WINDOW, Died, FakeDiscord, Post
from tests.service.helpers import ANA, BEN, HERE, THERE, Clock, started, who

LATE = NONCE_WINDOW + 60.0  # a catch-up after Discord forgot the nonce


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(db_target: str, clock: Clock) -> AsyncIterator[GameService]:
    opened = await GameService.open(db_target, clock=clock)
    yield opened
    await opened.close()


async def _move(service: GameService) -> TurnView:
    view = await service.status(HERE)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    return await service.play_turn(HERE, player, TurnOrder(at=(x, y), rot=rot))


def _post(discord: FakeDiscord, view: TurnView, words: str = "", kind: str = POST) -> Post:
    key = PostKey(view.game_id, view.version, kind)
    return Post(discord, view.where.channel, words or f"move {view.version}", key.marker)


async def _posted(service: GameService, discord: FakeDiscord, view: TurnView, *,
                  dies: bool = False) -> None:
    """The front end posting a command's result, as the bot does; `dies`: the process
    is killed once the channel has it, before it could note anything."""
    post = _post(discord, view)
    post.die_after_send = dies
    await service.deliver(PostKey(view.game_id, view.version), view.where.channel, post,
                          posted=view.version)


async def _restarted(service: GameService, db_target: str, clock: Clock) -> GameService:
    """The process killed and started again (a new holder; its old leases lapse)."""
    await service.close()
    clock.now += LATE
    return await GameService.open(db_target, clock=clock)


async def _catch_up_all(service: GameService, discord: FakeDiscord) -> int:
    """The timer loop's delivery of owed posts; returns how many it posted."""
    sent = 0
    for owed in await service.pending_posts():
        finder = Post(discord, owed.channel_id, "", "")
        catch = await service.catch_up(owed, finder)
        if catch is None:
            continue
        post = Post(discord, owed.channel_id, f"catch-up to {catch.version}", catch.key.marker)
        done = await service.deliver(catch.key, owed.channel_id, post, posted=catch.version)
        sent += done.how == "sent"
    return sent


async def test_a_post_is_sent_once_and_kept(service: GameService, clock: Clock) -> None:
    discord = FakeDiscord(clock)
    view = await started(service)
    post = _post(discord, view)
    key = PostKey(view.game_id, view.version)
    first = await service.deliver(key, HERE.channel, post, posted=view.version)
    again = await service.deliver(key, HERE.channel, post, posted=view.version)
    assert (first.how, again.how) == ("sent", "kept")
    assert first.message_id == again.message_id and post.sends == 1
    assert len(discord.shown()) == 1 and await service.pending_posts() == []


async def test_a_post_sent_before_a_crash_is_not_posted_again(
        service: GameService, db_target: str, clock: Clock) -> None:
    """The issue's case: the post reached the channel, the process died before marking
    it, and the catch-up came minutes later (Discord's nonce long forgotten)."""
    discord = FakeDiscord(clock)
    await started(service)
    view = await _move(service)
    with pytest.raises(Died):
        await _posted(service, discord, view, dies=True)
    service = await _restarted(service, db_target, clock)
    try:
        assert [p.game_id for p in await service.pending_posts()] == [view.game_id]
        assert await _catch_up_all(service, discord) == 0
        assert [m.marker for m in discord.shown()] == [PostKey(view.game_id, view.version).marker]
        assert await service.pending_posts() == []  # settled: found in the channel
        assert not await service.owes_post(view.game_id)
    finally:
        await service.close()


async def test_a_post_that_never_arrived_is_posted_once(
        service: GameService, db_target: str, clock: Clock) -> None:
    discord = FakeDiscord(clock)
    await started(service)
    view = await _move(service)

    class Refused(Exception):
        pass

    post = _post(discord, view)

    async def refused(nonce: str) -> str:
        raise Refused("Discord answered 503")

    post.send = refused  # type: ignore[method-assign]
    with pytest.raises(Refused):
        await service.deliver(PostKey(view.game_id, view.version), HERE.channel, post,
                              posted=view.version)
    service = await _restarted(service, db_target, clock)
    try:
        assert await _catch_up_all(service, discord) == 1
        assert await _catch_up_all(service, discord) == 0
        assert len(discord.shown()) == 1
    finally:
        await service.close()


async def test_a_catch_up_leaves_out_what_the_channel_already_has(
        service: GameService, db_target: str, clock: Clock) -> None:
    """Two moves: the first's post reached the channel unmarked, the second's never
    went out. The catch-up is the second's alone, under its own key."""
    discord = FakeDiscord(clock)
    await started(service)
    first = await _move(service)
    with pytest.raises(Died):
        await _posted(service, discord, first, dies=True)
    second = await _move(service)
    service = await _restarted(service, db_target, clock)
    try:
        (owed,) = await service.pending_posts()
        catch = await service.catch_up(owed, Post(discord, HERE.channel, "", ""))
        assert catch is not None and catch.version == second.version
        assert catch.key == PostKey(second.game_id, second.version)
        assert len(catch.played) == second.moves - first.moves  # the second move only
        assert catch.other_game is None
    finally:
        await service.close()


async def test_two_processes_delivering_one_post_at_once_show_it_once(
        db_target: str, clock: Clock) -> None:
    """The command's own post and another process's catch-up of it, at the same moment:
    the same nonce, so the channel makes one message (and both record it)."""
    discord = FakeDiscord(clock)
    one = await GameService.open(db_target, clock=clock)
    two = await GameService.open(db_target, clock=clock)
    try:
        view = await started(one)
        key = PostKey(view.game_id, view.version)
        done = await asyncio.gather(*(s.deliver(key, HERE.channel, _post(discord, view),
                                                posted=view.version) for s in (one, two)))
        assert len(discord.shown()) == 1
        assert done[0].message_id == done[1].message_id
    finally:
        await one.close()
        await two.close()


class _Held(Post):
    """A send that reaches the channel only once `go` is set (a slow upload)."""

    def __init__(self, *args: Any, go: asyncio.Event) -> None:
        super().__init__(*args)
        self.go, self.sending = go, asyncio.Event()

    async def send(self, nonce: str) -> str:
        self.sending.set()
        await self.go.wait()
        return await super().send(nonce)


class _Looks(Post):
    """A post whose look into the channel is reported (`looked`)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.looked = asyncio.Event()

    async def find(self, marker: str, since: float) -> str | None:
        found = await super().find(marker, since)
        self.looked.set()
        return found


@pytest.mark.parametrize("kind", [POST, CARD])
async def test_two_live_processes_sending_one_post_past_its_nonce_leave_one_message(
        db_target: str, clock: Clock, kind: str) -> None:
    """One process's send is slow: it reaches the channel just after the other process
    looked there, and Discord no longer dedupes the nonce by the other's send (here it
    never does). Both messages are made; the copy recorded second is deleted by its
    sender, both processes answer with the one left, and a card shows the words of
    the process recorded second (an edit; a change's post keeps its own)."""
    discord = FakeDiscord(clock, nonce_window=-1.0)
    one = await GameService.open(db_target, clock=clock)
    two = await GameService.open(db_target, clock=clock)
    try:
        view = await started(one)
        key = PostKey(view.game_id, view.version if kind == POST else 0, kind)
        second = _Looks(discord, HERE.channel, "from two", key.marker)
        first = _Held(discord, HERE.channel, "from one", key.marker, go=second.looked)
        update = kind == CARD
        slow = asyncio.create_task(one.deliver(key, HERE.channel, first, update=update))
        await first.sending.wait()
        done = [await two.deliver(key, HERE.channel, second, update=update), await slow]
        assert first.sends == second.sends == 1  # both copies were made
        shown = discord.shown()
        assert [m.id for m in shown] == [done[0].message_id] == [done[1].message_id]
        deleted = [m for m in discord.messages if m.deleted]
        assert len(deleted) == 1
        # The card: the process that deleted its copy put its words on the one left.
        assert (shown[0].content == deleted[0].content) == update
    finally:
        await one.close()
        await two.close()


async def test_a_card_gone_from_the_channel_is_posted_anew(service: GameService,
                                                           clock: Clock) -> None:
    """The game's card (one message, edited): kept and edited while it is there; once
    deleted, a new message with a new nonce (Discord refuses a deleted message's)."""
    discord = FakeDiscord(clock)
    view = await started(service)
    key = PostKey(view.game_id, 0, CARD)
    card = Post(discord, HERE.channel, "card v1", key.marker)
    first = await service.deliver(key, HERE.channel, card)
    card.content = "card v2"
    edited = await service.deliver(key, HERE.channel, card, update=True)
    assert edited.how == "kept" and discord.shown()[0].content == "card v2"
    discord.delete(first.message_id)
    card.content = "card v3"
    anew = await service.deliver(key, HERE.channel, card, update=True)
    assert anew.how == "sent" and anew.message_id != first.message_id
    assert [m.content for m in discord.shown()] == ["card v3"]


async def test_young_entries_are_neither_listed_nor_leased(service: GameService,
                                                           clock: Clock) -> None:
    """A command's own post may still be under way: the timer loop leaves entries
    younger than `min_age` alone, and takes no lease on them (on PostgreSQL another
    process would otherwise wait out a lease nobody uses)."""
    view = await started(service)
    assert await service.pending_posts(min_age=30.0) == []
    assert await service.owes_post(view.game_id)
    if service.store.backend == "postgresql":
        assert await service.store.leases("post:") == []
    clock.now += 31
    assert [p.game_id for p in await service.pending_posts(min_age=30.0)] == [view.game_id]
    if service.store.backend == "postgresql":
        assert [lease.name for lease in await service.store.leases("post:")] == [
            f"post:{view.game_id}"]
        await service.mark_posted(view.game_id, view.version)  # delivered: let go at once
        assert await service.store.leases("post:") == []


async def test_a_catch_up_among_another_games_messages_says_so(service: GameService,
                                                               clock: Clock) -> None:
    view = await started(service)
    await service.resign(HERE, ANA)
    await service.resign(HERE, BEN) if (await service.status(HERE)).status == "active" \
        else None
    newer = await started(service, options=GameOptions(seed=8))
    owed = {p.game_id: p for p in await service.pending_posts()}
    catch = await service.catch_up(owed[view.game_id], Post(FakeDiscord(clock), HERE.channel,
                                                            "", ""))
    assert catch is not None and catch.other_game == newer.game_id


def test_keys() -> None:
    key = PostKey(12, 34)
    assert key.marker == "post-12-34" and len(key.nonce()) == 24
    assert key.nonce() == PostKey(12, 34).nonce() != key.nonce(2)
    assert len({PostKey(g, v, k).nonce() for g in range(30) for v in range(30)
                for k in ("post", "card")}) == 1800
    with pytest.raises(ValueError, match="short lower-case word"):
        PostKey(1, 1, "Post!")


async def test_a_catch_up_stops_at_the_change_it_was_listed_for(service: GameService,
                                                                clock: Clock) -> None:
    """A move made after the owed entry was listed posts itself (its command does): the
    catch-up tells the changes up to the entry's version only, so no move is told twice."""
    await started(service)
    first = await _move(service)
    (owed,) = await service.pending_posts()
    assert owed.version == first.version
    second = await _move(service)  # its command is posting it now
    catch = await service.catch_up(owed, Post(FakeDiscord(clock), HERE.channel, "", ""))
    assert catch is not None and catch.version == first.version
    assert second.version not in catch.changes and first.version in catch.changes
    assert len(catch.played) == first.moves  # the moves up to the first one's end


async def test_one_games_post_is_leased_alone(db_target: str, clock: Clock) -> None:
    """An AI seat's move is posted at once (`pending_post`): only that game's entry is
    leased, none when only looking, and none another process holds."""
    one = await GameService.open(db_target, clock=clock)
    two = await GameService.open(db_target, clock=clock)
    try:
        first = await started(one)
        second = await started(one, where=THERE)
        looked = await one.pending_post(first.game_id, take=False)
        assert looked is not None and looked.version == first.version
        assert looked.posted_version < first.version
        if one.store.backend == "postgresql":
            assert await one.store.leases("post:") == []
        owed = await one.pending_post(first.game_id)
        assert owed is not None and owed.channel_id == HERE.channel
        if one.store.backend == "postgresql":
            assert [lease.name for lease in await one.store.leases("post:")] == [
                f"post:{first.game_id}"]
            assert await two.pending_post(first.game_id) is None  # one's to deliver
        assert await two.pending_post(second.game_id) is not None
        await one.mark_posted(first.game_id, first.version)
        assert await one.pending_post(first.game_id, take=False) is None
    finally:
        await one.close()
        await two.close()
