"""Move commands typed as words, turned into service calls.

The words are the ones the Discord bot will use, so a player learns them once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from carca_bot.i18n import Domain
from carca_bot.service import GameService, TurnView, User, Where

_T = Domain("local")
_ = _T.gettext

MOVE_VERBS = frozenset({"place", "draw", "follower", "deploy", "abbot", "mayor", "barn",
                        "recall", "tunnel", "abbey", "wagon", "confirm", "undo"})
USAGE = {  # how each command is written: command words, typed the same in every language
    "place": "place X Y ROT [FIGURE ON]",
    "follower": "follower [FIGURE] ON",
    "deploy": "deploy FIGURE ON",
    "abbot": "abbot ON",
    "mayor": "mayor ON",
    "barn": "barn CORNER",
    "tunnel": "tunnel X Y SIDE PAIR",
    "abbey": "abbey X Y | abbey skip",
    "wagon": "wagon X Y ON | wagon return | wagon ON",
}


class Usage(Exception):
    """The words do not make a command; the message shows how to write it."""


def _int(word: str, verb: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise Usage(_("{word} is not a number; usage: {usage}").format(
            word=repr(word), usage=USAGE.get(verb, verb))) from None


def _count(verb: str, args: list[str], *allowed: int) -> None:
    if len(args) not in allowed:
        raise Usage(_("usage: {usage}").format(usage=USAGE.get(verb, verb)))


async def run_move(service: GameService, where: Where, user: User, verb: str,
                   args: list[str]) -> TurnView:
    """Play one move command as `user`; raises Usage or the service's refusal."""
    call = _parse(service, where, user, verb, args)
    return await call()


def _parse(service: GameService, where: Where, user: User, verb: str,
           args: list[str]) -> Callable[[], Awaitable[TurnView]]:
    s, w, u = service, where, user
    if verb in ("draw", "recall", "confirm", "undo"):
        _count(verb, args, 0)
        return {"draw": lambda: s.draw(w, u), "recall": lambda: s.recall(w, u),
                "confirm": lambda: s.confirm(w, u), "undo": lambda: s.undo(w, u)}[verb]
    if verb == "place":
        _count(verb, args, 3, 5)
        x, y, rot = (_int(a, verb) for a in args[:3])
        if len(args) == 3:
            return lambda: s.place_tile(w, u, x, y, rot)
        figure, on = args[3].lower(), args[4].upper()

        async def place_with_figure() -> TurnView:
            await s.place_tile(w, u, x, y, rot)
            return await s.deploy(w, u, figure, on)
        return place_with_figure
    if verb in ("follower", "deploy", "abbot", "mayor", "barn"):
        if verb in ("follower",) and len(args) == 1:
            args = ["follower", *args]
        elif verb in ("abbot", "mayor", "barn"):
            _count(verb, args, 1)
            args = [verb, *args]
        _count(verb, args, 2)
        figure, on = args[0].lower(), args[1].upper()
        return lambda: s.deploy(w, u, figure, on)
    if verb == "tunnel":
        _count(verb, args, 4)
        x, y, pair = _int(args[0], verb), _int(args[1], verb), _int(args[3], verb)
        side = args[2].upper()
        return lambda: s.place_token(w, u, x, y, side, pair - 1)  # players count pairs from 1
    if verb == "abbey":
        if args == ["skip"]:
            return lambda: s.skip_abbey(w, u)
        _count(verb, args, 2)
        x, y = _int(args[0], verb), _int(args[1], verb)
        return lambda: s.place_abbey(w, u, x, y)
    if verb == "wagon":
        if args == ["return"]:
            return lambda: s.return_wagon(w, u)
        if len(args) == 1:
            on = args[0].upper()
            return lambda: s.deploy(w, u, "wagon", on)
        _count(verb, args, 3)
        x, y, side = _int(args[0], verb), _int(args[1], verb), args[2].upper()
        return lambda: s.move_wagon(w, u, x, y, side)
    raise Usage(_("unknown command {verb}; type help").format(verb=repr(verb)))
