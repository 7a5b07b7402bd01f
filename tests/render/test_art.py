"""The generated art must agree with the tile data, be reproducible, and tell players apart."""

from __future__ import annotations

import itertools
import json
import math
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from carca_bot.engine.catalogue import Kind, Shape, catalogue
from carca_bot.render import palette
from carca_bot.render.anchors import ANCHORS_FILE
from carca_bot.render.art import make_art
from carca_bot.render.art.tiles import draw_tile
from carca_bot.render.figure_art import FIGURE_KINDS, figure_image, marker_image, token_image
from carca_bot.render.tile_art import _cached, all_tile_ids, tile_image
from tests.render.pixels import regions

SIZE = 128
SIZES = (128, 40)  # the committed size, and about what a phone shows per tile
REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "tiles_art"

TILE_IDS = sorted(catalogue().tiles)
# Where the tests look, in units along each side: the middle and the two halves.
HALF_POINT = {  # half-edge index -> (x, y) in units; L/R as seen from the centre looking out
    0: (0.25, 0.0), 1: (0.75, 0.0), 2: (1.0, 0.25), 3: (1.0, 0.75),
    4: (0.75, 1.0), 5: (0.25, 1.0), 6: (0.0, 0.75), 7: (0.0, 0.25),
}
MID_POINT = {0: (0.5, 0.0), 1: (1.0, 0.5), 2: (0.5, 1.0), 3: (0.0, 0.5)}
LETTER = {"C": "city", "R": "road", "F": "field", "W": "river"}


def _pixel_at(unit: tuple[float, float], size: int) -> tuple[int, int]:
    """The pixel at `unit`, moved a few px inside the border (4 px at 128 px)."""
    inset = max(1, round(size * 0.035))
    x, y = unit
    px = min(max(round(x * size), inset), size - 1 - inset)
    py = min(max(round(y * size), inset), size - 1 - inset)
    return px, py


@cache
def _classify(rgb: tuple[int, int, int]) -> str:
    best = min(((math.dist(rgb, c), name) for name, cs in palette.TERRAIN.items() for c in cs))
    return best[1] if best[0] < 40 else "other"


def _is_field(rgb: tuple[int, int, int]) -> bool:
    return any(math.dist(rgb, c) < 28 for c in (palette.FIELD, palette.FIELD_DARK))


def _expected_half(shape: Shape, half: int) -> str:
    seg = shape.half_segment[half]
    if seg is not None:
        assert shape.segments[seg].kind is Kind.FIELD
        return "field"
    letter = shape.edges[half // 2]
    assert letter == "C", f"{shape.tile}: half {half} on a {letter} edge without a field"
    return "city"


def _rgb(img: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    p = img.getpixel(xy)
    assert isinstance(p, tuple)
    return (int(p[0]), int(p[1]), int(p[2]))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("tunnel", [False, True])
@pytest.mark.parametrize("tile_id", TILE_IDS)
def test_border_terrain_matches_catalogue(tile_id: str, tunnel: bool, size: int) -> None:
    """Edge middles show the edge's terrain; half-edges show field where a field touches."""
    for rot in range(4):
        shape = catalogue(tunnel).shape(tile_id, rot)
        img = tile_image(tile_id, rot, size, tunnel)
        for side in range(4):
            got = _classify(_rgb(img, _pixel_at(MID_POINT[side], size)))
            assert got == LETTER[shape.edges[side]], (tile_id, rot, "side", side, got)
        for half in range(8):
            got = _classify(_rgb(img, _pixel_at(HALF_POINT[half], size)))
            assert got == _expected_half(shape, half), (tile_id, rot, "half", half, got)


def _field_components(img: Image.Image) -> list[list[int]]:
    """Label 4-connected regions of field-coloured pixels (0 = not field)."""
    w, h = img.size
    raw = img.convert("RGB").tobytes()
    field = [_is_field((raw[i], raw[i + 1], raw[i + 2])) for i in range(0, len(raw), 3)]
    label = regions(field, w, skip=False)
    return [label[r * w:(r + 1) * w] for r in range(h)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("tile_id", [*TILE_IDS, "AM12+tunnel"])
def test_fields_are_separated_as_in_catalogue(tile_id: str, size: int) -> None:
    """Halves of one field are joined by grass in the picture; halves of two fields are not."""
    tunnel = tile_id.endswith("+tunnel")
    tid = tile_id.removesuffix("+tunnel")
    shape = catalogue(tunnel).shape(tid, 0)
    labels = _field_components(tile_image(tid, 0, size, tunnel))
    comp: dict[int, int] = {}
    for half, seg in enumerate(shape.half_segment):
        if seg is not None:
            x, y = _pixel_at(HALF_POINT[half], size)
            comp[half] = labels[y][x]
            assert comp[half], (tid, half, "not on grass")
    for a, b in itertools.combinations(comp, 2):
        same_field = shape.half_segment[a] == shape.half_segment[b]
        assert (comp[a] == comp[b]) == same_field, (tid, a, b, same_field)


def test_drawing_is_deterministic() -> None:
    for t in ("D", "AM12", "RV-bridge", "ABBEY"):
        assert draw_tile(t, 96).tobytes() == draw_tile(t, 96).tobytes()


def test_rendering_is_deterministic() -> None:
    first = {t: tile_image(t, 1, 96).tobytes() for t in ("D", "AM12", "RV-bridge", "ABBEY")}
    _cached.cache_clear()
    again = {t: tile_image(t, 1, 96).tobytes() for t in first}
    assert first == again
    assert figure_image("mayor", 2, 48).tobytes() == figure_image("mayor", 2, 48).tobytes()


def test_committed_art_is_current(tmp_path: Path) -> None:
    """Fails when the generator changed but `python -m carca_bot.render.art.make_art` was not run.

    Compares decoded pixels, not file bytes, so a different zlib cannot fail it.
    """
    committed = ASSETS
    make_art.write_art(tmp_path)
    fresh_points = json.loads((tmp_path / ANCHORS_FILE).read_text(encoding="utf-8"))
    assert fresh_points == json.loads((committed / ANCHORS_FILE).read_text(encoding="utf-8"))
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.png"))
    old = sorted(p.relative_to(committed) for p in committed.rglob("*.png"))
    assert fresh == old
    stale = []
    for rel in fresh:
        with Image.open(tmp_path / rel) as a, Image.open(committed / rel) as b:
            if (a.mode, a.size, a.tobytes()) != (b.mode, b.size, b.tobytes()):
                stale.append(str(rel))
    assert not stale, f"regenerate (python -m carca_bot.render.art.make_art): {stale[:5]}"


def test_saved_png_has_no_metadata(tmp_path: Path) -> None:
    """Same pixels give the same bytes: nothing like a timestamp goes into the files."""
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    make_art._save(tile_image("D"), a)
    make_art._save(tile_image("D"), b)
    assert a.read_bytes() == b.read_bytes()
    with Image.open(a) as img:
        assert not {k for k in img.info if k not in ("dpi",)}


def test_every_tile_has_art() -> None:
    assert set(all_tile_ids()) == set(catalogue().tiles) | {"ABBEY"}
    for t in all_tile_ids():
        img = tile_image(t, 0, 40)
        assert img.size == (40, 40)
    with pytest.raises(KeyError):
        tile_image("NOPE")


# --- figures -------------------------------------------------------------------------------

def _mask(img: Image.Image) -> list[bool]:
    return [a > 128 for a in img.getchannel("A").tobytes()]


def test_figure_kinds_have_distinct_silhouettes() -> None:
    masks = {k: _mask(figure_image(k, 0, 64)) for k in FIGURE_KINDS}
    masks["token"] = _mask(token_image(0, 1, 64))
    masks["king"] = _mask(marker_image("king", 64))
    masks["robber"] = _mask(marker_image("robber", 64))
    for (a, ma), (b, mb) in itertools.combinations(masks.items(), 2):
        union = sum(x or y for x, y in zip(ma, mb, strict=True))
        inter = sum(x and y for x, y in zip(ma, mb, strict=True))
        assert inter / union < 0.85, (a, b, inter / union)


def test_figures_of_one_kind_differ_only_in_colour_and_number() -> None:
    for kind in FIGURE_KINDS:
        images = [figure_image(kind, p, 64) for p in range(6)]
        assert len({im.tobytes() for im in images}) == 6
        assert all(im.size == (64, 64) and im.mode == "RGBA" for im in images)
    assert len({token_image(p, pair, 48).tobytes() for p in range(6) for pair in (1, 2, 3)}) == 18


# Machado, Oliveira & Fernandes (2009) colour-vision-deficiency matrices, severity 1.
_CVD = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
}


def _linear(rgb: tuple[int, int, int]) -> list[float]:
    out = []
    for v in rgb:
        c = v / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def _lab(lin: list[float]) -> tuple[float, float, float]:
    lin = [min(max(v, 0.0), 1.0) for v in lin]
    xyz = [sum(m * v for m, v in zip(row, lin, strict=True)) for row in
           ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))]
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
         for t in (xyz[0] / 0.95047, xyz[1], xyz[2] / 1.08883)]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def _seen(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    lin = _linear(rgb)
    return _lab([sum(m * v for m, v in zip(row, lin, strict=True)) for row in _CVD[vision]])


def test_player_colours_are_distinct_for_colour_blind_viewers() -> None:
    fills = [p.fill for p in palette.PLAYERS]
    assert len(fills) == 6
    for vision in _CVD:
        for a, b in itertools.combinations(range(6), 2):
            d = math.dist(_seen(fills[a], vision), _seen(fills[b], vision))
            assert d > 15, (vision, palette.PLAYERS[a].name, palette.PLAYERS[b].name, d)
        for fill in fills:  # and every figure stands out from grass and stone
            for ground in (palette.FIELD, palette.CITY):
                assert math.dist(_seen(fill, vision), _seen(ground, vision)) > 15
    lightness = sorted(_seen(f, "normal")[0] for f in fills)
    assert lightness[-1] - lightness[0] > 60


def test_marks_contrast_with_their_figure() -> None:
    for p in palette.PLAYERS:
        assert abs(_seen(p.fill, "normal")[0] - _seen(p.ink, "normal")[0]) > 35, p.name
