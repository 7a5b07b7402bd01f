"""What each player holds on the board, as numbers: the terms of the strong evaluation.

`terms(game)` gives, per player, one row of `NAMES` (the feature's points, split by how
likely it still is to be completed), and `certain(game)` the points a player will score
whatever comes (a feature complete but not yet scored). The strong level's evaluation
(`estimate.py`) is a weighted sum of these rows, with weights fitted to what players
went on to score in recorded games (`bench/ai_fit.py`), so each term's weight says what
a point of that kind was worth at the end.

Per feature and per player, the questions the issue asks:
- who can still win the majority: the players in it now (ties share), and whether
  another player is one strength behind (a threat to the owner, a chance to the other);
- followers left: a player without followers in hand can neither defend nor extend;
- the tiles that can still close it: each open square of the feature is looked up
  against the tiles left (the public counts): a square no tile left can fill makes the
  feature *dead* (it will score its end-of-game value at most); for a feature with one
  open square, whether a tile left closes it there (rather than only extending it).
"""

from __future__ import annotations

from carca_bot.engine.board import OPEN, Board, Feature
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.figures import BY_NAME, CORNER_FIGURES, FARMERS, HELD_PIECES, strength
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import AROUND, STEP
from carca_bot.engine.placement import rotations_fitting

HORIZON = 12.0  # turns each after which more turns add nothing to a term's time factor

# The figures and pieces a hand may hold, each with its own hand terms: a figure the
# engine adds must be listed here (`check_hand`), never valued 0 by default.
HAND_KINDS: tuple[str, ...] = ("follower", "abbot", "mayor", "wagon", "barn", "abbey")

_CITY = ("city_1", "city_2", "city_3", "city_dead")
_NAMES: list[str] = []
for _name in _CITY:
    _NAMES += [_name, f"{_name}_t", f"{_name}_n", f"{_name}_nt"]
_NAMES += ["city_1_hard", "road", "road_t", "road_n", "road_dead", "building", "building_t",
           "building_n", "building_dead", "farm", "farm_open", "farm_open_t", "threat",
           "chase", "no_hand", "king", "robber", "turns", "turns_sq"]
for _kind in HAND_KINDS:
    _NAMES += [f"hand_{_kind}", f"hand_{_kind}_t"]
NAMES: tuple[str, ...] = tuple(_NAMES)
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
del _NAMES, _name, _kind


def check_hand(kinds: object) -> None:
    """Refuse a hand that holds a figure or piece without hand terms (see HAND_KINDS)."""
    unknown = sorted(set(kinds) - set(HAND_KINDS)) if isinstance(kinds, dict) else []
    if unknown:
        raise KeyError(f"the AI has no value for the figure(s) {unknown}: add them to "
                       "carca_bot/ai/features.py HAND_KINDS and fit the weights")


def known_figures() -> set[str]:
    """Every figure and held piece the engine knows (for the test that all are valued)."""
    return set(BY_NAME) | set(HELD_PIECES)


class _Fits:
    """Tile types fitting a square, and closing a feature there, per frontier key.

    Which types fit a key depends only on the catalogue, so it is worked out once per
    key and kept (per set of tile types in play); the counts come from the supply.
    """

    def __init__(self, game: Game) -> None:
        self.catalogue = game.catalogue
        self.order = game.tile_order
        self.fit: dict[str, tuple[str, ...]] = {}
        self.close: dict[tuple[str, int], tuple[str, ...]] = {}

    def fitting(self, key: str) -> tuple[str, ...]:
        found = self.fit.get(key)
        if found is None:
            cat = self.catalogue
            found = self.fit[key] = tuple(t for t in self.order
                                          if rotations_fitting(cat[t], key))
        return found

    def closing(self, key: str, sides: int) -> tuple[str, ...]:
        """Types with a rotation fitting `key` whose segments on `sides` (a bit mask)
        reach only sides that have a neighbour: placed there, they close those edges."""
        found = self.close.get((key, sides))
        if found is None:
            cat = self.catalogue
            out = []
            for t in self.fitting(key):
                tile = cat[t]
                for rot in rotations_fitting(tile, key):
                    shape = tile.shapes[rot]
                    if all(_closes(shape.side_segment[s], shape, key)
                           for s in range(4) if sides >> s & 1):
                        out.append(t)
                        break
            found = self.close[(key, sides)] = tuple(out)
        return found


def _closes(segment: int | None, shape: object, key: str) -> bool:
    if segment is None:
        return False
    seg = shape.segments[segment]  # type: ignore[attr-defined]
    if seg.tunnel:
        return False
    return all(key[s] != OPEN for s in seg.sides)


_FITS: dict[int, tuple[tuple[str, ...], _Fits]] = {}


def fits_of(game: Game) -> _Fits:
    order = game.tile_order
    entry = _FITS.get(id(order))
    if entry is None or entry[0] is not order:
        if len(_FITS) > 64:
            _FITS.clear()
        entry = _FITS[id(order)] = (order, _Fits(game))
    return entry[1]


# feature record -> its open squares: (square, bit mask of the sides facing the feature)
_SQUARES: dict[int, tuple[Feature, tuple[tuple[tuple[int, int], int], ...]]] = {}


def open_squares(board: Board, root: int, feat: Feature) -> tuple[tuple[tuple[int, int], int],
                                                                   ...]:
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


def _count(types: tuple[str, ...], supply: dict[str, int], enough: int) -> int:
    """How many tiles left are of `types`, counted up to `enough`."""
    total = 0
    for t in types:
        total += supply[t]
        if total >= enough:
            return total
    return total


def _owners(strengths: dict[int, int]) -> list[int]:
    if not strengths:
        return []
    best = max(strengths.values())
    if best <= 0:
        return []
    return [p for p, s in strengths.items() if s == best]


Held = dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]]


def held(game: Game) -> Held:
    """Per feature (its root): each player's strength in its majority, among its farmers
    and among its barns, as `scoring.majority` counts them."""
    find, features = game.board.find, game.board.features
    out: Held = {}
    for fig in game.figures:
        root = find(fig.node)
        entry = out.get(root)
        if entry is None:
            entry = out[root] = ({}, {}, {})
        kind = fig.kind
        if kind in CORNER_FIGURES:
            entry[2][fig.player] = entry[2].get(fig.player, 0) + 1
            continue
        if kind in FARMERS:
            entry[1][fig.player] = entry[1].get(fig.player, 0) + 1
        feat = features[root]
        assert feat is not None
        entry[0][fig.player] = entry[0].get(fig.player, 0) + strength(kind, feat.pennants)
    return out


class _Reader:
    """One position's terms, worked out in one pass (see `terms`)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.board = game.board
        self.supply = game.supply
        self.fits = fits_of(game)
        players = len(game.players)
        self.turns = game.tiles_left / players
        self.time = min(1.0, self.turns / HORIZON)
        self.rows = [[0.0] * len(NAMES) for _ in range(players)]
        self.sure = [0.0] * players
        self.followers = [hand.get("follower", 0) for hand in game.hand]
        self.alive: dict[int, bool] = {}  # city root -> whether it can still be completed

    def add(self, player: int, name: str, value: float) -> None:
        self.rows[player][INDEX[name]] += value

    def fill(self, key: str | None, enough: int = 1) -> int:
        """Tiles left that fit the square of frontier key `key` (None: no neighbour yet,
        so counted as plenty)."""
        if key is None:
            return enough
        return _count(self.fits.fitting(key), self.supply, enough)

    def city_or_road(self, root: int, feat: Feature, most: dict[int, int]) -> None:
        owners = _owners(most)
        if not owners:
            return
        city = feat.kind is Kind.CITY
        points = float(len(feat.tiles) + feat.pennants) if city else float(len(feat.tiles))
        if feat.open <= 0:
            for p in owners:
                self.sure[p] += 2.0 * points if city else points
            return
        squares = open_squares(self.board, root, feat)
        frontier = self.board.frontier
        dead = any(self.fill(frontier.get(sq)) == 0 for sq, _ in squares)
        if city:
            self.alive[root] = not dead
        spots = max(1, len(squares))
        hard = False
        if city and not dead and spots == 1 and squares:
            (square, sides), = squares
            key = frontier.get(square)
            hard = key is not None and _count(self.fits.closing(key, sides), self.supply,
                                              1) == 0
        name = ("city_dead" if dead else f"city_{min(spots, 3)}") if city else \
            ("road_dead" if dead else "road")
        t = self.time
        for p in owners:
            self.add(p, name, points)
            if city:
                self.add(p, name + "_t", points * t)
                self.add(p, name + "_n", 1.0)
                self.add(p, name + "_nt", t)
            elif not dead:
                self.add(p, "road_t", points * t)
                self.add(p, "road_n", t)
            if hard:
                self.add(p, "city_1_hard", points)
            if not dead and self.followers[p] == 0:
                self.add(p, "no_hand", points)
        if not dead:
            self.contest(most, owners, points)

    def contest(self, most: dict[int, int], owners: list[int], points: float) -> None:
        """A player one strength behind the majority: a threat to its holders, a chance
        for them (with a follower in hand to catch up)."""
        best = max(most.values())
        behind = [q for q, s in most.items() if q not in owners and best - s <= 1]
        if not behind:
            return
        for p in owners:
            self.add(p, "threat", points)
        for q in behind:
            if self.followers[q] > 0:
                self.add(q, "chase", points)

    def building(self, feat: Feature, most: dict[int, int]) -> None:
        owners = _owners(most)
        if not owners:
            return
        tiles, frontier = self.board.tiles, self.board.frontier
        x, y = feat.pos
        around = 0
        dead = False
        for dx, dy in AROUND:
            square = (x + dx, y + dy)
            if square in tiles:
                around += 1
            elif not dead and self.fill(frontier.get(square)) == 0:
                dead = True
        points = 1.0 + around
        for p in owners:
            if around == 8:
                self.sure[p] += 9.0
            elif dead:
                self.add(p, "building_dead", points)
            else:
                self.add(p, "building", points)
                self.add(p, "building_t", points * self.time)
                self.add(p, "building_n", self.time)

    def city_alive(self, root: int) -> bool:
        found = self.alive.get(root)
        if found is None:
            feat = self.board.features[root]
            assert feat is not None
            squares = open_squares(self.board, root, feat)
            frontier = self.board.frontier
            found = self.alive[root] = all(self.fill(frontier.get(sq)) > 0
                                           for sq, _ in squares)
        return found

    def field(self, feat: Feature, farmers: dict[int, int], barns: dict[int, int]) -> None:
        if not farmers and not barns:
            return
        find, features = self.board.find, self.board.features
        done = growing = 0
        for c in {find(c) for c in feat.cities}:
            city = features[c]
            assert city is not None
            if city.open <= 0:
                done += 1
            elif self.city_alive(c):
                growing += 1
        for owners, per_city in ((_owners(farmers), 3.0), (_owners(barns), 4.0)):
            for p in owners:
                self.add(p, "farm", per_city * done)
                self.add(p, "farm_open", per_city * growing)
                self.add(p, "farm_open_t", per_city * growing * self.time)

    def hands(self) -> None:
        game, t = self.game, self.time
        for p, hand in enumerate(game.hand):
            check_hand(hand)
            for kind, n in hand.items():
                if n > 0:
                    have = min(float(n), self.turns)
                    self.add(p, f"hand_{kind}", have)
                    self.add(p, f"hand_{kind}_t", have * t)
            self.add(p, "turns", self.turns)
            self.add(p, "turns_sq", self.turns * self.turns / HORIZON)
        if game.king is not None:
            self.add(game.king, "king", float(game.completed[Kind.CITY]))
        if game.robber is not None:
            self.add(game.robber, "robber", float(game.completed[Kind.ROAD]))


def terms(game: Game) -> tuple[list[list[float]], list[float]]:
    """Per player: the row of `NAMES`, and the points certain to come (a feature complete
    but not yet scored). Reads the game only."""
    reader = _Reader(game)
    features = game.board.features
    for root, (most, farmers, barns) in held(game).items():
        feat = features[root]
        assert feat is not None
        kind = feat.kind
        if kind is Kind.FIELD:
            reader.field(feat, farmers, barns)
        elif kind is Kind.CITY or kind is Kind.ROAD:
            reader.city_or_road(root, feat, most)
        else:
            reader.building(feat, most)
    reader.hands()
    return reader.rows, reader.sure
