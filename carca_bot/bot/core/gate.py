"""Whether the bot takes a command now: shutting down, too many at once from one user,
and how many are running (so a shutdown can wait for them)."""

from __future__ import annotations

import asyncio
import time
from collections import deque


class RateLimit:
    """At most `burst` commands per user in any `window` seconds (autocomplete is not counted)."""

    def __init__(self, burst: int = 8, window: float = 10.0) -> None:
        self.burst, self.window = burst, window
        self._seen: dict[int, deque[float]] = {}

    def allow(self, user_id: int, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        recent = self._seen.setdefault(user_id, deque())
        while recent and now - recent[0] >= self.window:
            recent.popleft()
        if len(recent) >= self.burst:
            return False
        recent.append(now)
        if len(self._seen) > 10_000:  # forget idle users now and then
            self._seen = {u: q for u, q in self._seen.items() if q and now - q[-1] < self.window}
        return True

    def forget(self, user_id: int) -> None:
        """No more counting for this user (their data was erased)."""
        self._seen.pop(user_id, None)


class Actions:
    """The commands in flight: taken or not (`accepting` is False while shutting down),
    each user's rate, and how many run now (`idle` is set when none does)."""

    def __init__(self, rate_limit: int) -> None:
        self.limit = RateLimit(rate_limit)
        self.accepting = True
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()

    def enter(self) -> None:
        self.in_flight += 1
        self.idle.clear()

    def leave(self) -> None:
        self.in_flight -= 1
        if self.in_flight == 0:
            self.idle.set()
