"""Which open features can still be completed with the tiles left (the public counts).

Each open square of a city or road, and each empty square around a monastery, is looked
up against the tiles left: a square that no tile left can fill makes the feature *dead*:
it will score its end-of-game value at most, and a figure on it is stuck there. For a
city open on one square, `closers` tells whether a tile left would close it there
rather than only extend it. The strong level's evaluation (`estimate.py`) reads these.

Only the counts by tile type are read (`game.supply`), never the order of the pile.
"""

from __future__ import annotations

from carca_bot.engine.board import OPEN, Board, Feature
from carca_bot.engine.catalogue import Shape
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import STEP
from carca_bot.engine.placement import rotations_fitting

Squares = tuple[tuple[tuple[int, int], int], ...]  # (square, bit mask of sides facing it)


class Fits:
    """Tile types fitting a square, and closing a feature there, per frontier key.

    Which types fit a key depends only on the catalogue, so it is worked out once per
    key and kept (per set of tile types in play), as a bit mask over the types; the
    tiles left are a mask too (`left`), so "can a tile left go there" is one `&`.
    """

    def __init__(self, game: Game) -> None:
        self.catalogue = game.catalogue
        self.order = game.tile_order
        self.bits = [(t, 1 << i) for i, t in enumerate(self.order)]
        self.fit: dict[str, int] = {}
        self.close: dict[tuple[str, int], int] = {}

    def left(self, supply: dict[str, int]) -> int:
        """The mask of the types with a tile left."""
        mask = 0
        for t, bit in self.bits:
            if supply[t]:
                mask |= bit
        return mask

    def fitting(self, key: str) -> int:
        found = self.fit.get(key)
        if found is None:
            cat = self.catalogue
            found = self.fit[key] = sum(bit for t, bit in self.bits
                                        if rotations_fitting(cat[t], key))
        return found

    def closing(self, key: str, sides: int) -> int:
        """Types with a rotation fitting `key` whose segments on `sides` (a bit mask)
        reach only sides that have a neighbour: placed there, they close those edges."""
        found = self.close.get((key, sides))
        if found is None:
            cat = self.catalogue
            found = 0
            for t, bit in self.bits:
                tile = cat[t]
                for rot in rotations_fitting(tile, key):
                    shape = tile.shapes[rot]
                    if all(_closes(shape.side_segment[s], shape, key)
                           for s in range(4) if sides >> s & 1):
                        found |= bit
                        break
            self.close[(key, sides)] = found
        return found


def _closes(segment: int | None, shape: Shape, key: str) -> bool:
    if segment is None:
        return False
    seg = shape.segments[segment]
    if seg.tunnel:
        return False
    return all(key[s] != OPEN for s in seg.sides)


_FITS: dict[int, tuple[tuple[str, ...], Fits]] = {}


def fits_of(game: Game) -> Fits:
    order = game.tile_order
    entry = _FITS.get(id(order))
    if entry is None or entry[0] is not order:
        if len(_FITS) > 64:
            _FITS.clear()
        entry = _FITS[id(order)] = (order, Fits(game))
    return entry[1]


# feature record -> its open squares: (square, bit mask of the sides facing the feature)
_SQUARES: dict[int, tuple[Feature, Squares]] = {}


def open_squares(board: Board, root: int, feat: Feature) -> Squares:
    """The empty squares a city or road is open to, each with the sides facing it.

    A feature's record is replaced whenever one of its edges is matched, so its open
    squares are kept per record (undo brings the old record, and the old answer, back).
    """
    entry = _SQUARES.get(id(feat))
    if entry is not None and entry[0] is feat:
        return entry[1]
    tiles, find = board.tiles, board.find
    found: dict[tuple[int, int], int] = {}
    for pos in feat.tiles:
        placed = tiles[pos]
        shape = placed.shape
        if shape is None:
            continue
        x, y = pos
        for side in range(4):
            seg = shape.side_segment[side]
            if seg is None:
                continue
            dx, dy = STEP[side]
            square = (x + dx, y + dy)
            if square in tiles or find(placed.nodes[seg]) != root:
                continue
            found[square] = found.get(square, 0) | 1 << ((side + 2) % 4)
    squares = tuple(found.items())
    if len(_SQUARES) > 200_000:
        _SQUARES.clear()
    _SQUARES[id(feat)] = (feat, squares)
    return squares


def dead(board: Board, squares: Squares, fits: Fits, left: int) -> bool:
    """Whether one of `squares` can take none of the tiles left (`left`: `Fits.left`); a
    square with no neighbour yet (no frontier key) takes any."""
    frontier, fit = board.frontier, fits.fit
    for square, _ in squares:
        key = frontier.get(square)
        if key is None:
            continue
        mask = fit.get(key)
        if mask is None:
            mask = fits.fitting(key)
        if not mask & left:
            return True
    return False


def closers(board: Board, squares: Squares, fits: Fits, left: int) -> bool:
    """For a feature open on one square: whether a tile left would close it there."""
    if len(squares) != 1:
        return True
    (square, sides), = squares
    key = board.frontier.get(square)
    return key is None or bool(fits.closing(key, sides) & left)
