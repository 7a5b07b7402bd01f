"""The shared fake Discord of the multi-process fault test: `fake_channel.FakeDiscord`
served over HTTP (a thread of the test process), and the bot processes' side of it,
`HttpPost`, a `PostChannel` over that HTTP.

A message is created before its answer goes back, and the answer waits `delay`
seconds first: a bot process killed in between has sent a post it never heard about,
which is the case the exactly-once delivery is for.

    POST  /channels/<channel>/messages          {"content", "marker", "nonce"} -> {"id"}
    PATCH /channels/<channel>/messages/<id>     {"content"} -> 200, or 404 if gone
    GET   /channels/<channel>/messages?since=T  -> [{"id", "marker", "at"}], oldest first
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from tests.scale.fake_channel import FakeDiscord


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test reads the messages, not a log."""

    def _answer(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the process asking was killed: the message is made all the same
            self.close_connection = True

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length", "0"))
        data = json.loads(self.rfile.read(length) or b"{}")
        assert isinstance(data, dict)
        return data

    def _parts(self) -> list[str]:
        return [p for p in urlsplit(self.path).path.split("/") if p]

    def do_POST(self) -> None:
        parts, body = self._parts(), self._body()
        try:
            message = self.server.discord.send(parts[1], str(body["content"]),
                                               str(body["marker"]), str(body["nonce"]))
        except LookupError as exc:
            self._answer(404, {"message": str(exc)})
            return
        time.sleep(random.uniform(self.server.delay / 2, self.server.delay))  # on its way...
        self._answer(200, {"id": message.id})

    def do_PATCH(self) -> None:
        parts, body = self._parts(), self._body()
        done = self.server.discord.edit(parts[1], parts[3], str(body["content"]))
        self._answer(200 if done else 404, {})

    def do_DELETE(self) -> None:
        parts = self._parts()
        self.server.discord.delete(parts[3])
        self._answer(200, {})

    def do_GET(self) -> None:
        parts = self._parts()
        since = float(parse_qs(urlsplit(self.path).query).get("since", ["0"])[0])
        self._answer(200, [{"id": m.id, "marker": m.marker, "at": m.at}
                           for m in self.server.discord.history(parts[1], since)])


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, discord: FakeDiscord, delay: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.discord = discord
        self.delay = delay


class DiscordServer:
    """The fake Discord, served on a free port until `close`."""

    def __init__(self, clock: Callable[[], float], nonce_window: float, delay: float) -> None:
        self.discord = FakeDiscord(clock, nonce_window)
        self._server = _Server(self.discord, delay)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class HttpPost:
    """One message, as a bot process sends it to the fake Discord (a `PostChannel`)."""

    def __init__(self, session: aiohttp.ClientSession, base: str, channel: str,
                 content: str, marker: str) -> None:
        self.session, self.base, self.channel = session, base, channel
        self.content, self.marker = content, marker

    async def send(self, nonce: str) -> str:
        async with self.session.post(
                f"{self.base}/channels/{self.channel}/messages",
                json={"content": self.content, "marker": self.marker, "nonce": nonce}) as r:
            r.raise_for_status()
            return str((await r.json())["id"])

    async def edit(self, message_id: str) -> bool:
        async with self.session.patch(f"{self.base}/channels/{self.channel}/messages/"
                                      f"{message_id}", json={"content": self.content}) as r:
            return r.status == 200

    async def discard(self, message_id: str) -> None:
        async with self.session.delete(f"{self.base}/channels/{self.channel}/messages/"
                                       f"{message_id}") as r:
            r.raise_for_status()

    async def find(self, marker: str, since: float) -> str | None:
        async with self.session.get(f"{self.base}/channels/{self.channel}/messages",
                                    params={"since": str(since)}) as r:
            r.raise_for_status()
            for message in await r.json():
                if message["marker"] == marker:
                    return str(message["id"])
        return None
