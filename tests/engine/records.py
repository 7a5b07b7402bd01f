"""Small builders for test records, so each test reads as the position it builds."""

from __future__ import annotations

from typing import Any

from carca_bot.engine.record import replay


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
    status, out = replay(record(actions, players, expansions, **extra))
    assert status == 0, out.get("error")
    return out


def refuse(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
           expansions: tuple[str, ...] = (), **extra: Any) -> tuple[int, str, dict[str, Any]]:
    """Replay expecting the last action to be refused; returns its index, message, result."""
    status, out = replay(record(actions, players, expansions, **extra))
    assert status == 1, out
    return out["error"]["index"], out["error"]["message"], out


END: dict[str, Any] = {"end": True}
