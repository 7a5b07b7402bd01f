"""Events: what happened in a turn, as data enough to explain a score to players.

The words for an event live in `carca_bot.words` (`say`); the engine writes none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from carca_bot.engine.geometry import Pos


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    kind is one of: score, challenge, king, robber, discard, wagon_moved,
    wagon_returned. For a score, `players` are the majority owners and each gets
    `points` (nobody scores: still told, with no players). `feature` names what
    scored (road, city, monastery, shrine, abbey, garden, field, barn, king,
    robber), `tiles` are its squares and `pennants` its pennants. `reason` says
    how the points were counted (or why the event happened) and `params` holds
    the numbers and names that go with it.
    """

    kind: str
    players: tuple[int, ...] = ()
    points: int = 0
    feature: str = ""
    tiles: tuple[Pos, ...] = ()
    reason: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    pennants: int = 0
    complete: bool = False
    final: bool = False
