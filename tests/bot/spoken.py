"""What players read, gathered from the requests the bot sent, for language checks.

`shown` collects every text a player can read: message content, button labels and
menu placeholders and options, autocomplete choices, attachment descriptions, text
files, and thread names. `others_translated` is for the time before the service and
engine speak through `carca_bot.words` (helpers "data" and "words", issue 14): it
marks their words as translated so the pseudo-locale test checks the bot's own
strings; once `carca_bot.words.say` exists it does nothing and everything is checked.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import carca_bot.words
from carca_bot.i18n.pseudo import pseudo
from tests.bot.fake_discord import Request
from tests.bot.outgoing import labels, messages

WORDS_MERGED = hasattr(carca_bot.words, "say")


def shown(requests: Iterable[Request]) -> list[str]:
    """Every text of these requests a player reads (not ids, not values)."""
    texts: list[str] = []
    requests = list(requests)
    for _, msg in messages(requests):
        texts.append(str(msg.get("content") or ""))
        texts.extend(labels(msg))
        texts.extend(str(a.get("description") or "") for a in msg.get("attachments") or [])
    for req in requests:
        data = req.json if isinstance(req.json, dict) else {}
        if req.path.endswith("/callback") and data.get("type") == 8:  # autocomplete
            texts.extend(c["name"] for c in data["data"]["choices"])
        if req.path.endswith("/threads") and req.method == "POST":
            texts.append(str(data.get("name", "")))
        for part in req.files:
            if (part.filename or "").endswith(".txt"):
                texts.append(part.data.decode())
            elif part.name == "payload_json":
                body = json.loads(part.data)
                texts.append(str(body.get("content") or ""))
                texts.extend(labels(body))
                texts.extend(str(a.get("description") or "")
                             for a in body.get("attachments") or [])
    return [t for t in texts if t]


@contextmanager
def others_translated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Before issue 14's words land: what the service and engine say, as marked text."""
    if WORDS_MERGED:
        yield
        return
    from carca_bot.bot import features
    from carca_bot.engine.events import Event
    from carca_bot.service import core, errors, model, posts

    build = vars(core)["build_view"]  # the names as these modules hold them today

    def marked_view(*args: Any, **kwargs: Any) -> Any:
        view = build(*args, **kwargs)
        return dataclasses.replace(view, prompt=pseudo(view.prompt),
                                   events=tuple(pseudo(e) for e in view.events),
                                   steps=tuple(pseudo(s) for s in view.steps))

    monkeypatch.setattr(core, "build_view", marked_view)
    message = vars(errors.ServiceError)["message"].fget
    monkeypatch.setattr(errors.ServiceError, "message",
                        property(lambda self: pseudo(message(self))))
    describe = Event.describe
    monkeypatch.setattr(Event, "describe", lambda self, names: pseudo(describe(self, names)))
    for key, words in list(model.MUST_WORDS.items()):
        monkeypatch.setitem(model.MUST_WORDS, key, pseudo(words))
    label = vars(features)["feature_label"]
    monkeypatch.setattr(features, "feature_label", lambda kind, where: pseudo(label(kind, where)))
    catch = posts.CatchUp
    monkeypatch.setattr(posts, "CatchUp", lambda game_id, version, lines, *rest, **kw: catch(
        game_id, version, tuple(pseudo(x) for x in lines), *rest, **kw))
    yield
