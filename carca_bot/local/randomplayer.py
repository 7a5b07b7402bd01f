"""A player who picks uniformly among legal options, through the service like anyone else.

Used by the demo and the benchmark, so both exercise the same path a real
player's commands take: legal options, then step by step, then confirm.
"""

from __future__ import annotations

import random

from carca_bot.i18n import Domain
from carca_bot.service import Choices, GameService, TurnView, User, Where
from carca_bot.words.english import figure_name
from carca_bot.words.tiles import tile_name

_T = Domain("local")
_ = _T.gettext


async def play_random_move(service: GameService, where: Where, user: User,
                           rng: random.Random) -> tuple[TurnView, str]:
    """Make one committed move for `user`, who must be the one to act.

    Returns the view after the move and a short description of it.
    """
    choices = await service.legal_moves(where, user)
    if choices.must == "wagon":
        if choices.wagon_moves and rng.random() < 0.7:
            x, y, on = rng.choice(choices.wagon_moves)
            said = _("wagon to {on} at {square}").format(on=on, square=f"{x},{y}")
            return await service.move_wagon(where, user, x, y, on), said
        return await service.return_wagon(where, user), _("wagon returns")
    if choices.must == "abbey_round":
        if rng.random() < 0.5:
            return await service.skip_abbey(where, user), _("keeps the abbey")
        return await _abbey_turn(service, where, user, choices, rng)
    if choices.must == "choose":
        if rng.random() < 0.2:
            return await _abbey_turn(service, where, user, choices, rng)
        await service.draw(where, user)
        choices = await service.legal_moves(where, user)
    if choices.must == "finish":  # a turn left unconfirmed (a restart): finish it as it is
        return await service.confirm(where, user), _("confirms the turn")
    x, y, rot = rng.choice(choices.placements)
    await service.place_tile(where, user, x, y, rot)
    return await _finish(service, where, user, rng, _("{tile} at {square} turned {degrees}")
                         .format(tile=tile_name(choices.tile or ""), square=f"{x},{y}",
                                 degrees=rot))


async def _abbey_turn(service: GameService, where: Where, user: User, choices: Choices,
                      rng: random.Random) -> tuple[TurnView, str]:
    x, y = rng.choice(choices.abbey_squares)
    await service.place_abbey(where, user, x, y)
    return await _finish(service, where, user, rng,
                         _("abbey at {square}").format(square=f"{x},{y}"))


async def _finish(service: GameService, where: Where, user: User, rng: random.Random,
                  what: str) -> tuple[TurnView, str]:
    """Maybe a figure (or recall), maybe a tunnel token, then confirm."""
    choices = await service.legal_moves(where, user)
    parts = [what]
    pick = rng.randrange(len(choices.deployments) + 2)
    if pick < len(choices.deployments):
        figure, on = choices.deployments[pick]
        await service.deploy(where, user, figure, on)
        parts.append(_("{figure} on {on}").format(figure=figure_name(figure), on=on))
    elif pick == len(choices.deployments) and choices.can_recall:
        await service.recall(where, user)
        parts.append(_("recalls the abbot"))
    if choices.tokens and rng.random() < 0.4:
        x, y, side, pair = rng.choice(choices.tokens)
        await service.place_token(where, user, x, y, side, pair)
        parts.append(_("token {pair} at {square} {side}").format(pair=pair, square=f"{x},{y}",
                                                                 side=side))
    return await service.confirm(where, user), ", ".join(parts)
