"""Points: majorities, and what each feature is worth with how it was counted.

These only read the board; what scores goes into an `Outcome` (`outcome.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carca_bot.engine.board import Board, Feature
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.figures import IN_MAJORITY, strength
from carca_bot.engine.phase import Figure

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.state import GameState


def figures_on(board: Board, figures: list[Figure], root: int) -> list[Figure]:
    return [f for f in figures if board.find(f.node) == root]


def majority(board: Board, figures: list[Figure], root: int,
             kinds: tuple[str, ...] = IN_MAJORITY) -> tuple[int, ...]:
    """Players with the greatest strength (> 0) on a feature; mayors count pennants."""
    feat = board.features[root]
    assert feat is not None
    total: dict[int, int] = {}
    for fig in figures:
        if fig.kind in kinds and board.find(fig.node) == root:
            power = strength(fig.kind, feat.pennants)
            total[fig.player] = total.get(fig.player, 0) + power
    best = max(total.values(), default=0)
    if best <= 0:
        return ()
    return tuple(sorted(p for p, s in total.items() if s == best))


def feature_name(feat: Feature) -> str:
    return feat.building if feat.kind is Kind.BUILDING else feat.kind.value


def feature_points(board: Board, feat: Feature,
                   final: bool) -> tuple[int, str, dict[str, Any]]:
    """Points a feature is worth now, and how they were counted (reason and parameters).

    `final`: counted as at the game's end (incomplete), else as completed.
    """
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


def score_fields(game: GameState, outcome: Outcome, roots: list[int], kinds: tuple[str, ...],
                 per_city: int, feature: str, reason: str) -> None:
    """At the end, the majority of `kinds` on each field scores its completed cities."""
    board = game.board
    for root in roots:
        feat = board.features[root]
        assert feat is not None
        if feat.kind is not Kind.FIELD:
            continue
        players = majority(board, game.figures, root, kinds)
        cities = completed_cities(board, root)
        if not players or not cities:
            continue  # a field touching no completed city gives nothing to tell
        outcome.award(players, per_city * cities, feature, reason,
                      {"cities": cities, "per_city": per_city}, tuple(sorted(feat.tiles)),
                      final=True)
