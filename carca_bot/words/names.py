"""Names of things in the player's language, for the engine's and the service's sentences.

Squares, players and lists of names; figures, pieces and expansions by what their
records call them (the records' message ids are in this domain's catalogue); the
few nouns a sentence holds as a field (where a figure may not stand, an edge).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from carca_bot.engine.rules import BY_NAME, FIGURE_TABLE, PIECES
from carca_bot.i18n import N_, Domain

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

Params = dict[str, Any]
Names = Sequence[str]
Words = Callable[[Params, Names], str]


def square(pos: tuple[int, int]) -> str:
    """How a square is written in sentences: `x,y`, as the board labels it and commands
    take it (records hold the same numbers)."""
    return f"{pos[0]},{pos[1]}"


def name_of(names: Names, player: int | None) -> str:
    """A seat's name; a seat the list does not know is 'player N' (counting from 1)."""
    if player is None:
        return ""
    if not 0 <= player < len(names):
        return _("player {number}").format(number=player + 1)
    return names[player]


def join(items: Sequence[str]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy' in the language being spoken."""
    if not items:
        return ""
    text = items[-1]
    if len(items) >= 2:
        # TRANSLATORS: the last two names of a list of players.
        text = _("{first} and {last}").format(first=items[-2], last=items[-1])
    for item in reversed(items[:-2]):
        # TRANSLATORS: a name followed by the rest of a list of players.
        text = _("{first}, {rest}").format(first=item, rest=text)
    return text


def quoted(value: object) -> str:
    """Something a player typed, shown exactly (quoted as Python would)."""
    return repr(value)


def _figure_words(attribute: str) -> dict[str, Callable[[], str]]:
    """Each figure's name as its record gives it (`noun`, `a_noun` or `title`), translated
    when said (the records' message ids are in this domain's catalogue)."""
    def said(message: str) -> Callable[[], str]:
        return lambda: _(message)
    return {f.name: said(getattr(f, attribute)) for f in FIGURE_TABLE}


FIGURES = _figure_words("noun")  # "follower"
A_FIGURE = _figure_words("a_noun")  # "a follower"
TITLES = _figure_words("title")  # "Follower", as a menu shows it
# TRANSLATORS: where a figure may not stand ("an abbot cannot stand on a field").
ON_A_FEATURE = {
    "road": lambda: pgettext("stand on", "a road"),
    "city": lambda: pgettext("stand on", "a city"),
    "field": lambda: pgettext("stand on", "a field"),
    "monastery": lambda: pgettext("stand on", "a monastery"),
    "shrine": lambda: pgettext("stand on", "a shrine"),
    "abbey": lambda: pgettext("stand on", "an abbey"),
    "garden": lambda: pgettext("stand on", "a garden"),
}
THE_BUILDING = {
    "monastery": lambda: pgettext("the building", "the monastery"),
    "shrine": lambda: pgettext("the building", "the shrine"),
    "abbey": lambda: pgettext("the building", "the abbey"),
}
SIDES = (N_("north"), N_("east"), N_("south"), N_("west"))  # an edge of a tile, clockwise
SIDE_LETTERS = ("N", "E", "S", "W")  # as commands name the edges (data, not words)
EDGES = {
    "city": lambda: pgettext("edge", "city"),
    "road": lambda: pgettext("edge", "road"),
    "field": lambda: pgettext("edge", "field"),
    "river": lambda: pgettext("edge", "river"),
}


def named(table: dict[str, Callable[[], str]], key: str) -> str:
    """The table's words for `key`; a value it does not know is shown as it is."""
    words = table.get(key)
    return words() if words is not None else str(key)


def figure_name(figure: str) -> str:
    """A figure's name ('follower', 'abbot', ...); a name no figure has stays as typed."""
    return named(FIGURES, figure)


def a_figure(figure: str) -> str:
    """A figure's name with its article ('a follower'), as its record gives it."""
    return named(A_FIGURE, figure)


def figure_title(figure: str) -> str:
    """A figure's name as a menu or a button shows it ('Follower')."""
    return named(TITLES, figure)


_HELD = {**{f.name: f.held for f in FIGURE_TABLE}, **{p.name: p.held for p in PIECES}}


def held(piece: str, n: int) -> str:
    """'5 followers', '1 abbey', '2 tunnel tokens': what a player holds, by its `supply`
    key (a figure or a piece of an expansion's record)."""
    words = _HELD.get(piece)
    if words is None:
        return f"{piece} {n}"
    return ngettext(words[0], words[1], n).format(n=n)


def expansion_title(name: str) -> str:
    """An expansion's name as its record gives it ('Abbey & Mayor'); 'base' for the base
    game; a name no record has stays as it is."""
    record = BY_NAME.get(name)
    return _(record.title) if record is not None else name
