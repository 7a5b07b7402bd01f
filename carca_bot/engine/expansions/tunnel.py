"""The Tunnel (docs/RULES.md 2.11): token pairs that link two road ends.

The `PlaceToken` step is here; linking the two roads is the board's job
(`Board.link_tunnel`), and the catalogue splits AM12's road with this expansion.
Its slot is the `Tunnels`: each player's tokens in hand, the entrances taken,
and whether a token went down this turn (one per whole turn, both parts of a
builder's double turn together: docs/rules/RULES-inns-traders.md 4.17).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.checks import placed_turn
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.figure_types import Piece
from carca_bot.engine.geometry import Pos
from carca_bot.engine.msgids import N_, N_plural
from carca_bot.engine.phase import TokenSpot, Turn
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion, HasSlots, put

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState, SetupView

NAME = "tunnel"


@dataclass(frozen=True, slots=True)
class Tunnels:
    """Replaced, never changed: so a game's copies and undo frames share it."""

    tokens: tuple[tuple[int, ...], ...]  # per player, per pair: tokens still in hand
    entrances: dict[int, tuple[int, int]]  # road node -> (player, pair); never changed
    spent: bool = False  # a token went down in this turn (either part)


NO_TUNNELS = Tunnels((), {})


def tunnels_of(game: HasSlots) -> Tunnels:
    """The game's tokens (no tokens and no entrances without the Tunnel)."""
    state = game.slots.get(NAME, NO_TUNNELS)
    assert isinstance(state, Tunnels)
    return state


def token_problem(game: GameState, player: int, pos: Pos, on: str,
                  pair: int) -> tuple[IllegalMove | None, int]:
    """Why a token of `pair` may not go on that entrance (None if it may), and its node."""
    if not game.setup.has(NAME):
        return IllegalMove("no_tunnels"), -1
    if not 0 <= pair < game.setup.pairs:
        return IllegalMove("no_such_pair", pairs=game.setup.pairs), -1
    state = tunnels_of(game)
    if state.tokens[player][pair] <= 0:
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
    if node in state.entrances:
        return IllegalMove("entrance_taken"), -1
    return None, node


def place_token(game: GameState, player: int, pos: tuple[int, int], on: str, pair: int) -> None:
    turn = placed_turn(game, player)
    state = tunnels_of(game)
    if turn.token is not None or state.spent:
        raise IllegalMove("one_token")
    problem, node = token_problem(game, player, pos, on, pair)
    if problem is not None:
        problem.params.update(square=pos, on=on, pair=pair)
        raise problem
    held = list(state.tokens[player])
    held[pair] -= 1
    tokens = list(state.tokens)
    tokens[player] = tuple(held)
    entrances = dict(state.entrances)
    entrances[node] = (player, pair)
    put(game, NAME, Tunnels(tuple(tokens), entrances, True))
    partner = next((n for n, owner in state.entrances.items() if owner == (player, pair)), None)
    touched = turn.touched
    if partner is not None:
        for hook in game.hooks.linked:
            hook(game, player, partner, node)
        game.board.link_tunnel(partner, node)
        touched = (*touched, node)
    game.turn = Turn(turn.player, turn.tile, turn.pos, turn.rot, touched, turn.deploy,
                     turn.recall, TokenSpot(pos, on, pair), turn.token_first, turn.barn_node)


def legal_tokens(game: GameState, turn: Turn) -> list[TokenSpot]:
    """Every entrance and pair the active player may put a token on now."""
    state = tunnels_of(game)
    if turn.token is not None or state.spent or not state.tokens:
        return []
    held = state.tokens[turn.player]
    pairs = [pair for pair in range(len(held)) if held[pair] > 0]
    if not pairs:
        return []
    spots: list[TokenSpot] = []
    for pos, placed in game.board.tiles.items():
        if placed.shape is None:
            continue
        for node, seg in zip(placed.nodes, placed.shape.segments, strict=True):
            if seg.tunnel and node not in state.entrances:
                spots.extend(TokenSpot(pos, seg.name, pair) for pair in pairs)
    return spots


def turn_over(game: GameState) -> None:
    """A new turn may place a token again."""
    state = tunnels_of(game)
    if state.spent:
        put(game, NAME, Tunnels(state.tokens, state.entrances))


def in_hand(game: GameState, player: int, held: dict[str, int]) -> None:
    """Tokens not yet placed."""
    tokens = tunnels_of(game).tokens
    held["tokens"] = sum(tokens[player]) if tokens else 0


def _start(setup: SetupView) -> Tunnels:
    return Tunnels(tuple((2,) * setup.pairs for _ in setup.players), {})


EXPANSION = Expansion(
    NAME, N_("Tunnel"), 6, 60, aliases=("tunnels",), tile_prefix="TU",
    pieces=(Piece("tokens", N_("tunnel token"),
                  N_plural("{n} tunnel token", "{n} tunnel tokens")),),
    slot=_start, turn_over=turn_over, in_hand=in_hand)
