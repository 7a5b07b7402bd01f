"""Where a wagon may go after its feature is scored (RULES.md 2.8.3): rules c2 and c1."""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos, around, neighbour, opposite
from carca_bot.engine.scoring import Figure

WAGON_KINDS = (Kind.ROAD, Kind.CITY, Kind.BUILDING)


@dataclass(frozen=True, slots=True)
class PendingWagon:
    """A wagon taken off the board this turn whose owner may move it."""

    player: int
    pos: Pos  # the square it stood on
    scored: int  # root of the feature it left
    excluded: int | None = None  # a building it was chased from by a Cult challenge


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
