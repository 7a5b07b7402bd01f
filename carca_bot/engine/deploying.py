"""Where a figure may go on the tile just placed (docs/RULES.md 2.4, 2.7, 2.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.expansions.abbey_mayor import barn_problem
from carca_bot.engine.figures import ALLOWED_ON, CORNER_FIGURES, FIGURES

if TYPE_CHECKING:
    from carca_bot.engine.phase import Turn
    from carca_bot.engine.state import GameState

__all__ = ["ALLOWED_ON", "FIGURES", "barn_problem", "deploy_problem"]


def deploy_problem(game: GameState, turn: Turn, figure: str,
                   on: str) -> tuple[IllegalMove | None, int]:
    """Why `figure` may not go `on` the tile just placed (None if it may), and its node."""
    player = turn.player
    if figure not in FIGURES:
        return IllegalMove("unknown_figure"), -1
    if game.hand[player].get(figure, 0) <= 0:
        return IllegalMove("figure_not_in_hand", who=player), -1
    if figure in CORNER_FIGURES:
        return barn_problem(game, turn, on)
    board = game.board
    node = board.tiles[turn.pos].node_named(on)
    if node is None:
        return IllegalMove("deploy_nothing_named"), -1
    root = board.find(node)
    feat = board.features[root]
    assert feat is not None
    if feat.kind is Kind.GARDEN and figure != "abbot":
        return IllegalMove("garden_abbot_only"), -1
    if feat.kind not in ALLOWED_ON[figure]:
        where = feat.building if feat.kind is Kind.BUILDING else feat.kind.value
        return IllegalMove("figure_not_allowed", where=where), -1
    tiles, parent = feat.tiles, board.parent
    for fig in game.figures:  # a figure stands on a square of its feature: few finds
        if fig.pos in tiles:
            other = fig.node
            while parent[other] != other:  # `board.find`, spelt out
                other = parent[other]
            if other == root:
                return IllegalMove("feature_occupied", kind=feat.kind.value), -1
    return None, node
