"""Feature codes (N, SL, ER, NW, I1, C, G) in words: what the feature is and where it lies.

What a feature is comes from the service as data (`Choices.labels`, `features_if`:
`FeatureLabel`), said by `carca_bot.words`; where a code lies on a tile is said here.
"""

from __future__ import annotations

from collections.abc import Iterable

from carca_bot.i18n import N_, Domain
from carca_bot.service.labels import FeatureLabel
from carca_bot.words.service import feature_label

_T = Domain("bot")
_ = _T.gettext

# TRANSLATORS: where a feature code lies on a tile (N is the north edge, NL the west
# half of the north edge, NW the north-west corner, ...).
WHERE = {
    "N": N_("north edge"), "E": N_("east edge"), "S": N_("south edge"), "W": N_("west edge"),
    "NL": N_("north edge, west half"), "NR": N_("north edge, east half"),
    "EL": N_("east edge, north half"), "ER": N_("east edge, south half"),
    "SL": N_("south edge, east half"), "SR": N_("south edge, west half"),
    "WL": N_("west edge, south half"), "WR": N_("west edge, north half"),
    "NW": N_("north-west corner"), "NE": N_("north-east corner"),
    "SE": N_("south-east corner"), "SW": N_("south-west corner"),
    "I1": N_("enclosed inside the tile"), "I2": N_("enclosed inside the tile"),
    "C": N_("centre"), "G": N_("centre"),
}


def where_words(on: str) -> str:
    """'north edge', 'north edge, west half', 'north-west corner', 'centre'."""
    code = on.upper()
    return _(WHERE[code]) if code in WHERE else code


def find(labels: Iterable[FeatureLabel], x: int, y: int, on: str) -> FeatureLabel | None:
    return next((lb for lb in labels if (lb.x, lb.y, lb.on) == (x, y, on)), None)


def label(found: FeatureLabel | None, on: str) -> str:
    """A menu or autocomplete label: 'N: city, north' (just the place if the service
    gave no label for it)."""
    said = feature_label(found.kind, found.where) if found is not None else where_words(on)
    # TRANSLATORS: a feature code of a tile and what it is, e.g. "N: city, north".
    return _("{code}: {feature}").format(code=on, feature=said)


def legend() -> str:
    return _(
        "**Feature codes** (where a figure goes on the tile): N E S W = the city or road at "
        "that edge (north, east, south, west); NL NR, EL ER, SL SR, WL WR = the field along "
        "that edge's half (NL is the west half of the north edge, NR the east half; EL north "
        "half of east, ER south half; SL east half of south, SR west half; WL south half of "
        "west, WR north half); I1 I2 = a field enclosed inside the tile; C = the monastery, "
        "shrine or abbey in the centre; G = the garden; NW NE SE SW = a corner (barns). "
        "Menus and suggestions say it in words, e.g. \"SR: field, south-west\"."
    )
