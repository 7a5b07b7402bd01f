"""Move commands typed as words, turned into service calls.

The words are read in the language being spoken and in English (`carca_bot.local.vocab`):
`colocar 1 0 90 seguidor O` and `place 1 0 90 follower W` are the same move.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from carca_bot.engine.figures import CORNER_FIGURES
from carca_bot.i18n import N_, Domain
from carca_bot.local.vocab import FIGURES, figure, read_argument, read_code, read_figure
from carca_bot.service import GameService, TurnView, User, Where

_T = Domain("local")
_ = _T.gettext

# Each figure's name is a command of its own ("abbot C", "barn NW"); the follower's and
# the wagon's take more (`follower [FIGURE] ON`, `wagon return`).
FIGURE_VERBS = frozenset(FIGURES) - {"follower", "wagon"}
MOVE_VERBS = frozenset({"place", "draw", "follower", "deploy", "recall", "tunnel", "abbey",
                        "wagon", "confirm", "undo"}) | FIGURE_VERBS
# How each command is written, in the words of the language being spoken.
USAGE = {
    "place": N_("place X Y ROT [FIGURE ON]"),
    "follower": N_("follower [FIGURE] ON"),
    "deploy": N_("deploy FIGURE ON"),
    "tunnel": N_("tunnel X Y SIDE PAIR"),
    "abbey": N_("abbey X Y | abbey skip"),
    "wagon": N_("wagon X Y ON | wagon return | wagon ON"),
    "export": N_("export FILE"),
}


class Usage(Exception):
    """The words do not make a command; the message shows how to write it."""


def usage(verb: str) -> str:
    known = USAGE.get(verb)
    if known is not None:
        return _(known)
    return figure_usage(verb) if verb in FIGURE_VERBS else verb


def figure_usage(name: str) -> str:
    """How a figure's own command is written: 'abbot ON', 'barn CORNER'."""
    if name in CORNER_FIGURES:
        # TRANSLATORS: how a corner figure's command is written ("establo ESQUINA").
        return _("{figure} CORNER").format(figure=figure(name))
    # TRANSLATORS: how a figure's command is written ("abad SOBRE").
    return _("{figure} ON").format(figure=figure(name))


def _int(word: str, verb: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise Usage(_("{word} is not a number; usage: {usage}").format(
            word=repr(word), usage=usage(verb))) from None


def _count(verb: str, args: list[str], *allowed: int) -> None:
    if len(args) not in allowed:
        raise Usage(_("usage: {usage}").format(usage=usage(verb)))


async def run_move(service: GameService, where: Where, user: User, verb: str,
                   args: list[str]) -> TurnView:
    """Play one move command (`verb` in English) as `user`; raises Usage or the
    service's refusal."""
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
        figure, on = read_figure(args[3]), read_code(args[4])

        async def place_with_figure() -> TurnView:
            await s.place_tile(w, u, x, y, rot)
            return await s.deploy(w, u, figure, on)
        return place_with_figure
    if verb in ("follower", "deploy") or verb in FIGURE_VERBS:
        if verb == "follower" and len(args) == 1:
            args = ["follower", *args]
        elif verb in FIGURE_VERBS:
            _count(verb, args, 1)
            args = [verb, *args]
        _count(verb, args, 2)
        figure, on = read_figure(args[0]), read_code(args[1])
        return lambda: s.deploy(w, u, figure, on)
    if verb == "tunnel":
        _count(verb, args, 4)
        x, y, pair = _int(args[0], verb), _int(args[1], verb), _int(args[3], verb)
        side = read_code(args[2])
        return lambda: s.place_token(w, u, x, y, side, pair - 1)  # players count pairs from 1
    if verb == "abbey":
        if len(args) == 1 and read_argument(args[0]) == "skip":
            return lambda: s.skip_abbey(w, u)
        _count(verb, args, 2)
        x, y = _int(args[0], verb), _int(args[1], verb)
        return lambda: s.place_abbey(w, u, x, y)
    if verb == "wagon":
        if len(args) == 1 and read_argument(args[0]) == "return":
            return lambda: s.return_wagon(w, u)
        if len(args) == 1:
            on = read_code(args[0])
            return lambda: s.deploy(w, u, "wagon", on)
        _count(verb, args, 3)
        x, y, side = _int(args[0], verb), _int(args[1], verb), read_code(args[2])
        return lambda: s.move_wagon(w, u, x, y, side)
    raise Usage(_("unknown command {verb}; type help").format(verb=repr(verb)))
