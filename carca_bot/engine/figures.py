"""The one table of figures, as names: what each counts as, where it may stand, how many.

docs/RULES.md 2.4 (followers), 2.7 (abbot), 2.8 (mayor, wagon, barn). The rows are
declared by the expansions' records (`state.Expansion.figures`) and gathered in
`rules.FIGURE_TABLE`; these are the views of it other modules read by name.
"""

from __future__ import annotations

from carca_bot.engine.figure_types import FigureType, power
from carca_bot.engine.rules import FIGURE_BY_NAME, FIGURE_TABLE, REGISTERED, require_figures

__all__ = ["ALLOWED_ON", "BY_NAME", "CORNER_FIGURES", "FARMERS", "FIGURES", "FIGURE_TABLE",
           "IN_MAJORITY", "FigureType", "require_figures", "starting_hand", "strength"]

BY_NAME = FIGURE_BY_NAME
FIGURES = tuple(f.name for f in FIGURE_TABLE)  # in the order legal choices list them
ALLOWED_ON = {f.name: f.stands_on for f in FIGURE_TABLE if not f.corner}
IN_MAJORITY = tuple(f.name for f in FIGURE_TABLE if f.in_majority)
FARMERS = tuple(f.name for f in FIGURE_TABLE if f.farms)
CORNER_FIGURES = tuple(f.name for f in FIGURE_TABLE if f.corner)


def starting_hand(expansions: frozenset[str]) -> dict[str, int]:
    """What each player holds at the start, for the expansions in play: figures, then
    the pieces dealt (an abbey)."""
    hand = {f.name: f.per_player for f in FIGURE_TABLE
            if f.expansion == "base" or f.expansion in expansions}
    for record in REGISTERED:
        if record.name in expansions:
            hand.update((p.name, p.per_player) for p in record.pieces if p.per_player)
    return hand


def strength(figure: str, pennants: int) -> int:
    """A figure's weight in a majority (the mayor: its city's pennants)."""
    return power(BY_NAME[figure], pennants)
