"""Points: majorities, and what each feature is worth with how it was counted.

These only read the board; what scores goes into an `Outcome` (`outcome.py`).
A figure's weight in a majority comes from its row of the figure table
(`Figure.type`); what a feature is worth, from the base rules and then the
`feature_value` hooks of the expansions in play (an inn, a cathedral).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from carca_bot.engine.board import Board, Feature
from carca_bot.engine.figure_types import FigureType, counts, power
from carca_bot.engine.phase import Figure
from carca_bot.engine.shapes import Kind

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.state import FeatureValueHook, GameState


def figures_on(board: Board, figures: list[Figure], root: int) -> list[Figure]:
    return [f for f in figures if board.find(f.node) == root]


def majority(board: Board, figures: list[Figure], root: int,
             which: Callable[[FigureType], bool] = counts) -> tuple[int, ...]:
    """Players with the greatest strength (> 0) on a feature, among the figures `which`
    takes (by default those in the feature's majority); mayors count pennants."""
    feat = board.features[root]
    assert feat is not None
    total: dict[int, int] = {}
    for fig in figures:
        if which(fig.type) and board.find(fig.node) == root:
            total[fig.player] = total.get(fig.player, 0) + power(fig.type, feat.pennants)
    best = max(total.values(), default=0)
    if best <= 0:
        return ()
    return tuple(sorted(p for p, s in total.items() if s == best))


def feature_name(feat: Feature) -> str:
    return feat.building if feat.kind is Kind.BUILDING else feat.kind.value


def feature_points(board: Board, feat: Feature, final: bool,
                   hooks: Sequence[FeatureValueHook] = ()) -> tuple[int, str, dict[str, Any]]:
    """Points a feature is worth now, and how they were counted (reason and parameters).

    `final`: counted as at the game's end (incomplete), else as completed. `hooks`:
    the expansions' `feature_value` hooks (`game.hooks.feature_value`), each given
    what the base rules and the hooks before it made of the feature.
    """
    value = _base_points(board, feat, final)
    for hook in hooks:
        value = hook(feat, final, value)
    return value


def _base_points(board: Board, feat: Feature, final: bool) -> tuple[int, str, dict[str, Any]]:
    name = feature_name(feat)
    if feat.kind is Kind.ROAD:
        n = len(feat.tiles)
        return n, "road", {"final": final, "tiles": n}
    if feat.kind is Kind.CITY:
        n, p = len(feat.tiles), feat.pennants
        each = 1 if final else 2
        return each * (n + p), "city", {"final": final, "tiles": n, "pennants": p,
                                        "each": each}
    if feat.kind in (Kind.BUILDING, Kind.GARDEN):
        if not final:
            return 9, "building", {"final": False, "name": name}
        around = board.neighbours(feat.pos)
        return 1 + around, "building", {"final": True, "name": name, "neighbours": around}
    raise ValueError(f"no points for a {name}")  # pragma: no cover - fields score by cities


def completed_cities(board: Board, field_node: int) -> int:
    return sum(1 for c in board.adjacent_cities(field_node) if board.is_complete(c))


def score_field(game: GameState, outcome: Outcome, figures: list[Figure], root: int,
                which: Callable[[FigureType], bool], per_city: int, feature: str,
                reason: str, final: bool) -> tuple[int, ...]:
    """The majority of the figures `which` takes on a field scores its completed cities,
    then the `field_bonus` hooks (a pig); the players who scored."""
    board = game.board
    feat = board.features[root]
    assert feat is not None
    players = majority(board, figures, root, which)
    cities = completed_cities(board, root)
    if not players or (final and not cities):
        return ()  # a field touching no completed city gives nothing to tell at the end
    outcome.award(players, per_city * cities, feature, reason,
                  {"cities": cities, "per_city": per_city}, tuple(sorted(feat.tiles)),
                  final=final)
    for hook in game.hooks.field_bonus:
        hook(game, outcome, figures, root, players, cities, reason)
    return players


def score_fields(game: GameState, outcome: Outcome, roots: list[int],
                 which: Callable[[FigureType], bool], per_city: int, feature: str,
                 reason: str) -> None:
    """At the end, the majority of the figures `which` takes on each field scores."""
    features = game.board.features
    for root in roots:
        feat = features[root]
        assert feat is not None
        if feat.kind is Kind.FIELD:
            score_field(game, outcome, game.figures, root, which, per_city, feature, reason,
                        True)
