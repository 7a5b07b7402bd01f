"""Abbey & Mayor (docs/RULES.md 2.8): the abbey, the mayor, the wagon and the barn.

The mayor is a row of the figure table (its strength is the city's pennants).
Hooks: `turn_scoring` (a barn placed, or farmers joined to a barn's field, score
now) and `final` (barns score 4 per completed city). Also here: where a barn may
stand and where a wagon may move after its feature is scored (rules c2 and c1).
The abbey step and the end-of-game abbey round are in `steps.py` / `endround.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.figures import CORNER_FIGURES, FARMERS
from carca_bot.engine.geometry import CORNER_INDEX, Pos, around, neighbour, opposite
from carca_bot.engine.phase import Figure, PendingWagon
from carca_bot.engine.scoring import (
    completed_cities,
    figures_on,
    majority,
    score_fields,
)

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.phase import Turn
    from carca_bot.engine.state import GameState, ScorerState


def barn_problem(game: GameState, turn: Turn, on: str) -> tuple[IllegalMove | None, int]:
    corner = CORNER_INDEX.get(on)
    if corner is None:
        return IllegalMove("barn_not_corner"), -1
    node = game.board.corner_field(turn.pos, corner)
    if node is None:
        return IllegalMove("barn_corner_not_field"), -1
    root = game.board.find(node)
    if any(f.kind == "barn" and game.board.find(f.node) == root for f in game.figures):
        return IllegalMove("barn_field_taken"), -1
    return None, node


def barns(scorer: ScorerState, completed: list[int], winners: list[int]) -> None:
    """A barn placed, or farmers joined to a barn's field, score that field now."""
    board, outcome = scorer.board, scorer.outcome
    barn_root = None if scorer.turn.barn_node is None else board.find(scorer.turn.barn_node)
    barns_now = [f for f in scorer.standing() if f.kind in CORNER_FIGURES]
    fields: list[tuple[int, int, str]] = []
    if barn_root is not None:
        fields.append((barn_root, 3, "barn_placed"))
    placed = board.tiles[scorer.turn.pos]
    if placed.shape is not None:
        for node, seg in zip(placed.nodes, placed.shape.segments, strict=True):
            root = board.find(node)
            if (seg.kind is Kind.FIELD and root != barn_root
                    and all(root != r for r, _, _ in fields)
                    and figures_on(board, barns_now, root)):
                fields.append((root, 1, "barn_joined"))
    for root, per_city, why in fields:
        standing = scorer.standing()
        farmers = [f for f in figures_on(board, standing, root) if f.kind in FARMERS]
        if not farmers:
            continue
        cities = completed_cities(board, root)
        feat = board.features[root]
        assert feat is not None
        outcome.award(majority(board, standing, root, FARMERS), per_city * cities,
                      "field", why, {"cities": cities, "per_city": per_city},
                      tuple(sorted(feat.tiles)))
        outcome.home.extend(farmers)


def final(game: GameState, roots: list[int], outcome: Outcome) -> None:
    """Each field's barn owners score 4 per completed city it touches."""
    score_fields(game, outcome, roots, CORNER_FIGURES, 4, "barn", "barn_final")


WAGON_KINDS = (Kind.ROAD, Kind.CITY, Kind.BUILDING)


def _segments(board: Board, pos: Pos) -> list[tuple[int, str, Kind]]:
    placed = board.tiles[pos]
    if placed.shape is None:
        return [(placed.nodes[0], "C", Kind.BUILDING)]
    return [(node, seg.name, seg.kind)
            for node, seg in zip(placed.nodes, placed.shape.segments, strict=True)]


def _c1_roots(board: Board, wagon: PendingWagon) -> set[int]:
    """Features directly connected to the scored one: gates, junctions, cloister roads."""
    scored = wagon.scored
    feat = board.features[scored]
    assert feat is not None
    found: set[int] = set()
    for square in feat.tiles:
        placed = board.tiles[square]
        if placed.shape is None:  # the scored abbey: the roads its walls close
            for side in range(4):
                other = board.tiles.get(neighbour(square, side))
                if other is None or other.shape is None:
                    continue
                index = other.shape.side_segment[opposite(side)]
                if index is not None and other.shape.segments[index].kind is Kind.ROAD:
                    found.add(board.find(other.nodes[index]))
            continue
        for group in placed.shape.links:
            if any(board.find(placed.nodes[i]) == scored for i in group):
                found.update(board.find(placed.nodes[i]) for i in group)
        if feat.kind is Kind.ROAD:  # a road closed by an abbey wall leads into the abbey
            for side in range(4):
                index = placed.shape.side_segment[side]
                abbey = board.tiles.get(neighbour(square, side))
                if (index is not None and abbey is not None and abbey.shape is None
                        and board.find(placed.nodes[index]) == scored):
                    found.add(board.find(abbey.nodes[0]))
    found.discard(scored)
    return found


def wagon_targets(board: Board, figures: list[Figure], wagon: PendingWagon,
                  rule: str) -> list[tuple[Pos, str]]:
    """Every (square, feature name) the wagon may move to, nearest squares first."""
    occupied = {board.find(f.node) for f in figures}

    def free(root: int, kind: Kind) -> bool:
        return (kind in WAGON_KINDS and root not in occupied and root != wagon.excluded
                and not board.is_complete(root))

    targets: list[tuple[Pos, str]] = []
    if rule == "c2":
        for square in [wagon.pos, *around(wagon.pos)]:
            if square in board.tiles:
                targets.extend((square, name) for node, name, kind in _segments(board, square)
                               if free(board.find(node), kind))
        return targets
    for root in sorted(_c1_roots(board, wagon)):
        feat = board.features[root]
        assert feat is not None
        if not free(root, feat.kind):
            continue
        for square in sorted(feat.tiles):
            targets.extend((square, name) for node, name, _ in _segments(board, square)
                           if board.find(node) == root)
    return targets


def wagon_refusal(board: Board, figures: list[Figure], wagon: PendingWagon, pos: Pos, on: str,
                  rule: str) -> IllegalMove:
    """Why the wagon may not move to (pos, on)."""
    placed = board.tiles.get(pos)
    node = placed.node_named(on) if placed else None
    if node is None:
        return IllegalMove("wagon_nothing_named", on=on, square=pos)
    root = board.find(node)
    feat = board.feature(node)
    if feat.kind in (Kind.FIELD, Kind.GARDEN):
        return IllegalMove("wagon_onto", kind=feat.kind.value)
    if board.is_complete(root):
        return IllegalMove("wagon_complete")
    if any(board.find(f.node) == root for f in figures):
        return IllegalMove("wagon_occupied")
    if root == wagon.excluded:
        return IllegalMove("wagon_chased_from")
    if rule == "c2":
        return IllegalMove("wagon_c2_range", wagon_at=wagon.pos)
    return IllegalMove("wagon_c1_link")
