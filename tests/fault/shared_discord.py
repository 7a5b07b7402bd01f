"""The fake Discord of tests/bot (`fake_discord.FakeDiscord`) shared by several bot
processes over HTTP, for the fault test through real bot processes (`test_kill_bots.py`).

It runs on the test's own event loop. Besides Discord's REST API (the fake's) it has a
gateway of sorts: each bot process long-polls `GET /gateway/<name>` for the
interactions Discord sends the shard connection it stands for (`interact` queues one
and waits for its answer). A message, or an interaction's follow-up, is made before its
answer goes back, and the answer waits up to `delay` seconds: a bot process killed in
between made a post it never heard about, the case the exactly-once delivery is for.
Discord's nonce check holds for `nonce_window` seconds of the shared clock: shorter
than a catch-up takes to come, so that only the exactly-once delivery's record and its
look into the channel can keep a post from being repeated.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.bot.fake_discord import FakeDiscord, texts

POLL_SECONDS = 1.0  # a gateway poll answers empty after this long


class SharedDiscord:
    def __init__(self, clock: Callable[[], float], delay: float, nonce_window: float) -> None:
        self.fake = FakeDiscord(clock)
        self.fake.nonce_window = nonce_window
        self.delay = delay
        self.queues: defaultdict[str, asyncio.Queue[dict[str, Any]]] = defaultdict(
            asyncio.Queue)
        self.answers: dict[str, asyncio.Future[str]] = {}  # interaction token -> words
        self.posts: list[str] = []  # channels of the posts made carrying a marker, in order
        self._posted = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.base = ""

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._api)
        app.router.add_get("/gateway/{name}", self._gateway)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.base = f"http://127.0.0.1:{int(self._runner.addresses[0][1])}/api/v10"
        self.fake.base = self.base

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _api(self, request: web.Request) -> web.StreamResponse:
        parts = request.match_info["tail"].split("/")
        answer = await self.fake._handle(request)
        if not isinstance(answer, web.Response) or not isinstance(answer.body, bytes) \
                or request.method not in ("POST", "PATCH"):
            return answer
        body = json.loads(answer.body) if answer.body else {}
        if parts[0] == "webhooks":  # an interaction's follow-up, or its answer edited
            waiting = self.answers.get(parts[2])
            if waiting is not None and not waiting.done():
                waiting.set_result(str(body.get("content") or ""))
        made = request.method == "POST" and (
            parts[0] == "webhooks" or (parts[0] == "channels" and parts[-1] == "messages"))
        if made:
            lines = [*str(body.get("content") or "").splitlines(),
                     *texts(body.get("components") or [])]
            if any(line.startswith("-# #") for line in lines):  # a delivered post
                self.posts.append(str(body.get("channel_id")))
                self._posted.set()
            await asyncio.sleep(random.uniform(self.delay / 2, self.delay))  # on its way...
        return answer

    async def _gateway(self, request: web.Request) -> web.Response:
        queue = self.queues[request.match_info["name"]]
        payloads: list[dict[str, Any]] = []
        with contextlib.suppress(TimeoutError):
            payloads.append(await asyncio.wait_for(queue.get(), POLL_SECONDS))
        while not queue.empty():
            payloads.append(queue.get_nowait())
        return web.json_response(payloads)

    async def posted_in(self, channels: set[str], timeout: float) -> bool:
        """Wait until one of the channels gets a post carrying a marker (its answer is
        then on its way: `delay`); False if none came in `timeout` seconds."""
        seen = len(self.posts)
        give_up = asyncio.get_running_loop().time() + timeout
        while not set(self.posts[seen:]) & channels:
            left = give_up - asyncio.get_running_loop().time()
            if left <= 0:
                return False
            self._posted.clear()
            try:
                await asyncio.wait_for(self._posted.wait(), left)
            except TimeoutError:
                return False
        return True

    def forget(self, name: str) -> None:
        """A connection closed: what was queued for it is lost (Discord says the
        interaction failed)."""
        self.queues.pop(name, None)

    async def interact(self, name: str, payload: dict[str, Any], timeout: float) -> str | None:
        """Send an interaction to the process holding connection `name`; the words of
        its first follow-up, or None when none came (the process died)."""
        token = str(payload["token"])
        self.answers[token] = asyncio.get_running_loop().create_future()
        await self.queues[name].put(payload)
        try:
            return await asyncio.wait_for(asyncio.shield(self.answers[token]), timeout)
        except TimeoutError:
            return None
        finally:
            self.answers.pop(token, None)
