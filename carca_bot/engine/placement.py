"""Where a tile may go: edge matching, the River's course and the Cult's limits.

Edge matching is answered from a cache keyed by the letters the neighbours
show (`frontier` keys), so listing every legal square is one dict lookup per
open square.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from carca_bot.engine.board import ANY, OPEN, Board
from carca_bot.engine.catalogue import Shape, TileType
from carca_bot.engine.geometry import SIDE_NAMES, Pos, around, neighbour, opposite

EDGE_WORDS = {"C": "city", "R": "road", "F": "field", "W": "river"}
SIDE_WORDS = ("north", "east", "south", "west")
_FITS: dict[tuple[str, str], tuple[int, ...]] = {}


def rotations_fitting(tile: TileType, key: str) -> tuple[int, ...]:
    """Quarter turns of `tile` whose edges match the neighbour letters in `key`."""
    cached = _FITS.get((tile.id, key))
    if cached is None:
        cached = tuple(
            r for r, shape in enumerate(tile.shapes)
            if all(k in (OPEN, ANY, e) for k, e in zip(key, shape.edges, strict=True))
        )
        _FITS[(tile.id, key)] = cached
    return cached


def edge_problem(board: Board, pos: Pos, shape: Shape) -> str | None:
    """Why the tile cannot lie there by its edges, in words; None when it fits."""
    if pos in board.tiles:
        return f"the square {list(pos)} is already taken"
    key = board.frontier.get(pos)
    if key is None:
        return f"the square {list(pos)} does not touch any placed tile along an edge"
    for side in range(4):
        want = key[side]
        if want not in (OPEN, ANY) and want != shape.edges[side]:
            other = neighbour(pos, side)
            return (f"its {SIDE_WORDS[side]} edge is {EDGE_WORDS[shape.edges[side]]} but the "
                    f"tile at {list(other)} shows {EDGE_WORDS[want]} there")
    return None


OTHER_BUILDING = {"monastery": "shrine", "abbey": "shrine", "shrine": "monastery"}


def _kind(building: str) -> str:
    return "monastery" if building == "abbey" else building


def cult_problem(board: Board, pos: Pos, building: str) -> str | None:
    """The Cult's limit: one monastery-shrine pair at most around each of them."""
    mine = _kind(building)
    other = OTHER_BUILDING[mine]
    facing = [p for p in around(pos) if _kind(board.buildings.get(p, "")) == other]
    if len(facing) > 1:
        return f"a {mine} may not stand next to more than one {other}"
    if facing:
        partner = facing[0]
        if any(_kind(board.buildings.get(p, "")) == mine for p in around(partner) if p != pos):
            return f"the {other} at {list(partner)} already has a {mine} next to it"
    return None


@dataclass
class River:
    """The river's open end and the turns it has taken (RULES.md section 4, item 4)."""

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

    def problem(self, pos: Pos, shape: Shape) -> str | None:
        if self.open_end is None:
            return "the river is already closed"
        square, inlet = self.open_end
        if pos != square:
            return f"a river tile must continue the river at {list(square)}"
        if inlet not in shape.river:
            return f"its river must meet the river on its {SIDE_NAMES[inlet]} side"
        turn = self._turn(shape, inlet)
        if turn in ("L", "R"):
            curves = [t for t in self.turns if t != "S"]
            side = "left" if turn == "L" else "right"
            if self.turns and self.turns[-1] == turn:
                return f"the river may not turn {side} twice in a row (a U-turn)"
            if len(curves) >= 2 and curves[-1] == curves[-2] == turn:
                return f"the river may not turn {side} three times in a row"
        return None

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
