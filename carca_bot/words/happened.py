"""What happened, in words: the sentence of each event reason, in English source text.

How a feature's points were counted (a road, a city, an inn, a cathedral, a
building), farmers and barns, the titles, and the other things that happen in a
turn. `DETAILS` maps each reason to its sentence; `english.event` adds who.
"""

from __future__ import annotations

from collections.abc import Callable

from carca_bot.engine.events import Event
from carca_bot.i18n import N_, Domain
from carca_bot.words.names import THE_BUILDING, Params, held, join, named, square

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext


COMPLETED_BUILDING = {
    "monastery": N_("completed monastery (9)"),
    "shrine": N_("completed shrine (9)"),
    "abbey": N_("completed abbey (9)"),
    "garden": N_("completed garden (9)"),
}
INCOMPLETE_BUILDING: dict[str, Callable[[int], str]] = {
    "monastery": lambda n: ngettext("incomplete monastery with {n} neighbour (1 + {n})",
                                    "incomplete monastery with {n} neighbours (1 + {n})", n),
    "shrine": lambda n: ngettext("incomplete shrine with {n} neighbour (1 + {n})",
                                 "incomplete shrine with {n} neighbours (1 + {n})", n),
    "abbey": lambda n: ngettext("incomplete abbey with {n} neighbour (1 + {n})",
                                "incomplete abbey with {n} neighbours (1 + {n})", n),
    "garden": lambda n: ngettext("incomplete garden with {n} neighbour (1 + {n})",
                                 "incomplete garden with {n} neighbours (1 + {n})", n),
}


def _road(p: Params) -> str:
    n = p["tiles"]
    if p["final"]:
        return ngettext("incomplete road of {n} tile (1 per tile)",
                        "incomplete road of {n} tiles (1 per tile)", n).format(n=n)
    return ngettext("completed road of {n} tile (1 per tile)",
                    "completed road of {n} tiles (1 per tile)", n).format(n=n)


def _city(p: Params) -> str:
    n, pennants, each = p["tiles"], p["pennants"], p["each"]
    if pennants:
        tiles = ngettext("{n} tile", "{n} tiles", n).format(n=n)
        shields = ngettext("{n} pennant", "{n} pennants", pennants).format(n=pennants)
        if p["final"]:
            text = _("incomplete city of {tiles} and {pennants} ({each} per tile and pennant)")
        else:
            text = _("completed city of {tiles} and {pennants} ({each} per tile and pennant)")
        return text.format(tiles=tiles, pennants=shields, each=each)
    if p["final"]:
        text = ngettext("incomplete city of {n} tile ({each} per tile and pennant)",
                        "incomplete city of {n} tiles ({each} per tile and pennant)", n)
    else:
        text = ngettext("completed city of {n} tile ({each} per tile and pennant)",
                        "completed city of {n} tiles ({each} per tile and pennant)", n)
    return text.format(n=n, each=each)


def _inn(p: Params) -> str:
    """A road with an inn (Inns & Cathedrals): 2 per tile completed, nothing at the end."""
    n = p["tiles"]
    if p["final"]:
        return ngettext("incomplete road of {n} tile with an inn (nothing at the end)",
                        "incomplete road of {n} tiles with an inn (nothing at the end)",
                        n).format(n=n)
    return ngettext("completed road of {n} tile with an inn (2 per tile)",
                    "completed road of {n} tiles with an inn (2 per tile)", n).format(n=n)


def _cathedral(p: Params) -> str:
    """A city with a cathedral: 3 per tile and pennant completed, nothing at the end."""
    n, pennants = p["tiles"], p["pennants"]
    if p["final"]:
        return ngettext("incomplete city of {n} tile with a cathedral (nothing at the end)",
                        "incomplete city of {n} tiles with a cathedral (nothing at the end)",
                        n).format(n=n)
    if pennants:
        tiles = ngettext("{n} tile", "{n} tiles", n).format(n=n)
        shields = ngettext("{n} pennant", "{n} pennants", pennants).format(n=pennants)
        return _("completed city of {tiles} and {pennants} with a cathedral (3 per tile and "
                 "pennant)").format(tiles=tiles, pennants=shields)
    return ngettext("completed city of {n} tile with a cathedral (3 per tile and pennant)",
                    "completed city of {n} tiles with a cathedral (3 per tile and pennant)",
                    n).format(n=n)


def _building(p: Params) -> str:
    name = p["name"]
    if not p["final"]:
        message = COMPLETED_BUILDING.get(name)
        return _(message) if message is not None else f"{name} (9)"
    around = p["neighbours"]
    words = INCOMPLETE_BUILDING.get(name)
    return words(around).format(n=around) if words is not None else f"{name} (1 + {around})"


def _counted(reason: str, p: Params) -> str:
    """How a feature's points were counted."""
    if reason == "road":
        return _road(p)
    if reason == "city":
        return _city(p)
    if reason == "inn":
        return _inn(p)
    if reason == "cathedral":
        return _cathedral(p)
    return _building(p)


def _fields(reason: str, p: Params) -> str:
    """Farmers or a barn scoring a field by its completed cities."""
    n = p["cities"]
    if reason == "barn_placed":
        text = ngettext("a barn placed in the field: {n} completed city ({per_city} per city)",
                        "a barn placed in the field: {n} completed cities ({per_city} per "
                        "city)", n)
    elif reason == "barn_joined":
        text = ngettext("farmers joined to a barn field: {n} completed city ({per_city} per "
                        "city)",
                        "farmers joined to a barn field: {n} completed cities ({per_city} per "
                        "city)", n)
    elif reason == "farmers_final":
        text = ngettext("farmers in a field touching {n} completed city ({per_city} per city)",
                        "farmers in a field touching {n} completed cities ({per_city} per "
                        "city)", n)
    else:
        text = ngettext("barn in a field touching {n} completed city ({per_city} per city)",
                        "barn in a field touching {n} completed cities ({per_city} per city)",
                        n)
    return text.format(n=n, per_city=p["per_city"])


def _title(reason: str, p: Params) -> str:
    """The King (largest city) and the Robber (longest road)."""
    king = p["title"] == "king"
    if reason == "title_taken":
        n = p["size"]
        if king:
            text = ngettext("takes the King: completed the largest city so far ({n} tile)",
                            "takes the King: completed the largest city so far ({n} tiles)", n)
        else:
            text = ngettext("takes the Robber: completed the largest road so far ({n} tile)",
                            "takes the Robber: completed the largest road so far ({n} tiles)",
                            n)
        return text.format(n=n)
    n = p["count"]
    if king:
        text = ngettext("the King: {n} completed city on the board (1 each)",
                        "the King: {n} completed cities on the board (1 each)", n)
    else:
        text = ngettext("the Robber: {n} completed road on the board (1 each)",
                        "the Robber: {n} completed roads on the board (1 each)", n)
    return text.format(n=n)


def _challenge(p: Params) -> str:
    return _("{the_winner} at {winner_at} was completed first: the followers on "
             "{the_loser} at {loser_at} go home with no points").format(
        the_winner=named(THE_BUILDING, p["winner"]), winner_at=square(p["winner_at"]),
        the_loser=named(THE_BUILDING, p["loser"]), loser_at=square(p["loser_at"]))


def _goods_taken(p: Params) -> str:
    """Traders & Builders: the goods of a completed city, to whoever completed it."""
    taken = [held(kind, p[kind]) for kind in ("wine", "grain", "cloth") if p.get(kind)]
    return _("takes {goods} from the completed city").format(goods=join(taken))


def _goods_final(p: Params) -> str:
    """Each kind of goods' majority at the end: 10."""
    n = p["count"]
    if p["goods"] == "wine":
        text = ngettext("the most wine: {n} token (10)", "the most wine: {n} tokens (10)", n)
    elif p["goods"] == "grain":
        text = ngettext("the most grain: {n} token (10)", "the most grain: {n} tokens (10)", n)
    else:
        text = ngettext("the most cloth: {n} token (10)", "the most cloth: {n} tokens (10)", n)
    return text.format(n=n)


def _pig_bonus(p: Params) -> str:
    return ngettext("a pig among the farmers: 1 more for the completed city",
                    "a pig among the farmers: 1 more for each of {n} completed cities",
                    p["cities"]).format(n=p["cities"])


def _said(reason: str, sentence: Callable[[str, Params], str]) -> Callable[[Params], str]:
    return lambda p: sentence(reason, p)


# Each event reason and its sentence (an expansion's new reasons are entries here).
DETAILS: dict[str, Callable[[Params], str]] = {
    **{reason: _said(reason, _counted) for reason in ("road", "city", "building")},
    "inn": _inn,
    "cathedral": _cathedral,
    "abbot_recalled": lambda p: _("recalled abbot: {counted}").format(
        counted=_counted(p["counted"], p)),
    **{reason: _said(reason, _fields) for reason in ("barn_placed", "barn_joined",
                                                      "farmers_final", "barn_final")},
    **{reason: _said(reason, _title) for reason in ("title_final", "title_taken")},
    "challenge": _challenge,
    "discarded": lambda p: _("{tile} fits nowhere and is removed from the game").format(
        tile=p["tile"]),
    "wagon_stuck": lambda p: _("the wagon has nowhere to go and returns"),
    "wagon_returned": lambda p: _("the wagon returns to hand"),
    "wagon_moved": lambda p: _("the wagon moves to {on} at {square}").format(
        on=p["on"], square=square(p["square"])),
    "goods_taken": _goods_taken,
    "goods_final": _goods_final,
    "pig_bonus": _pig_bonus,
    "builder_second_part": lambda p: _("a double turn: the builder's road or city grew, so "
                                       "one more tile and figure"),
}
REASONS = tuple(DETAILS)  # what `detail` says


def detail(ev: Event) -> str:
    """What happened, without who: how points were counted, or why it happened."""
    sentence = DETAILS.get(ev.reason)
    return sentence(ev.params) if sentence is not None else ev.reason.replace("_", " ")
