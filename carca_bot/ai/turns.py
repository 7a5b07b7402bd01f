"""Whole choices: a decision and the steps that finish it, played as one unit by the AI.

The engine asks one step at a time (place the tile, then a figure or the abbot's
recall, a tunnel token, then `EndTurn`). The AI chooses between *plans*: tuples of
the steps up to the move that closes the action (`EndTurn`, a discard, a wagon
move, skipping the abbey round), or just `Draw()` at the start of a turn. Its
answer to one decision is the first step of the plan it picks; asked again at the
next step, it chooses among the plans that continue from there.

Tunnel tokens: a token of a pair still whole only opens a tunnel, so those pairs are
alike: the first is offered, on the tile just placed (where the player can build on it
now). A pair with one token placed links wherever its second goes, so every free
entrance is offered for it.
"""

from __future__ import annotations

from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import (
    Draw,
    EndTurn,
    Move,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    SkipAbbey,
)

Plan = tuple[Move, ...]
END: Plan = (EndTurn(),)


def plans(game: Game, tile: str | None = None) -> list[Plan]:
    """Every plan open to whoever decides now (`tile`: the tile they drew)."""
    phase = game.phase
    if phase is Phase.PLACED:
        return follow_ups(game)
    if phase is Phase.WAGON or phase is Phase.FINISHED:
        return [(m,) for m in game.legal_moves()]
    out: list[Plan] = []
    starts: list[Move]
    if phase is Phase.ABBEY_ROUND:
        out.append((SkipAbbey(),))
        starts = [m for m in game.legal_moves() if isinstance(m, PlaceAbbey)]
    elif tile is None:
        starts = []
        for m in game.legal_moves():
            if isinstance(m, Draw):
                out.append((m,))
            else:
                starts.append(m)
    else:
        starts = game.legal_moves(tile)
    for first in starts:
        if not isinstance(first, PlaceTile | PlaceAbbey):
            out.append((first,))  # a discard
            continue
        game.push(first)
        try:
            out.extend((first, *rest) for rest in follow_ups(game))
        finally:
            game.pop()
    return out


def follow_ups(game: Game) -> list[Plan]:
    """After the tile (or abbey) is down: a figure, a recall or none; a token or none.

    A figure and a token together are offered only for a token on the tile just
    placed; a token elsewhere comes without a figure, which keeps the plans of a
    tunnel game to a few per placement instead of figures times tokens.
    """
    turn = game.turn
    assert turn is not None
    figures: list[Move] = list(game.legal_deployments())
    if game.can_recall():
        figures.append(Recall())
    tokens = token_choices(game)
    out: list[Plan] = [END]
    out.extend((fig, EndTurn()) for fig in figures)
    for token in tokens:
        out.append((token, EndTurn()))
        if isinstance(token, PlaceToken) and token.pos == turn.pos:
            out.extend((fig, token, EndTurn()) for fig in figures)
    return out


def token_choices(game: Game) -> list[Move]:
    """The tunnel tokens worth telling apart (see the module's docstring)."""
    turn = game.turn
    if turn is None or turn.token is not None or not game.setup.pairs:
        return []
    held = game.tokens[turn.player]
    whole = next((pair for pair, n in enumerate(held) if n == 2), None)
    linking = {pair for pair, n in enumerate(held) if n == 1}
    out: list[Move] = []
    for s in game.legal_tokens():
        if s.pair in linking or (s.pair == whole and s.pos == turn.pos):
            out.append(PlaceToken(s.pos, s.on, s.pair))
    return out


def play(game: Game, plan: Plan) -> int:
    """Push every step of `plan`; returns how many to pop to take it back."""
    for move in plan:
        game.push(move)
    return len(plan)


def undo(game: Game, count: int) -> None:
    for _ in range(count):
        game.pop()
