"""The tile catalogue: every tile type in every rotation, built once from our data files.

Each rotated tile is a `Shape` (`shapes.py`): its four edges and its segments (the
pieces of city, road, field, building and garden printed on it) with the names
players use for them (`N`, `NL`, `I1`, `C`, `G`). Which tiles come from which
file, whose they are (by id prefix) and what extra keys of the data mean (an inn,
a cathedral, goods) is what the expansions' records say (`rules.py`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from carca_bot.engine.geometry import HALF_INDEX, HALF_NAMES, SIDE_INDEX, SIDE_NAMES
from carca_bot.engine.rules import BY_NAME, EXPANSIONS, REGISTERED, expansion_of
from carca_bot.engine.shapes import Catalogue, Kind, Mods, Segment, Shape, TileType

__all__ = ["EXPANSIONS", "Catalogue", "Kind", "Segment", "Shape", "TileType", "catalogue",
           "expansion_of", "tile_ids"]


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


# Keys of the tile data that the records give meaning to: key -> "flag" or "value".
MODIFIERS: dict[str, str] = {key: how for record in REGISTERED for key, how in record.modifiers}


def _mods(raw: dict[str, Any]) -> Mods:
    """A city's or road's modifiers: a true `flag` key is one of its name; a `value` key
    names its modifier (`"goods": "wine"` is one `wine`)."""
    found: dict[str, int] = {}
    for key, how in MODIFIERS.items():
        value = raw.get(key)
        if value:
            name = str(value) if how == "value" else key
            found[name] = found.get(name, 0) + 1
    return tuple(sorted(found.items()))


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
        segments.append(Segment(Kind.CITY, sides=sides, pennants=city.get("pennants", 0),
                                mods=_mods(city)))
    for road in raw.get("roads", []):
        parts = [road["e"]]
        if road.get("tunnel_if_expansion") and tunnel:
            parts = list(road["e"])  # the road under the city becomes two tunnel ends
        for part in parts:
            sides = tuple(sorted(_rotate_side(SIDE_INDEX[c], rot) for c in part))
            for c in part:
                base_refs[f"road:{c}"] = len(segments)
            is_tunnel = bool(road.get("tunnel")) or (len(parts) > 1)
            segments.append(Segment(Kind.ROAD, sides=sides, tunnel=is_tunnel, mods=_mods(road)))
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
                   seg.building, name, seg.mods)


def _lines() -> list[dict[str, Any]]:
    """The tile lines of the base game and every expansion: each record's tiles are the
    lines of its `tile_data` file whose ids start with its prefix (the base game's: the
    lines of `tiles.jsonl` no record claims)."""
    lines = []
    for name in dict.fromkeys(record.tile_data for record in (BY_NAME["base"], *REGISTERED)):
        for raw in _load_json_lines(name):
            if raw["id"] != "ABBEY" and BY_NAME[expansion_of(raw["id"])].tile_data == name:
                lines.append(raw)
    return lines


@cache
def catalogue(tunnel: bool = False) -> Catalogue:
    links = _wagon_links()
    tiles: dict[str, TileType] = {}
    for raw in _lines():
        shapes = tuple(_build_shape(raw, r, tunnel, links.get(raw["id"], [])) for r in range(4))
        tiles[raw["id"]] = TileType(raw["id"], int(raw["count"]), expansion_of(raw["id"]),
                                    shapes, river_last=bool(raw.get("river_last")))
    return Catalogue(tiles)


def tile_ids() -> frozenset[str]:
    return frozenset(catalogue().tiles)
