"""A headless Chromium driven over the DevTools protocol, for the HTML replay's test.

Only the standard library and aiohttp (already installed with discord.py) are used: the
browser is started with a fresh profile and every network feature off, and the test
records every request the page makes.
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1400,1000", "--hide-scrollbars")


def chromium() -> str | None:
    """The system's Chromium, if installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Page:
    """One tab: `evaluate` runs JavaScript, `screenshot` takes a PNG, `requests` lists
    every URL the page asked for."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.requests: list[str] = []
        self.errors: list[str] = []

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        mine = self.next_id
        await self.ws.send_str(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            msg = json.loads((await self.ws.receive(timeout=30)).data)
            if msg.get("method") == "Network.requestWillBeSent":
                self.requests.append(msg["params"]["request"]["url"])
            elif msg.get("method") == "Runtime.exceptionThrown":
                self.errors.append(json.dumps(msg["params"])[:500])
            elif msg.get("method") == "Log.entryAdded":
                entry = msg["params"]["entry"]
                if entry.get("level") == "error":
                    self.errors.append(str(entry.get("text"))[:500])
            if msg.get("id") == mine:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result

    async def evaluate(self, expression: str) -> Any:
        got = await self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                              awaitPromise=True)
        if "exceptionDetails" in got:
            raise RuntimeError(f"{expression}: {got['exceptionDetails']}")
        return got["result"].get("value")

    async def wait_for(self, expression: str, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while not await self.evaluate(expression):
            if time.monotonic() > deadline:
                raise TimeoutError(expression)
            await asyncio.sleep(0.05)

    async def screenshot(self, path: Path) -> None:
        got = await self.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(got["data"]))


class Browser:
    """`async with Browser(binary) as open_page: page = await open_page(url)`."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.profile = tempfile.TemporaryDirectory(prefix="carca-chromium-")
        self.proc: subprocess.Popen[bytes] | None = None
        self.session: aiohttp.ClientSession | None = None
        self.port = 0

    async def __aenter__(self) -> Browser:
        self.proc = subprocess.Popen(
            [self.binary, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not start")
            await asyncio.sleep(0.05)
        self.port = int(port_file.read_text().split()[0])
        self.session = aiohttp.ClientSession()
        return self

    async def open(self, url: str) -> Page:
        assert self.session is not None
        async with self.session.put(f"http://127.0.0.1:{self.port}/json/new?about:blank") as r:
            target = await r.json()
        ws = await self.session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        page = Page(ws)
        for domain in ("Network", "Page", "Runtime", "Log"):
            await page.send(f"{domain}.enable")
        await page.send("Emulation.setDeviceMetricsOverride", width=1400, height=1000,
                        deviceScaleFactor=1, mobile=False)
        await page.send("Page.navigate", url=url)
        await page.wait_for("document.readyState === 'complete'")
        return page

    async def __aexit__(self, *exc: object) -> None:
        if self.session is not None:
            await self.session.close()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        await self._remove_profile()

    async def _remove_profile(self) -> None:
        """Chromium's helper processes outlive the browser by a moment and may still
        write into the profile (seen in CI: "Directory not empty: 'Default'" while the
        profile was being removed), so removal is tried again for up to 5 s."""
        deadline = time.monotonic() + 5
        while True:
            try:
                self.profile.cleanup()  # again: it removes what is left, if anything
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
