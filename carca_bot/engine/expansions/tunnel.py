"""The Tunnel (docs/RULES.md 2.11): token pairs that link two road ends.

The `PlaceToken` step is here; linking the two roads is the board's job
(`Board.link_tunnel`), and the catalogue splits AM12's road with this expansion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.checks import placed_turn
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos
from carca_bot.engine.phase import TokenSpot, Turn

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState


def token_problem(game: GameState, player: int, pos: Pos, on: str,
                  pair: int) -> tuple[IllegalMove | None, int]:
    """Why a token of `pair` may not go on that entrance (None if it may), and its node."""
    if not game.setup.has("tunnel"):
        return IllegalMove("no_tunnels"), -1
    if not 0 <= pair < game.setup.pairs:
        return IllegalMove("no_such_pair", pairs=game.setup.pairs), -1
    if game.tokens[player][pair] <= 0:
        return IllegalMove("pair_used"), -1
    placed = game.board.tiles.get(pos)
    if placed is None:
        return IllegalMove("token_no_tile"), -1
    node = placed.node_named(on)
    index = None if placed.shape is None else placed.shape.names.get(on)
    if node is None or index is None or placed.shape is None:
        return IllegalMove("token_nothing_named"), -1
    seg = placed.shape.segments[index]
    if seg.kind is not Kind.ROAD or not seg.tunnel:
        return IllegalMove("no_tunnel_entrance"), -1
    if node in game.entrances:
        return IllegalMove("entrance_taken"), -1
    return None, node


def place_token(game: GameState, player: int, pos: tuple[int, int], on: str, pair: int) -> None:
    turn = placed_turn(game, player)
    if turn.token is not None:
        raise IllegalMove("one_token")
    problem, node = token_problem(game, player, pos, on, pair)
    if problem is not None:
        problem.params.update(square=pos, on=on, pair=pair)
        raise problem
    game.tokens[player][pair] -= 1
    game.entrances[node] = (player, pair)
    partner = next((n for n, owner in game.entrances.items()
                    if owner == (player, pair) and n != node), None)
    touched = turn.touched
    if partner is not None:
        game.board.link_tunnel(partner, node)
        touched = (*touched, node)
    game.turn = Turn(turn.player, turn.tile, turn.pos, turn.rot, touched, turn.deploy,
                     turn.recall, TokenSpot(pos, on, pair), turn.token_first, turn.barn_node)
