"""Public posts owed to a channel, kept until the front end says it delivered them, and
each delivered once as players see it.

Every command that changes a game in a way players must hear about (see
`live.owed_post`) stores what it said in the same transaction as the change. The
front end posts the command's result and then marks it posted; if the post failed, or
the process stopped in between, `pending_posts` still lists the game and
`catch_up` gives what to post, so nothing committed goes untold.

Exactly once (issue 30): a message a front end sends for a game is delivered through
`deliver`, under a `PostKey` (the game, the version it shows, which message). The
attempt is recorded before the send, the message it made once the channel has it,
and the send carries the key's nonce (Discord's message nonce: a second send with the
same nonce within a few minutes returns the first message instead of making another).
After a crash, the next process finds the attempt and asks the channel whether the
message is there (`PostChannel.find`, by the key's `marker`) before sending anything:
found, it is kept (or edited); not found, it is sent with the same nonce. So a post
that reached the channel before its process died is never posted again, however
late the catch-up comes. Two live processes sending it at once share the nonce; should
the second send come after Discord forgot it, the copy recorded second is deleted by
its own sender (`PostChannel.discard`), so players are left with one.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any, Protocol

from carca_bot.service.core import ServiceCore
from carca_bot.service.live import Live
from carca_bot.service.model import Told, TurnView
from carca_bot.service.outbox import told_of
from carca_bot.service.shards import POST_LEASE, lease, release
from carca_bot.store import PublicEvents

POST = "post"  # a change's public post (one per version)
CARD = "card"  # a game's card, one message edited after every change (version 0)
# Seconds before an attempt's start from which its message is looked for: the channel's
# clock and this machine's may differ a little.
SKEW = 10.0


@dataclass(frozen=True)
class PostKey:
    """The idempotency key of one public message: the game, the version it shows, and
    which message of the game it is (`POST`, `CARD`, or a front end's own kind, at most
    12 lower-case letters)."""

    game_id: int
    version: int
    kind: str = POST

    def __post_init__(self) -> None:
        if not (self.kind.isascii() and self.kind.isalpha() and self.kind.islower()
                and len(self.kind) <= 12):
            raise ValueError(f"a post's kind is a short lower-case word, not {self.kind!r}")

    def nonce(self, attempt: int = 1) -> str:
        """The nonce to send with it: 24 characters (Discord takes at most 25), the same
        for every send of the same message, another for a new message (`attempt`) once
        the last one is known gone."""
        text = f"carca:{self.game_id}:{self.version}:{self.kind}:{attempt}"
        digest = hashlib.blake2b(text.encode(), digest_size=15).digest()
        return base64.b32encode(digest).decode().lower()

    @property
    def marker(self) -> str:
        """What the message carries where a fresh process can read it back from the
        channel (`PostChannel.find`), e.g. in an attachment's file name or a button's
        id: "post-12-34"."""
        return f"{self.kind}-{self.game_id}-{self.version}"


class PostChannel(Protocol):
    """One message to one channel, as a front end sends it (`deliver` decides which)."""

    async def send(self, nonce: str) -> str:
        """Post the message with this nonce (and the key's marker); its id."""
        ...

    async def edit(self, message_id: str) -> bool:
        """Show the message on `message_id` instead; False if that message is gone."""
        ...

    async def find(self, marker: str, since: float) -> str | None:
        """The id of a message of ours in the channel carrying `marker`, posted at or
        after `since` (service clock), if there is one."""
        ...

    async def discard(self, message_id: str) -> None:
        """Take back a second copy this process just sent (`deliver`: another live
        process's was recorded first); a refusal is logged, not raised."""
        ...


@dataclass(frozen=True)
class Delivered:
    message_id: str
    # "sent": a new message; "found": an earlier send had reached the channel (found
    # there, not sent again); "kept": the channel had it on record (edited if asked)
    how: str


@dataclass(frozen=True)
class PendingPost:
    """A game whose public changes up to `version` were not all confirmed posted."""

    game_id: int
    guild_id: str
    channel_id: str
    posted_version: int  # the last version whose post was delivered
    version: int  # the version of the newest change owed a post
    since: float = 0.0  # when the oldest undelivered change was stored (service clock)


@dataclass(frozen=True)
class CatchUp:
    """What to post for a game's undelivered changes: public information only."""

    game_id: int
    version: int  # pass to `mark_posted` once this is posted
    # What the changes told, oldest first: events and notes as data (`words.say`), and
    # plain sentences stored by older versions, to be posted as they are.
    lines: tuple[Told, ...]
    played: tuple[dict[str, Any], ...]  # the carca-record/1 actions committed since
    view: TurnView  # the game now, as a spectator sees it: board, who is next, deadline
    # The newest game begun in the same channel after this one, if any: the post then
    # lands among that game's messages and must say which game it is about.
    other_game: int | None = None
    changes: tuple[int, ...] = ()  # the versions of the public changes it tells

    @property
    def key(self) -> PostKey:
        """The key to `deliver` this catch-up under (with `posted=version`)."""
        return PostKey(self.game_id, self.version)


class PostOps(ServiceCore):
    async def pending_posts(self, limit: int = 50, min_age: float = 0.0) -> list[PendingPost]:
        """Games owed a public post, the longest waiting first: the caller is to deliver
        each (this process holds its lease for `POST_LEASE` seconds, or until it is
        marked posted).

        Entries stored less than `min_age` seconds ago are left out, and not leased: a
        front end that posts each command's result itself leaves those to the command
        still posting them. To look without leasing, see `owes_post`.
        """
        shards = self.shards
        if shards is None or shards.everything:
            owed = await self.store.unposted(limit)
        else:  # other processes' entries come first at times: look further
            owed = [u for u in await self.store.unposted(min(limit * shards.count, 1000))
                    if shards.owns(u.guild_id)][:limit]
        now = self.clock()
        due = [u for u in owed if now - u.since >= min_age]
        # With several processes, each entry is one process's to post (`shards.lease`).
        taken = [u for u in due
                 if await lease(self.store, f"post:{u.game_id}", self.holder, now, POST_LEASE)]
        self._post_leases().update(u.game_id for u in taken)
        return [PendingPost(u.game_id, u.guild_id, u.channel_id, u.posted_version,
                            u.public_version, u.since) for u in taken]

    async def pending_post(self, game_id: int, *, take: bool = True) -> PendingPost | None:
        """One game's owed post, if it has one, for a front end delivering that game's
        post at once (an AI seat's move: `on_public_change`) without leasing the others.
        With `take` this process leases it as `pending_posts` does (None when another
        process holds it); without, it only looks (`posted_version`, `version`)."""
        row = await self.store.game(game_id)
        if row is None or row.public_version <= row.posted_version:
            return None
        if take:
            if not await lease(self.store, f"post:{game_id}", self.holder, self.clock(),
                               POST_LEASE):
                return None
            self._post_leases().add(game_id)
        return PendingPost(game_id, row.guild_id, row.channel_id, row.posted_version,
                           row.public_version)

    async def owes_post(self, game_id: int) -> bool:
        """Whether the game has a public change not yet confirmed posted (no lease)."""
        row = await self.store.game(game_id)
        return row is not None and row.public_version > row.posted_version

    async def mark_posted(self, game_id: int, version: int) -> None:
        """The public post showing the game at `version` was delivered. Never goes back;
        a version past the last public change counts as that change."""
        await self.store.mark_posted(game_id, version)
        await self._let_go(game_id)

    async def deliver(self, key: PostKey, channel_id: str, channel: PostChannel, *,
                      posted: int | None = None, update: bool = False) -> Delivered:
        """Deliver the message `key` to the channel once, as players see it.

        The attempt is recorded first. If an earlier attempt was recorded, the message
        it made (on record, or found in the channel by the key's marker) is kept, and
        with `update` edited to show what is now to be shown; only when there is none
        (or it is gone) is a message sent. Once the channel has it, its id is recorded,
        with `posted`: the game's public changes up to that version are marked posted
        in the same transaction. A send that fails raises (the front end's error) and
        stays recorded: the next attempt looks for it first. Two live processes may
        both send it (the second looked before the first's message arrived, and sent
        after Discord forgot the nonce): the one recorded second deletes its own.
        """
        store = self.store
        earlier = await store.begin_post(key.game_id, key.kind, key.version, channel_id,
                                         self.holder, self.clock())
        attempt, message, how = 1, None, "sent"
        if earlier is not None:
            attempt, message, how = earlier.attempts, earlier.message_id, "kept"
            if message is None:
                message = await channel.find(key.marker, earlier.began_at - SKEW)
                how = "found"
            if message is not None and update and not await channel.edit(message):
                again = await store.begin_post(key.game_id, key.kind, key.version, channel_id,
                                               self.holder, self.clock(), again=True)
                attempt, message = (again.attempts if again else attempt + 1), None
        if message is None:
            message, how = await channel.send(key.nonce(attempt)), "sent"
        kept = await store.post_sent(key.game_id, key.kind, key.version, message,
                                     self.clock(), posted)
        if kept != message:  # another live process's copy was recorded first
            await channel.discard(message)
            message, how = kept, "kept"
            if update:
                await channel.edit(message)
        if posted is not None:
            await self._let_go(key.game_id)
        return Delivered(message, how)

    async def catch_up(self, owed: PendingPost, channel: PostChannel) -> CatchUp | None:
        """What is still to be posted of an owed entry, or None when nothing is.

        Posts an earlier process began for the game's changes are looked for first,
        newest first: one on record or found in the channel shows the game at its
        version, so the changes up to it count as posted (marked now) and are not posted
        again. The rest is the catch-up, to `deliver` under its `key`.
        """
        posted = owed.posted_version
        for attempt in reversed(await self.store.post_attempts(owed.game_id, POST, posted)):
            key = PostKey(owed.game_id, attempt.version)
            message = attempt.message_id or await channel.find(key.marker,
                                                               attempt.began_at - SKEW)
            if message is not None:
                await self.store.post_sent(key.game_id, key.kind, key.version, message,
                                           self.clock(), posted=attempt.version)
                posted = attempt.version
                break
        if posted >= owed.version:
            await self._let_go(owed.game_id)
            return None
        catch = await self.events_since(owed.game_id, posted, upto=owed.version)
        if catch.version <= posted:  # nothing stored after it: the entry is settled
            await self.mark_posted(owed.game_id, owed.version)
            return None
        return catch

    async def events_since(self, game_id: int, version: int,
                           upto: int | None = None) -> CatchUp:
        """The public changes after `version` (normally a PendingPost's posted_version),
        up to `upto` if given: a change stored since the entry was listed has a post of
        its own under way (its command's), which the catch-up must not tell again."""
        found: list[tuple[list[PublicEvents], tuple[dict[str, Any], ...]]] = []

        async def body(live: Live) -> None:
            stored = await self.store.public_events(live.id, version)
            changes = [c for c in stored if upto is None or c.version <= upto]
            later = [c.moves_before for c in stored if upto is not None and c.version > upto]
            first = min((c.moves_before for c in changes), default=live.seq)
            end = min(later, default=live.seq)
            history = live.game.history[first:end] if live.game is not None else []
            found.append((changes, tuple(dict(a) for a in history)))

        view = await self._act_on(game_id, None, body)
        changes, played = found[0]
        newest = max((c.version for c in changes), default=version)
        return CatchUp(game_id, newest,
                       tuple(told_of(line) for c in changes for line in c.lines), played, view,
                       await self.store.later_game(game_id), tuple(c.version for c in changes))

    def _post_leases(self) -> set[int]:
        """The games whose owed-post lease this process took (`pending_posts`)."""
        taken: set[int] | None = getattr(self, "_leased_posts", None)
        if taken is None:
            taken = set()
            self._leased_posts = taken
        return taken

    async def _let_go(self, game_id: int) -> None:
        """Give the game's owed-post lease back once its post is delivered, so the next
        change's post need not wait for it to expire."""
        if game_id in self._post_leases():
            self._post_leases().discard(game_id)
            await release(self.store, f"post:{game_id}", self.holder)
