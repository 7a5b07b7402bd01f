"""Words for a turn as the service reports it: its unconfirmed steps, what the game waits
for (`TurnView.must`) and who must do it, and one line saying where a game stands.

`must` is the service's code; "abbey" is this module's own: a turn's tile step with no
tile left to draw (the second part of a builder's double turn when the pile is empty),
where placing the abbey is the only choice (`must_now`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from carca_bot.engine.moves import (
    DeclareEnd,
    Deploy,
    Discard,
    Draw,
    EndTurn,
    Move,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
)
from carca_bot.i18n import N_, Domain
from carca_bot.words.names import figure_name, square

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext


# -- the steps of a turn ------------------------------------------------------------

def step(move: Move) -> str:
    """One unconfirmed step of a turn: 'U at 1,0 turned 90', 'follower on E', ..."""
    match move:
        case PlaceTile(tile, pos, rot):
            return _("{tile} at {square} turned {degrees}").format(
                tile=tile, square=square(pos), degrees=rot * 90)
        case PlaceAbbey(pos):
            return _("abbey at {square}").format(square=square(pos))
        case Deploy(name, on):
            return _("{figure} on {on}").format(figure=figure_name(name), on=on)
        case Recall():
            return _("abbot recalled")
        case PlaceToken(pos, on, pair):
            return _("tunnel token (pair {pair}) on {on} at {square}").format(
                pair=pair + 1, on=on, square=square(pos))
        case Discard(tile):
            return _("{tile} discarded").format(tile=tile)
        case MoveWagon(pos, on):
            return _("wagon moved to {on} at {square}").format(on=on, square=square(pos))
        case ReturnWagon():
            return _("wagon returned")
        case SkipAbbey():
            return _("abbey kept")
        case EndTurn():
            return _("turn confirmed")
        case Draw():
            return _("tile drawn")
        case DeclareEnd():
            return _("the tiles are used up")
    return type(move).__name__.lower()


# -- what the game waits for ----------------------------------------------------------

# What the game waits for, by `TurnView.must`, as "waiting for Ana to ..." ends it
# (their) and as said to the player who must do it (yours).
MUST_WORDS = {
    "join": N_("join the lobby or start the game"),
    "choose": N_("draw a tile or place their abbey"),
    "place": N_("place a tile"),
    "finish": N_("finish their turn"),
    "wagon": N_("move or return their wagon"),
    "abbey_round": N_("place or skip their abbey"),
    "abbey": N_("place their abbey"),
    "over": N_("nothing: the game is over"),
}
MUST_YOURS = {
    "join": N_("join the lobby or start the game"),
    "choose": N_("draw a tile or place your abbey"),
    "place": N_("place a tile"),
    "finish": N_("finish your turn"),
    "wagon": N_("move or return your wagon"),
    "abbey_round": N_("place or skip your abbey"),
    "abbey": N_("place your abbey"),
    "over": N_("nothing: the game is over"),
}
# Whole sentences for players who are not the one to act.
WAITING = {
    "join": N_("waiting for {name} to join the lobby or start the game"),
    "choose": N_("waiting for {name} to draw a tile or place their abbey"),
    "place": N_("waiting for {name} to place a tile"),
    "finish": N_("waiting for {name} to finish their turn"),
    "wagon": N_("waiting for {name} to move or return their wagon"),
    "abbey_round": N_("waiting for {name} to place or skip their abbey"),
    "abbey": N_("waiting for {name} to place their abbey"),
}
YOUR_TURN = {
    "choose": N_("your turn: draw a tile, or place your abbey in a hole"),
    "finish": N_("add a figure or a tunnel token if you like, then confirm (or undo)"),
    "wagon": N_("your wagon's feature was scored: move the wagon or return it"),
    "abbey_round": N_("last chance to place your abbey: place it in a hole or skip"),
    "abbey": N_("the second part of your turn, with no tile left to draw: place your "
                "abbey in a hole"),
    "join": N_("join the lobby or start the game"),
}


def must_now(must: str, tiles_left: int) -> str:
    """`must` as the words read it: "abbey" for a tile step with no tile left to draw
    (only the second part of a builder's double turn has one: the abbey or nothing,
    docs/rules/RULES-inns-traders.md section 4 item 18)."""
    return "abbey" if must == "choose" and tiles_left <= 0 else must


def must_words(must: str, yours: bool = False) -> str:
    """What `must` asks for: 'place or skip their abbey' (or 'your abbey', `yours`)."""
    table = MUST_YOURS if yours else MUST_WORDS
    known = table.get(must)
    return _(known) if known is not None else _("play")


def prompt(must: str, name: str | None = None, tile: str | None = None) -> str:
    """What happens next, from `TurnView.must` and who decides: `name` is the player
    who must act, for everyone else; None says it to that player ('your turn: ...'),
    with the `tile` they hold if they hold one."""
    if must == "over":
        return _("the game is over")
    if name is not None:
        if must == "join":
            return _("the game has not started")
        known = WAITING.get(must)
        return _(known).format(name=name) if known is not None else name
    if must == "place":
        if tile is None:
            return _("your turn: place your tile")
        return _("your turn: place tile {tile}").format(tile=tile)
    known = YOUR_TURN.get(must)
    return _(known) if known is not None else must_words(must, yours=True)


class _Seat(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def resigned(self) -> bool: ...


class _Options(Protocol):
    @property
    def max_players(self) -> int: ...


class View(Protocol):
    """What `situation` reads of a `carca_bot.service.TurnView`."""

    @property
    def status(self) -> str: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def must(self) -> str: ...
    @property
    def tiles_left(self) -> int: ...
    @property
    def tile(self) -> str | None: ...
    @property
    def yours(self) -> bool: ...
    @property
    def deciding(self) -> _Seat | None: ...
    @property
    def seats(self) -> Sequence[_Seat]: ...
    @property
    def standings(self) -> Sequence[_Seat]: ...
    @property
    def options(self) -> _Options: ...


def scores(seats: Sequence[_Seat]) -> str:
    """'Ana 12, Ben 9 (resigned)': the standings in one line."""
    return ", ".join(
        _("{name} {score} (resigned)").format(name=s.name, score=s.score) if s.resigned
        else _("{name} {score}").format(name=s.name, score=s.score) for s in seats)


def situation(view: View) -> str:
    """One line saying where a game stands and what happens next, to whoever sees the
    view: the lobby, whose turn it is, or how it ended."""
    if view.status == "lobby":
        names = ", ".join(s.name for s in view.seats) or _("nobody")
        most = view.options.max_players
        return ngettext(
        "lobby: {names} ({count} of {most} seat); the host starts the game when "
            "everyone is in",
            "lobby: {names} ({count} of {most} seats); the host starts the game when "
            "everyone is in", most).format(names=names, count=len(view.seats), most=most)
    if view.status == "cancelled":
        return _("the game was cancelled")
    if view.must == "over":
        if view.outcome == "resigned":
            return _("game over by resignation: {scores}").format(scores=scores(view.standings))
        return _("game over: {scores}").format(scores=scores(view.standings))
    deciding, must = view.deciding, must_now(view.must, view.tiles_left)
    if not view.yours:
        if deciding is None:
            return _("the game is over")
        return prompt(must, deciding.name)
    return prompt(must, None, view.tile)
