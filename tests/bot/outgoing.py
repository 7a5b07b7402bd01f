"""Checks on every message the bot sent: who it may ping, and no markup but its own.

The markup check does not reuse the bot's escaping: it removes what Discord shows
literally (a backslash and the character after it) and the bot's own fixed markup
(bold pairs, `/carc …` code spans, <#channel>, <t:…> timestamps, intended
mentions, a delivered post's marker line), and then nothing with a meaning in Discord may be left.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from tests.bot.fake_discord import Request, texts, walk

ESCAPED = re.compile(r"\\.", re.S)
OWN_CODE = re.compile(r"`(/carc[^`\n]*|carca-bot [^`\n]*|carca-record/1)`")
OWN_TAGS = re.compile(r"<#\d+>|<t:\d+:R>")
# A delivered post's marker (posts/sending.py): its own last line, in subtext.
OWN_MARKER = re.compile(r"(?m)^-# #\d+·\d+(·\d+)?$")
FORBIDDEN = ("@everyone", "@here", "||", "~~", "__", "](", "://", "<@&", "`", "_", "[", "]")


def unmarked(content: str) -> str:
    """A post's text without its delivery marker line, for tests that read its end."""
    return OWN_MARKER.sub("", content).rstrip("\n")


def body(req: Request) -> dict[str, Any] | None:
    """The message a request creates or edits, if it is one."""
    data = req.json if isinstance(req.json, dict) else None
    if data is None:
        return None
    if req.path.endswith("/callback"):
        inner = data.get("data")
        return inner if isinstance(inner, dict) and "content" in inner else None
    is_message = (req.path.startswith("/webhooks/") or
                  (req.path.startswith("/channels/") and "/messages" in req.path))
    return data if is_message and req.method in ("POST", "PATCH") else None


def messages(requests: Iterable[Request]) -> list[tuple[Request, dict[str, Any]]]:
    return [(r, b) for r in requests if (b := body(r)) is not None]


def assert_pings_only(requests: Iterable[Request], allowed: Iterable[int | str] = ()) -> None:
    """Every message says who it may ping: nobody by kind, only `allowed` users by id."""
    allowed_ids = {str(a) for a in allowed}
    for req, msg in messages(requests):
        mentions = msg.get("allowed_mentions")
        assert mentions is not None, (req.path, msg.get("content"))
        assert mentions.get("parse", []) == [], (req.path, mentions)
        users = {str(u) for u in mentions.get("users", [])}
        assert users <= allowed_ids, (req.path, mentions, allowed_ids)
        assert not mentions.get("roles"), (req.path, mentions)


def labels(msg: dict[str, Any]) -> list[str]:
    """Every label and placeholder of a message's components (plain text in Discord)."""
    found: list[str] = []
    for item in walk(msg.get("components") or []):
        if item.get("type") in (2, 3):
            found.extend(str(item.get(k) or "") for k in ("label", "placeholder"))
            found.extend(str(o.get("label") or "") for o in item.get("options", []))
    return found


def assert_plain_label(text: str) -> None:
    """Plain-text places: no control, bidi or zero-width character; bounded length."""
    assert len(text) <= 100, text
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")]
    assert not bad, (text, bad)


def assert_only_own_markup(content: str, pinged: Iterable[int | str] = ()) -> None:
    allowed = {str(p) for p in pinged}
    text = ESCAPED.sub("", content)
    text = OWN_CODE.sub("", text)
    text = OWN_TAGS.sub("", text)
    text = OWN_MARKER.sub("", text)
    for user in re.findall(r"<@!?(\d+)>", text):
        assert user in allowed, (user, content)
    text = re.sub(r"<@!?\d+>", "", text)
    for piece in FORBIDDEN:
        assert piece not in text, (piece, content)
    assert text.count("**") % 2 == 0, content
    assert "*" not in text.replace("**", ""), content
    assert "<" not in text and ">" not in text, content
    for line in text.split("\n"):
        assert not re.match(r"\s*(#{1,3} |-# |> |[-+*] )", line), (line, content)
        bad = [c for c in line if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co")]
        assert not bad, (line, bad)


def assert_clean(requests: Iterable[Request], pinged: Iterable[int | str] = ()) -> None:
    """Pings only as allowed, content with only the bot's markup, plain labels."""
    requests = list(requests)
    assert_pings_only(requests, pinged)
    for _, msg in messages(requests):
        assert_only_own_markup(str(msg.get("content") or ""), pinged)
        for words in texts(msg.get("components") or []):  # a card's text displays
            assert_only_own_markup(words, pinged)
        for label in labels(msg):
            assert_plain_label(label)
    for req in requests:
        for part in req.files:
            name = part.filename or ""
            assert re.fullmatch(r"[A-Za-z0-9._-]{1,80}", name), name


def _attachment_lists(data: Any) -> list[dict[str, Any]]:
    """The `attachments` entries of a request's JSON, wherever discord.py put them (the
    message, an interaction callback's `data`, a thread's first `message`)."""
    if isinstance(data, list):
        return [a for item in data for a in _attachment_lists(item)]
    if not isinstance(data, dict):
        return []
    found = [a for a in data.get("attachments") or [] if isinstance(a, dict)]
    for key in ("data", "message"):
        found += _attachment_lists(data.get(key))
    return found


def files_sent(requests: Iterable[Request]) -> list[tuple[Request, str, str]]:
    """Every file the bot sent, with the description it gave it ("" for none):
    (request, file name, description)."""
    found: list[tuple[Request, str, str]] = []
    for req in requests:
        listed = {str(a.get("id")): a for a in _attachment_lists(req.json)}
        for part in req.files:
            index = part.name.removeprefix("files[").removesuffix("]")
            entry = listed.get(index, {})
            found.append((req, part.filename or "", str(entry.get("description") or "")))
    return found


def gallery_items(requests: Iterable[Request]) -> list[tuple[Request, str, str]]:
    """Every picture of a Components V2 gallery the bot sent: (request, url,
    description, "" for none)."""
    return [(req, str(item.get("media", {}).get("url")), str(item.get("description") or ""))
            for req, msg in messages(requests)
            for c in walk(msg.get("components") or []) if c.get("type") == 12
            for item in c.get("items") or []]


def assert_described(requests: Iterable[Request]) -> None:
    """Every file and every gallery picture the bot sent has a description (alt text),
    within Discord's 1,024 characters."""
    requests = list(requests)
    sent = [*files_sent(requests), *gallery_items(requests)]
    bare = [(req.method, req.path, name) for req, name, about in sent if not about.strip()]
    assert not bare, bare
    long = [(name, len(about)) for _req, name, about in sent if len(about) > 1024]
    assert not long, long
