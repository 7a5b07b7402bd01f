"""The one table of figures: what each counts as, where it may stand, how strong, how many.

docs/RULES.md 2.4 (followers), 2.7 (abbot), 2.8 (mayor, wagon, barn). A new figure is
one row here; deploying, majorities, farming and the starting hand read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.engine.catalogue import Kind


@dataclass(frozen=True, slots=True)
class FigureType:
    name: str
    expansion: str  # "base" or the expansion that gives it
    per_player: int
    stands_on: tuple[Kind, ...]  # feature kinds it may be deployed on; () for a corner
    strength: int  # its weight when majorities are counted
    pennant_strength: bool = False  # its strength is the city's pennants (the mayor)
    in_majority: bool = True  # takes part in the majority of the feature it stands on
    farms: bool = False  # counts among the farmers of a field
    corner: bool = False  # stands where four field corners meet (the barn)


FIGURE_TABLE: tuple[FigureType, ...] = (
    FigureType("follower", "base", 7, (Kind.CITY, Kind.ROAD, Kind.FIELD, Kind.BUILDING), 1,
               farms=True),
    FigureType("abbot", "abbot", 1, (Kind.BUILDING, Kind.GARDEN), 1),
    FigureType("mayor", "abbey_mayor", 1, (Kind.CITY,), 1, pennant_strength=True),
    FigureType("wagon", "abbey_mayor", 1, (Kind.ROAD, Kind.CITY, Kind.BUILDING), 1),
    FigureType("barn", "abbey_mayor", 1, (), 1, in_majority=False, corner=True),
)
BY_NAME = {f.name: f for f in FIGURE_TABLE}
FIGURES = tuple(f.name for f in FIGURE_TABLE)  # in the order legal choices list them
ALLOWED_ON = {f.name: f.stands_on for f in FIGURE_TABLE if not f.corner}
IN_MAJORITY = tuple(f.name for f in FIGURE_TABLE if f.in_majority)
FARMERS = tuple(f.name for f in FIGURE_TABLE if f.farms)
CORNER_FIGURES = tuple(f.name for f in FIGURE_TABLE if f.corner)
# Pieces held in hand that are not figures: the abbey tile of Abbey & Mayor.
HELD_PIECES = {"abbey": ("abbey_mayor", 1)}


def starting_hand(expansions: frozenset[str]) -> dict[str, int]:
    """What each player holds at the start, for the expansions in play."""
    hand = {f.name: f.per_player for f in FIGURE_TABLE
            if f.expansion == "base" or f.expansion in expansions}
    hand.update({name: count for name, (expansion, count) in HELD_PIECES.items()
                 if expansion in expansions})
    return hand


def strength(figure: str, pennants: int) -> int:
    kind = BY_NAME[figure]
    return pennants if kind.pennant_strength else kind.strength
