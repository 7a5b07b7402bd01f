"""The game: whose turn it is, what they may do, and taking it back.

Every decision is a typed move (`moves.py`). `legal_moves()` lists the moves open
now, `push(move)` plays one and `pop()` takes the newest back in time
proportional to what it changed (the position and its undo frames: `position.py`,
whose `Position` a `Game` is). `copy()` is cheap.
The step methods the other layers call (`place_tile`, `deploy`, `end_turn`, ...)
are thin wrappers over `push` that check the player too; `apply` plays a whole
`carca-record/1` action atomically. The rules for each step are in `steps.py`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

from carca_bot.engine import spots, supply
from carca_bot.engine.board import plan_of
from carca_bot.engine.checks import hook_problem, placement_problem
from carca_bot.engine.deploying import deploy_problem, has_follower
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.expansions.abbey_mayor import pending_of, wagon_targets
from carca_bot.engine.expansions.abbot import abbot_of
from carca_bot.engine.expansions.tunnel import legal_tokens
from carca_bot.engine.geometry import CORNER_NAMES, Pos
from carca_bot.engine.moves import (
    CLOSING,
    DeclareEnd,
    Deploy,
    Discard,
    Draw,
    EndTurn,
    Move,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
    action_moves,
    deploying,
    placing,
)
from carca_bot.engine.phase import Figure, Phase, TokenSpot, Turn
from carca_bot.engine.placement import rotations_fitting
from carca_bot.engine.position import Position
from carca_bot.engine.rules import FIGURE_TABLE
from carca_bot.engine.setup import Setup
from carca_bot.engine.shapes import ABBEY_SHAPE, ABBEY_TYPE, Kind, TileType
from carca_bot.engine.spots import Placement

__all__ = ["Deployment", "Game", "Phase", "Placement", "Turn"]

Deployment = Deploy  # the older name of a figure choice


T = TypeVar("T")
END_TURN, DRAW = EndTurn(), Draw()  # immutable, so one of each will do


# Each figure, in the order choices are listed: its name, the kinds it stands on (None: a
# corner), and whether it joins a follower of its player rather than a free feature.
_STANDS_ON = tuple((f.name, None if f.corner else f.stands_on, f.joins) for f in FIGURE_TABLE)


def _counter(counts: Counter[T]) -> Counter[T]:
    """A copy of `counts`, without `Counter.update`'s Python-level loop."""
    copied: Counter[T] = Counter()
    dict.update(copied, counts)
    return copied


class Game(Position):
    """A game in progress, built from a `Setup` and the moves played so far."""

    # -- copy ---------------------------------------------------------------------

    def copy(self, stack: bool = True) -> Game:
        """An independent game in the same position; `stack=False` drops the undo frames."""
        other = Game(self.setup, _blank=True)
        other._share(self)
        other.board = self.board.copy()
        other.players = list(self.players)
        if not stack:
            other.board.log = []
        other.scores = list(self.scores)
        other.hand = [dict(h) for h in self.hand]
        other.figures = list(self.figures)
        other.supply = _counter(self.supply)
        other.completed = self.completed  # never changed in place: shared
        other.slots = self.slots  # likewise
        other.events = list(self.events)
        other.history = list(self.history)
        other.frames = list(self.frames) if stack else []
        return other

    # -- what may happen now ----------------------------------------------------

    def placement_problem(self, tile: str, pos: Pos, rot: int) -> IllegalMove | None:
        return placement_problem(self, tile, pos, rot)

    def legal_placements(self, tile: str) -> list[Placement]:
        """Every square and rotation where `tile` may be placed now."""
        tile_type = self.catalogue.tiles[tile]
        if self._edges_decide(tile_type):
            return spots.placements(tile_type, self.board.frontier)
        return [Placement(pos, rot) for pos, rot in self._spots(tile)]

    def _edges_decide(self, tile_type: TileType) -> bool:
        """Whether matching edges alone decide where `tile_type` may lie now: no
        expansion's placement hook `restricts` it (a river tile: the river's course; a
        tile with a building once one is out, with the Cult: its one-pair limit)."""
        for restricts in self.hooks.restricts:  # noqa: SIM110 - no generator: runs each turn
            if restricts(self, tile_type):
                return False
        return True

    def _spots(self, tile: str) -> list[tuple[Pos, int]]:
        """(square, quarter turns) where `tile` may lie, squares in frontier order."""
        tile_type = self.catalogue.tiles[tile]
        shapes = tile_type.shapes
        result: list[tuple[Pos, int]] = []
        for pos, key in self.board.frontier.items():
            for rot in rotations_fitting(tile_type, key):
                if hook_problem(self, tile_type, pos, shapes[rot]) is None:
                    result.append((pos, rot))
        return result

    def _placings(self, tile: str) -> list[Move]:
        """`legal_placements` as `PlaceTile` moves."""
        tile_type = self.catalogue.tiles[tile]
        if self._edges_decide(tile_type):
            return spots.place_tiles(tile_type, self.board.frontier)
        return [placing(tile, pos, rot) for pos, rot in self._spots(tile)]

    def fits_somewhere(self, tile: str) -> bool:
        tile_type = self.catalogue.tiles[tile]
        if not self._edges_decide(tile_type):
            return bool(self._spots(tile))
        return any(rotations_fitting(tile_type, key) for key in self.board.frontier.values())

    def abbey_squares(self) -> list[Pos]:
        """Holes where the active player's abbey may go (the Cult's limits apply)."""
        holes = self.board.holes()
        if self._edges_decide(ABBEY_TYPE):  # no shrine: the Cult's limits cannot apply
            return holes
        return [pos for pos in holes
                if hook_problem(self, ABBEY_TYPE, pos, ABBEY_SHAPE) is None]

    def can_place_abbey(self, player: int) -> bool:
        return self.hand[player].get("abbey", 0) > 0 and bool(self.abbey_squares())

    def expects(self) -> list[str]:
        """Verbs accepted now, in the record's order: tile, abbey, discard, wagon.

        (The order is the record contract's, `docs/game-record.md`.)
        """
        if self.phase is Phase.WAGON:
            return ["wagon"]
        if self.phase is Phase.ABBEY_ROUND:
            return ["abbey"]
        if self.phase is not Phase.TILE:
            return []
        verbs: list[str] = []
        fits = [self.fits_somewhere(t) for t in self.drawable()]
        if any(fits):
            verbs.append("tile")
        if self.can_place_abbey(self.current):
            verbs.append("abbey")
        if not all(fits):
            verbs.append("discard")
        return verbs

    def legal_deployments(self) -> list[Deploy]:
        """Every figure the active player may place on the tile just placed.

        The same answers as `deploy_problem` for each figure and name, in one pass.
        """
        turn = self.turn
        if self.phase is not Phase.PLACED or turn is None or turn.deploy or turn.recall:
            return []
        board = self.board
        placed = board.tiles[turn.pos]
        names = ("C",) if placed.shape is None else plan_of(placed.shape).names
        parent, features, figures = board.parent, board.features, self.figures
        free: list[tuple[str, Kind]] = []  # segments with nobody on their feature
        squares: set[Pos] | None = None  # where figures stand, when first needed
        for name, node in zip(names, placed.nodes, strict=True):
            root = node
            while parent[root] != root:  # `board.find`, spelt out: this runs at every turn
                root = parent[root]
            feat = features[root]
            assert feat is not None
            tiles = feat.tiles
            # A figure stands on a square of its feature (none on this tile yet): only a
            # feature reaching a square with a figure on it needs the finds.
            if len(tiles) > 1:
                if squares is None:
                    squares = {fig.pos for fig in figures}
                if not tiles.isdisjoint(squares) and self._occupied(root, tiles):
                    continue
            free.append((name, feat.kind))
        hand = self.hand[turn.player]
        result: list[Deploy] = []
        joinable: list[tuple[str, Kind]] | None = None
        for figure, allowed, joins in _STANDS_ON:
            if not hand.get(figure):  # counts are never negative
                continue
            if allowed is None:  # a corner figure (the barn)
                result.extend(deploying(figure, on) for on in CORNER_NAMES
                              if deploy_problem(self, turn, figure, on)[0] is None)
                continue
            if joins and joinable is None:
                joinable = self._joinable(turn.player, names, placed.nodes)
            for name, kind in joinable if joins and joinable is not None else free:
                if kind in allowed:
                    result.append(deploying(figure, name))
        return result

    def _joinable(self, player: int, names: tuple[str, ...],
                  nodes: tuple[int, ...]) -> list[tuple[str, Kind]]:
        """Segments of the tile just placed whose feature, not completed, holds a follower
        of `player`: where a builder or a pig may go."""
        board = self.board
        found: list[tuple[str, Kind]] = []
        for name, node in zip(names, nodes, strict=True):
            root = board.find(node)
            feat = board.features[root]
            assert feat is not None
            if not board.is_complete(root) and has_follower(self, player, root, feat.tiles):
                found.append((name, feat.kind))
        return found

    def _occupied(self, root: int, tiles: frozenset[Pos]) -> bool:
        """Whether a figure stands on the feature of `root` (whose squares are `tiles`)."""
        parent = self.board.parent
        for fig in self.figures:
            if fig.pos in tiles:
                node = fig.node
                while parent[node] != node:
                    node = parent[node]
                if node == root:
                    return True
        return False

    def _abbot(self, player: int) -> Figure | None:
        return abbot_of(self, player)

    def can_recall(self) -> bool:
        """Whether the active player may take their abbot back this turn."""
        turn = self.turn
        if self.phase is not Phase.PLACED or turn is None or turn.deploy or turn.recall:
            return False
        abbot = abbot_of(self, turn.player)
        return abbot is not None and not self.board.is_complete(abbot.node)

    def legal_tokens(self) -> list[TokenSpot]:
        turn = self.turn
        if self.phase is not Phase.PLACED or turn is None or not self.tunnels:
            return []
        return legal_tokens(self, turn)

    def legal_wagon_moves(self) -> list[tuple[Pos, str]]:
        if self.phase is not Phase.WAGON:
            return []
        return wagon_targets(self.board, self.figures, pending_of(self).wagons[0],
                             self.setup.wagon_rule)

    def legal_moves(self, tile: str | None = None) -> list[Move]:
        """Every move open to whoever decides now.

        At the start of a turn, without `tile`: `Draw()` (when a tile is left) and
        the holes for an abbey. The service draws; pass the drawn tile to get its
        placements, or its `Discard` when it fits nowhere. `DeclareEnd` is never
        listed: it is the record's note that the supply ran out, not a choice.
        """
        phase = self.phase
        if phase is Phase.PLACED:
            moves: list[Move] = [*self.legal_deployments()]
            if self.can_recall():
                moves.append(Recall())
            if self.tunnels:
                moves.extend(PlaceToken(s.pos, s.on, s.pair) for s in self.legal_tokens())
            moves.append(END_TURN)
            return moves
        if phase is Phase.TILE:
            if tile is not None:
                if not supply.may_draw(self, tile):
                    return []
                placings = self._placings(tile)
                return placings if placings else [Discard(tile)]
            moves = [DRAW] if any(self.supply.values()) else []  # counts are never negative
            if self.hand[self.current].get("abbey", 0) > 0:
                moves.extend(PlaceAbbey(pos) for pos in self.abbey_squares())
            return moves
        if phase is Phase.WAGON:
            moves = [MoveWagon(pos, on) for pos, on in self.legal_wagon_moves()]
            moves.append(ReturnWagon())
            return moves
        if phase is Phase.ABBEY_ROUND:
            moves = [PlaceAbbey(pos) for pos in self.abbey_squares()]
            moves.append(SkipAbbey())
            return moves
        return []

    # -- the steps, for a given player ------------------------------------------

    def _step(self, move: Move, player: int | None) -> list[Event]:
        start = len(self.events)
        self._push(move, player)
        return self.events[start:]

    def place_tile(self, player: int, tile: str, pos: Pos, rot: int) -> None:
        self._step(PlaceTile(tile, pos, rot), player)

    def place_abbey(self, player: int, pos: Pos) -> None:
        self._step(PlaceAbbey(pos), player)

    def skip_abbey(self, player: int) -> None:
        self._step(SkipAbbey(), player)

    def discard(self, player: int, tile: str) -> None:
        self._step(Discard(tile), player)

    def declare_end(self) -> None:
        """The supply is used up at this point (the `end` action)."""
        self._step(DeclareEnd(), None)

    def deploy(self, player: int, figure: str, on: str) -> None:
        self._step(Deploy(figure, on), player)

    def recall(self, player: int) -> None:
        """Take the abbot back and score its monastery or garden as at the game's end."""
        self._step(Recall(), player)

    def place_token(self, player: int, pos: Pos, on: str, pair: int) -> None:
        self._step(PlaceToken(pos, on, pair), player)

    def end_turn(self, player: int) -> list[Event]:
        """Score the turn and move on. Returns what happened."""
        return self._step(EndTurn(), player)

    def move_wagon(self, player: int, pos: Pos | None, on: str = "") -> list[Event]:
        """Move the pending wagon to (pos, on), or return it to hand when pos is None."""
        return self._step(ReturnWagon() if pos is None else MoveWagon(pos, on), player)

    # -- whole actions ----------------------------------------------------------

    def apply(self, action: dict[str, Any]) -> list[Event]:
        """Play one `carca-record/1` action (already well-formed); atomic."""
        start = len(self.events)
        depth = len(self.frames)
        try:
            self._apply(action)
        except IllegalMove:
            while len(self.frames) > depth:
                self.pop()
            raise
        return self.events[start:]

    def _apply(self, action: dict[str, Any]) -> None:
        by, moves = action_moves(action)
        player = None if by is None else self.player_index(by)
        for i, move in enumerate(moves):
            if i == 1 and "deploy" in action and action.get("recall"):
                raise self._named(IllegalMove("deploy_and_recall"))
            self._step(move, player)

    def restore(self) -> None:
        """Take back the steps of an unfinished turn (those not yet in the history)."""
        frames = self.frames
        while frames and not isinstance(frames[-1].move, CLOSING):
            self.pop()
        if self.phase is Phase.PLACED:  # a copy without its frames: rebuild
            fresh = Game.replay(self.setup, self.history)
            self._share(fresh)

    @classmethod
    def replay(cls, setup: Setup, actions: list[dict[str, Any]]) -> Game:
        game = cls(setup)
        for action in actions:
            game._apply(action)
        return game

    # -- summaries --------------------------------------------------------------

    def in_hand(self, player: int) -> dict[str, int]:
        """What a player holds: figures, pieces (an unplaced abbey), and what the
        expansions' `in_hand` hooks add (a waiting wagon, unplaced tunnel tokens, goods)."""
        held = dict(self.hand[player])
        for in_hand in self.hooks.in_hand:
            in_hand(self, player, held)
        return held

    def tokens_on_board(self) -> list[tuple[Pos, str, int, int]]:
        """Every tunnel token placed: square, entrance side, owner, pair."""
        placed = []
        for node, (player, pair) in self.entrances.items():
            pos, index = self.board.location[node]
            shape = self.board.tiles[pos].shape
            assert shape is not None
            placed.append((pos, shape.segments[index].name, player, pair))
        return sorted(placed)
