"""The opt-in port: `GET /metrics` (Prometheus' text format) and `GET /healthz` (200 when
every check passes, else 503; JSON either way), served by aiohttp on the bot's own
event loop (a loop too busy to answer is itself the answer a health check wants).

Settings (environment; none set: no port is opened, and nothing is measured but the
loop's lag and the health checks a front end asks for):

| variable | default | meaning |
| --- | --- | --- |
| CARCA_METRICS_PORT | (unset: off) | the port to serve on |
| CARCA_METRICS_HOST | 127.0.0.1 | the address to listen on (0.0.0.0 in a container) |
| CARCA_HEALTH_MAX_LAG | 2 | seconds of event loop lag above which the process is unhealthy |
| CARCA_HEALTH_DISCORD_GRACE | 60 | seconds Discord may be reconnecting before that fails |
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from aiohttp import web

from carca_bot.observe.health import Health, LoopLag, Probe, WorkerProbe
from carca_bot.observe.metrics import Metrics
from carca_bot.store import Store

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


@dataclass(frozen=True)
class ObserveSettings:
    port: int | None = None
    host: str = "127.0.0.1"
    max_lag: float = 2.0
    discord_grace: float = 60.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ObserveSettings:
        """ValueError naming the variable for a value that is not one."""
        env = os.environ if env is None else env
        raw_port = env.get("CARCA_METRICS_PORT", "").strip()
        port = None
        if raw_port:
            if not raw_port.isdigit() or not 0 < int(raw_port) < 65536:
                raise ValueError(f"CARCA_METRICS_PORT must be a port number (1 to 65535), "
                                 f"not {raw_port!r}")
            port = int(raw_port)

        def seconds(name: str, default: float) -> float:
            raw = env.get(name, "").strip()
            try:
                value = float(raw) if raw else default
            except ValueError:
                value = -1.0
            if not 0 < value <= 3600:
                raise ValueError(f"{name} must be a number of seconds above 0, not {raw!r}")
            return value

        return cls(port, env.get("CARCA_METRICS_HOST", "").strip() or "127.0.0.1",
                   seconds("CARCA_HEALTH_MAX_LAG", 2.0),
                   seconds("CARCA_HEALTH_DISCORD_GRACE", 60.0))


@dataclass
class Observer:
    """One process's health checks and metrics, and the port serving them.

    `start` begins measuring the loop's lag and, if a port is set, serves it; `close`
    stops both. `service`: instrument this `GameService`'s calls (`Metrics.instrument`)
    and read its shards; `discord` and `workers` are the front end's probes.
    """

    store: Store
    settings: ObserveSettings = field(default_factory=ObserveSettings)
    discord: Probe | None = None
    workers: WorkerProbe | None = None
    service: object = None
    metrics: Metrics = field(default_factory=Metrics)
    lag: LoopLag = field(default_factory=LoopLag)
    health: Health = field(init=False)
    port: int | None = None  # the port actually served (a setting of 0 picks a free one)
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _runner: web.AppRunner | None = None

    def __post_init__(self) -> None:
        self.health = Health(self.store, self.lag, self.discord, self.workers,
                             self.settings.max_lag, self.settings.discord_grace)
        if self.service is not None:
            self.metrics.instrument(self.service)

    async def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._measure(), name="observe-loop-lag"))
        if self.settings.port is None:
            return
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        addresses = self._runner.addresses
        self.port = int(addresses[0][1]) if addresses else self.settings.port

    async def _measure(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(self.lag.interval)
            lag = max(0.0, loop.time() - began - self.lag.interval)
            self.lag.note(lag)
            self.metrics.lags.observe(lag)

    async def report(self) -> tuple[bool, list[dict[str, object]]]:
        """Every check now: whether all pass, and each as JSON."""
        checks = await self.health.checks()
        shards = getattr(self.service, "shards", None)
        await self.metrics.refresh(self.store, self.health, checks, shards)
        return all(c.ok for c in checks), [
            {"check": c.name, "ok": c.ok, "detail": c.detail} for c in checks]

    async def _healthz(self, request: web.Request) -> web.Response:
        ok, checks = await self.report()
        return web.Response(status=200 if ok else 503, content_type="application/json",
                            text=json.dumps({"ok": ok, "checks": checks}))

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.report()
        return web.Response(body=self.metrics.text(), headers={"Content-Type": CONTENT_TYPE})

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
