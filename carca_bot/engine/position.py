"""A game's position, and playing a move on it and taking the move back.

`Position` holds everything the rules read and change (the board, hands, figures,
scores, the supply, whose turn it is and the phase, each expansion's own slot) and
plays a typed move with `push` (each step's rules are in `steps.py`); `pop` takes the
newest back in time proportional to what it changed: the board logs its writes
(`Board.undo`) and a frame keeps the game's small counters from before the move.
`Game` (game.py) is a position with the rules' questions (what may be played now), the
step methods and whole record actions.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from carca_bot.engine import supply
from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import catalogue
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.expansions.abbey_mayor import pending_of
from carca_bot.engine.expansions.king_robber import titles_of
from carca_bot.engine.expansions.river import NO_RIVER, River, river_of
from carca_bot.engine.expansions.tunnel import tunnels_of
from carca_bot.engine.figures import starting_hand
from carca_bot.engine.geometry import Pos
from carca_bot.engine.moves import (
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
)
from carca_bot.engine.phase import Figure, PendingWagon, Phase, Turn
from carca_bot.engine.rules import active
from carca_bot.engine.setup import Setup
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Hooks, hooks_of
from carca_bot.engine.steps import STEPS


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


SCORING = (EndTurn, Discard, MoveWagon, ReturnWagon, SkipAbbey, DeclareEnd, Recall)
NO_FIGURES = (Draw, PlaceTile, PlaceToken)  # steps that touch no hand and no figure
# What a move's undo frame saves, by the move's class: (everything, hands and figures,
# a tile's count in the supply)
_SAVES: dict[type, tuple[bool, bool, bool]] = {
    kind: (kind in SCORING, kind in SCORING or kind not in NO_FIGURES,
           kind in (PlaceTile, Discard))
    for kind in (Draw, PlaceTile, PlaceAbbey, Deploy, Recall, PlaceToken, EndTurn, Discard,
                 MoveWagon, ReturnWagon, SkipAbbey, DeclareEnd)}


_TAKES_TILE = (PlaceTile, Discard)  # the moves that take a tile from the supply
_new_frame = tuple.__new__  # a Frame without its Python-level constructor: made at every move
_NOTHING = (0,) * (len(Frame._fields) - 3)  # the rest of a Draw's frame: never read


class Position:
    """A game's state and its undo frames. `Game` adds the rules' questions and the
    steps; the three questions the step rules ask back are named at the end."""

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

    # -- push and pop ------------------------------------------------------------

    def _share(self, other: Position) -> None:
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

    # -- who decides, and the supply -------------------------------------------

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

    # -- what the rules also ask of a game (`state.GameState`): `Game` answers -------

    def fits_somewhere(self, tile: str) -> bool:
        raise NotImplementedError

    def can_place_abbey(self, player: int) -> bool:
        raise NotImplementedError

    def legal_wagon_moves(self) -> list[tuple[Pos, str]]:
        raise NotImplementedError
