"""Tile pictures for the board: the committed art, scaled to the board's step and turned.

The pictures are files under `tiles_art/tiles/` (made by `python -m carca_bot.render.art.make_art`);
the bot reads them and never runs the drawing code. The art has no text, so a rotated tile
is the rotation-0 picture turned; each (tile, rotation, size) is made once and cached.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from PIL import Image

from carca_bot.engine.catalogue import catalogue

ABBEY = "ABBEY"


def _art_folder() -> Path:
    """`tiles_art/`: inside the installed package, or at the top of a checkout."""
    package = Path(__file__).resolve().parents[1]
    installed = package / "tiles_art"
    return installed if installed.is_dir() else package.parent / "tiles_art"


ASSETS = _art_folder()
TILE_SIZE = 128  # the committed pictures' size: the largest the board shows
_TURN = {1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180,
         3: Image.Transpose.ROTATE_90}  # PIL turns counter-clockwise; ours are clockwise


def all_tile_ids() -> list[str]:
    """Every tile that has art: the catalogue in file order, then the abbey."""
    return [*catalogue().tiles, ABBEY]


@cache
def tunnel_sensitive() -> frozenset[str]:
    """Tiles that look different when The Tunnel is in play (their roads end in tunnels)."""
    plain, tunnel = catalogue(False).tiles, catalogue(True).tiles
    return frozenset(t for t in plain if plain[t].shapes != tunnel[t].shapes)


def tile_file(tile_id: str, tunnel: bool = False) -> str:
    """The picture's path under `tiles_art/`."""
    return f"tiles/{tile_id}-tunnel.png" if tunnel else f"tiles/{tile_id}.png"


def tile_image(tile_id: str, rot: int = 0, size: int = TILE_SIZE,
               tunnel: bool = False) -> Image.Image:
    """The tile turned `rot` quarter turns clockwise, as an RGB image `size` pixels square.

    Returns a fresh copy, so callers may draw on it; the work is cached.
    """
    if tile_id != ABBEY and tile_id not in catalogue().tiles:
        raise KeyError(tile_id)
    return _cached(tile_id, rot % 4, size, tunnel and tile_id in tunnel_sensitive()).copy()


@lru_cache(maxsize=1024)  # about 50 MB of 128 px tiles at most
def _cached(tile_id: str, rot: int, size: int, tunnel: bool) -> Image.Image:
    if rot:
        return _cached(tile_id, 0, size, tunnel).transpose(_TURN[rot])
    if size != TILE_SIZE:
        master = _cached(tile_id, 0, TILE_SIZE, tunnel)
        return master.resize((size, size), Image.Resampling.BOX)
    with Image.open(ASSETS / tile_file(tile_id, tunnel)) as img:
        return img.convert("RGB")
