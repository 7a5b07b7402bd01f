"""Colours of the art, kept in one place so the tests can classify pixels by terrain.

Terrain colours are far apart (field green, stone city, pale road, blue river) so a feature
reads at a glance even at 40 px per tile. Player colours follow the Okabe–Ito idea: they
differ in lightness as well as hue, and every figure also carries its seat number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

RGB = tuple[int, int, int]

# Terrain: the base colours that the art/data agreement test classifies against.
FIELD: Final[RGB] = (118, 172, 72)
FIELD_DARK: Final[RGB] = (92, 146, 56)  # grass tufts
CITY: Final[RGB] = (206, 170, 118)
CITY_ALT: Final[RGB] = (190, 150, 104)  # the second of two cities that cross on one tile
ROAD: Final[RGB] = (240, 232, 206)
RIVER: Final[RGB] = (64, 136, 214)

TERRAIN: Final[dict[str, tuple[RGB, ...]]] = {
    "field": (FIELD,),
    "city": (CITY, CITY_ALT),
    "road": (ROAD,),
    "river": (RIVER,),
}

WALL: Final[RGB] = (104, 80, 60)
WALL_LIGHT: Final[RGB] = (150, 124, 98)
ROAD_EDGE: Final[RGB] = (88, 72, 56)
RIVER_BANK: Final[RGB] = (40, 92, 150)
RIVER_LIGHT: Final[RGB] = (132, 186, 240)
OUTLINE: Final[RGB] = (40, 32, 28)
ROOF: Final[RGB] = (196, 64, 44)
ROOF_DARK: Final[RGB] = (150, 44, 32)
CITY_ROOF: Final[RGB] = (190, 78, 54)
HOUSE_WALL: Final[RGB] = (246, 236, 212)
STONE: Final[RGB] = (150, 146, 140)
STONE_LIGHT: Final[RGB] = (196, 192, 184)
ROCK: Final[RGB] = (134, 116, 94)
ROCK_LIGHT: Final[RGB] = (170, 150, 122)
TUNNEL_DARK: Final[RGB] = (30, 24, 22)
PLOT: Final[RGB] = (226, 206, 150)  # monastery courtyard
SHRINE_GROUND: Final[RGB] = (84, 60, 88)
SHRINE_STONE: Final[RGB] = (112, 110, 118)
FIRE: Final[RGB] = (250, 170, 40)
HEDGE: Final[RGB] = (46, 104, 44)
HEDGE_LIGHT: Final[RGB] = (82, 140, 64)
FLOWERS: Final[tuple[RGB, ...]] = ((236, 70, 90), (250, 220, 60), (255, 255, 255), (200, 110, 220))
SHIELD: Final[RGB] = (34, 74, 170)
SHIELD_RIM: Final[RGB] = (250, 246, 236)
GOLD: Final[RGB] = (236, 186, 40)
GOLD_DARK: Final[RGB] = (150, 104, 20)
WHITE: Final[RGB] = (255, 255, 255)
BLACK: Final[RGB] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class PlayerColour:
    name: str
    fill: RGB
    ink: RGB  # seat number and marks drawn on the figure: contrasts with `fill`
    outline: RGB  # silhouette outline: contrasts with the board and with `fill`


PLAYERS: Final[tuple[PlayerColour, ...]] = (
    PlayerColour("blue", (0, 88, 200), WHITE, OUTLINE),
    PlayerColour("orange", (238, 164, 0), BLACK, OUTLINE),
    PlayerColour("yellow", (255, 246, 64), BLACK, OUTLINE),
    PlayerColour("black", (34, 34, 38), WHITE, (230, 230, 230)),
    PlayerColour("pink", (220, 90, 160), BLACK, OUTLINE),
    PlayerColour("white", (240, 248, 250), BLACK, OUTLINE),
)


def player(index: int) -> PlayerColour:
    """Seat `index` (0-based); seats beyond six wrap so a bad index never crashes rendering."""
    return PLAYERS[index % len(PLAYERS)]
