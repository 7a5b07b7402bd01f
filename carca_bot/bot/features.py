"""Feature codes (N, SL, ER, NW, I1, C, G) in words: what the feature is and where it lies."""

from __future__ import annotations

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.game import Game

SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}
# Which half of its edge a half-edge name is (RULES.md: NL is the west half of N, ...).
HALVES = {"NL": "west", "NR": "east", "EL": "north", "ER": "south",
          "SL": "east", "SR": "west", "WL": "south", "WR": "north"}
CORNERS = {"NW": "north-west", "NE": "north-east", "SE": "south-east", "SW": "south-west"}


def where_words(on: str) -> str:
    """'north edge', 'north edge, west half', 'north-west corner', 'centre'."""
    code = on.upper()
    if code in SIDES:
        return f"{SIDES[code]} edge"
    if code in HALVES:
        return f"{SIDES[code[0]]} edge, {HALVES[code]} half"
    if code in CORNERS:
        return f"{CORNERS[code]} corner"
    if code in ("I1", "I2"):
        return "enclosed inside the tile"
    if code in ("C", "G"):
        return "centre"
    return code


def kind_of(game: Game | None, pos: tuple[int, int], on: str) -> str:
    """'city', 'road', 'field', 'monastery', 'garden', ... of a feature on a placed tile."""
    if game is None or pos not in game.board.tiles:
        return ""
    node = game.board.tiles[pos].node_named(on)
    if node is None:
        return ""
    feat = game.board.feature(node)
    return feat.building if feat.kind is Kind.BUILDING else feat.kind.value


def describe(kind: str, on: str) -> str:
    """'city, north edge' or 'field, south edge, west half' (just the place if no kind)."""
    place = where_words(on)
    return f"{kind}, {place}" if kind else place


def label(game: Game | None, pos: tuple[int, int], on: str, figure: str | None = None) -> str:
    """A menu or autocomplete label: 'N: city, north edge' or 'NW: barn, north-west corner'."""
    kind = "barn" if figure == "barn" else kind_of(game, pos, on)
    return f"{on}: {describe(kind, on)}"


LEGEND = (
    "**Feature codes** (where a figure goes on the tile): N E S W = the city or road at "
    "that edge (north, east, south, west); NL NR, EL ER, SL SR, WL WR = the field along "
    "that edge's half (NL is the west half of the north edge, NR the east half; EL north "
    "half of east, ER south half; SL east half of south, SR west half; WL south half of "
    "west, WR north half); I1 I2 = a field enclosed inside the tile; C = the monastery, "
    "shrine or abbey in the centre; G = the garden; NW NE SE SW = a corner (barns). "
    "Menus and suggestions say it in words, e.g. \"SR: field, south edge, west half\"."
)
