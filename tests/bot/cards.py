"""What a move shows in the channel now: the game's card (one Components V2 message,
posted once and then edited), one ping per turn, and at the end the final post."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.bot.fake_discord import APP_ID, Request


def callback(requests: list[Request]) -> Request:
    found = [r for r in requests if r.path.endswith("/callback")]
    assert len(found) == 1, [r.path for r in requests]
    return found[0]


def followups(requests: list[Request]) -> list[Request]:
    return [r for r in requests
            if r.method == "POST" and r.path.startswith(f"/webhooks/{APP_ID}/")]


def card_requests(requests: list[Request]) -> list[Request]:
    """The card posts and edits (Components V2 messages in a channel)."""
    return [r for r in requests if r.path.startswith("/channels/") and "/messages" in r.path
            and r.method in ("POST", "PATCH") and r.v2]


def channel_posts(requests: list[Request]) -> list[Request]:
    """Plain messages the bot posted in channels (pings, end-of-game posts, DMs)."""
    return [r for r in requests if r.path.startswith("/channels/")
            and r.path.endswith("/messages") and r.method == "POST" and not r.v2]


def pings(requests: list[Request]) -> list[Request]:
    """Channel messages that may ping someone."""
    return [r for r in channel_posts(requests)
            if (r.json or {}).get("allowed_mentions", {}).get("users")]


def deletes(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.method == "DELETE" and r.path.startswith("/channels/")]


@dataclass
class Shown:
    """A move as the channel got it: the card, the ping (if any), the final post."""

    card: Request
    ping: Request | None
    final: Request | None
    answer: Request | None  # the actor's private answer

    @property
    def content(self) -> str:
        parts = [self.card.text, self.ping.content if self.ping else "",
                 self.final.content if self.final else ""]
        return "\n".join(p for p in parts if p)

    @property
    def files(self) -> list[Any]:
        return [*(self.final.files if self.final else []), *self.card.files]

    @property
    def json(self) -> Any:
        return (self.final or self.card).json


def assert_card_reply(requests: list[Request]) -> Shown:
    """A command that changed a started game: deferred privately (or in place), the card
    posted or edited once, at most one ping, a private answer, no public follow-up."""
    answer = callback(requests).json
    assert answer in ({"type": 5, "data": {"flags": 64}}, {"type": 6}), answer
    (card,) = card_requests(requests)
    assert not [r for r in followups(requests) if not r.ephemeral], "a public follow-up"
    said = pings(requests)
    assert len(said) <= 1, [p.content for p in said]
    finals = [r for r in channel_posts(requests) if r not in said]
    assert len(finals) <= 1
    private = [r for r in requests if r.path.startswith(f"/webhooks/{APP_ID}/")]
    return Shown(card, said[0] if said else None, finals[0] if finals else None,
                 private[-1] if private else None)
