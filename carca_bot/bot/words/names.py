"""The bot's names for game things (figures, expansions, feature kinds, game states),
in the language being spoken. The codes stay the data; only what is shown changes."""

from __future__ import annotations

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.i18n import N_, Domain
from carca_bot.words.names import expansion_title as expansion_title  # the records' titles

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

# TRANSLATORS: names of the figures, as a menu or a command choice shows them.
FIGURE_NAMES = {"follower": N_("Follower"), "abbot": N_("Abbot"), "mayor": N_("Mayor"),
                "wagon": N_("Wagon"), "barn": N_("Barn")}
# TRANSLATORS: a figure with its indefinite article, inside a sentence.
A_FIGURE = {"follower": N_("a follower"), "abbot": N_("an abbot"), "mayor": N_("a mayor"),
            "wagon": N_("a wagon"), "barn": N_("a barn")}
# TRANSLATORS: feature kinds, as in "city, north edge".
KINDS = {"city": N_("city"), "road": N_("road"), "field": N_("field"),
         "monastery": N_("monastery"), "shrine": N_("shrine"), "abbey": N_("abbey"),
         "garden": N_("garden"), "barn": N_("barn")}
# TRANSLATORS: headings of the scores grouped by kind: "Cities: Ana 24 (3)".
KIND_HEADINGS = {"road": N_("Roads"), "city": N_("Cities"), "monastery": N_("Monasteries"),
                 "shrine": N_("Shrines"), "abbey": N_("Abbeys"), "garden": N_("Gardens"),
                 "field": N_("Fields"), "barn": N_("Barns"), "king": N_("The King"),
                 "robber": N_("The Robber")}
WAGON_RULES = {"c1": N_("connected features"), "c2": N_("nearby features")}


def on_tile_figures() -> tuple[str, ...]:
    """The figures a command offers to put on a feature of a tile, in the engine's figure
    table's order (a corner figure, the barn, has `/carc barn`). An expansion's new
    figure appears here with its record; its name, in `FIGURE_NAMES` until the
    engine's records carry their display names."""
    return tuple(f.name for f in FIGURE_TABLE if not f.corner)


def expansion_codes() -> tuple[str, ...]:
    """Every expansion a game may be created with, in the engine's order."""
    return EXPANSIONS


def english_figure(figure: str) -> str:
    """A figure's name as the source text (a command choice is translated by discord.py's
    translator, not here)."""
    return FIGURE_NAMES.get(figure, figure.replace("_", " ").capitalize())


def figure_name(figure: str) -> str:
    return _(FIGURE_NAMES[figure]) if figure in FIGURE_NAMES else figure


def a_figure(figure: str) -> str:
    return _(A_FIGURE[figure]) if figure in A_FIGURE else figure


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


def held(piece: str, n: int) -> str:
    """'5 followers', '1 abbey', '2 tunnel tokens': what a player holds."""
    if piece == "follower":
        return ngettext("{n} follower", "{n} followers", n).format(n=n)
    if piece == "abbot":
        return ngettext("{n} abbot", "{n} abbots", n).format(n=n)
    if piece == "mayor":
        return ngettext("{n} mayor", "{n} mayors", n).format(n=n)
    if piece == "wagon":
        return ngettext("{n} wagon", "{n} wagons", n).format(n=n)
    if piece == "barn":
        return ngettext("{n} barn", "{n} barns", n).format(n=n)
    if piece == "abbey":
        return ngettext("{n} abbey", "{n} abbeys", n).format(n=n)
    if piece == "tokens":
        return ngettext("{n} tunnel token", "{n} tunnel tokens", n).format(n=n)
    return f"{piece} {n}"


def points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)
