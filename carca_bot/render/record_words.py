"""Names of figures, pieces and expansions for pictures and pages, from their records.

The records' message ids are said through `i18n.RECORDS` (the catalogue they are
extracted into), in the language being spoken; `carca_bot.words.names` says the same
for sentences, which pictures cannot import. A name no record has is shown as it is.
"""

from __future__ import annotations

from carca_bot.engine.rules import BY_NAME, FIGURE_BY_NAME, PIECES
from carca_bot.i18n import RECORDS

_HELD = {**{f.name: f.held for f in FIGURE_BY_NAME.values()}, **{p.name: p.held for p in PIECES}}


def figure_noun(figure: str) -> str:
    """'large follower'."""
    found = FIGURE_BY_NAME.get(figure)
    return RECORDS.gettext(found.noun) if found is not None else figure


def a_figure(figure: str) -> str:
    """'a large follower'."""
    found = FIGURE_BY_NAME.get(figure)
    return RECORDS.gettext(found.a_noun) if found is not None else figure


def held(piece: str, n: int) -> str:
    """'2 large followers', '1 wine token': a figure or piece by its `supply` key."""
    words = _HELD.get(piece)
    if words is None:
        return f"{piece} {n}"
    return RECORDS.ngettext(words[0], words[1], n).format(n=n)


def expansion_title(name: str) -> str:
    """'Inns & Cathedrals'; 'base game' for the base game."""
    record = BY_NAME.get(name)
    return RECORDS.gettext(record.title) if record is not None else name
