"""Sending interactions to the bot without waiting for all of them: many in flight at once.

`BotHarness.send` waits until every handler has finished, which serialises the
bot. `deliver` waits only for the answer to its own interaction (its callback, and
its follow-up unless the callback was the whole answer), so tests can run many at
once with asyncio.gather and check each one's answer.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from tests.bot.conftest import BotHarness
from tests.bot.fake_discord import APP_ID, Request

AUTOCOMPLETE, COMMAND = 4, 2
DEFERRED, MESSAGE, CHOICES = 5, 4, 8
EXTRA_PATHS = ("/messages/@original", "/threads")  # a public refusal's cleanup, new threads


@dataclass
class Answer:
    payload: dict[str, Any]
    callbacks: list[Request]
    followups: list[Request]
    others: list[Request]

    @property
    def text(self) -> str:
        return " | ".join(r.content for r in self.followups + self.callbacks)

    def assert_one_answer(self) -> None:
        """One callback; a deferral is followed by exactly one follow-up."""
        kind = self.payload["type"]
        assert len(self.callbacks) == 1, (self.payload.get("data"), self.callbacks)
        answer = self.callbacks[0].json["type"]
        if kind == AUTOCOMPLETE:
            assert answer == CHOICES and not self.followups, self.callbacks[0].json
            assert len(self.callbacks[0].json["data"]["choices"]) <= 25
            return
        assert answer == DEFERRED, (self.payload.get("data"), self.callbacks[0].json)
        assert len(self.followups) == 1, (self.payload.get("data"), self.followups)
        unexpected = [r for r in self.others if not r.path.endswith(EXTRA_PATHS)]
        assert not unexpected, [(r.method, r.path) for r in unexpected]


def _mine(req: Request, token: str) -> bool:
    return f"/{token}" in req.path


def collect(h: BotHarness, payload: dict[str, Any], start: int) -> Answer:
    token = payload["token"]
    mine = [r for r in h.fake.requests[start:] if _mine(r, token)]
    callbacks = [r for r in mine if r.path.endswith("/callback")]
    followups = [r for r in mine if r.method == "POST"
                 and r.path == f"/webhooks/{APP_ID}/{token}"]
    others = [r for r in mine if r not in callbacks and r not in followups]
    return Answer(payload, callbacks, followups, others)


async def deliver(h: BotHarness, payload: dict[str, Any], timeout: float = 60.0) -> Answer:
    """Hand the interaction to the bot as the gateway would; wait for its own answer."""
    start = len(h.fake.requests)
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        await asyncio.sleep(0.005)
        answer = collect(h, payload, start)
        done = bool(answer.followups) or any(
            c.json["type"] in (MESSAGE, CHOICES) for c in answer.callbacks)
        if done or loop.time() > give_up:
            return answer
