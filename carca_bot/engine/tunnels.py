"""Tunnel tokens (RULES.md 2.11): where one may go. Linking the pair is the board's job."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.geometry import Pos

if TYPE_CHECKING:
    from carca_bot.engine.game import Game


@dataclass(frozen=True, slots=True)
class TokenSpot:
    pos: Pos
    on: str
    pair: int  # 0-based, as in records


def token_problem(game: Game, player: int, pos: Pos, on: str,
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
