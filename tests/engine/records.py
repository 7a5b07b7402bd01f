"""Small builders for test records, so each test reads as the position it builds."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from carca_bot.cli import refusal_words
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.record import replay
from carca_bot.i18n import speaking
from carca_bot.words import say


def turn(by: str, tile: str, at: tuple[int, int], rot: int = 0, **extra: Any) -> dict[str, Any]:
    """A tile turn; `figure`/`on` become a deploy, anything else is copied as is."""
    action: dict[str, Any] = {"by": by, "tile": tile, "at": list(at), "rot": rot}
    figure, on = extra.pop("figure", None), extra.pop("on", None)
    if figure is not None:
        action["deploy"] = {"figure": figure, "on": on}
    action.update(extra)
    return action


def record(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
           expansions: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    return {"format": "carca-record/1", "players": list(players),
            "expansions": list(expansions), "actions": actions, **extra}


def play(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
         expansions: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """Replay and insist that every action was legal; returns the result object."""
    status, out = replay(record(actions, players, expansions, **extra), refusal_words)
    assert status == 0, out.get("error")
    return out


def refuse(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
           expansions: tuple[str, ...] = (), **extra: Any) -> tuple[int, str, dict[str, Any]]:
    """Replay expecting the last action to be refused; returns its index, message, result."""
    status, out = replay(record(actions, players, expansions, **extra), refusal_words)
    assert status == 1, out
    return out["error"]["index"], out["error"]["message"], out


END: dict[str, Any] = {"end": True}


@contextmanager
def refused_saying(pattern: str) -> Iterator[None]:
    """Like `pytest.raises(IllegalMove, match=...)`, on the refusal's English words."""
    with pytest.raises(IllegalMove) as caught:
        yield
    with speaking("en"):
        said = say(caught.value)
    assert re.search(pattern, said), said
