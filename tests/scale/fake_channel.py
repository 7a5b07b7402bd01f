"""A channel as Discord keeps one, for the exactly-once post tests: messages with ids,
the author's nonce honoured as Discord does (`enforce_nonce`: a second message with a
nonce seen in the last `nonce_window` seconds returns the first instead), a history a
fresh process can read, edits, deletions.

`FakeDiscord` holds every channel (thread-safe, so the multi-process test can serve it
over HTTP: `fake_discord_http.py`); `Post` is one message a front end wants shown, as
the `PostChannel` the service's `deliver` drives. `Post.die_after_send` makes the send
reach the channel and then fail, as a process killed before it heard the answer.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

NONCE_WINDOW = 120.0  # seconds Discord remembers a nonce ("the past few minutes")


class Died(Exception):
    """The process was killed here (the test's stand-in for SIGKILL)."""


@dataclass
class Message:
    id: str
    channel: str
    content: str
    marker: str
    nonce: str
    at: float
    edits: int = 0
    deleted: bool = False


@dataclass
class FakeDiscord:
    clock: Callable[[], float]
    nonce_window: float = NONCE_WINDOW
    messages: list[Message] = field(default_factory=list)
    deduplicated: int = 0  # sends answered with the message their nonce already made
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1000))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, channel: str, content: str, marker: str, nonce: str) -> Message:
        with self._lock:
            now = self.clock()
            for old in reversed(self.messages):
                if old.channel == channel and old.nonce == nonce \
                        and now - old.at <= self.nonce_window:
                    if old.deleted:
                        raise LookupError("a message with this nonce was deleted")
                    self.deduplicated += 1
                    return old
            message = Message(str(next(self._ids)), channel, content, marker, nonce, now)
            self.messages.append(message)
            return message

    def edit(self, channel: str, message_id: str, content: str) -> bool:
        with self._lock:
            for message in self.messages:
                if message.id == message_id and message.channel == channel \
                        and not message.deleted:
                    message.content = content
                    message.edits += 1
                    return True
            return False

    def delete(self, message_id: str) -> None:
        with self._lock:
            for message in self.messages:
                if message.id == message_id:
                    message.deleted = True

    def history(self, channel: str, since: float) -> list[Message]:
        """The channel's messages from `since` on, oldest first (what a fresh process
        reads back: no nonces, Discord does not return them)."""
        with self._lock:
            return [m for m in self.messages
                    if m.channel == channel and m.at >= since and not m.deleted]

    def shown(self, channel: str | None = None) -> list[Message]:
        with self._lock:
            return [m for m in self.messages
                    if not m.deleted and (channel is None or m.channel == channel)]


@dataclass
class Post:
    """One message for `deliver`: its words, and the marker it carries."""

    discord: FakeDiscord
    channel: str
    content: str
    marker: str
    die_after_send: bool = False
    sends: int = 0

    async def send(self, nonce: str) -> str:
        self.sends += 1
        message = self.discord.send(self.channel, self.content, self.marker, nonce)
        if self.die_after_send:
            raise Died(f"killed after message {message.id} was sent")
        return message.id

    async def edit(self, message_id: str) -> bool:
        return self.discord.edit(self.channel, message_id, self.content)

    async def find(self, marker: str, since: float) -> str | None:
        for message in self.discord.history(self.channel, since):
            if message.marker == marker:
                return message.id
        return None

    async def discard(self, message_id: str) -> None:
        self.discord.delete(message_id)
