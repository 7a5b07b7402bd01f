"""What players read, gathered from the requests the bot sent, for language checks.

`shown` collects every text a player can read: message content, button labels and
menu placeholders and options, autocomplete choices, attachment descriptions, text
files, and thread names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from tests.bot.fake_discord import Request, texts, walk
from tests.bot.outgoing import labels, messages


def shown(requests: Iterable[Request]) -> list[str]:
    """Every text of these requests a player reads (not ids, not values)."""
    said: list[str] = []
    requests = list(requests)
    for _, msg in messages(requests):
        said.append(str(msg.get("content") or ""))
        said.extend(texts(msg.get("components") or []))  # a card's text displays
        said.extend(str(i.get("description") or "") for c in walk(msg.get("components") or [])
                    for i in c.get("items") or [])  # its pictures' descriptions
        said.extend(labels(msg))
        said.extend(str(a.get("description") or "") for a in msg.get("attachments") or [])
    for req in requests:
        data = req.json if isinstance(req.json, dict) else {}
        if req.path.endswith("/callback") and data.get("type") == 8:  # autocomplete
            said.extend(c["name"] for c in data["data"]["choices"])
        if req.path.endswith("/threads") and req.method == "POST":
            said.append(str(data.get("name", "")))
        for part in req.files:
            if (part.filename or "").endswith(".txt"):
                said.append(part.data.decode())
            elif part.name == "payload_json":
                body = json.loads(part.data)
                said.append(str(body.get("content") or ""))
                said.extend(labels(body))
                said.extend(str(a.get("description") or "")
                             for a in body.get("attachments") or [])
    return [t for t in said if t]


