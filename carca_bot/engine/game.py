"""The game: whose turn it is, what they may do, and taking it back.

Every decision is a typed move (`moves.py`). `legal_moves()` lists the moves open
now, `push(move)` plays one and `pop()` takes the newest back in time
proportional to what it changed: the board logs its writes (`Board.undo`) and a
frame keeps the game's small counters from before the move. `copy()` is cheap.
The step methods the other layers call (`place_tile`, `deploy`, `end_turn`, ...)
are thin wrappers over `push` that check the player too; `apply` plays a whole
`carca-record/1` action atomically. The rules for each step are in `steps.py`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple, TypeVar

from carca_bot.engine import spots, supply
from carca_bot.engine.board import Board, plan_of
from carca_bot.engine.catalogue import catalogue
from carca_bot.engine.checks import hook_problem, placement_problem
from carca_bot.engine.deploying import deploy_problem, has_follower
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.expansions.abbey_mayor import pending_of, wagon_targets
from carca_bot.engine.expansions.abbot import abbot_of
from carca_bot.engine.expansions.king_robber import titles_of
from carca_bot.engine.expansions.river import NO_RIVER, River, river_of
from carca_bot.engine.expansions.tunnel import legal_tokens, tunnels_of
from carca_bot.engine.figures import starting_hand
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
from carca_bot.engine.phase import Figure, PendingWagon, Phase, TokenSpot, Turn
from carca_bot.engine.placement import rotations_fitting
from carca_bot.engine.rules import FIGURE_TABLE, active
from carca_bot.engine.setup import Setup
from carca_bot.engine.shapes import ABBEY_SHAPE, ABBEY_TYPE, Kind, TileType
from carca_bot.engine.spots import Placement
from carca_bot.engine.state import Hooks, hooks_of
from carca_bot.engine.steps import STEPS

__all__ = ["Deployment", "Game", "Phase", "Placement", "Turn"]

Deployment = Deploy  # the older name of a figure choice


class Frame(NamedTuple):
    """What `pop` needs to take one move back: the move and the game just before it.

    Steps of a turn save only what they can change (None: unchanged); the moves
    that score (`SCORING`) save every counter. The expansions' state is one dict of
    values never changed in place (`slots`), so every frame keeps it whole, whatever
    the expansions. One flat named tuple, made with `_new_frame` (no Python-level
    constructor), because one is made at every move.
    """

    move: Move
    player: int | None
    log: int  # the board's `mark()`: its log's length (-1: nothing to undo, a `Draw`)
    nodes: int  # ... and its node count
    drawn: int
    current: int
    part: int
    phase: Phase
    turn: Turn | None
    ending: bool
    last_placed: tuple[Pos, int] | None
    tile: str | None  # the tile taken from the supply, and how many were left before
    left: int
    slots: dict[str, object]
    events: int
    history: int
    hand: tuple[dict[str, int], ...] | None  # copies, never changed: `_undo` copies again
    figures: tuple[Figure, ...] | None
    scores: tuple[int, ...] | None
    completed: Counter[Kind] | None


T = TypeVar("T")
END_TURN, DRAW = EndTurn(), Draw()  # immutable, so one of each will do
SCORING = (EndTurn, Discard, MoveWagon, ReturnWagon, SkipAbbey, DeclareEnd, Recall)
NO_FIGURES = (Draw, PlaceTile, PlaceToken)  # steps that touch no hand and no figure
# What a move's undo frame saves, by the move's class: (everything, hands and figures,
# a tile's count in the supply)
_SAVES: dict[type, tuple[bool, bool, bool]] = {
    kind: (kind in SCORING, kind in SCORING or kind not in NO_FIGURES,
           kind in (PlaceTile, Discard))
    for kind in (Draw, PlaceTile, PlaceAbbey, Deploy, Recall, PlaceToken, EndTurn, Discard,
                 MoveWagon, ReturnWagon, SkipAbbey, DeclareEnd)}


# Each figure, in the order choices are listed: its name, the kinds it stands on (None: a
# corner), and whether it joins a follower of its player rather than a free feature.
_STANDS_ON = tuple((f.name, None if f.corner else f.stands_on, f.joins) for f in FIGURE_TABLE)
_TAKES_TILE = (PlaceTile, Discard)  # the moves that take a tile from the supply
_new_frame = tuple.__new__  # a Frame without its Python-level constructor: made at every move
_NOTHING = (0,) * (len(Frame._fields) - 3)  # the rest of a Draw's frame: never read


def _counter(counts: Counter[T]) -> Counter[T]:
    """A copy of `counts`, without `Counter.update`'s Python-level loop."""
    copied: Counter[T] = Counter()
    dict.update(copied, counts)
    return copied


class Game:
    """A game in progress, built from a `Setup` and the moves played so far."""

    def __init__(self, setup: Setup, *, _blank: bool = False) -> None:
        self.setup = setup
        if _blank:  # for `copy`: every other attribute is set by `_share`
            return
        self.rules = active(setup.expansions)  # the records of the expansions in play
        self.hooks: Hooks = hooks_of(self.rules)
        self.players = list(setup.players)
        self.catalogue = catalogue(tunnel=setup.has("tunnel"))
        self.board = Board()
        count = len(self.players)
        self.scores = [0] * count
        self.hand = [self._starting_hand() for _ in range(count)]
        self.figures: list[Figure] = []
        self.supply: Counter[str] = Counter()
        self.drawn = 0
        self.completed = Counter[Kind]()  # replaced when it changes, never changed in place
        self.current = 0
        self.part = 1  # 2 in the second part of a turn (a builder's double turn)
        self.phase = Phase.TILE
        self.turn: Turn | None = None
        self.ending = False
        self.events: list[Event] = []
        self.history: list[dict[str, Any]] = []
        # Each expansion's own state, by name: values never changed in place (`state.put`).
        self.slots: dict[str, object] = {r.name: r.slot(setup) for r in self.rules
                                         if r.slot is not None}
        self.last_placed: tuple[Pos, int] | None = None  # square and player of the newest tile
        self.frames: list[Frame] = []
        self.tile_order: tuple[str, ...] = ()  # tile ids in the supply, sorted (the draw order)
        self.tunnels = setup.pairs > 0  # whether tunnel tokens are in play
        supply.deal(self)

    def _starting_hand(self) -> dict[str, int]:
        return starting_hand(self.setup.expansions)

    # -- the expansions' state, by its old names ----------------------------------

    @property
    def king(self) -> int | None:
        return titles_of(self).king

    @property
    def robber(self) -> int | None:
        return titles_of(self).robber

    @property
    def best_city(self) -> int:
        return titles_of(self).best_city

    @property
    def best_road(self) -> int:
        return titles_of(self).best_road

    @property
    def tokens(self) -> tuple[tuple[int, ...], ...]:
        """Per player, per pair: tunnel tokens still in hand (none without the Tunnel)."""
        return tunnels_of(self).tokens or tuple(() for _ in self.players)

    @property
    def entrances(self) -> dict[int, tuple[int, int]]:
        """Road node -> (player, pair) of each tunnel token placed (do not change it)."""
        return tunnels_of(self).entrances

    @property
    def river(self) -> River:
        return river_of(self) or NO_RIVER

    @property
    def wagons(self) -> tuple[PendingWagon, ...]:
        """Wagons waiting for their owners' decisions, in order."""
        return pending_of(self).wagons

    @property
    def round_queue(self) -> tuple[int, ...]:
        return pending_of(self).queue

    # -- copy, push, pop --------------------------------------------------------

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

    def _share(self, other: Game) -> None:
        """Take every attribute of `other` as it is (shared, not copied).

        Spelt out rather than `__dict__.update`, so that the engine compiled by mypyc
        (setup.py), whose classes have no `__dict__`, runs the same code.
        """
        self.setup, self.rules, self.hooks = other.setup, other.rules, other.hooks
        self.players, self.catalogue, self.board = other.players, other.catalogue, other.board
        self.scores, self.hand, self.figures = other.scores, other.hand, other.figures
        self.supply, self.drawn, self.completed = other.supply, other.drawn, other.completed
        self.current, self.part, self.phase = other.current, other.part, other.phase
        self.turn, self.ending, self.slots = other.turn, other.ending, other.slots
        self.events, self.history = other.events, other.history
        self.last_placed, self.frames = other.last_placed, other.frames
        self.tile_order, self.tunnels = other.tile_order, other.tunnels

    def _frame(self, move: Move, player: int | None) -> Frame:
        if type(move) is Draw:  # only checks that a tile may be drawn
            return _new_frame(Frame, (move, player, -1, *_NOTHING))
        full, figures, takes_tile = _SAVES.get(type(move), (True, True, True))
        tile = move.tile if takes_tile and isinstance(move, _TAKES_TILE) else None
        board = self.board
        return _new_frame(Frame, (
            move, player, len(board.log), len(board.parent), self.drawn,
            self.current, self.part, self.phase, self.turn, self.ending, self.last_placed,
            tile, 0 if tile is None else self.supply[tile], self.slots,
            len(self.events), len(self.history),
            tuple([h.copy() for h in self.hand]) if figures else None,
            tuple(self.figures) if figures else None,
            tuple(self.scores) if full else None,
            self.completed if full else None))

    def _undo(self, frame: Frame) -> None:
        if frame.log < 0:  # a Draw: nothing to take back
            return
        (_, _, log, nodes, self.drawn, self.current, self.part, self.phase, self.turn,
         self.ending, self.last_placed, tile, count, self.slots, events, history, hand,
         figures, scores, completed) = frame
        self.board.undo((log, nodes))
        if tile is not None:
            self.supply[tile] = count
        del self.events[events:]
        del self.history[history:]
        if hand is not None:
            self.hand = [dict(h) for h in hand]
        if figures is not None:
            self.figures = list(figures)
        if scores is not None:
            self.scores = list(scores)
        if completed is not None:
            self.completed = completed

    def push(self, move: Move) -> None:
        """Play `move` for whoever must decide now; raises IllegalMove and changes nothing."""
        phase = self.phase  # `self.deciding`, spelt out: this runs at every move
        self._push(move, self.current if phase is Phase.TILE or phase is Phase.PLACED
                   else self.deciding)

    def _push(self, move: Move, player: int | None) -> None:
        frame = self._frame(move, player)
        self.frames.append(frame)
        step = STEPS.get(type(move))  # `steps.play`, spelt out: this runs at every move
        try:
            if step is not None:
                step(self, move, -1 if player is None else player)
        except BaseException as err:
            self.frames.pop()
            self._undo(frame)
            if isinstance(err, IllegalMove):
                err.names = tuple(self.players)
            raise

    def pop(self) -> Move:
        """Take the newest move back; returns it. IndexError when nothing can be undone."""
        frame = self.frames.pop()
        self._undo(frame)
        return frame.move

    @property
    def moves(self) -> list[Move]:
        """The moves that can be popped, oldest first."""
        return [f.move for f in self.frames]

    # -- what may happen now ----------------------------------------------------

    def player_index(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise self._named(IllegalMove("not_a_player", name=name)) from None

    def _named(self, err: IllegalMove) -> IllegalMove:
        """Attach the player names, for the compat `message` (see errors.py)."""
        err.names = tuple(self.players)
        return err

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def tiles_left(self) -> int:
        return sum(self.supply.values())

    @property
    def deciding(self) -> int | None:
        """Who must act now: the active player, a wagon owner, or None when finished."""
        if self.phase is Phase.FINISHED:
            return None
        if self.phase is Phase.WAGON:
            return pending_of(self).wagons[0].player
        return self.current

    def drawable(self) -> list[str]:
        """Tile types the active player could draw now (river first, lake last)."""
        return supply.drawable(self)

    def draw(self) -> str:
        """The next tile, fixed by the seed and how many tiles were taken before it."""
        try:
            return supply.draw(self)
        except IllegalMove as err:
            raise self._named(err) from None

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
