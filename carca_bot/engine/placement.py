"""Where a tile may go: edge matching, the River's course and the Cult's limits.

Edge matching is answered from a cache keyed by the letters the neighbours
show (`frontier` keys), so listing every legal square is one dict lookup per
open square.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from carca_bot.engine.board import ANY, OPEN, Board
from carca_bot.engine.catalogue import Shape, TileType
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos, around, neighbour, opposite

EDGE_KINDS = {"C": "city", "R": "road", "F": "field", "W": "river"}
FITS: dict[str, dict[str, tuple[int, ...]]] = {}  # tile id -> frontier key -> rotations


def fits_of(tile: TileType) -> dict[str, tuple[int, ...]]:
    """The cache of `rotations_fitting` answers for one tile type."""
    fits = FITS.get(tile.id)
    if fits is None:
        fits = FITS[tile.id] = {}
    return fits


def rotations_fitting(tile: TileType, key: str) -> tuple[int, ...]:
    """Quarter turns of `tile` whose edges match the neighbour letters in `key`."""
    fits = fits_of(tile)
    cached = fits.get(key)
    if cached is None:
        cached = tuple(
            r for r, shape in enumerate(tile.shapes)
            if all(k in (OPEN, ANY, e) for k, e in zip(key, shape.edges, strict=True))
        )
        fits[key] = cached
    return cached


def edge_problem(board: Board, pos: Pos, shape: Shape) -> IllegalMove | None:
    """Why the tile cannot lie there by its edges; None when it fits."""
    if pos in board.tiles:
        return IllegalMove("tile_square_taken", square=pos)
    key = board.frontier.get(pos)
    if key is None:
        return IllegalMove("tile_no_neighbour", square=pos)
    for side in range(4):
        want = key[side]
        if want not in (OPEN, ANY) and want != shape.edges[side]:
            return IllegalMove("tile_edge_mismatch", side=side,
                               edge=EDGE_KINDS[shape.edges[side]],
                               other=neighbour(pos, side), shows=EDGE_KINDS[want])
    return None


OTHER_BUILDING = {"monastery": "shrine", "abbey": "shrine", "shrine": "monastery"}


def _kind(building: str) -> str:
    return "monastery" if building == "abbey" else building


def cult_problem(board: Board, pos: Pos, building: str) -> IllegalMove | None:
    """The Cult's limit: one monastery-shrine pair at most around each of them."""
    buildings = board.buildings
    if not buildings:
        return None
    mine = _kind(building)
    other = OTHER_BUILDING[mine]
    facing = [p for p in around(pos) if _kind(buildings.get(p, "")) == other]
    if len(facing) > 1:
        return IllegalMove("cult_crowded", building=mine, other=other)
    if facing:
        partner = facing[0]
        if any(_kind(buildings.get(p, "")) == mine for p in around(partner) if p != pos):
            return IllegalMove("cult_partner_taken", building=mine, other=other,
                               partner=partner)
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
