"""Where a figure stands on a tile, and where a tunnel token sits: points in tile units.

The points were worked out from the art when it was made (`render/art/anchors.py`, run by
`make_art`) and are read here from `tiles_art/anchors.json`, once; they are for rotation 0,
and `turn` puts a point where a rotated tile has it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from carca_bot.render.tile_art import ASSETS
from carca_bot.render.units import Pt, turn

ANCHORS_FILE = "anchors.json"


@dataclass(frozen=True)
class TileAnchors:
    """Rotation-0 points of one tile type: per segment index, and per tunnel entrance."""

    segments: tuple[Pt, ...]
    tunnels: dict[int, Pt]  # road segment index -> where its token sits


def anchors_to_json(table: dict[str, dict[str, TileAnchors]]) -> str:
    """The file's text: {"plain"|"tunnel": {tile: {"segments": [...], "tunnels": {...}}}}."""
    data = {variant: {tile: {"segments": [list(p) for p in a.segments],
                             "tunnels": {str(i): list(p) for i, p in sorted(a.tunnels.items())}}
                      for tile, a in tiles.items()}
            for variant, tiles in table.items()}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def anchors_from_json(raw: str) -> dict[str, dict[str, TileAnchors]]:
    data: dict[str, dict[str, Any]] = json.loads(raw)

    def point(p: list[float]) -> Pt:
        return (float(p[0]), float(p[1]))

    return {variant: {tile: TileAnchors(tuple(point(p) for p in a["segments"]),
                                        {int(i): point(p) for i, p in a["tunnels"].items()})
                      for tile, a in tiles.items()}
            for variant, tiles in data.items()}


@cache
def _table() -> dict[str, dict[str, TileAnchors]]:
    return anchors_from_json((ASSETS / ANCHORS_FILE).read_text(encoding="utf-8"))


def anchors(tile_id: str, tunnel: bool = False) -> TileAnchors:
    """Rotation-0 anchor points for every segment of a tile type."""
    table = _table()
    if tunnel and tile_id in table["tunnel"]:
        return table["tunnel"][tile_id]
    return table["plain"][tile_id]


def segment_point(tile_id: str, rot: int, index: int, tunnel: bool = False) -> Pt:
    """Where a figure on segment `index` stands on the tile turned `rot` quarter turns."""
    return turn(anchors(tile_id, tunnel).segments[index], rot)


def tunnel_point(tile_id: str, rot: int, index: int, tunnel: bool = True) -> Pt:
    """Where a tunnel token on road segment `index` sits on the turned tile."""
    spots = anchors(tile_id, tunnel).tunnels
    return turn(spots.get(index, anchors(tile_id, tunnel).segments[index]), rot)
