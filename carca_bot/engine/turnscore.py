"""The scoring step of a turn and the final scoring, in the order of docs/RULES.md 2.2/2.12.

Turn: completed features (worth what the `feature_value` hooks make of them),
then the expansions' `turn_scoring` hooks (Cult challenges, barn scorings,
goods), figures home, the `turn_end` hooks (wagons lifted, King and Robber).
End: incomplete features, farmers, then the `final` hooks (barns, King and
Robber, goods).

Both only read the game: they return an `Outcome`, which `outcome.apply` makes so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.figure_types import farms
from carca_bot.engine.geometry import AROUND, Pos
from carca_bot.engine.outcome import Outcome
from carca_bot.engine.phase import Figure, PendingWagon
from carca_bot.engine.scoring import (
    feature_name,
    feature_points,
    figures_on,
    majority,
    score_fields,
)
from carca_bot.engine.shapes import Kind

if TYPE_CHECKING:
    from carca_bot.engine.board import Board
    from carca_bot.engine.phase import Turn
    from carca_bot.engine.state import GameState


NINE = ((0, 0), *AROUND)  # the tile placed, then the squares around it
_NINE_AT: dict[Pos, tuple[Pos, ...]] = {}  # square -> the squares of NINE there, made once


def nine(pos: Pos) -> tuple[Pos, ...]:
    """The squares of `NINE` around `pos`, in that order (kept: asked at every turn)."""
    squares = _NINE_AT.get(pos)
    if squares is None:
        if len(_NINE_AT) > 100_000:  # a long-running process: keep the table bounded
            _NINE_AT.clear()
        x, y = pos
        squares = _NINE_AT[pos] = tuple([(x + dx, y + dy) for dx, dy in NINE])
    return squares


def completed_features(board: Board, turn: Turn) -> list[int]:
    """Features this turn completed: its cities and roads, then buildings and gardens
    on the tile or around it, in the order of `NINE`."""
    parent, features = board.parent, board.features
    roots: list[int] = []
    for node in turn.touched:
        while parent[node] != node:  # `board.find`, spelt out: this runs at every turn
            node = parent[node]
        feat = features[node]
        assert feat is not None
        if feat.open == 0 and node not in roots and feat.kind in (Kind.CITY, Kind.ROAD):
            roots.append(node)
    buildings, gardens = board.buildings, board.gardens
    if not buildings and not gardens:
        return roots
    squares = nine(turn.pos)
    # Most turns have no building or garden near: two set questions answer that in C.
    if buildings.keys().isdisjoint(squares) and gardens.isdisjoint(squares):
        return roots
    for square in squares:
        if square not in buildings and square not in gardens:
            continue
        placed = board.tiles.get(square)
        if placed is None or not board.surrounded(square):
            continue
        if square in buildings:
            roots.append(board.find(board.building_node(square)))
        if square in gardens and placed.shape is not None:
            assert placed.shape.garden is not None
            roots.append(board.find(placed.nodes[placed.shape.garden]))
    return roots


class TurnScorer:
    """Works out what one turn scores, into `outcome`; the game is left as it is."""

    def __init__(self, game: GameState, turn: Turn) -> None:
        self.game = game
        self.board = game.board
        self.turn = turn
        self.leaving: list[tuple[Figure, int, int | None]] = []  # figure, feature, chased from
        self.outcome = Outcome.empty(len(game.players))

    def standing(self) -> list[Figure]:
        """The figures on the board, less those the outcome already takes off."""
        return self.outcome.standing(self.game.figures)

    def score_turn(self, completed: list[int] | None = None) -> Outcome:
        """What the turn scores; `completed`: its `completed_features`, if known already."""
        if completed is None:
            completed = completed_features(self.board, self.turn)
        outcome = self.outcome
        figures = self.game.figures
        hooks = self.game.hooks
        occupied_buildings: list[int] = []
        for root in completed:
            feat = self.board.features[root]
            assert feat is not None
            here = figures_on(self.board, figures, root)
            points, reason, params = feature_points(self.board, feat, False,
                                                    hooks.feature_value)
            outcome.award(majority(self.board, figures, root), points, feature_name(feat),
                          reason, params, tuple(sorted(feat.tiles)), pennants=feat.pennants,
                          complete=True)
            self.leaving.extend((f, root, None) for f in here)
            if here and feat.kind is Kind.BUILDING:
                occupied_buildings.append(root)
            if feat.kind in (Kind.CITY, Kind.ROAD):
                outcome.completed.append(feat.kind)
        for turn_scoring in hooks.turn_scoring:
            turn_scoring(self, completed, occupied_buildings)
        self._send_home()
        for turn_end in hooks.turn_end:
            turn_end(self, completed)
        return outcome

    def _send_home(self) -> None:
        outcome = self.outcome
        if not self.leaving:
            outcome.lifted = []
            return
        standing = self.standing()
        lifted: list[tuple[Figure, PendingWagon]] = []
        for fig, root, chased_from in self.leaving:
            if not any(fig is f for f in standing) or any(fig is f for f, _ in lifted) \
                    or any(fig is f for f in outcome.home):
                continue
            if fig.type.lifted:
                lifted.append((fig, PendingWagon(fig.player, fig.pos, root, chased_from)))
            else:
                outcome.home.append(fig)
        count = len(self.game.players)
        lifted.sort(key=lambda w: (w[1].player - self.turn.player) % count)
        outcome.lifted = lifted


def final_scoring(game: GameState) -> Outcome:
    """What is left on the board scores at the end; no figure goes home."""
    board = game.board
    outcome = Outcome.empty(len(game.players))
    roots: list[int] = []
    for fig in game.figures:
        root = board.find(fig.node)
        if root not in roots:
            roots.append(root)
    order = {Kind.ROAD: 0, Kind.CITY: 1, Kind.BUILDING: 2, Kind.GARDEN: 3, Kind.FIELD: 4}

    def kind_of(root: int) -> Kind:
        feat = board.features[root]
        assert feat is not None
        return feat.kind

    roots.sort(key=lambda r: order[kind_of(r)])

    for root in roots:
        feat = board.features[root]
        assert feat is not None
        tiles = tuple(sorted(feat.tiles))
        if feat.kind is not Kind.FIELD:
            points, reason, params = feature_points(board, feat, True, game.hooks.feature_value)
            outcome.award(majority(board, game.figures, root), points, feature_name(feat),
                          reason, params, tiles, pennants=feat.pennants, final=True)
    score_fields(game, outcome, roots, farms, 3, "field", "farmers_final")
    for final in game.hooks.final:
        final(game, roots, outcome)
    return outcome
