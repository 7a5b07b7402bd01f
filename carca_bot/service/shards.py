"""Which Discord servers' background work this process does, when several processes share
one database (each runs a range of Discord shards: CARCA_SHARDS, CARCA_SHARD_COUNT).

Discord sends a server's events to shard `(guild_id >> 22) % shard_count`; a process
does the timers and owed posts of those servers only. That split is for load, not for
correctness: the store's leases (`Store.take_lease`) make each timer step and each owed
post happen once even when two processes' ranges overlap by mistake, and the
version-conditional write refuses a second copy of any move.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass

from carca_bot.store import Store, StoreError

SHARD_SHIFT = 22  # a Discord id's top bits are its creation time; shards split on them


def shard_of(guild_id: str, count: int) -> int:
    """The shard that receives a server's events. Anything not a Discord id (a direct
    message, the terminal front end's "local") is shard 0, as Discord does for DMs."""
    if count < 1:
        raise ValueError("a shard count is at least 1")
    try:
        number = int(guild_id)
    except ValueError:
        return 0
    return (number >> SHARD_SHIFT) % count if number > 0 else 0


@dataclass(frozen=True)
class Shards:
    """The shards one process runs, out of `count`."""

    ids: frozenset[int]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {sorted(self.ids)} are not all within 0..{self.count - 1}")

    @classmethod
    def of(cls, ids: Iterable[int], count: int) -> Shards:
        return cls(frozenset(ids), count)

    @property
    def everything(self) -> bool:
        """Whether this process runs every shard (one process: the default)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: str) -> bool:
        return self.everything or shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        """For the log: "shards 0-3 of 8"."""
        return f"shards {spans(self.ids)} of {self.count}"


def spans(ids: Iterable[int]) -> str:
    """Sorted ids as ranges: {0, 1, 2, 5} -> "0-2,5"."""
    out: list[str] = []
    ordered = sorted(set(ids))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ",".join(out)


# How long a process may hold a piece of background work before another may take it
# over (it crashed, or hangs): longer than the work takes, short enough that a
# restarted or surviving process picks the work up soon.
TIMER_LEASE = 60.0  # seconds: one game's timer step
POST_LEASE = 120.0  # seconds: one game's owed public post


def holder_name() -> str:
    """This process's name on the leases it takes: the machine, the process, and a random
    part (a restarted process is a new holder; its old leases simply expire)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"


async def lease(store: Store, name: str, holder: str, now: float, seconds: float) -> bool:
    """Whether this process may do the work `name` now (and holds it for `seconds`).

    SQLite has one bot process, so every lease is granted without a write; on
    PostgreSQL the store's lease decides between processes.
    """
    if store.backend != "postgresql":
        return True
    return await store.take_lease(name, holder, now, seconds)


async def release(store: Store, name: str, holder: str) -> None:
    """The work `name` is done: another process may take it at once (nothing to do then,
    as the stored game has moved past it). A failure only leaves the lease to expire."""
    if store.backend != "postgresql":
        return
    with contextlib.suppress(StoreError):
        await store.release_lease(name, holder)
