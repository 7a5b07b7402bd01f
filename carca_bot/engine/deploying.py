"""Where a figure may go on the tile just placed (docs/RULES.md 2.4, 2.7, 2.8;
docs/rules/RULES-inns-traders.md 2.16.3, 2.17.2, 2.17.3).

Read from the figure's row: the kinds it may stand on; a corner figure (the barn)
asks its expansion's `deploy` hook; a figure that `joins` (the builder, the pig)
goes only onto a feature, not yet completed, where a follower of its player
already stands; any other goes only onto a feature nobody holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.expansions.abbey_mayor import barn_problem
from carca_bot.engine.figures import ALLOWED_ON, FIGURES
from carca_bot.engine.rules import FIGURE_BY_NAME
from carca_bot.engine.shapes import Kind

if TYPE_CHECKING:
    from carca_bot.engine.phase import Turn
    from carca_bot.engine.state import GameState

__all__ = ["ALLOWED_ON", "FIGURES", "barn_problem", "deploy_problem", "has_follower"]


def deploy_problem(game: GameState, turn: Turn, figure: str,
                   on: str) -> tuple[IllegalMove | None, int]:
    """Why `figure` may not go `on` the tile just placed (None if it may), and its node."""
    player = turn.player
    kind = FIGURE_BY_NAME.get(figure)
    if kind is None:
        return IllegalMove("unknown_figure"), -1
    if game.hand[player].get(figure, 0) <= 0:
        return IllegalMove("figure_not_in_hand", who=player), -1
    if kind.corner:
        return game.hooks.deploy[figure](game, turn, kind, on)
    board = game.board
    node = board.tiles[turn.pos].node_named(on)
    if node is None:
        return IllegalMove("deploy_nothing_named"), -1
    root = board.find(node)
    feat = board.features[root]
    assert feat is not None
    if feat.kind is Kind.GARDEN and Kind.GARDEN not in kind.stands_on:
        return IllegalMove("garden_abbot_only"), -1
    if feat.kind not in kind.stands_on:
        where = feat.building if feat.kind is Kind.BUILDING else feat.kind.value
        return IllegalMove("figure_not_allowed", where=where), -1
    if kind.joins:
        if board.is_complete(root):
            return IllegalMove("joins_completed", kind=feat.kind.value), -1
        if not has_follower(game, player, root, feat.tiles):
            return IllegalMove("joins_no_follower", kind=feat.kind.value), -1
        return None, node
    tiles, parent = feat.tiles, board.parent
    for fig in game.figures:  # a figure stands on a square of its feature: few finds
        if fig.pos in tiles:
            other = fig.node
            while parent[other] != other:  # `board.find`, spelt out
                other = parent[other]
            if other == root:
                return IllegalMove("feature_occupied", kind=feat.kind.value), -1
    return None, node


def has_follower(game: GameState, player: int, root: int, tiles: frozenset[tuple[int, int]],
                 ) -> bool:
    """Whether a follower of `player` stands on the feature of `root` (squares `tiles`)."""
    find = game.board.find
    return any(fig.player == player and fig.type.follower and fig.pos in tiles
               and find(fig.node) == root for fig in game.figures)
