"""The River (docs/RULES.md section 4, item 4): the spring, river tiles first, the lake last.

Hooks: `placement` (a river tile continues the river, no U-turn, no third turn
the same way; `restricts`: only river tiles). Its slot is the `River`: the
river tiles of this game, its open end and the turns it took. The draw order
lives here too (`drawable`), used by the supply.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos, neighbour, opposite
from carca_bot.engine.msgids import N_
from carca_bot.engine.shapes import Catalogue, Shape, TileType
from carca_bot.engine.state import Expansion, put

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState, SetupView

NAME = "river"


class Game(Protocol):
    """What the river's rules read of a game."""

    slots: dict[str, object]
    supply: Counter[str]
    catalogue: Catalogue


@dataclass(frozen=True, slots=True)
class River:
    """The river of one game (docs/RULES.md section 4, item 4); replaced, never changed."""

    open_end: tuple[Pos, int] | None = None  # square to fill, and its side facing the river
    turns: tuple[str, ...] = ()  # "L", "R" for curves, "S" for straights
    tiles: tuple[str, ...] = ()  # the river tile ids in this game's supply

    def started(self, pos: Pos, shape: Shape) -> River:
        """The river once the spring lies at `pos`."""
        open_end = None
        for side in shape.river:
            open_end = (neighbour(pos, side), opposite(side))
        return River(open_end, (), self.tiles)

    def problem(self, pos: Pos, shape: Shape) -> IllegalMove | None:
        if self.open_end is None:
            return IllegalMove("river_closed")
        square, inlet = self.open_end
        if pos != square:
            return IllegalMove("river_elsewhere", river_at=square)
        if inlet not in shape.river:
            return IllegalMove("river_inlet", side=inlet)
        turn = _turn(shape, inlet)
        if turn in ("L", "R"):
            curves = [t for t in self.turns if t != "S"]
            side = "left" if turn == "L" else "right"
            if self.turns and self.turns[-1] == turn:
                return IllegalMove("river_u_turn", turn=side)
            if len(curves) >= 2 and curves[-1] == curves[-2] == turn:
                return IllegalMove("river_three_turns", turn=side)
        return None

    def advanced(self, pos: Pos, shape: Shape) -> River:
        """The river once a river tile lies at its open end."""
        assert self.open_end is not None
        inlet = self.open_end[1]
        turn = _turn(shape, inlet)
        if turn is None:
            return River(None, self.turns, self.tiles)
        outlet = next(s for s in shape.river if s != inlet)
        return River((neighbour(pos, outlet), opposite(outlet)), (*self.turns, turn), self.tiles)


def _turn(shape: Shape, inlet: int) -> str | None:
    outlets = [s for s in shape.river if s != inlet]
    if not outlets:
        return None  # the lake
    heading = opposite(inlet)
    if outlets[0] == heading:
        return "S"
    return "R" if outlets[0] == (heading + 1) % 4 else "L"


NO_RIVER = River()


def river_of(game: Game) -> River | None:
    """The game's river, or None when the River is not in play."""
    river = game.slots.get(NAME)
    if river is None:
        return None
    assert isinstance(river, River)
    return river


def start(game: Game, tiles: tuple[str, ...], pos: Pos, shape: Shape) -> None:
    """Deal the river: its tiles in the supply, and the spring (`shape`) at `pos`."""
    put(game, NAME, River(tiles=tiles).started(pos, shape))


def advance(game: Game, pos: Pos, shape: Shape) -> None:
    river = river_of(game)
    assert river is not None
    put(game, NAME, river.advanced(pos, shape))


def placement(game: GameState, tile: TileType, pos: Pos, shape: Shape) -> IllegalMove | None:
    if not tile.is_river:
        return None
    river = river_of(game)
    return (river or NO_RIVER).problem(pos, shape)


def restricts(game: GameState, tile: TileType) -> bool:
    """Whether `placement` may refuse a tile its edges fit: only river tiles."""
    return tile.is_river


def in_river_phase(game: Game) -> bool:
    """Whether river tiles are still to come: they are drawn before all others."""
    river = game.slots.get(NAME)
    if river is None:
        return False
    assert isinstance(river, River)
    return any(map(game.supply.__getitem__, river.tiles))  # counts are never negative


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
    river = river_of(game)
    supply, tiles = game.supply, game.catalogue.tiles
    return not tile.river_last or river is None or not any(
        supply[t] > 0 and not tiles[t].river_last for t in river.tiles)


def _start(setup: SetupView) -> River:
    return NO_RIVER


EXPANSION = Expansion(
    NAME, N_("The River"), 1, 10, aliases=("rivers",), tile_prefix="RV-",
    slot=_start, placement=placement, restricts=restricts)
