"""Inns & Cathedrals (docs/rules/RULES-inns-traders.md 2.16, section 4 items 11, 12, 21, 22).

Its tiles (`IC1` ... `IC17`) carry two modifiers, merged into the feature like
pennants: an `inn` on a road, a `cathedral` in a city. `feature_value` reads
them: a completed road with an inn is worth 2 per tile, a completed city with a
cathedral 3 per tile and pennant; either, incomplete at the game's end, is worth
nothing (several inns or both cathedrals count once). Tiles are never counted
twice and the modifiers never change a feature's size (the King and the Robber
count tiles). The large follower is a row of the figure table: a follower of
strength 2 in every majority, fields included, never in a garden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.figure_types import FigureType
from carca_bot.engine.msgids import N_, N_plural
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion

if TYPE_CHECKING:
    from carca_bot.engine.board import Feature
    from carca_bot.engine.state import Value

NAME = "inns_cathedrals"


def value(feat: Feature, final: bool, worth: Value) -> Value:
    """A road with an inn: 2 per tile completed, 0 at the end; a city with a cathedral:
    3 per tile and pennant completed, 0 at the end."""
    if feat.kind is Kind.ROAD and feat.mod("inn"):
        tiles = len(feat.tiles)
        each = 0 if final else 2
        return each * tiles, "inn", {"final": final, "tiles": tiles, "each": each}
    if feat.kind is Kind.CITY and feat.mod("cathedral"):
        tiles, pennants = len(feat.tiles), feat.pennants
        each = 0 if final else 3
        return each * (tiles + pennants), "cathedral", {
            "final": final, "tiles": tiles, "pennants": pennants, "each": each}
    return worth


LARGE = FigureType(
    "large", NAME, 1, (Kind.CITY, Kind.ROAD, Kind.FIELD, Kind.BUILDING), 2,
    N_("large follower"), N_("a large follower"), N_("Large follower"),
    N_plural("{n} large follower", "{n} large followers"), 1.6, farms=True)

EXPANSION = Expansion(
    NAME, N_("Inns & Cathedrals"), 7, 70,
    aliases=("inns", "cathedrals", "inns_and_cathedrals", "inn", "cathedral", "ic"),
    tile_prefix="IC", tile_data="tiles-inns-traders.jsonl",
    modifiers=(("inn", "flag"), ("cathedral", "flag")),
    figures=(LARGE,), feature_value=value)
