"""Watching a running bot process (issue 30): health checks (the Discord connection, the
event loop, the database, the worker pool) and Prometheus metrics, served on an opt-in
port (`server.Observer`, CARCA_METRICS_PORT), and a probe for container health checks
(`python -m carca_bot.observe.probe`).

A layer of its own: it reads the service and the store, and is given what only the
front end knows (the Discord connection, the worker pool) as probes.
"""

from carca_bot.observe.health import Check, DiscordState, Health, LoopLag, WorkerState
from carca_bot.observe.metrics import Metrics
from carca_bot.observe.server import Observer, ObserveSettings

__all__ = ["Check", "DiscordState", "Health", "LoopLag", "Metrics", "ObserveSettings",
           "Observer", "WorkerState"]
