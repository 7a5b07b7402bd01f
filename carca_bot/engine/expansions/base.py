"""The base game's record: the follower, and the tiles no expansion claims.

Not an expansion (it is always in play), but described like one, so the
figure table and the catalogue read it the same way (docs/RULES.md 2.4).
"""

from __future__ import annotations

from carca_bot.engine.figure_types import FigureType
from carca_bot.engine.msgids import N_, N_plural
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion

BASE = Expansion(
    "base", N_("base game"), 0, 0,
    figures=(FigureType("follower", "base", 7, (Kind.CITY, Kind.ROAD, Kind.FIELD, Kind.BUILDING),
                        1, N_("follower"), N_("a follower"), N_("Follower"),
                        N_plural("{n} follower", "{n} followers"), 1.0, farms=True),))
