"""The board: placed tiles and the features they form, merged with union-find.

Every segment of every placed tile is a node. Cities and roads join across
matching edges, fields across half-edges; a tunnel link joins two roads. Each
root node holds the `Feature` record of its whole feature, so "which feature,
how big, is it complete" is a `find` and an attribute read.

Undo: features are immutable (a change replaces the record on its root), `find`
does not compress paths, and every write to an existing entry is logged, so
`undo(mark)` takes back a placement in time proportional to what it changed,
and `copy()` is a handful of shallow list and dict copies. The log is one flat
list (an entry's values, then its code), not a tuple per entry: a placement
logs about ten entries, and tuples that live on cost the garbage collector.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from carca_bot.engine.geometry import (
    AROUND,
    STEP,
    Pos,
    corner_halves,
    corner_tiles,
    facing_half,
    neighbour,
    opposite,
)
from carca_bot.engine.shapes import NO_MODS, Kind, Mods, Shape, merge_mods

ABBEY = "ABBEY"
OPEN = "."  # no neighbour on that side
ANY = "*"  # an abbey's wall: matches anything


class Feature(NamedTuple):
    """What we know of a whole feature; lives on its union-find root.

    Immutable: the board replaces the record instead, which is what makes undo
    cheap. A named tuple because several are made at every placement, and the
    hot paths make them with `_feature` (no Python-level constructor). Its
    modifiers are the pennants (the base game's, read by every city) and `mods`
    (the expansions': an inn, a cathedral, goods); `merged` is the one place two
    features combine, modifiers included.
    """

    kind: Kind
    tiles: frozenset[Pos]
    open: int = 0  # unmatched edges plus unlinked tunnel entrances
    pennants: int = 0
    cities: tuple[int, ...] = ()  # fields: city nodes they touch
    building: str = ""  # monastery, shrine or abbey
    pos: Pos = (0, 0)  # buildings and gardens: their square
    mods: Mods = NO_MODS  # (name, count) of each modifier of its segments, by name

    def mod(self, name: str) -> int:
        """How many segments' worth of the modifier `name` the feature holds (0: none)."""
        for key, count in self.mods:
            if key == name:
                return count
        return 0


# _feature(Feature, (kind, tiles, open, pennants, cities, building, pos, mods))
_feature = tuple.__new__


def merged(fa: Feature, fb: Feature | None, closed: int) -> Feature:
    """`fa` joined with `fb` (None: alone), `closed` open edges fewer: tiles, open edges,
    cities touched and every modifier (pennants, `mods`) add up; kind, building and
    square are `fa`'s."""
    if fb is None:
        return _feature(Feature, (fa.kind, fa.tiles, fa.open - closed, fa.pennants, fa.cities,
                                  fa.building, fa.pos, fa.mods))
    mods = fa.mods
    if fb.mods:
        mods = merge_mods(mods, fb.mods)
    return _feature(Feature, (fa.kind, fa.tiles | fb.tiles, fa.open + fb.open - closed,
                              fa.pennants + fb.pennants, fa.cities + fb.cities, fa.building,
                              fa.pos, mods))

# Undo log entries, each its values then its code, read back newest first:
# feature, parent, node, SET_NODE restores one node's entries; pos, DEL_TILE lifts a
# tile; key or None, square, SET_FRONTIER restores the frontier there.
SET_NODE, DEL_TILE, SET_FRONTIER = 0, 1, 2
# Per side: the step to the neighbour, the neighbour's side that faces it, and the
# pairs (my half-edge, the neighbour's half-edge touching it) along that edge.
_SIDES = tuple(
    (side, STEP[side], opposite(side),
     tuple((half, facing_half(half)) for half in (2 * side, 2 * side + 1)))
    for side in range(4))


# The frontier key of a square whose only neighbour so far shows `letter` on `facing`.
FRESH_KEYS = tuple({letter: OPEN * facing + letter + OPEN * (3 - facing) for letter in "CRFW*"}
                   for facing in range(4))


@dataclass(frozen=True, slots=True)
class Plan:
    """What placing one shape takes, worked out once per shape (`plan_of`).

    `segments`: per segment, its new feature's kind, open edges, pennants, city
    segments touched (fields), building and modifiers. `sides`: per side, the step to the
    neighbour, the neighbour's facing side, my city or road segment there and
    (my field segment, the neighbour's half-edge it meets) along that edge.
    `touched`: the city and road segments, whose completion the turn checks.
    `names`: each segment's canonical name (what a figure is deployed `on`).
    """

    segments: tuple[tuple[Kind, int, int, tuple[int, ...], str, Mods], ...]
    sides: tuple[tuple[int, int, int, int, int | None, tuple[tuple[int, int], ...]], ...]
    touched: tuple[int, ...]
    names: tuple[str, ...]


_PLANS: dict[int, tuple[Shape, Plan]] = {}
SEGMENTS = 16  # more than any tile has (9)
# Square -> its one-square set and its (square, segment index) locations, shared by
# every tile placed there in any game (all immutable): placing then makes none of them,
# and every object made at a placement that lives on is one more for the garbage
# collector to walk. Bounded like the other tables of a long-running process.
_SQUARES: dict[Pos, tuple[frozenset[Pos], tuple[tuple[Pos, int], ...]]] = {}


def _square(pos: Pos) -> tuple[frozenset[Pos], tuple[tuple[Pos, int], ...]]:
    made = _SQUARES.get(pos)
    if made is None:
        if len(_SQUARES) > 100_000:
            _SQUARES.clear()
        made = _SQUARES[pos] = (frozenset((pos,)), tuple([(pos, i) for i in range(SEGMENTS)]))
    return made


def plan_of(shape: Shape) -> Plan:
    """The `Plan` of a shape, made on first use (catalogues live as long as the process)."""
    entry = _PLANS.get(id(shape))
    if entry is not None and entry[0] is shape:
        return entry[1]
    segments = tuple((seg.kind, len(seg.sides) + seg.tunnel, seg.pennants, seg.cities,
                      seg.building, seg.mods) for seg in shape.segments)
    sides = tuple(
        (side, dx, dy, facing, shape.side_segment[side],
         tuple((a, their_half) for half, their_half in halves
               if (a := shape.half_segment[half]) is not None))
        for side, (dx, dy), facing, halves in _SIDES)
    touched = tuple(i for i, seg in enumerate(shape.segments)
                    if seg.kind is Kind.CITY or seg.kind is Kind.ROAD)
    assert len(segments) <= SEGMENTS, shape.tile  # `_square` makes SEGMENTS locations
    plan = Plan(segments, sides, touched, tuple(seg.name for seg in shape.segments))
    _PLANS[id(shape)] = (shape, plan)
    return plan


@dataclass(slots=True)
class PlacedTile:
    tile: str  # catalogue id, or ABBEY
    rot: int  # quarter turns
    shape: Shape | None  # None for an abbey
    nodes: tuple[int, ...]  # one node per segment (the abbey: its building)

    def node_named(self, name: str) -> int | None:
        if self.shape is None:
            return self.nodes[0] if name == "C" else None
        index = self.shape.names.get(name)
        return None if index is None else self.nodes[index]


class Board:
    def __init__(self) -> None:
        self.tiles: dict[Pos, PlacedTile] = {}
        self.parent: list[int] = []
        self.features: list[Feature | None] = []
        self.location: list[tuple[Pos, int]] = []  # node -> (square, segment index)
        self.frontier: dict[Pos, str] = {}  # empty square -> N E S W constraint letters
        self.buildings: dict[Pos, str] = {}
        self.gardens: set[Pos] = set()
        self.log: list[Any] = []  # flat entries, see SET_NODE; cut by `undo`

    def copy(self) -> Board:
        """An independent board in the same position (features are shared: immutable)."""
        other = Board.__new__(Board)
        other.tiles = dict(self.tiles)
        other.parent = list(self.parent)
        other.features = list(self.features)
        other.location = list(self.location)
        other.frontier = dict(self.frontier)
        other.buildings = dict(self.buildings)
        other.gardens = set(self.gardens)
        other.log = list(self.log)
        return other

    # -- undo -------------------------------------------------------------------

    def mark(self) -> tuple[int, int]:
        """Where the board is now, for `undo`."""
        return len(self.log), len(self.parent)

    def undo(self, mark: tuple[int, int]) -> None:
        """Take back every change made since `mark`, newest first."""
        entries, nodes = mark
        log, parent, features = self.log, self.parent, self.features
        pop = log.pop
        while len(log) > entries:
            op = pop()
            if op == SET_NODE:
                node = pop()
                parent[node] = pop()
                features[node] = pop()
            elif op == DEL_TILE:
                pos = pop()
                del self.tiles[pos]
                self.buildings.pop(pos, None)
                self.gardens.discard(pos)
            else:
                square = pop()
                key = pop()
                if key is None:
                    self.frontier.pop(square, None)
                else:
                    self.frontier[square] = key
        del parent[nodes:]
        del features[nodes:]
        del self.location[nodes:]

    def _set(self, node: int, feat: Feature | None) -> None:
        self.log += (self.features[node], self.parent[node], node, SET_NODE)
        self.features[node] = feat

    def _close(self, node: int, edges: int) -> None:
        """Take `edges` open edges off the feature of `node` (a new record on its root)."""
        root = self.find(node)
        f = self.features[root]
        assert f is not None
        self._set(root, merged(f, None, edges))

    # -- union-find -------------------------------------------------------------

    def find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            node = parent[node]
        return node

    def feature(self, node: int) -> Feature:
        feat = self.features[self.find(node)]
        assert feat is not None
        return feat

    def _join(self, a: int, b: int, closed: int, fresh: int) -> int:
        """Merge the features of `a` and `b` and take `closed` open edges off; the root.

        Nodes from `fresh` on were made by the placement under way: their old
        entries need no log, as undo cuts them off anyway.
        """
        parent, features = self.parent, self.features
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        fa = features[a]
        assert fa is not None
        log = self.log
        if a == b:
            if closed:
                if a < fresh:
                    log += (fa, a, a, SET_NODE)
                features[a] = merged(fa, None, closed)
            return a
        fb = features[b]
        assert fb is not None
        if len(fa.tiles) < len(fb.tiles):
            a, b, fa, fb = b, a, fb, fa
        if b < fresh:
            log += (fb, b, b, SET_NODE)
        if a < fresh:
            log += (fa, a, a, SET_NODE)
        parent[b] = a
        features[b] = None
        features[a] = merged(fa, fb, closed)
        return a

    def _new_node(self, feat: Feature, pos: Pos, index: int) -> int:
        node = len(self.parent)
        self.parent.append(node)
        self.features.append(feat)
        self.location.append((pos, index))
        return node

    # -- placing ----------------------------------------------------------------

    def place(self, pos: Pos, shape: Shape) -> tuple[int, ...]:
        """Put a tile down and merge it; returns its city and road nodes to check."""
        plan = plan_of(shape)
        parent, features, location = self.parent, self.features, self.location
        first = len(parent)
        count = len(plan.segments)
        square, locations = _square(pos)
        parent.extend(range(first, first + count))
        location.extend(locations[:count])
        for kind, open_edges, pennants, cities, building, mods in plan.segments:
            features.append(_feature(Feature, (
                kind, square, open_edges, pennants,
                tuple([first + c for c in cities]) if cities else (), building, pos, mods)))
        tiles, frontier, log = self.tiles, self.frontier, self.log
        log += (frontier.pop(pos, None), pos, SET_FRONTIER)
        x, y = pos
        edges = shape.edges
        join = self._join
        for side, dx, dy, facing, mine, halves in plan.sides:
            square_there = (x + dx, y + dy)
            other = tiles.get(square_there)
            if other is None:  # open: the square there now sees this edge
                old = frontier.get(square_there)
                log += (old, square_there, SET_FRONTIER)
                frontier[square_there] = FRESH_KEYS[facing][edges[side]] if old is None \
                    else old[:facing] + edges[side] + old[facing + 1:]
                continue
            their_shape = other.shape
            if their_shape is None:  # an abbey wall closes the edge without joining
                if mine is not None:
                    self._close(first + mine, 1)
                continue
            nodes = other.nodes
            theirs = their_shape.side_segment[facing]
            if mine is not None and theirs is not None:
                join(first + mine, nodes[theirs], 2, first)
            their_halves = their_shape.half_segment
            last_a = last_b = -1  # the pair just joined: both halves may name it
            for a, their_half in halves:
                b = their_halves[their_half]
                if b is not None and (a != last_a or b != last_b):
                    join(first + a, nodes[b], 0, first)
                    last_a, last_b = a, b
        tiles[pos] = PlacedTile(shape.tile, shape.rot, shape, tuple(range(first, first + count)))
        log += (pos, DEL_TILE)
        if shape.building is not None:
            self.buildings[pos] = shape.segments[shape.building].building
        if shape.garden is not None:
            self.gardens.add(pos)
        return tuple([first + i for i in plan.touched])

    def place_abbey(self, pos: Pos) -> list[int]:
        """Fill a hole with an abbey; its walls close the edges around it."""
        node = self._new_node(Feature(Kind.BUILDING, frozenset((pos,)), building="abbey",
                                      pos=pos), pos, 0)
        closed: list[int] = []
        for side in range(4):
            other = self.tiles.get(neighbour(pos, side))
            if other is None or other.shape is None:
                continue
            theirs = other.shape.side_segment[opposite(side)]
            if theirs is not None:
                node_there = other.nodes[theirs]
                self._close(node_there, 1)
                closed.append(node_there)
        self.tiles[pos] = PlacedTile(ABBEY, 0, None, (node,))
        self.log += (pos, DEL_TILE)
        self.buildings[pos] = "abbey"
        self._grow_frontier(pos, ANY * 4)
        return closed

    def link_tunnel(self, a: int, b: int) -> int:
        return self._join(a, b, 2, len(self.parent))

    def _grow_frontier(self, pos: Pos, edges: str) -> None:
        frontier, log, tiles = self.frontier, self.log, self.tiles
        log += (frontier.pop(pos, None), pos, SET_FRONTIER)
        x, y = pos
        for side, (dx, dy), facing, _ in _SIDES:
            square = (x + dx, y + dy)
            if square in tiles:
                continue
            old = frontier.get(square)
            log += (old, square, SET_FRONTIER)
            key = old or OPEN * 4
            frontier[square] = key[:facing] + edges[side] + key[facing + 1:]

    # -- questions --------------------------------------------------------------

    def neighbours(self, pos: Pos) -> int:
        x, y = pos
        tiles = self.tiles
        return sum([(x + dx, y + dy) in tiles for dx, dy in AROUND])

    def surrounded(self, pos: Pos) -> bool:
        """Whether all eight squares around `pos` hold a tile (`neighbours(pos) == 8`)."""
        x, y = pos
        tiles = self.tiles
        for dx, dy in AROUND:  # noqa: SIM110 - a plain loop: no generator made each turn
            if (x + dx, y + dy) not in tiles:
                return False
        return True

    def is_complete(self, node: int) -> bool:
        feat = self.feature(node)
        if feat.kind in (Kind.BUILDING, Kind.GARDEN):
            return self.surrounded(feat.pos)
        if feat.kind is Kind.FIELD:
            return False
        return feat.open == 0

    def building_node(self, pos: Pos) -> int:
        """The node of the monastery, shrine or abbey on `pos`."""
        placed = self.tiles[pos]
        if placed.shape is None:
            return placed.nodes[0]
        assert placed.shape.building is not None
        return placed.nodes[placed.shape.building]

    def holes(self) -> list[Pos]:
        return [pos for pos, key in self.frontier.items() if OPEN not in key]

    def corner_field(self, pos: Pos, corner: int) -> int | None:
        """The field node at a corner where four all-field tile corners meet, else None."""
        node: int | None = None
        for square, their_corner in corner_tiles(pos, corner):
            placed = self.tiles.get(square)
            if placed is None or placed.shape is None:
                return None
            a, b = (placed.shape.half_segment[h] for h in corner_halves(their_corner))
            if a is None or a != b:
                return None
            node = placed.nodes[a]
        return node

    def adjacent_cities(self, field_node: int) -> set[int]:
        return {self.find(c) for c in self.feature(field_node).cities}
