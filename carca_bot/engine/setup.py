"""The settings a game is dealt with: who plays, which expansions, which rule variants."""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.engine.pickling import by_constructor
from carca_bot.engine.rules import EXPANSIONS

WAGON_RULES = ("c2", "c1")


def default_tunnel_pairs(players: int) -> int:
    return {2: 3, 3: 2}.get(players, 1)


@dataclass(frozen=True)
class Setup:
    players: tuple[str, ...]
    expansions: frozenset[str] = frozenset()
    wagon_rule: str = "c2"
    tunnel_pairs: int | None = None  # None: the default for the player count
    seed: int | None = None
    start: tuple[str, int] | None = None  # tile id and quarter turns; None: the default

    def __post_init__(self) -> None:
        if not 1 <= len(self.players) <= 6:
            raise ValueError("a game has 1 to 6 players")
        if len(set(self.players)) != len(self.players):
            raise ValueError("player names must differ")
        unknown = self.expansions - set(EXPANSIONS)
        if unknown:
            raise ValueError(f"unknown expansion {sorted(unknown)[0]!r}")
        if self.wagon_rule not in WAGON_RULES:
            raise ValueError(f"unknown wagon rule {self.wagon_rule!r}")

    @property
    def pairs(self) -> int:
        if "tunnel" not in self.expansions:
            return 0
        if self.tunnel_pairs is not None:
            return self.tunnel_pairs
        return default_tunnel_pairs(len(self.players))

    def has(self, expansion: str) -> bool:
        return expansion in self.expansions


by_constructor(Setup)
