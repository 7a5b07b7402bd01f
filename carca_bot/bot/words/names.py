"""The bot's names for game things (figures, expansions, feature kinds, game states),
in the language being spoken. The codes stay the data; only what is shown changes.

Figures, pieces and expansions are named by their records (`carca_bot.words.names`
says the records' message ids), so a new expansion's figure is named, offered and
counted here with no line of its own."""

from __future__ import annotations

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.engine.rules import FIGURE_BY_NAME
from carca_bot.i18n import N_, Domain
from carca_bot.words.names import a_figure as a_figure  # "a large follower"
from carca_bot.words.names import expansion_title as expansion_title  # the records' titles
from carca_bot.words.names import figure_title
from carca_bot.words.names import held as held  # "2 large followers", "1 wine token"

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

# TRANSLATORS: feature kinds, as in "city, north edge".
KINDS = {"city": N_("city"), "road": N_("road"), "field": N_("field"),
         "monastery": N_("monastery"), "shrine": N_("shrine"), "abbey": N_("abbey"),
         "garden": N_("garden"), "corner": N_("corner")}
# TRANSLATORS: headings of the scores grouped by kind: "Cities: Ana 24 (3)".
KIND_HEADINGS = {"road": N_("Roads"), "city": N_("Cities"), "monastery": N_("Monasteries"),
                 "shrine": N_("Shrines"), "abbey": N_("Abbeys"), "garden": N_("Gardens"),
                 "field": N_("Fields"), "barn": N_("Barns"), "king": N_("The King"),
                 "robber": N_("The Robber"), "goods": N_("Goods")}
WAGON_RULES = {"c1": N_("connected features"), "c2": N_("nearby features")}


def on_tile_figures() -> tuple[str, ...]:
    """The figures a command offers to put on a feature of a tile, in the figure table's
    order (a corner figure, the barn, has `/carc barn`)."""
    return tuple(f.name for f in FIGURE_TABLE if not f.corner)


def corner_figures() -> tuple[str, ...]:
    """The figures that stand on a corner of a tile (the figure table's `corner` flag)."""
    return tuple(f.name for f in FIGURE_TABLE if f.corner)


def expansion_codes() -> tuple[str, ...]:
    """Every expansion a game may be created with, in the engine's order."""
    return EXPANSIONS


def english_figure(figure: str) -> str:
    """A figure's name as its record's source text ('Large follower'): a command choice
    is translated by discord.py's translator, which reads the records' catalogue for it
    (`translator.RECORD_CHOICES`), not here."""
    found = FIGURE_BY_NAME.get(figure)
    return found.title if found is not None else figure


def figure_name(figure: str) -> str:
    """A figure's name as a menu shows it ('Large follower'), in the language spoken."""
    return figure_title(figure)


def kind_name(kind: str) -> str:
    return _(KINDS[kind]) if kind in KINDS else kind


def kind_heading(kind: str) -> str:
    return _(KIND_HEADINGS[kind]) if kind in KIND_HEADINGS else kind


def expansions(chosen: frozenset[str] | set[str]) -> str:
    """'The Abbot, The River', or 'base game only'."""
    if not chosen:
        return _("base game only")
    return ", ".join(sorted(expansion_title(e) for e in chosen))


def wagon_rule(rule: str) -> str:
    return _(WAGON_RULES[rule]) if rule in WAGON_RULES else rule


def status(state: str) -> str:
    """A game's state in a status line."""
    words = {
        "lobby": pgettext("game status", "waiting for players"),
        "active": pgettext("game status", "in play"),
        "finished": pgettext("game status", "finished"),
        "cancelled": pgettext("game status", "cancelled"),
    }
    return words.get(state, state)


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)
