"""Which Discord servers' background work this process does, when several processes share
one database (each runs a range of Discord shards: CARCA_SHARDS, CARCA_SHARD_COUNT).

Discord sends a server's events to shard `(guild_id >> 22) % shard_count`; a process
does the timers, AI turns and owed posts of the servers of the shards it holds. That
split is for load, not for correctness: the store's leases (`Store.take_lease`) make
each timer step and each owed post happen once even when two processes' ranges overlap
by mistake, and the version-conditional write refuses a second copy of any move.

`Shards` is a fixed range. `ShardLeases` (issue 30) makes the range a preference: the
process holds its shards through leases in the database (`shard:<n>`) and says it is
alive (`alive:<holder>`), renewing them every `RENEW` seconds, along with what it prefers
(`prefer:shard:<n>:<holder>`). When a process stops renewing (it crashed, hangs, or
lost the database), its leases run out after `SHARD_LEASE` seconds and a survivor
takes its shards' background work over; when it comes back, the survivor sees it
prefers them and gives them back at its next renewal. A shard no live process prefers
is taken by whoever finds it free.
Only background work moves: Discord still sends a shard's commands to the process
connected to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from carca_bot.store import Lease, Store, StoreError
from carca_bot.store.processes import ALIVE

SHARD_SHIFT = 22  # a Discord id's top bits are its creation time; shards split on them
log = logging.getLogger(__name__)


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


class ShardView(Protocol):
    """What the service asks of the shards a process works for: a fixed `Shards`, or
    the `ShardLeases` it holds now."""

    @property
    def count(self) -> int: ...

    @property
    def everything(self) -> bool: ...

    def owns(self, guild_id: str) -> bool: ...

    def describe(self) -> str: ...


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
# A process's hold on its shards, renewed every RENEW seconds: a dead process's servers
# get their timers, AI turns and owed posts from a survivor within SHARD_LEASE + RENEW
# seconds (and its per-game leases above are void as soon as its `alive` lease runs out).
SHARD_LEASE = 30.0
RENEW = 10.0
SHARD = "shard:"
PREFER = "prefer:shard:"  # + "<shard>:<holder>": a live process prefers this shard


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


@dataclass
class ShardLeases:
    """The shards this process holds now, through leases: its `preferred` ones first,
    any other whose holder stopped renewing, none that another live process prefers.

    `renew` (every `renew_every` seconds: `run`) keeps them. `owns` answers from what
    the last successful renewal got, and only until those leases would run out: a
    process that cannot reach the database stops doing background work by the time
    another may have taken it over.
    """

    preferred: Shards
    store: Store
    holder: str
    clock: Callable[[], float]
    lease_seconds: float = SHARD_LEASE
    renew_every: float = RENEW
    held: dict[int, float] = field(default_factory=dict)  # shard -> held until
    rounds: int = 0  # renewals done (tests and the log)
    last_renewal: float | None = None  # when the last renewal began (service clock)

    @property
    def count(self) -> int:
        return self.preferred.count

    @property
    def ids(self) -> frozenset[int]:
        """The shards held now."""
        now = self.clock()
        return frozenset(s for s, until in self.held.items() if until > now)

    @property
    def everything(self) -> bool:
        return len(self.ids) == self.count

    def owns(self, guild_id: str) -> bool:
        return self.held.get(shard_of(guild_id, self.count), -math.inf) > self.clock()

    def describe(self) -> str:
        held = self.ids
        extra = held - self.preferred.ids
        return (f"shards {spans(held) or 'none'} of {self.count}"
                + (f" (taken over: {spans(extra)})" if extra else ""))

    async def renew(self) -> frozenset[int]:
        """One renewal: say this process is alive and what it prefers, keep or take its
        shards, give back the ones another live process prefers. Returns the shards
        held."""
        if self.store.backend != "postgresql":  # one process: its own shards, no leases
            self.held = dict.fromkeys(self.preferred.ids, math.inf)
            return self.ids
        now = self.clock()
        self.last_renewal = now
        until = now + self.lease_seconds - self.renew_every  # stop before another may start
        await self.store.alive(self.holder, now, self.lease_seconds)
        for shard in sorted(self.preferred.ids):
            await self.store.take_lease(f"{PREFER}{shard}:{self.holder}", self.holder, now,
                                        self.lease_seconds)
        gone = {lease.holder for lease in await self.store.leases(ALIVE)
                if lease.expires <= now}
        holders = {lease.name: lease for lease in await self.store.leases(SHARD)
                   if lease.expires > now and lease.holder not in gone}
        wanted: set[int] = set()  # shards another live process prefers
        for lease in await self.store.leases(PREFER):
            number = lease.name.removeprefix(PREFER).split(":", 1)[0]
            if lease.holder != self.holder and lease.expires > now and number.isdigit() \
                    and lease.holder not in gone:
                wanted.add(int(number))
        before = self.ids
        for shard in range(self.count):
            current = holders.get(f"{SHARD}{shard}")
            if await self._keep(shard, current, shard in wanted, now):
                self.held[shard] = until
            else:
                self.held.pop(shard, None)
        self.rounds += 1
        if self.ids != before:
            log.info("%s holds %s (was %s)", self.holder, self.describe(),
                     spans(before) or "none")
        return self.ids

    async def _keep(self, shard: int, current: Lease | None, wanted: bool,
                    now: float) -> bool:
        """Whether this process holds `shard` after this round. `current`: its live
        holder's lease, if any; `wanted`: another live process prefers it."""
        name = f"{SHARD}{shard}"
        mine = current is not None and current.holder == self.holder
        if shard in self.preferred.ids:
            return await self.store.take_lease(name, self.holder, now, self.lease_seconds)
        if wanted:
            if mine:  # its preferring process is there: give it back
                await self.store.release_lease(name, self.holder)
                log.info("%s gives shard %s back", self.holder, shard)
            return False
        if current is not None and not mine:
            return False  # another live process has it
        return await self.store.take_lease(name, self.holder, now, self.lease_seconds)

    async def run(self) -> None:
        """Renew every `renew_every` seconds until cancelled; a renewal the database
        refuses is tried again at the next (meanwhile `owns` runs out by itself)."""
        while True:
            try:
                await self.renew()
            except StoreError as exc:
                log.warning("%s could not renew its shard leases: %s", self.holder, exc)
            await asyncio.sleep(self.renew_every)

    async def give_back(self) -> None:
        """Give every shard back at once (a clean shutdown), so a survivor need not wait
        for the leases to run out."""
        if self.store.backend != "postgresql":
            return
        for shard in list(self.held):
            with contextlib.suppress(StoreError):
                await self.store.release_lease(f"{SHARD}{shard}", self.holder)
        for shard in self.preferred.ids:
            with contextlib.suppress(StoreError):
                await self.store.release_lease(f"{PREFER}{shard}:{self.holder}", self.holder)
        self.held.clear()
        with contextlib.suppress(StoreError):
            await self.store.release_lease(f"{ALIVE}{self.holder}", self.holder)
