"""Events: what happened in a turn, in enough detail to explain a score to players."""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.engine.geometry import Pos


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    kind is one of: score, returned, challenge, king, robber, discard, wagon_moved,
    wagon_returned, recall. For a score, `players` are the majority owners and
    each gets `points`; `detail` says how the points were counted.
    """

    kind: str
    players: tuple[int, ...] = ()
    points: int = 0
    feature: str = ""  # road, city, monastery, shrine, abbey, garden, field, barn, king, robber
    tiles: tuple[Pos, ...] = ()
    detail: str = ""
    complete: bool = False
    final: bool = False

    def describe(self, names: list[str]) -> str:
        who = _join([names[p] for p in self.players]) or "nobody"
        if self.kind == "score":
            if not self.players:
                return f"{self.detail}: nobody scores"
            return f"{who} +{self.points} for {self.detail}"
        return f"{who}: {self.detail}" if self.players else self.detail


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
