"""Where a game stands: its phase, the turn being played, figures out and wagons waiting."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from operator import attrgetter

from carca_bot.engine.figure_types import FigureType
from carca_bot.engine.geometry import Pos
from carca_bot.engine.moves import Deploy


@dataclass(frozen=True, slots=True)
class TokenSpot:
    pos: Pos
    on: str
    pair: int  # 0-based, as in records


class Phase(Enum):
    TILE = "tile"  # the active player draws a tile or places an abbey
    PLACED = "placed"  # tile down; figure, token, then end_turn
    WAGON = "wagon"  # a wagon owner decides where it goes
    ABBEY_ROUND = "abbey_round"  # the end-of-game abbey round
    FINISHED = "finished"

    # `Enum.value` is two Python-level calls (a descriptor, then a function); players of
    # the engine ask `game.phase.value` at every decision, so it is read in C here.
    value = property(attrgetter("_value_"))


@dataclass(slots=True, unsafe_hash=True)
class Turn:
    """The turn being played. Never changed once made: each step replaces it, so undo
    keeps the old one (not frozen only because frozen records are four times slower
    to make, and one is made at every step of every turn).
    """

    player: int
    tile: str = ""
    pos: Pos = (0, 0)
    rot: int = 0
    touched: tuple[int, ...] = ()  # city and road nodes to check for completion
    deploy: Deploy | None = None
    recall: bool = False
    token: TokenSpot | None = None
    token_first: bool = False
    barn_node: int | None = None


@dataclass(slots=True)
class Figure:
    """A figure on the board. `node` is the segment it stands on (a barn: its field);
    `type` its row of the figure table (what it counts as, how strong it is)."""

    player: int
    kind: str  # its figure's name: follower, abbot, mayor, wagon, barn, ...
    pos: Pos
    node: int
    on: str  # the name it was deployed on: a segment name or a corner
    type: FigureType


@dataclass(frozen=True, slots=True)
class PendingWagon:
    """A wagon taken off the board this turn whose owner may move it."""

    player: int
    pos: Pos  # the square it stood on
    scored: int  # root of the feature it left
    excluded: int | None = None  # a building it was chased from by a Cult challenge
