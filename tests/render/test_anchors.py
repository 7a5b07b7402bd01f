"""Figures stand inside the feature they occupy, checked against the tile art's own pixels.

The anchors come from a segment map drawn from the layout; these tests judge them by the
rendered art instead: the pixel under an anchor has the feature's colour, and it is joined
(by pixels of that colour) to the edge where the catalogue says the segment reaches.
"""

from __future__ import annotations

import math
import random
from functools import cache

import pytest
from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS, Kind, Segment, catalogue
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.setup import Setup
from carca_bot.render import palette as pal
from carca_bot.render.anchors import anchors, segment_point, tunnel_point
from carca_bot.render.pieces import figure_spots, token_spots
from carca_bot.render.tile_art import ABBEY, tile_image
from tests.render.pixels import regions

SIZE = 128
CLASSES: dict[str, tuple[pal.RGB, ...]] = {
    "field": (pal.FIELD, pal.FIELD_DARK), "city": (pal.CITY,), "city_alt": (pal.CITY_ALT,),
    "road": (pal.ROAD,),
}
EXPECTED = {Kind.FIELD: {"field"}, Kind.CITY: {"city", "city_alt"}, Kind.ROAD: {"road"}}
BUILDING = (pal.ROOF, pal.PLOT, pal.SHRINE_GROUND, pal.SHRINE_STONE, pal.FIRE)
GARDEN = (pal.HEDGE_LIGHT, *pal.FLOWERS)
MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
HALF = ((0.25, 0.0), (0.75, 0.0), (1.0, 0.25), (1.0, 0.75), (0.75, 1.0), (0.25, 1.0),
        (0.0, 0.75), (0.0, 0.25))
CASES = [(t, False) for t in sorted(catalogue().tiles)] + [("AM12", True)]


def _classify(rgb: tuple[int, ...]) -> str:
    for name, colours in CLASSES.items():
        if any(math.dist(rgb[:3], c) < 28 for c in colours):
            return name
    return "other"


@cache
def _components(tile: str, rot: int, tunnel: bool) -> tuple[list[str], list[int]]:
    """Per pixel of the art at SIZE px: its colour class and its connected component."""
    img = tile_image(tile, rot, SIZE, tunnel)
    raw = img.tobytes()
    cls = [_classify(tuple(raw[i:i + 3])) for i in range(0, len(raw), 3)]
    comp = regions(cls, SIZE, skip="other")
    return cls, comp


def _index(unit: tuple[float, float], inset: int = 0) -> int:
    x = min(max(int(unit[0] * SIZE), inset), SIZE - 1 - inset)
    y = min(max(int(unit[1] * SIZE), inset), SIZE - 1 - inset)
    return y * SIZE + x


def _edge_components(seg: Segment, comp: list[int]) -> set[int]:
    """Components at the places the segment reaches the tile edge."""
    points = [HALF[h] for h in seg.halves] + [MID[s] for s in seg.sides]
    return {comp[_index(p, 4)] for p in points}


def check_segment(tile: str, rot: int, tunnel: bool, index: int) -> None:
    shape = catalogue(tunnel).shape(tile, rot)
    seg = shape.segments[index]
    cls, comp = _components(tile, rot, tunnel)
    at = _index(segment_point(tile, rot, index, tunnel))
    if seg.kind in EXPECTED:
        assert cls[at] in EXPECTED[seg.kind], (tile, rot, index, seg.kind, cls[at])
        if seg.halves or seg.sides:
            assert comp[at] in _edge_components(seg, comp), (tile, rot, index, "not joined")
    else:  # a building or a garden: its own colours all round the anchor
        x, y = segment_point(tile, rot, index, tunnel)
        img = tile_image(tile, rot, SIZE, tunnel)
        own = GARDEN if seg.kind is Kind.GARDEN else BUILDING
        near = [_rgb(img, x + dx / 20, y + dy / 20) for dx in range(-2, 3) for dy in range(-2, 3)]
        hits = sum(any(math.dist(p, c) < 20 for c in own) for p in near)
        assert hits >= (1 if seg.kind is Kind.GARDEN else 5), (tile, rot, index, seg.kind, hits)
        centre = [_rgb(img, x + dx / 25, y + dy / 25) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        assert all(_classify(p) != "field" for p in centre), (tile, rot, index, "on grass")


@pytest.mark.parametrize(("tile", "tunnel"), CASES)
def test_every_segment_anchor_is_inside_its_feature(tile: str, tunnel: bool) -> None:
    for index in range(len(catalogue(tunnel).shape(tile, 0).segments)):
        check_segment(tile, 0, tunnel, index)


def test_rotated_anchors_follow_the_tile() -> None:
    for tile in ("D", "AM2", "KR4", "TU4", "RV-monastery", "L"):
        for rot in (1, 2, 3):
            for index in range(len(catalogue().shape(tile, rot).segments)):
                check_segment(tile, rot, False, index)


def test_abbey_figures_stand_on_the_abbey() -> None:
    assert anchors(ABBEY).segments == ((0.5, 0.5),)
    assert segment_point(ABBEY, 3, 0) == (0.5, 0.5)


def test_tunnel_tokens_sit_on_their_road_by_the_mouth() -> None:
    for tile in ("TU1", "TU2", "TU3", "TU4", "AM12"):
        shape = catalogue(True).shape(tile, 0)
        cls, _ = _components(tile, 0, True)
        for index, seg in enumerate(shape.segments):
            if not seg.tunnel:
                continue
            x, y = tunnel_point(tile, 0, index)
            assert cls[_index((x, y))] == "road", (tile, index)
            side = seg.sides[0]
            assert math.dist((x, y), MID[side]) < 0.45, (tile, index)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_figures_in_played_games_land_on_their_feature(seed: int) -> None:
    """Every figure of a finished game, checked on its tile as the tile lies on the board."""
    players = ("A", "B", "C", "D", "E")[: 2 + seed]
    game = random_game(Setup(players, frozenset(EXPANSIONS), seed=seed), random.Random(seed))
    spots = figure_spots(game)
    assert len(spots) == len(game.figures) > 0
    for fig, (kind, player, pos, unit) in zip(game.figures, spots, strict=True):
        assert player == fig.player
        placed = game.board.tiles[pos]
        if fig.kind == "barn":
            assert kind == "barn" and unit in ((0, 0), (1, 0), (1, 1), (0, 1))
            continue
        feature = game.board.feature(fig.node).kind
        # A figure that farms lies down in a field ("farmer", "large_farmer"), only there.
        assert kind.endswith("farmer") == (feature is Kind.FIELD and fig.type.farms)
        if placed.tile == ABBEY:
            assert unit == (0.5, 0.5)
            continue
        _, index = game.board.location[fig.node]
        assert placed.shape is not None and placed.shape.segments[index].kind is feature
        check_segment(placed.tile, placed.rot, True, index)
    for _, _, pos, (x, y) in token_spots(game):
        placed = game.board.tiles[pos]
        img = tile_image(placed.tile, placed.rot, SIZE, True)
        assert _classify(_rgb(img, x, y)) == "road"


def _rgb(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    p = img.getpixel((int(x * SIZE), int(y * SIZE)))
    assert isinstance(p, tuple)
    return (int(p[0]), int(p[1]), int(p[2]))
