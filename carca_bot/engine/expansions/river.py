"""The River (docs/RULES.md section 4, item 4): the spring, river tiles first, the lake last.

Hooks: `placement` (a river tile continues the river, no U-turn, no third turn
the same way). The draw order lives here too (`drawable`), used by the supply.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from carca_bot.engine.catalogue import Catalogue, Shape, TileType
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos, neighbour, opposite


class Game(Protocol):
    """What the river's rules read of a game (`state.GameState` imports this module)."""

    river: River
    supply: Counter[str]
    river_tiles: tuple[str, ...]
    catalogue: Catalogue


@dataclass
class River:
    """The river's open end and the turns it has taken (docs/RULES.md section 4, item 4)."""

    open_end: tuple[Pos, int] | None = None  # square to fill, and its side facing the river
    turns: list[str] = field(default_factory=list)  # "L", "R" for curves, "S" for straights

    def start(self, pos: Pos, shape: Shape) -> None:
        self.open_end = None
        for side in shape.river:
            self.open_end = (neighbour(pos, side), opposite(side))

    def _turn(self, shape: Shape, inlet: int) -> str | None:
        outlets = [s for s in shape.river if s != inlet]
        if not outlets:
            return None  # the lake
        heading = opposite(inlet)
        if outlets[0] == heading:
            return "S"
        return "R" if outlets[0] == (heading + 1) % 4 else "L"

    def problem(self, pos: Pos, shape: Shape) -> IllegalMove | None:
        if self.open_end is None:
            return IllegalMove("river_closed")
        square, inlet = self.open_end
        if pos != square:
            return IllegalMove("river_elsewhere", river_at=square)
        if inlet not in shape.river:
            return IllegalMove("river_inlet", side=inlet)
        turn = self._turn(shape, inlet)
        if turn in ("L", "R"):
            curves = [t for t in self.turns if t != "S"]
            side = "left" if turn == "L" else "right"
            if self.turns and self.turns[-1] == turn:
                return IllegalMove("river_u_turn", turn=side)
            if len(curves) >= 2 and curves[-1] == curves[-2] == turn:
                return IllegalMove("river_three_turns", turn=side)
        return None

    def copy(self) -> River:
        return River(self.open_end, list(self.turns))

    def advance(self, pos: Pos, shape: Shape) -> None:
        assert self.open_end is not None
        inlet = self.open_end[1]
        turn = self._turn(shape, inlet)
        if turn is None:
            self.open_end = None
            return
        self.turns.append(turn)
        outlet = next(s for s in shape.river if s != inlet)
        self.open_end = (neighbour(pos, outlet), opposite(outlet))


def placement(game: Game, tile: TileType, pos: Pos, shape: Shape) -> IllegalMove | None:
    return game.river.problem(pos, shape) if tile.is_river else None


def in_river_phase(game: Game) -> bool:
    """Whether river tiles are still to come: they are drawn before all others."""
    return any(map(game.supply.__getitem__, game.river_tiles))  # counts are never negative


def drawable(game: Game, left: list[str]) -> list[str]:
    """Of the tiles left, the river tiles may be drawn, the lake only as the last of them."""
    tiles = game.catalogue.tiles
    river = [t for t in left if tiles[t].is_river]
    ordinary = [t for t in river if not tiles[t].river_last]
    return ordinary or river


def may_draw(game: Game, tile: TileType) -> bool:
    """`tile.id in drawable(...)` during the river phase, without the lists."""
    if not tile.is_river:
        return False
    supply, tiles = game.supply, game.catalogue.tiles
    return not tile.river_last or not any(
        supply[t] > 0 and not tiles[t].river_last for t in game.river_tiles)
