"""Is this bot process healthy? Four checks, each with a reason an operator can read:

- **discord**: connected to Discord's gateway (the front end says so: `DiscordState`);
  a reconnect is normal, so only a connection down for longer than `discord_grace`
  seconds fails;
- **event loop**: how late a task that sleeps `LoopLag.interval` seconds wakes (`LoopLag`);
  a loop held up by work that should run elsewhere fails above `max_lag` seconds;
- **database**: a round trip (`Store.ping`) within `database_timeout` seconds;
- **workers**: the pool that draws pictures and thinks for the AI has live workers and
  room in its queue (the front end says so: `WorkerState`).

The checks read state only; nothing here changes a game.
"""

from __future__ import annotations

import asyncio
import inspect
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from carca_bot.store import Store, StoreError


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class DiscordState:
    """The gateway connection, as the front end sees it (discord.py: `is_ready()` and
    not `is_closed()`, and its `latency`)."""

    connected: bool
    latency: float | None = None  # seconds, the gateway's heartbeat round trip
    detail: str = ""  # e.g. which shards are down


@dataclass(frozen=True)
class WorkerState:
    """The worker pool (pictures, the AI), as the front end sees it."""

    workers: int  # the pool's size
    alive: int  # workers able to take work now
    queued: int  # jobs waiting for a worker
    capacity: int  # jobs the queue takes before refusing more


@dataclass
class LoopLag:
    """How late the event loop runs a task: one that sleeps `interval` seconds and
    notes how much longer it took, over the last `window` seconds."""

    interval: float = 0.25
    window: float = 30.0
    clock: Callable[[], float] = time.monotonic
    samples: deque[tuple[float, float]] = field(default_factory=deque)  # (at, lag)

    def note(self, lag: float) -> None:
        now = self.clock()
        self.samples.append((now, max(0.0, lag)))
        while self.samples and self.samples[0][0] < now - self.window:
            self.samples.popleft()

    @property
    def last(self) -> float:
        return self.samples[-1][1] if self.samples else 0.0

    @property
    def worst(self) -> float:
        """The longest lag in the window (0 before the first sample)."""
        return max((lag for _, lag in self.samples), default=0.0)


Probe = Callable[[], "DiscordState | Awaitable[DiscordState]"]
WorkerProbe = Callable[[], "WorkerState | Awaitable[WorkerState]"]


async def _asked(probe: Callable[[], object]) -> object:
    value = probe()
    return await value if inspect.isawaitable(value) else value


@dataclass
class Health:
    """The four checks of one process (see the module); `discord` and `workers` are
    what the front end supplies, None where it has none (a check then passes, saying
    so: the terminal game has no Discord)."""

    store: Store
    lag: LoopLag
    discord: Probe | None = None
    workers: WorkerProbe | None = None
    max_lag: float = 2.0
    discord_grace: float = 60.0
    database_timeout: float = 5.0
    clock: Callable[[], float] = time.monotonic
    _down_since: float | None = None

    async def checks(self) -> list[Check]:
        return [await self._discord(), self._loop(), await self._database(),
                await self._workers()]

    async def _discord(self) -> Check:
        if self.discord is None:
            return Check("discord", True, "no Discord connection in this process")
        state = await _asked(self.discord)
        assert isinstance(state, DiscordState)
        now = self.clock()
        if state.connected:
            self._down_since = None
            latency = "" if state.latency is None or not math.isfinite(state.latency) \
                else f", heartbeat {1000 * state.latency:.0f} ms"
            return Check("discord", True, f"connected{latency}")
        if self._down_since is None:
            self._down_since = now
        down = now - self._down_since
        extra = f" ({state.detail})" if state.detail else ""
        if down <= self.discord_grace:
            return Check("discord", True, f"reconnecting for {down:.0f} s{extra}")
        return Check("discord", False, f"not connected for {down:.0f} s{extra}")

    def _loop(self) -> Check:
        worst = self.lag.worst
        detail = f"worst lag {1000 * worst:.0f} ms in the last {self.lag.window:.0f} s"
        return Check("event loop", worst <= self.max_lag,
                     detail if worst <= self.max_lag
                     else f"{detail} (over {self.max_lag:g} s: something blocks the loop)")

    async def _database(self) -> Check:
        try:
            await asyncio.wait_for(self.store.ping(), self.database_timeout)
        except TimeoutError:
            return Check("database", False,
                         f"no answer within {self.database_timeout:g} s")
        except StoreError as exc:
            return Check("database", False, str(exc))
        stats = self.store.pool_stats()
        return Check("database", True, f"{self.store.backend}, {stats.in_use} of "
                                       f"{stats.size} connections in use, "
                                       f"{stats.waiting} waiting")

    async def _workers(self) -> Check:
        if self.workers is None:
            return Check("workers", True, "no worker pool in this process")
        state = await _asked(self.workers)
        assert isinstance(state, WorkerState)
        detail = (f"{state.alive} of {state.workers} workers alive, {state.queued} of "
                  f"{state.capacity} queued")
        if state.workers and state.alive == 0:
            return Check("workers", False, f"{detail}: none can work")
        if state.capacity and state.queued >= state.capacity:
            return Check("workers", False, f"{detail}: the queue is full")
        return Check("workers", True, detail)
