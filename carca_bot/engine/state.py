"""What the rule modules may see of a game: the `GameState` protocol, and hook records.

The rule modules (steps, scoring, the expansions) take a `GameState`, not the
`Game` class, so none of them imports `game.py`, which imports them: the engine
has no import cycle, not even one for the type checker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import Catalogue, Kind, Shape, TileType
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.expansions.river import River
from carca_bot.engine.geometry import Pos
from carca_bot.engine.outcome import Outcome
from carca_bot.engine.phase import Figure, PendingWagon, Phase, Turn
from carca_bot.engine.setup import Setup


class GameState(Protocol):
    """A game as the rules read and change it (`Game` is the one implementation)."""

    setup: Setup
    rules: tuple[Rules, ...]
    turn_hooks: bool  # whether any rules in play score at a turn's end (`Rules.turn_*`)
    players: list[str]
    catalogue: Catalogue
    board: Board
    scores: list[int]
    hand: list[dict[str, int]]
    tokens: list[list[int]]
    entrances: dict[int, tuple[int, int]]
    figures: list[Figure]
    supply: Counter[str]
    tile_order: tuple[str, ...]
    river_tiles: tuple[str, ...]
    drawn: int
    king: int | None
    robber: int | None
    best_city: int
    best_road: int
    completed: Counter[Kind]
    current: int
    phase: Phase
    turn: Turn | None
    wagons: list[PendingWagon]
    ending: bool
    round_queue: list[int]
    events: list[Event]
    history: list[dict[str, Any]]
    river: River
    last_placed: tuple[Pos, int] | None

    @property
    def tiles_left(self) -> int: ...

    @property
    def deciding(self) -> int | None: ...

    def drawable(self) -> list[str]: ...

    def fits_somewhere(self, tile: str) -> bool: ...

    def can_place_abbey(self, player: int) -> bool: ...

    def legal_wagon_moves(self) -> list[tuple[Pos, str]]: ...


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


PlacementHook = Callable[[GameState, TileType, Pos, Shape], IllegalMove | None]
TurnScoringHook = Callable[[ScorerState, list[int], list[int]], None]
TurnEndHook = Callable[[ScorerState, list[int]], None]
FinalHook = Callable[[GameState, list[int], Outcome], None]


@dataclass(frozen=True)
class Rules:
    """One expansion's hooks (None: it has nothing to do at that point); see `rules.py`."""

    name: str
    placement: PlacementHook | None = None
    turn_scoring: TurnScoringHook | None = None
    turn_end: TurnEndHook | None = None
    final: FinalHook | None = None
