"""What a command told its players, as stored in the public-post outbox (JSON).

Each item is one JSON object named by what it holds, so the form can grow:

    {"event": {"kind": "score", "players": [0], "points": 4, "feature": "city",
               "tiles": [[0, 0], [0, 1]], "reason": "city", "params": {...},
               "pennants": 0, "complete": true, "final": false}}
    {"note": {"code": "joined", "params": {"name": "Ana"}}}

Versions before this form stored plain sentences (JSON strings); they are read back as
the `str` they are and posted as they are. Anything else unreadable is kept as its JSON
text, so an outbox entry is never lost to a decoding error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from carca_bot.engine.events import Event
from carca_bot.service.model import Note, Told


def told_json(item: Told) -> Any:
    """One told item as stored."""
    if isinstance(item, Event):
        return {"event": {
            "kind": item.kind, "players": list(item.players), "points": item.points,
            "feature": item.feature, "tiles": [list(t) for t in item.tiles],
            "reason": item.reason, "params": _plain(item.params),
            "pennants": item.pennants, "complete": item.complete, "final": item.final}}
    if isinstance(item, Note):
        return {"note": {"code": item.code, "params": _plain(item.params)}}
    return item


def told_of(value: Any) -> Told:
    """A stored item back: an `Event`, a `Note`, or the sentence an older version stored."""
    if isinstance(value, str):
        return value
    try:
        if isinstance(value, dict) and isinstance(value.get("event"), dict):
            e = value["event"]
            return Event(str(e["kind"]), tuple(int(p) for p in e.get("players", ())),
                         int(e.get("points", 0)), str(e.get("feature", "")),
                         tuple((int(t[0]), int(t[1])) for t in e.get("tiles", ())),
                         str(e.get("reason", "")), _squares(dict(e.get("params", {}))),
                         int(e.get("pennants", 0)), bool(e.get("complete", False)),
                         bool(e.get("final", False)))
        if isinstance(value, dict) and isinstance(value.get("note"), dict):
            n = value["note"]
            return Note(str(n["code"]), dict(n.get("params", {})))
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return json.dumps(value, ensure_ascii=False)


def _plain(params: Any) -> Any:
    """Params as JSON values: tuples (squares, name lists) become lists."""
    if isinstance(params, Mapping):
        return {str(k): _plain(v) for k, v in params.items()}
    if isinstance(params, (list, tuple)):
        return [_plain(v) for v in params]
    return params


def _squares(params: dict[str, Any]) -> dict[str, Any]:
    """Squares back as the (x, y) tuples the engine gives: a list of two whole numbers."""
    return {k: tuple(v) if isinstance(v, list) and len(v) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in v) else v
            for k, v in params.items()}
