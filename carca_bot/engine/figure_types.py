"""What a kind of figure is, and the pieces a player holds that are not figures.

Each expansion's record (`state.Expansion`) lists its figures as `FigureType`
rows; `rules.py` gathers them into the one figure table. Deploying, majorities,
farming, the starting hand, the record's `supply` and every table outside the
engine (names, pictures, the AI's values) read these rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.engine.shapes import Kind


@dataclass(frozen=True, slots=True)
class FigureType:
    name: str  # as records and moves name it
    expansion: str  # "base" or the expansion that gives it
    per_player: int
    stands_on: tuple[Kind, ...]  # feature kinds it may be deployed on; () for a corner
    strength: int  # its weight when majorities are counted
    noun: str  # message ids: "follower", "a follower", "Follower" (menus),
    a_noun: str
    title: str
    held: tuple[str, str]  # ... and "{n} follower" / "{n} followers" (what a player holds)
    worth: float  # one in hand, in ordinary followers (the AI's evaluation reads it)
    pennant_strength: bool = False  # its strength is the city's pennants (the mayor)
    in_majority: bool = True  # takes part in the majority of the feature it stands on
    farms: bool = False  # counts among the farmers of a field
    corner: bool = False  # stands where four field corners meet (the barn)
    follower: bool = True  # a follower of its player (what a builder or a pig needs)
    joins: bool = False  # goes only where a follower of its player already stands
    lifted: bool = False  # leaves the board to wait for its owner after scoring (wagon)


@dataclass(frozen=True, slots=True)
class Piece:
    """Something a player holds that is not a figure: an abbey, tunnel tokens, goods.

    `per_player` are dealt at the start (the abbey); 0: the expansion's `in_hand`
    hook counts them (tokens not yet placed, goods taken).
    """

    name: str  # its key in the record's `supply`
    noun: str  # message ids, as for a figure
    held: tuple[str, str]
    per_player: int = 0
    art: bool = False  # has a picture of its own (render/art/figures.py `draw_piece`)


def counts(figure: FigureType) -> bool:
    """Whether the figure takes part in its feature's majority."""
    return figure.in_majority and not figure.corner


def farms(figure: FigureType) -> bool:
    return figure.farms


def corner(figure: FigureType) -> bool:
    return figure.corner


def power(figure: FigureType, pennants: int) -> int:
    """The figure's weight in a majority (the mayor: its city's pennants)."""
    return pennants if figure.pennant_strength else figure.strength
