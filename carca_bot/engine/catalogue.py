"""The tile catalogue: every tile type in every rotation, built once from our data file.

Each rotated tile is a `Shape`: its four edges and its segments (the pieces of
city, road, field, building and garden printed on it) with the names players
use for them (`N`, `NL`, `I1`, `C`, `G`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any

from carca_bot.engine.geometry import HALF_INDEX, HALF_NAMES, SIDE_INDEX, SIDE_NAMES

EXPANSIONS = ("river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel")


class Kind(Enum):
    CITY = "city"
    ROAD = "road"
    FIELD = "field"
    BUILDING = "building"  # monastery, shrine or abbey
    GARDEN = "garden"


@dataclass(frozen=True, slots=True)
class Segment:
    """One feature piece on a tile, as it lies on the board."""

    kind: Kind
    sides: tuple[int, ...] = ()  # city / road: the sides it reaches
    halves: tuple[int, ...] = ()  # field: the half-edges it touches
    pennants: int = 0
    cities: tuple[int, ...] = ()  # field: indices of the city segments it touches
    tunnel: bool = False  # road ending at a tunnel entrance
    building: str = ""  # "monastery" or "shrine"
    name: str = ""  # the canonical name players type


@dataclass(frozen=True, slots=True)
class Shape:
    """A tile type in one rotation."""

    tile: str
    rot: int  # quarter turns clockwise
    edges: str  # N E S W letters after rotation: C R F W
    segments: tuple[Segment, ...]
    side_segment: tuple[int | None, ...]  # city/road segment reaching each side
    half_segment: tuple[int | None, ...]  # field segment touching each half-edge
    names: dict[str, int]  # every name for each segment
    river: tuple[int, ...]  # sides the river reaches
    building: int | None  # segment index of a monastery or shrine
    garden: int | None
    links: tuple[tuple[int, ...], ...]  # C1 wagon links, as segment indices


@dataclass(frozen=True, slots=True)
class TileType:
    id: str
    count: int
    expansion: str  # "base" or one of EXPANSIONS
    shapes: tuple[Shape, ...]  # by quarter turns
    river_last: bool = False

    @property
    def is_river(self) -> bool:
        return self.expansion == "river"


def expansion_of(tile_id: str) -> str:
    for prefix, name in (("RV-", "river"), ("AM", "abbey_mayor"), ("KR", "king_robber"),
                         ("CU", "cult"), ("TU", "tunnel")):
        if tile_id.startswith(prefix):
            return name
    return "base"


def _load_json_lines(name: str) -> list[dict[str, Any]]:
    text = resources.files("carca_bot.engine").joinpath("data").joinpath(name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _wagon_links() -> dict[str, list[list[str]]]:
    data = resources.files("carca_bot.engine").joinpath("data")
    text = data.joinpath("wagon_links.json").read_text("utf-8")
    links: dict[str, list[list[str]]] = json.loads(text)["links"]
    return links


def _rotate_side(side: int, rot: int) -> int:
    return (side + rot) % 4


def _rotate_half(half: int, rot: int) -> int:
    return (half + 2 * rot) % 8


def _build_shape(raw: dict[str, Any], rot: int, tunnel: bool,
                 links: list[list[str]]) -> Shape:
    segments: list[Segment] = []
    city_index: list[int] = []  # catalogue city index -> segment index
    base_refs: dict[str, int] = {}  # "city:N" at rot 0 -> segment index
    for city in raw.get("cities", []):
        sides = tuple(sorted(_rotate_side(SIDE_INDEX[c], rot) for c in city["e"]))
        city_index.append(len(segments))
        for c in city["e"]:
            base_refs[f"city:{c}"] = len(segments)
        segments.append(Segment(Kind.CITY, sides=sides, pennants=city.get("pennants", 0)))
    for road in raw.get("roads", []):
        parts = [road["e"]]
        if road.get("tunnel_if_expansion") and tunnel:
            parts = list(road["e"])  # the road under the city becomes two tunnel ends
        for part in parts:
            sides = tuple(sorted(_rotate_side(SIDE_INDEX[c], rot) for c in part))
            for c in part:
                base_refs[f"road:{c}"] = len(segments)
            is_tunnel = bool(road.get("tunnel")) or (len(parts) > 1)
            segments.append(Segment(Kind.ROAD, sides=sides, tunnel=is_tunnel))
    inner = 0
    for fld in raw.get("fields", []):
        halves_raw = fld["h"]
        cities = tuple(city_index[i] for i in fld.get("cities", []))
        if halves_raw == ["INNER"]:
            inner += 1
            segments.append(Segment(Kind.FIELD, cities=cities, name=f"I{inner}"))
        else:
            halves = tuple(sorted(_rotate_half(HALF_INDEX[h], rot) for h in halves_raw))
            segments.append(Segment(Kind.FIELD, halves=halves, cities=cities))
    building: int | None = None
    for kind in ("monastery", "shrine"):
        if raw.get(kind):
            building = len(segments)
            base_refs["building"] = building
            segments.append(Segment(Kind.BUILDING, building=kind, name="C"))
    garden: int | None = None
    if raw.get("garden"):
        garden = len(segments)
        segments.append(Segment(Kind.GARDEN, name="G"))

    side_segment: list[int | None] = [None] * 4
    half_segment: list[int | None] = [None] * 8
    names: dict[str, int] = {}
    named: list[Segment] = []
    for i, seg in enumerate(segments):
        for s in seg.sides:
            side_segment[s] = i
            names[SIDE_NAMES[s]] = i
        for h in seg.halves:
            half_segment[h] = i
            names[HALF_NAMES[h]] = i
        if seg.name:
            names[seg.name] = i
            named.append(seg)
        elif seg.sides:
            named.append(_with_name(seg, SIDE_NAMES[seg.sides[0]]))
        else:
            named.append(_with_name(seg, HALF_NAMES[seg.halves[0]]))
    edges = "".join(raw["edges"][(s - rot) % 4] for s in range(4))
    river = tuple(sorted(_rotate_side(SIDE_INDEX[c], rot) for c in raw.get("river", "")))
    link_groups = tuple(tuple(base_refs[ref] for ref in group if ref in base_refs)
                        for group in links)
    return Shape(raw["id"], rot, edges, tuple(named), tuple(side_segment),
                 tuple(half_segment), names, river, building, garden, link_groups)


def _with_name(seg: Segment, name: str) -> Segment:
    return Segment(seg.kind, seg.sides, seg.halves, seg.pennants, seg.cities, seg.tunnel,
                   seg.building, name)


@dataclass(frozen=True)
class Catalogue:
    """All land tile types of the game; AM12's road differs with the Tunnel."""

    tiles: dict[str, TileType]

    def __getitem__(self, tile_id: str) -> TileType:
        return self.tiles[tile_id]

    def shape(self, tile_id: str, rot: int) -> Shape:
        return self.tiles[tile_id].shapes[rot]


@cache
def catalogue(tunnel: bool = False) -> Catalogue:
    links = _wagon_links()
    tiles: dict[str, TileType] = {}
    for raw in _load_json_lines("tiles.jsonl"):
        if raw["id"] == "ABBEY":
            continue
        shapes = tuple(_build_shape(raw, r, tunnel, links.get(raw["id"], [])) for r in range(4))
        tiles[raw["id"]] = TileType(raw["id"], int(raw["count"]), expansion_of(raw["id"]),
                                    shapes, river_last=bool(raw.get("river_last")))
    return Catalogue(tiles)


def tile_ids() -> frozenset[str]:
    return frozenset(catalogue().tiles)
