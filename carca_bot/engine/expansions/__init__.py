"""Each expansion's rules, one module each, and the hook points the core calls.

A hook is a plain function; the core calls the hooks of the expansions in play,
in `ORDER` (the order their rules apply within one hook point):

- `placement(game, tile_type, pos, shape)`: a reason the tile may not lie there.
- `turn_scoring(scorer, completed, occupied_buildings)`: after the completed
  features of a turn scored, before figures go home.
- `turn_end(scorer, completed)`: after figures went home.
- `final(game, roots)`: after incomplete features and farmers scored at the end.

Figures live in the figure table (`figures.py`), tiles in `data/tiles.jsonl`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Shape, TileType
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.expansions import abbey_mayor, abbot, cult, king_robber, river, tunnel
from carca_bot.engine.geometry import Pos

if TYPE_CHECKING:
    from carca_bot.engine.game import Game
    from carca_bot.engine.turnscore import TurnScorer

PlacementHook = Callable[["Game", TileType, Pos, Shape], IllegalMove | None]
TurnScoringHook = Callable[["TurnScorer", list[int], list[int]], None]
TurnEndHook = Callable[["TurnScorer", list[int]], None]
FinalHook = Callable[["Game", list[int]], None]


@dataclass(frozen=True)
class Rules:
    """One expansion's hooks (None: it has nothing to do at that point)."""

    name: str
    placement: PlacementHook | None = None
    turn_scoring: TurnScoringHook | None = None
    turn_end: TurnEndHook | None = None
    final: FinalHook | None = None


ORDER: tuple[Rules, ...] = (
    Rules("river", placement=river.placement),
    Rules("abbot"),  # a figure (figures.py) and the Recall step (abbot.py)
    Rules("cult", placement=cult.placement, turn_scoring=cult.challenges),
    Rules("abbey_mayor", turn_scoring=abbey_mayor.barns, final=abbey_mayor.final),
    Rules("king_robber", turn_end=king_robber.titles, final=king_robber.final),
    Rules("tunnel"),  # the PlaceToken step (tunnel.py)
)
BY_NAME = {rules.name: rules for rules in ORDER}

__all__ = ["BY_NAME", "ORDER", "Rules", "abbey_mayor", "abbot", "active", "cult",
           "king_robber", "river", "tunnel"]


def active(expansions: frozenset[str]) -> tuple[Rules, ...]:
    """The rules of the expansions in play, in hook order."""
    return tuple(rules for rules in ORDER if rules.name in expansions)
