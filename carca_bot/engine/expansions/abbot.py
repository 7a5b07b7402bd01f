"""The Abbot (docs/RULES.md 2.7): gardens, and recalling the abbot.

The abbot is a row of the figure table (it stands on monasteries and gardens;
the catalogue's gardens come with every game, but only an abbot may stand in
one). The `Recall` step is here: instead of a figure, the player takes the abbot
back and scores its monastery or garden as at the game's end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.checks import placed_turn
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.figure_types import FigureType
from carca_bot.engine.msgids import N_, N_plural
from carca_bot.engine.outcome import Outcome, apply
from carca_bot.engine.phase import Figure, Turn
from carca_bot.engine.scoring import feature_name, feature_points
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def abbot_of(game: GameState, player: int) -> Figure | None:
    if game.hand[player].get("abbot", 0):  # one abbot each: held, so not on the board
        return None
    for fig in game.figures:  # asked at every turn: a loop, not a generator
        if fig.kind == "abbot" and fig.player == player:
            return fig
    return None


def recall(game: GameState, player: int) -> None:
    """Take the abbot back and score its monastery or garden as at the game's end."""
    turn = placed_turn(game, player)
    if turn.deploy or turn.recall:
        raise IllegalMove("one_figure")
    abbot = abbot_of(game, player)
    if abbot is None:
        raise IllegalMove("no_abbot_on_board", who=player)
    root = game.board.find(abbot.node)
    if game.board.is_complete(root):
        raise IllegalMove("abbot_completes")
    apply(game, score_recall(game, abbot, root))
    game.turn = Turn(turn.player, turn.tile, turn.pos, turn.rot, turn.touched, turn.deploy,
                     True, turn.token, turn.token_first, turn.barn_node)


def score_recall(game: GameState, abbot: Figure, root: int) -> Outcome:
    """The abbot's monastery or garden scored as at the game's end, and the abbot home."""
    feat = game.board.features[root]
    assert feat is not None
    points, reason, params = feature_points(game.board, feat, True, game.hooks.feature_value)
    outcome = Outcome.empty(len(game.players))
    outcome.award((abbot.player,), points, feature_name(feat), "abbot_recalled",
                  {"counted": reason, **params}, (feat.pos,))
    outcome.home.append(abbot)
    return outcome


EXPANSION = Expansion(
    "abbot", N_("The Abbot"), 2, 20, aliases=("abbots", "gardens"),
    figures=(FigureType("abbot", "abbot", 1, (Kind.BUILDING, Kind.GARDEN), 1, N_("abbot"),
                        N_("an abbot"), N_("Abbot"), N_plural("{n} abbot", "{n} abbots"),
                        1.0),))
