"""Prometheus metrics of one bot process (prometheus_client, a registry of its own).

What is counted as it happens: every service call (`instrument`), as
`carca_commands_total{command, outcome}` and `carca_command_seconds{command}`; the
event loop's lag (`carca_event_loop_lag_seconds`, from `health.LoopLag`). What is read
when Prometheus scrapes (`refresh`): the games running and the lobbies, the games owed
a public post and how long the oldest has waited, the database connections in use and
the callers queued for one, the worker pool, the Discord connection, the shards this
process holds, and whether each health check passes. Example queries are in
docs/deploying-postgres.md ("Watching it").
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from carca_bot.observe.health import Check, DiscordState, Health, WorkerState, _asked
from carca_bot.service import ServiceError, Unavailable
from carca_bot.store import Store, StoreError

# Seconds: a button press answered at once ... a command that waited for the database.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SKIPPED = frozenset({"open", "close"})


def outcome(exc: BaseException | None) -> str:
    """How a call ended, for the `outcome` label: ok, refused (the player's doing),
    unavailable (the database), error (a bug)."""
    if exc is None:
        return "ok"
    if isinstance(exc, Unavailable | StoreError):
        return "unavailable"
    if isinstance(exc, ServiceError):
        return "refused"
    return "error"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.commands = Counter("carca_commands", "Service calls, by name and how they ended",
                                ["command", "outcome"], registry=r)
        self.latency = Histogram("carca_command_seconds", "Time a service call took, "
                                 "waiting for the game's lock and the database included",
                                 ["command"], buckets=BUCKETS, registry=r)
        self.lag = Gauge("carca_event_loop_lag_seconds", "How late the event loop ran a "
                         "task, worst in the health check's window", registry=r)
        self.lags = Histogram("carca_event_loop_lag_sample_seconds", "Each lag sample",
                              buckets=LAG_BUCKETS, registry=r)
        self.games = Gauge("carca_games_running", "Games being played", registry=r)
        self.lobbies = Gauge("carca_lobbies", "Lobbies waiting to start", registry=r)
        self.owed = Gauge("carca_posts_owed", "Games owed a public post", registry=r)
        self.owed_age = Gauge("carca_posts_owed_oldest_seconds", "How long the oldest owed "
                              "public post has waited (0: none owed)", registry=r)
        self.pool_size = Gauge("carca_db_pool_size", "Database connections this process "
                               "may have", registry=r)
        self.pool_used = Gauge("carca_db_pool_in_use", "Database connections in use",
                               registry=r)
        self.pool_waiting = Gauge("carca_db_pool_waiting", "Calls waiting for a database "
                                  "connection: the pool's queue", registry=r)
        self.workers_alive = Gauge("carca_workers_alive", "Worker processes or threads "
                                   "able to work", registry=r)
        self.workers_queued = Gauge("carca_workers_queued", "Jobs waiting for a worker",
                                    registry=r)
        self.discord = Gauge("carca_discord_connected", "1 when connected to Discord's "
                             "gateway", registry=r)
        self.discord_latency = Gauge("carca_discord_latency_seconds", "The gateway "
                                     "heartbeat's round trip", registry=r)
        self.shard = Gauge("carca_shard_held", "1 for each Discord shard whose background "
                           "work this process does now", ["shard"], registry=r)
        self.healthy = Gauge("carca_health_ok", "1 when the health check passes, by check",
                             ["check"], registry=r)

    def observe_command(self, name: str, seconds: float, exc: BaseException | None) -> None:
        self.commands.labels(name, outcome(exc)).inc()
        self.latency.labels(name).observe(seconds)

    def instrument(self, service: object) -> None:
        """Count and time every public coroutine method of `service` (a `GameService`)
        from now on: its calls go through wrappers set on the instance."""
        for name, method in inspect.getmembers(service, inspect.iscoroutinefunction):
            if not name.startswith("_") and name not in SKIPPED:
                setattr(service, name, self._timed(name, method))

    def _timed(self, name: str, method: Callable[..., Awaitable[Any]]
               ) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            failed: BaseException | None = None
            try:
                return await method(*args, **kwargs)
            except BaseException as exc:
                failed = exc
                raise
            finally:
                self.observe_command(name, time.perf_counter() - began, failed)
        return timed

    async def refresh(self, store: Store, health: Health, checks: list[Check],
                      shards: object = None, now: float | None = None) -> None:
        """Read what is read at scrape time (see the module). A database that does not
        answer leaves the last figures; its check says why."""
        now = time.time() if now is None else now
        self.lag.set(health.lag.worst)
        for check in checks:
            self.healthy.labels(check.name).set(1 if check.ok else 0)
        stats = store.pool_stats()
        self.pool_size.set(stats.size)
        self.pool_used.set(stats.in_use)
        self.pool_waiting.set(stats.waiting)
        if all(c.ok for c in checks if c.name == "database"):
            try:
                counts = await store.counts()
            except StoreError:
                counts = None
            if counts is not None:
                self.games.set(counts.games_running)
                self.lobbies.set(counts.lobbies)
                self.owed.set(counts.posts_owed)
                self.owed_age.set(0 if counts.oldest_owed is None
                                  else max(0.0, now - counts.oldest_owed))
        if health.discord is not None:
            state = await _asked(health.discord)
            assert isinstance(state, DiscordState)
            self.discord.set(1 if state.connected else 0)
            if state.latency is not None:
                self.discord_latency.set(state.latency)
        if health.workers is not None:
            workers = await _asked(health.workers)
            assert isinstance(workers, WorkerState)
            self.workers_alive.set(workers.alive)
            self.workers_queued.set(workers.queued)
        ids = getattr(shards, "ids", None)
        count = getattr(shards, "count", None)
        if isinstance(ids, frozenset) and isinstance(count, int):
            for shard in range(count):
                self.shard.labels(str(shard)).set(1 if shard in ids else 0)

    def text(self) -> bytes:
        """The registry in Prometheus' text format."""
        return generate_latest(self.registry)
