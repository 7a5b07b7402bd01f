"""Listing every square and rotation a tile fits, fast enough to do at every decision.

A square's rotations depend only on the tile and the letters its neighbours show
(the frontier key), so each tile has a table from key to the rotations that fit,
and each rotation a table from square to the one move object for it, made on
first use and shared. Listing is then one lookup per open square and one per
fitting rotation, in frontier order, rotations ascending (the order seeded random
games were recorded with). The River's course and the Cult's limits are not
edge questions; the game checks those squares afresh (`Game._spots`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from carca_bot.engine.geometry import Pos
from carca_bot.engine.moves import Move, PlaceTile
from carca_bot.engine.placement import rotations_fitting
from carca_bot.engine.shapes import TileType

T = TypeVar("T")
LIMIT = 4096  # squares remembered per tile and rotation: bounded in a long-running process


@dataclass(frozen=True, slots=True)
class Placement:
    pos: Pos
    rot: int  # quarter turns


class Row(dict[Pos, T], Generic[T]):
    """Square -> the object placing one tile in one rotation there, made when first asked.

    Squares are asked afresh as games spread over the plane, so making one is on
    the hot path too: each kind of row makes its own in `__missing__`, one call.
    """

    __slots__ = ("rot", "tile")

    def __init__(self, tile: str, rot: int) -> None:
        super().__init__()
        self.tile, self.rot = tile, rot


class Fits(dict[str, tuple[Row[T], ...]], Generic[T]):
    """Frontier key -> the rows of the rotations that fit it (often none)."""

    __slots__ = ("rows", "tile")

    def __init__(self, tile: TileType, row: Callable[[str, int], Row[T]]) -> None:
        super().__init__()
        self.tile = tile
        self.rows = tuple(row(tile.id, rot) for rot in range(len(tile.shapes)))

    def __missing__(self, key: str) -> tuple[Row[T], ...]:
        rows = self[key] = tuple(self.rows[rot] for rot in rotations_fitting(self.tile, key))
        return rows


# `PlaceTile(tile, pos, rot)` without the frozen dataclass's __init__, which sets each
# field through object.__setattr__: the slots are filled directly, for the same object
# (equal, same hash) in well under the time. PlaceTile has no __post_init__ to skip;
# nor has Placement, made the same way. Compiled by mypyc (setup.py), both are native
# classes with their own fast constructor, which must be used: `_BARE` is then False.
_new = object.__new__
_BARE = PlaceTile.__new__ is _new and Placement.__new__ is _new
_SET_TILE, _SET_POS, _SET_ROT = (vars(PlaceTile)[name].__set__
                                 for name in ("tile", "pos", "rot"))
_SET_AT, _SET_TURNS = (vars(Placement)[name].__set__ for name in ("pos", "rot"))


class MoveRow(Row[Move]):
    """A row of `PlaceTile` moves (what `legal_moves` lists)."""

    __slots__ = ()

    def __missing__(self, pos: Pos) -> Move:
        if len(self) > LIMIT:
            self.clear()
        if _BARE:
            move = _new(PlaceTile)
            _SET_TILE(move, self.tile)
            _SET_POS(move, pos)
            _SET_ROT(move, self.rot)
        else:
            move = PlaceTile(self.tile, pos, self.rot)
        self[pos] = move
        return move


class PlacementRow(Row[Placement]):
    """A row of `Placement`s (what `legal_placements` lists)."""

    __slots__ = ()

    def __missing__(self, pos: Pos) -> Placement:
        if len(self) > LIMIT:
            self.clear()
        if _BARE:
            spot = _new(Placement)
            _SET_AT(spot, pos)
            _SET_TURNS(spot, self.rot)
        else:
            spot = Placement(pos, self.rot)
        self[pos] = spot
        return spot


# Per catalogue tile (AM12 differs with the Tunnel, so keyed by the TileType itself).
_MOVES: dict[int, tuple[TileType, Fits[Move]]] = {}
_PLACEMENTS: dict[int, tuple[TileType, Fits[Placement]]] = {}


def _fits(tables: dict[int, tuple[TileType, Fits[T]]], tile: TileType,
          row: Callable[[str, int], Row[T]]) -> Fits[T]:
    entry = tables.get(id(tile))
    if entry is None or entry[0] is not tile:
        entry = tables[id(tile)] = (tile, Fits(tile, row))
    return entry[1]


def listed(fits: Fits[T], frontier: dict[Pos, str]) -> list[T]:
    """Every (square, rotation) of the frontier that `fits` fits, as its shared objects."""
    return [row[pos] for pos, key in frontier.items() for row in fits[key]]


def place_tiles(tile: TileType, frontier: dict[Pos, str]) -> list[Move]:
    """`PlaceTile` moves for `tile` on the open squares it fits by its edges."""
    return listed(_fits(_MOVES, tile, MoveRow), frontier)


def placements(tile: TileType, frontier: dict[Pos, str]) -> list[Placement]:
    """The same as `place_tiles`, as `Placement`s (the step API's answer)."""
    return listed(_fits(_PLACEMENTS, tile, PlacementRow), frontier)
