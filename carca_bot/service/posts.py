"""Public posts owed to a channel, kept until the front end says it delivered them.

Every command that changes a game in a way players must hear about (see
`live.owed_post`) stores what it said in the same transaction as the change. The
front end posts the command's result and then calls `mark_posted`; if the post
failed, or the process stopped in between, `pending_posts` still lists the game
and `events_since` gives what to post, so nothing committed goes untold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carca_bot.service.core import ServiceCore
from carca_bot.service.live import Live
from carca_bot.service.model import Told, TurnView
from carca_bot.service.outbox import told_of
from carca_bot.service.shards import POST_LEASE, lease
from carca_bot.store import PublicEvents


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


class PostOps(ServiceCore):
    async def pending_posts(self, limit: int = 50) -> list[PendingPost]:
        """Games owed a public post, the longest waiting first.

        A front end that posts each command's result itself should leave an entry
        whose `since` is only seconds old alone (its own post may be under way).
        """
        shards = self.shards
        if shards is None or shards.everything:
            owed = await self.store.unposted(limit)
        else:  # other processes' entries come first at times: look further
            owed = [u for u in await self.store.unposted(min(limit * shards.count, 1000))
                    if shards.owns(u.guild_id)][:limit]
        now = self.clock()
        # With several processes, each entry is one process's to post (`shards.lease`).
        return [PendingPost(u.game_id, u.guild_id, u.channel_id, u.posted_version,
                            u.public_version, u.since)
                for u in owed
                if await lease(self.store, f"post:{u.game_id}", self.holder, now, POST_LEASE)]

    async def mark_posted(self, game_id: int, version: int) -> None:
        """The public post showing the game at `version` was delivered. Never goes back;
        a version past the last public change counts as that change."""
        await self.store.mark_posted(game_id, version)

    async def events_since(self, game_id: int, version: int) -> CatchUp:
        """The public changes after `version` (normally a PendingPost's posted_version)."""
        found: list[tuple[list[PublicEvents], tuple[dict[str, Any], ...]]] = []

        async def body(live: Live) -> None:
            changes = await self.store.public_events(live.id, version)
            first = min((c.moves_before for c in changes), default=live.seq)
            history = live.game.history[first:] if live.game is not None else []
            found.append((changes, tuple(dict(a) for a in history)))

        view = await self._act_on(game_id, None, body)
        changes, played = found[0]
        newest = max((c.version for c in changes), default=version)
        return CatchUp(game_id, newest,
                       tuple(told_of(line) for c in changes for line in c.lines), played, view)
