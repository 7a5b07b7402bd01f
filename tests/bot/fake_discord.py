"""A local server that plays Discord's part, so the real discord.py code runs offline.

discord.py's HTTP client is pointed at this server (`Route.BASE`); interactions go in
through the client's real gateway parser (`ConnectionState.parse_interaction_create`)
shaped as Discord sends them, and every HTTP request discord.py makes comes out here,
recorded with its JSON body or multipart parts, for tests to assert.

As Discord does, a channel message's id is a snowflake holding its creation time (by
`clock`, real time unless given), a message sent with a nonce and `enforce_nonce`
within `NONCE_WINDOW` seconds of an earlier one with the same nonce returns that one,
and a channel's history (its messages and the public answers to interactions made in
it) can be read back, newest first, `after` an id, as the exactly-once delivery does
after a crash (`carca_bot/bot/posts/sending.py`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web
from discord import http as discord_http
from discord.utils import DISCORD_EPOCH

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 800000000000000001
TIMESTAMP = "2026-11-22T10:00:00.000000+00:00"
NONCE_WINDOW = 120.0  # seconds Discord holds a nonce to ("the past few minutes")


@dataclass
class Part:
    name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class Request:
    """One request discord.py sent."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    json: Any = None
    files: list[Part] = field(default_factory=list)
    at: float = field(default_factory=time.perf_counter)  # when it arrived

    @property
    def flags(self) -> int:
        body = self.json or {}
        inner = body.get("data", body) if isinstance(body, dict) else {}
        return int((inner or {}).get("flags", 0) or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def content(self) -> str:
        body = self.json or {}
        inner = body.get("data", body) if isinstance(body, dict) else {}
        return str((inner or {}).get("content") or "")

    @property
    def components(self) -> list[dict[str, Any]]:
        body = self.json or {}
        inner = body.get("data", body) if isinstance(body, dict) else {}
        return list((inner or {}).get("components") or [])

    @property
    def text(self) -> str:
        """Everything a message says: its content and every text display (Components V2)."""
        return "\n".join([self.content, *texts(self.components)]).strip("\n")

    @property
    def v2(self) -> bool:
        """A Components V2 message (flag 1 << 15): words in components, no content."""
        return bool(self.flags & (1 << 15))


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones (containers, rows, sections) included, in order."""
    found: list[dict[str, Any]] = []
    for item in components:
        found.append(item)
        found.extend(walk(item.get("components") or []))
        if isinstance(item.get("accessory"), dict):
            found.append(item["accessory"])
    return found


def texts(components: list[dict[str, Any]]) -> list[str]:
    return [str(c.get("content") or "") for c in walk(components) if c.get("type") == 10]


def sniff(data: bytes) -> str:
    """The content type Discord gives an attachment, from its first bytes."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.lstrip()[:1] in (b"{", b"["):
        return "application/json; charset=utf-8"
    return "application/octet-stream"


def user_payload(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name.lower(), "discriminator": "0",
            "global_name": name, "avatar": None, "bot": user_id == BOT_ID}


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py reads a body as JSON only when the content type is exactly this.
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


class FakeDiscord:
    """Discord's REST API as far as the bot uses it; records what it is sent."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock  # when messages are made (their ids' time), seconds since 1970
        self.requests: list[Request] = []
        self.arrived = asyncio.Event()
        self._ids = itertools.count(700000000000000001)
        self._runner: web.AppRunner | None = None
        self.base = ""
        self.fail_next: int | None = None  # answer the next request with this status
        # Answer the next request each predicate matches with its status (each used once).
        self.fail_when: list[tuple[Callable[[Request], bool], int]] = []
        self.cdn: dict[str, bytes] = {}  # files users "uploaded", served as Discord's CDN does
        # The messages the bot posted in channels (by id), as they are now: edits change
        # them, deletes remove them; editing or deleting one that is not here is a 404.
        self.messages: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}  # DM channel id -> user id
        self.closed_dms: set[int] = set()  # users who take no direct messages (403)
        self.downloads: list[str] = []  # names of the uploaded files the bot fetched
        self.tokens: dict[str, int] = {}  # interaction token -> the channel it came from
        self.replies: dict[int, dict[str, Any]] = {}  # public answers to interactions
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}  # -> message, when
        self.deduplicated = 0  # sends answered with the message their nonce made
        self.nonce_window = NONCE_WINDOW
        self._last_message = 0

    # -- running ------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle)
        app.router.add_get("/cdn/{name}", self._cdn)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        addresses = self._runner.addresses
        port = int(addresses[0][1])
        self.base = f"http://127.0.0.1:{port}/api/v10"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @contextmanager
    def routed(self) -> Iterator[None]:
        """Point discord.py's HTTP client (and its webhooks) at this server."""
        old = discord_http.Route.BASE
        discord_http.Route.BASE = self.base
        try:
            yield
        finally:
            discord_http.Route.BASE = old

    # -- waiting and asserting ----------------------------------------------------

    def new_id(self) -> int:
        return next(self._ids)

    def message_id(self) -> int:
        """A new message's id: a snowflake of `clock`'s time, each larger than the last."""
        made = (int(self.clock() * 1000) - DISCORD_EPOCH) << 22
        self._last_message = max(made, self._last_message + 1)
        return self._last_message

    def since(self, start: int) -> list[Request]:
        return self.requests[start:]

    async def wait_for(self, count: int, timeout: float = 10.0) -> list[Request]:
        """Wait until at least `count` requests have arrived in all; returns them all."""
        async def enough() -> None:
            while len(self.requests) < count:
                self.arrived.clear()
                await self.arrived.wait()
        await asyncio.wait_for(enough(), timeout)
        return self.requests

    # -- the API --------------------------------------------------------------------

    def upload(self, filename: str, data: bytes) -> dict[str, Any]:
        """An attachment a user sends with a command, as it appears in `resolved`."""
        name = f"{self.new_id()}-{filename}"
        self.cdn[name] = data
        return {"id": name.split("-")[0], "filename": filename, "size": len(data),
                "url": f"{self.base.removesuffix('/api/v10')}/cdn/{name}",
                "proxy_url": f"{self.base.removesuffix('/api/v10')}/cdn/{name}",
                "content_type": sniff(data)}

    async def _cdn(self, request: web.Request) -> web.Response:
        self.downloads.append(request.match_info["name"])
        data = self.cdn.get(request.match_info["name"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        recorded = Request(request.method, path, dict(request.query))
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader)  # Discord's forms are not nested
                data = await part.read()
                name = part.name or ""
                if name == "payload_json":
                    recorded.json = json.loads(data)
                else:
                    recorded.files.append(Part(name, part.filename, part.headers.get(
                        "Content-Type"), bytes(data)))
        elif request.can_read_body:
            recorded.json = await request.json()
        self.requests.append(recorded)
        self.arrived.set()
        refused = self._refused(recorded)
        if refused is not None:
            return refused
        if self.fail_next is not None:
            status, self.fail_next = self.fail_next, None
            return _json({"message": "simulated failure", "code": 0}, status)
        for rule in self.fail_when:
            if rule[0](recorded):
                self.fail_when.remove(rule)
                return _json({"message": "simulated failure", "code": 50013}, rule[1])
        return _json(self._answer(recorded))

    def _refused(self, req: Request) -> web.Response | None:
        """What Discord itself refuses: a message that is gone, a DM to a closed inbox."""
        parts = req.path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and \
                req.method in ("PATCH", "DELETE") and int(parts[3]) not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        if parts[0] == "channels" and parts[-1] == "messages" and req.method == "POST" and \
                self.dm_channels.get(int(parts[1])) in self.closed_dms:
            return _json({"message": "Cannot send messages to this user", "code": 50007},
                         403)
        return None

    def history(self, channel: int, query: dict[str, str]) -> list[dict[str, Any]]:
        """GET /channels/{id}/messages?after=ID&limit=N: the N messages just after the
        id, newest first (Discord's order); the bot's and its public answers."""
        after = int(query.get("after", "0"))
        limit = min(int(query.get("limit", "50")), 100)
        found = sorted((m for m in [*self.messages.values(), *self.replies.values()]
                        if m["channel_id"] == str(channel) and int(m["id"]) > after),
                       key=lambda m: int(m["id"]))[:limit]
        return found[::-1]

    def _sent_before(self, req: Request, channel: int) -> dict[str, Any] | None:
        """The message an earlier send with this nonce made (`enforce_nonce`), if any."""
        body = req.json if isinstance(req.json, dict) else {}
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        earlier = self.nonces.get((channel, str(nonce)))
        if earlier is None or self.clock() - earlier[1] > self.nonce_window:
            return None
        self.deduplicated += 1
        return self.messages.get(earlier[0])

    def channel_messages(self, channel: int) -> list[dict[str, Any]]:
        """The bot's messages in a channel now (not deleted), oldest first."""
        return [m for m in self.messages.values() if m["channel_id"] == str(channel)]

    def _answer(self, req: Request) -> Any:
        parts = req.path.strip("/").split("/")
        if parts[0] == "users" and parts[-1] == "channels" and req.method == "POST":
            user = int((req.json or {})["recipient_id"])
            channel = self.new_id()
            self.dm_channels[channel] = user
            return {"id": str(channel), "type": 1, "last_message_id": None,
                    "recipients": [user_payload(user, f"user{user}")]}
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages":
            message_id = int(parts[3])
            if req.method == "DELETE":
                del self.messages[message_id]
                return {}
            if req.method == "PATCH":
                edited = self.message(req, int(parts[1]))
                edited["id"] = str(message_id)
                self.messages[message_id] = edited
                return edited
        if parts[0] == "guilds" and len(parts) == 4 and parts[2] == "members" and \
                req.method == "GET":  # a member of the server, by id
            return {"user": user_payload(int(parts[3]), f"user{parts[3][-2:]}"), "roles": [],
                    "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0,
                    "nick": None, "avatar": None}
        if req.path == "/users/@me":
            return user_payload(BOT_ID, "CarcaBot")
        if req.path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "carca-bot", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False, "verify_key": "0",
                    "owner": user_payload(1, "Owner"), "flags": 0}
        if parts[0] == "applications" and parts[-1] == "commands" and req.method == "PUT":
            return [dict(cmd, id=str(self.new_id()), application_id=str(APP_ID), version="1")
                    for cmd in req.json]
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(int(parts[1]), req)
        if parts[0] == "channels" and parts[-1] == "messages" and req.method == "GET":
            return self.history(int(parts[1]), req.query)
        if parts[0] == "channels" and parts[-1] == "messages" and req.method == "POST":
            earlier = self._sent_before(req, int(parts[1]))
            if earlier is not None:
                return earlier
            made = self.message(req, int(parts[1]), self.message_id())
            self.messages[int(made["id"])] = made
            body = req.json if isinstance(req.json, dict) else {}
            if body.get("nonce") is not None:
                self.nonces[(int(parts[1]), str(body["nonce"]))] = (int(made["id"]),
                                                                  self.clock())
            return made
        if parts[0] == "webhooks" and parts[-2] == "messages" and req.method == "DELETE" \
                and parts[-1].isdigit():  # a follow-up taken back (not "@original")
            self.replies.pop(int(parts[-1]), None)
            return {}
        if parts[0] == "webhooks" or (parts[0] == "channels" and parts[-1] == "messages"):
            channel = int(parts[1]) if parts[0] == "channels" else 0
            made = self.message(req, channel)
            if parts[0] == "webhooks" and req.method == "POST" and not req.ephemeral and \
                    parts[-1] in self.tokens:  # a public answer, in the command's channel
                made["id"] = str(self.message_id())
                made["channel_id"] = str(self.tokens[parts[-1]])
                self.replies[int(made["id"])] = made
            return made
        if parts[0] == "channels" and parts[-1] == "threads":
            return {"id": str(self.new_id()), "type": 11, "guild_id": str(GUILD_ID),
                    "name": (req.json or {}).get("name", "thread"), "parent_id": parts[1],
                    "owner_id": str(BOT_ID), "thread_metadata": {
                        "archived": False, "auto_archive_duration": 10080, "locked": False,
                        "archive_timestamp": TIMESTAMP}}
        return {}

    def message(self, req: Request, channel: int, message_id: int | None = None
                ) -> dict[str, Any]:
        body = req.json or {}
        body = body.get("data", body) if isinstance(body, dict) else {}
        attachments = [{"id": str(self.new_id()), "filename": f.filename or "file",
                        "size": len(f.data), "url": "https://cdn.invalid/" + (f.filename or ""),
                        "proxy_url": "https://cdn.invalid/p", "content_type": sniff(f.data)}
                       for f in req.files]
        return {"id": str(message_id or self.new_id()), "channel_id": str(channel), "type": 0,
                "content": body.get("content") or "", "author": user_payload(BOT_ID, "CarcaBot"),
                "attachments": attachments, "embeds": body.get("embeds") or [],
                "mentions": [], "mention_roles": [], "pinned": False, "mention_everyone": False,
                "tts": False, "timestamp": TIMESTAMP, "edited_timestamp": None,
                "flags": body.get("flags") or 0, "components": body.get("components") or []}

    def _callback(self, interaction_id: int, req: Request) -> dict[str, Any]:
        kind = int((req.json or {}).get("type", 0))
        flags = req.flags
        answer: dict[str, Any] = {"interaction": {
            "id": str(interaction_id), "type": 2, "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & 64)}}
        if kind in (4, 7):
            answer["resource"] = {"type": kind, "message": self.message(req, 0)}
        else:
            answer["resource"] = {"type": kind}
        return answer


class Interactions:
    """Builds interaction payloads shaped as Discord's gateway sends them."""

    def __init__(self, fake: FakeDiscord, channel_id: int = 810000000000000001,
                 guild_id: int = GUILD_ID) -> None:
        self.fake = fake
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.locale = "en-US"
        self.guild_locale = "en-US"

    def base(self, kind: int, user: tuple[int, str], *, permissions: int = 0,
             channel_id: int | None = None, size_limit: int = 10 * 1024 * 1024,
             locale: str | None = None, guild_locale: str | None = None) -> dict[str, Any]:
        """`locale` is the user's Discord language, `guild_locale` the server's preferred
        one (both default to the harness's, `self.locale` and `self.guild_locale`)."""
        user_id, name = user
        channel = channel_id or self.channel_id
        iid = self.fake.new_id()
        self.fake.tokens[f"token-{iid}"] = channel
        return {
            "id": str(iid), "application_id": str(APP_ID), "type": kind,
            "token": f"token-{iid}", "version": 1, "guild_id": str(self.guild_id),
            "channel_id": str(channel),
            "channel": {"id": str(channel), "type": 0, "guild_id": str(self.guild_id),
                        "name": "carcassonne", "position": 0, "permission_overwrites": [],
                        "nsfw": False, "parent_id": None},
            "member": {"user": user_payload(user_id, name), "roles": [], "joined_at": TIMESTAMP,
                       "deaf": False, "mute": False, "permissions": str(permissions), "flags": 0,
                       "nick": None, "avatar": None},
            "app_permissions": str((1 << 11) | (1 << 15) | (1 << 10) | (1 << 35)),
            "locale": locale or self.locale, "guild_locale": guild_locale or self.guild_locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "context": 0,
            "attachment_size_limit": size_limit,
        }

    def command(self, user: tuple[int, str], sub: str, focused: str | None = None,
                **options: Any) -> dict[str, Any]:
        """A `/carc SUB option=value ...` command, or its autocomplete when `focused`."""
        payload = self.base(4 if focused else 2, user, permissions=options.pop("_perms", 0),
                            channel_id=options.pop("_channel", None),
                            size_limit=options.pop("_size_limit", 10 * 1024 * 1024),
                            locale=options.pop("_locale", None),
                            guild_locale=options.pop("_guild_locale", None))
        opts = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if isinstance(value, dict) and "url" in value:  # an attachment from `upload`
                resolved.setdefault("attachments", {})[value["id"]] = value
                opts.append({"type": 11, "name": name, "value": value["id"]})
                continue
            if isinstance(value, tuple):  # a user option: (id, name), resolved as Discord does
                user_id, user_name = value
                resolved.setdefault("users", {})[str(user_id)] = user_payload(user_id, user_name)
                resolved.setdefault("members", {})[str(user_id)] = {
                    "roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False,
                    "permissions": "0", "flags": 0, "nick": None, "avatar": None}
                opts.append({"type": 6, "name": name, "value": str(user_id)})
                continue
            kind = 4 if isinstance(value, int) and not isinstance(value, bool) else (
                5 if isinstance(value, bool) else 3)
            opt: dict[str, Any] = {"type": kind, "name": name, "value": value}
            if name == focused:
                opt["focused"] = True
            opts.append(opt)
        if sub.startswith("/"):  # a command of its own, e.g. "/carc-language"
            payload["data"] = {"id": str(APP_ID + 8), "name": sub[1:], "type": 1,
                               "options": opts}
        else:
            payload["data"] = {"id": str(APP_ID + 7), "name": "carc", "type": 1,
                               "options": [{"type": 1, "name": sub, "options": opts}]}
        if resolved:
            payload["data"]["resolved"] = resolved
        return payload

    def component(self, user: tuple[int, str], custom_id: str, *, kind: int = 2,
                  values: list[str] | None = None, message_id: int | None = None,
                  rows: list[dict[str, Any]] | None = None, locale: str | None = None,
                  ephemeral: bool = False) -> dict[str, Any]:
        """A click on a component of a message; Discord sends the message's components too.

        `rows` are the components as the bot posted them; without them, one row holding
        just the clicked component is made up.
        """
        payload = self.base(3, user, locale=locale)
        payload["data"] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            payload["data"]["values"] = values
        if rows is None:
            if kind == 2:
                item: dict[str, Any] = {"type": 2, "style": 1, "label": "button",
                                        "custom_id": custom_id}
            else:
                item = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                        "options": [{"label": v, "value": v} for v in values or []]}
            rows = [{"type": 1, "components": [item]}]
        payload["message"] = {
            "id": str(message_id or self.fake.new_id()), "channel_id": str(self.channel_id),
            "type": 0, "content": "", "author": user_payload(BOT_ID, "CarcaBot"),
            "attachments": [], "embeds": [], "mentions": [], "mention_roles": [],
            "pinned": False, "mention_everyone": False, "tts": False, "timestamp": TIMESTAMP,
            "edited_timestamp": None, "flags": 64 if ephemeral else 0, "components": rows}
        return payload
