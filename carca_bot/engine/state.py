"""What the rule modules may see of a game, and the record each expansion declares.

The rule modules (steps, scoring, the expansions) take a `GameState`, not the
`Game` class, so none of them imports `game.py`, which imports them: the engine
has no import cycle, not even one for the type checker. `Expansion` is one
expansion's record (names, tiles, figures, hooks, its slot of state); `Hooks`
is the hooks of the expansions in play, one tuple per hook point.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from carca_bot.engine.board import Board, Feature
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.figure_types import FigureType, Piece
from carca_bot.engine.geometry import Pos
from carca_bot.engine.outcome import Outcome
from carca_bot.engine.phase import Figure, Phase, Turn
from carca_bot.engine.shapes import Catalogue, Kind, Shape, TileType


class SetupView(Protocol):
    """The settings a game was dealt with, as the rules read them (`setup.Setup`)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def expansions(self) -> frozenset[str]: ...

    @property
    def wagon_rule(self) -> str: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def start(self) -> tuple[str, int] | None: ...

    @property
    def pairs(self) -> int: ...

    def has(self, expansion: str) -> bool: ...


class GameState(Protocol):
    """A game as the rules read and change it (`Game` is the one implementation).

    `slots` holds each expansion's own state by its name. A slot's value is never
    changed in place: a change puts a new value in a new dict (`put`), so copying
    a game shares the dict and an undo frame keeps the old one.
    """

    rules: tuple[Expansion, ...]
    hooks: Hooks
    players: list[str]
    catalogue: Catalogue
    board: Board
    scores: list[int]
    hand: list[dict[str, int]]
    figures: list[Figure]
    supply: Counter[str]
    tile_order: tuple[str, ...]
    drawn: int
    completed: Counter[Kind]
    current: int
    part: int  # 1, or 2 in the second part of a turn (a builder's double turn)
    phase: Phase
    turn: Turn | None
    ending: bool
    events: list[Event]
    history: list[dict[str, Any]]
    slots: dict[str, object]
    last_placed: tuple[Pos, int] | None

    @property
    def setup(self) -> SetupView: ...

    @property
    def tiles_left(self) -> int: ...

    @property
    def deciding(self) -> int | None: ...

    def drawable(self) -> list[str]: ...

    def fits_somewhere(self, tile: str) -> bool: ...

    def can_place_abbey(self, player: int) -> bool: ...

    def legal_wagon_moves(self) -> list[tuple[Pos, str]]: ...


class HasSlots(Protocol):
    slots: dict[str, object]


def put(game: HasSlots, name: str, value: object) -> None:
    """Set an expansion's slot: a new dict, so copies and undo frames keep the old one."""
    slots = dict(game.slots)
    slots[name] = value
    game.slots = slots


class ScorerState(Protocol):
    """A turn being scored, as the expansions' scoring hooks see it (`TurnScorer`).

    Hooks read `game` and write only to `outcome` (and `leaving`): `outcome.apply`
    changes the game once the whole turn is worked out.
    """

    game: GameState
    board: Board
    turn: Turn
    leaving: list[tuple[Figure, int, int | None]]  # figure, feature, chased from
    outcome: Outcome

    def standing(self) -> list[Figure]: ...


# A feature's worth: points, the reason code saying how they were counted, its params.
Value = tuple[int, str, dict[str, Any]]

SlotStart = Callable[[SetupView], object]
PlacementHook = Callable[[GameState, TileType, Pos, Shape], IllegalMove | None]
RestrictsHook = Callable[[GameState, TileType], bool]
DeployHook = Callable[[GameState, Turn, FigureType, str], tuple[IllegalMove | None, int]]
TilePlacedHook = Callable[[GameState, Turn], None]
LinkedHook = Callable[[GameState, int, int, int], None]
FeatureValueHook = Callable[[Feature, bool, Value], Value]
FieldBonusHook = Callable[[GameState, Outcome, list[Figure], int, tuple[int, ...], int, str],
                          None]
TurnScoringHook = Callable[[ScorerState, list[int], list[int]], None]
TurnEndHook = Callable[[ScorerState, list[int]], None]
AgainHook = Callable[[GameState], bool]
TurnOverHook = Callable[[GameState], None]
FinalHook = Callable[[GameState, list[int], Outcome], None]
InHandHook = Callable[[GameState, int, dict[str, int]], None]


@dataclass(frozen=True)
class Expansion:
    """One expansion's record: what it is called, what it brings, and its hooks.

    Names: `name` is the code records and settings use; `aliases` other words
    players may type for it; `title` its name shown to players (a message id).
    Things: tiles whose ids start with `tile_prefix`, read from `tile_data`;
    `modifiers`, the keys of the tile data it gives meaning to (`(key, "flag")`:
    a true key is one modifier of that name; `(key, "value")`: the value names
    the modifier); `figures`, its rows of the figure table; `pieces`, what else a
    player holds. `slot` makes its own state for a new game (kept in
    `GameState.slots[name]`, copied, framed and undone by the game as a whole).

    `position` and `runs` order the records (`rules.py` finds them by themselves: a
    module of `engine/expansions/` with an `EXPANSION` is one).

    Hooks (None: nothing to do there), called for the expansions in play, in the
    order of `runs`:

    - `placement(game, tile_type, pos, shape)`: a reason the tile (or the abbey,
      `shapes.ABBEY_TYPE`) may not lie there; `restricts(game, tile_type)`: whether
      it may refuse that tile now where its edges fit (else the edges decide alone,
      which is what lets legal moves be listed from a table).
    - `deploy(game, turn, figure, on)`: for its corner figures, the refusal or the node.
    - `tile_placed(game, turn)`: a land tile was just placed and merged.
    - `linked(game, player, a, b)`: a tunnel token of `player` is about to join the
      roads of the nodes `a` and `b` (the board still as before).
    - `feature_value(feature, final, value)`: what a scored feature is worth, given
      what the expansions before it made of it.
    - `field_bonus(game, outcome, figures, root, players, cities, reason)`: a field
      was scored for `players` (farmers or a barn, by `reason`).
    - `turn_scoring(scorer, completed, occupied_buildings)`: after the completed
      features of a turn scored, before figures go home.
    - `turn_end(scorer, completed)`: after figures went home.
    - `again(game)`: after a turn's part (and its wagons): True when the same player
      plays another part.
    - `turn_over(game)`: the whole turn is over; the next player is about to start.
    - `final(game, roots, outcome)`: after incomplete features and farmers scored.
    - `in_hand(game, player, held)`: add what the player holds besides figures.
    """

    name: str
    title: str
    position: int  # its place where expansions are listed (records, menus)
    runs: int  # its place among the hooks of one hook point (lowest first)
    aliases: tuple[str, ...] = ()
    tile_prefix: str = ""
    tile_data: str = "tiles.jsonl"
    modifiers: tuple[tuple[str, str], ...] = ()
    figures: tuple[FigureType, ...] = ()
    pieces: tuple[Piece, ...] = ()
    slot: SlotStart | None = None
    placement: PlacementHook | None = None
    restricts: RestrictsHook | None = None
    deploy: DeployHook | None = None
    tile_placed: TilePlacedHook | None = None
    linked: LinkedHook | None = None
    feature_value: FeatureValueHook | None = None
    field_bonus: FieldBonusHook | None = None
    turn_scoring: TurnScoringHook | None = None
    turn_end: TurnEndHook | None = None
    again: AgainHook | None = None
    turn_over: TurnOverHook | None = None
    final: FinalHook | None = None
    in_hand: InHandHook | None = None


@dataclass(frozen=True)
class Hooks:
    """The hooks of the expansions in play, one tuple per hook point, in `ORDER`."""

    placement: tuple[PlacementHook, ...] = ()
    restricts: tuple[RestrictsHook, ...] = ()
    deploy: dict[str, DeployHook] = field(default_factory=dict)  # by figure name
    tile_placed: tuple[TilePlacedHook, ...] = ()
    linked: tuple[LinkedHook, ...] = ()
    feature_value: tuple[FeatureValueHook, ...] = ()
    field_bonus: tuple[FieldBonusHook, ...] = ()
    turn_scoring: tuple[TurnScoringHook, ...] = ()
    turn_end: tuple[TurnEndHook, ...] = ()
    again: tuple[AgainHook, ...] = ()
    turn_over: tuple[TurnOverHook, ...] = ()
    final: tuple[FinalHook, ...] = ()
    in_hand: tuple[InHandHook, ...] = ()


@cache
def hooks_of(rules: tuple[Expansion, ...]) -> Hooks:
    """The `Hooks` of these records (made once per mix of expansions)."""
    deploy = {f.name: r.deploy for r in rules if r.deploy is not None for f in r.figures}
    return Hooks(
        tuple(r.placement for r in rules if r.placement is not None),
        tuple(r.restricts for r in rules if r.restricts is not None), deploy,
        tuple(r.tile_placed for r in rules if r.tile_placed is not None),
        tuple(r.linked for r in rules if r.linked is not None),
        tuple(r.feature_value for r in rules if r.feature_value is not None),
        tuple(r.field_bonus for r in rules if r.field_bonus is not None),
        tuple(r.turn_scoring for r in rules if r.turn_scoring is not None),
        tuple(r.turn_end for r in rules if r.turn_end is not None),
        tuple(r.again for r in rules if r.again is not None),
        tuple(r.turn_over for r in rules if r.turn_over is not None),
        tuple(r.final for r in rules if r.final is not None),
        tuple(r.in_hand for r in rules if r.in_hand is not None))

