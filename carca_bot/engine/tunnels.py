"""Tunnel tokens (RULES.md 2.11): where one may go. Linking the pair is the board's job."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.geometry import Pos

if TYPE_CHECKING:
    from carca_bot.engine.game import Game


@dataclass(frozen=True, slots=True)
class TokenSpot:
    pos: Pos
    on: str
    pair: int  # 0-based, as in records


def token_problem(game: Game, player: int, pos: Pos, on: str,
                  pair: int) -> tuple[str | None, int]:
    """Why a token of `pair` may not go on that entrance (None if it may), and its node."""
    if not game.setup.has("tunnel"):
        return "this game has no tunnels", -1
    if not 0 <= pair < game.setup.pairs:
        return (f"there is no such token pair: each player has {game.setup.pairs} "
                f"pair{'s' if game.setup.pairs != 1 else ''}"), -1
    if game.tokens[player][pair] <= 0:
        return "both tokens of that pair are already on the board", -1
    placed = game.board.tiles.get(pos)
    if placed is None:
        return f"there is no tile at {list(pos)}", -1
    node = placed.node_named(on)
    index = None if placed.shape is None else placed.shape.names.get(on)
    if node is None or index is None or placed.shape is None:
        return f"{on!r} names nothing on the tile at {list(pos)}", -1
    seg = placed.shape.segments[index]
    if seg.kind is not Kind.ROAD or not seg.tunnel:
        return f"the {on} side of the tile at {list(pos)} has no tunnel entrance", -1
    if node in game.entrances:
        return "that tunnel entrance already has a token", -1
    return None, node
