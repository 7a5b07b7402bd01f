"""The board picture: game state to PNG bytes, for the channel after every move.

`render_board(game)` (and `render_your_tile`, drawn by `render.yourtile`) are what the bot calls;
`BoardRenderer` does the work and keeps what survives a move: the composed tile layer at
the current scale. A move then pastes only the newest tile, draws figures, tokens and the
panel over the layer (putting back what was under them afterwards) and encodes; when the
crop grows by a square the old layer is moved into the new one in one paste.
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from PIL import Image

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.render import panel
from carca_bot.render.anchors import anchors
from carca_bot.render.figure_art import FIGURE_KINDS, MARKER_KINDS, figure_image, marker_image
from carca_bot.render.formats import ImageTooLarge
from carca_bot.render.grid import (
    BACKGROUND,
    MAX_SIDE,
    TILE_STEPS,
    Column,
    Layout,
    base_layer,
    make_layout,
    paste_tiles,
    placed,
)
from carca_bot.render.palette import PLAYERS
from carca_bot.render.pieces import Paint, Scratch, draw_pieces
from carca_bot.render.png import encode_rgb
from carca_bot.render.tile_art import all_tile_ids, tile_image, tunnel_sensitive
from carca_bot.render.yourtile import render_your_tile as your_tile_picture

__all__ = ["MAX_BYTES", "MAX_SIDE", "BoardRenderer", "ImageTooLarge", "render_board",
           "render_your_tile"]

MAX_BYTES = 2_000_000
COMPRESS_LEVEL = 1  # zlib levels 1-3 give about the same size on this art; 1 is fastest


@dataclass
class _Layer:
    layout: Layout
    tunnel: bool
    image: Image.Image
    tiles: dict[Pos, tuple[str, int]]


def _paste_tiles(layer: _Layer, tiles: dict[Pos, tuple[str, int]]) -> None:
    paste_tiles(layer.image, layer.layout, tiles, layer.tunnel)
    layer.tiles.update(tiles)


def _grown(old: _Layer, lay: Layout) -> _Layer:
    """The old layer moved into a larger crop at the same scale: one paste, no redrawing."""
    fresh = _Layer(lay, old.tunnel, base_layer(lay), dict(old.tiles))
    o = old.layout
    w, h = o.board_size
    left, top, _, _ = lay.box((o.x0, o.y0))
    fresh.image.paste(old.image.crop((o.left, o.top, w, h)), (left, top))
    return fresh


def encode_small(img: Image.Image) -> bytes:
    """A last resort for tight limits: 256 colours and full compression."""
    buf = io.BytesIO()
    img.quantize(256, method=Image.Quantize.FASTOCTREE).save(buf, format="PNG",
                                                             compress_level=9)
    return buf.getvalue()


class BoardRenderer:
    """Renders boards and keeps tile layers between moves.

    It keeps the last few layers (one per picture kind and game, at most `keep`), so one
    renderer can serve a few games in turn; each layer is an RGB image of the whole picture
    (up to 17 MB). Not thread-safe: use one per thread.
    """

    def __init__(self, keep: int = 4) -> None:
        self._layers: list[tuple[str, _Layer]] = []  # most recently used last
        self._keep = keep

    def _take(self, kind: str, tunnel: bool, tile: int,
              tiles: dict[Pos, tuple[str, int]]) -> _Layer | None:
        """The kept layer this board grew from: same kind and scale, and every tile on it
        still on the board; the one with most tiles wins. It leaves the list."""
        best: int | None = None
        for i, (k, layer) in enumerate(self._layers):
            if (k, layer.tunnel, layer.layout.tile) != (kind, tunnel, tile):
                continue
            if any(tiles.get(p) != v for p, v in layer.tiles.items()):
                continue  # another game, or a move taken back
            if best is None or len(layer.tiles) > len(self._layers[best][1].tiles):
                best = i
        return None if best is None else self._layers.pop(best)[1]

    def layer(self, game: Game, lay: Layout, kind: str = "board") -> Image.Image:
        """The kept layer of picture `kind` for `lay`, updated by pasting only new tiles.

        Callers may draw on it only through a `Scratch` that they restore.
        """
        tunnel = game.setup.has("tunnel")
        tiles = placed(game)
        old = self._take(kind, tunnel, lay.tile, tiles)
        if old is not None and old.layout == lay:
            layer = old
        elif old is not None and lay.contains(old.layout) and lay.label == old.layout.label:
            layer = _grown(old, lay)
        else:
            layer = _Layer(lay, tunnel, base_layer(lay), {})
        _paste_tiles(layer, {p: v for p, v in tiles.items() if layer.tiles.get(p) != v})
        self._layers.append((kind, layer))
        del self._layers[:-self._keep]
        return layer.image

    @contextmanager
    def painted(self, game: Game, column: Column, paint: Paint, cap: int = TILE_STEPS[0],
                kind: str = "board") -> Iterator[tuple[Image.Image, Layout]]:
        """The picture, drawn over the kept layer; valid only inside the `with` block."""
        lay = make_layout(game, column, cap)
        sheet = Scratch(self.layer(game, lay, kind))
        try:
            paint(sheet, lay)
            yield sheet.image, lay
        finally:
            sheet.restore()

    def _board(self, game: Game, language: str) -> tuple[Column, Paint]:
        state = panel.panel_state(game, 14)

        def column(f: int) -> tuple[int, int]:
            return panel.panel_width(f), panel.panel_height(replace(state, f=f))

        def paint(sheet: Scratch, lay: Layout) -> None:
            draw_pieces(sheet, lay, game)
            x = lay.board_size[0]
            sheet.keep_plain((x, 0, lay.width, lay.height), BACKGROUND)
            sheet.image.paste(panel.draw_panel(replace(state, f=lay.f), language), (x, 0))

        return column, paint

    def board_image(self, game: Game, cap: int = TILE_STEPS[0],
                    language: str = "en") -> tuple[Image.Image, Layout]:
        """The board picture as a fresh image, with its layout (for tests and previews)."""
        with self.painted(game, *self._board(game, language), cap) as (img, lay):
            return img.copy(), lay

    def render(self, game: Game, max_bytes: int | None = None, language: str = "en") -> bytes:
        """The board as PNG bytes, shrunk until it fits `max_bytes` (and MAX_BYTES), its
        words in `language`."""
        column, paint = self._board(game, language)
        return self.fit(game, column, paint, max_bytes)

    def your_tile(self, game: Game, tile: str, max_bytes: int | None = None,
                  language: str = "en") -> bytes:
        """The active player's picture (`render.yourtile`): `tile` in four rotations, the
        squares where it fits best magnified, and the rest listed."""
        return your_tile_picture(game, tile, max_bytes, language)

    def fit(self, game: Game, column: Column, paint: Paint, max_bytes: int | None,
            kind: str = "board") -> bytes:
        """Encode at the largest scale whose PNG fits the limit.

        Bytes grow about with the area, so the next try scales the tile by sqrt(limit / size).
        """
        limit = MAX_BYTES if max_bytes is None else min(max_bytes, MAX_BYTES)
        cap = TILE_STEPS[0]
        while True:
            with self.painted(game, column, paint, cap, kind) as (img, lay):
                data = encode_rgb(img, COMPRESS_LEVEL)
                if len(data) >= limit and lay.tile == TILE_STEPS[-1]:
                    data = encode_small(img)
            if len(data) < limit:
                return data
            smaller = [t for t in TILE_STEPS if t < lay.tile]
            if not smaller:
                raise ImageTooLarge(f"the picture needs {len(data)} bytes; the limit is {limit}")
            target = lay.tile * math.sqrt(limit / len(data))
            cap = next((t for t in smaller if t <= target), smaller[-1])


_LOCAL = threading.local()


def _renderer() -> BoardRenderer:
    """One renderer per thread: the bot renders in a small thread pool."""
    renderer = getattr(_LOCAL, "renderer", None)
    if renderer is None:
        renderer = _LOCAL.renderer = BoardRenderer()
    return renderer


def render_board(game: Game, max_bytes: int | None = None, language: str = "en") -> bytes:
    """The board picture as PNG bytes (under `max_bytes`, and never over MAX_BYTES).

    `language` is an argument, not the caller's context: the bot renders in a thread
    pool, which does not see the language its caller speaks.
    """
    return _renderer().render(game, max_bytes, language)


def render_your_tile(game: Game, tile: str, max_bytes: int | None = None,
                     language: str = "en") -> bytes:
    """The drawn tile's picture (`render.yourtile`), its words in `language`."""
    return your_tile_picture(game, tile, max_bytes, language)


def warm_up() -> None:
    """Read the committed art and figure points now (well under a second) instead of during
    the first renders; call once at start-up, e.g. in the render thread."""
    for tile in all_tile_ids():
        tile_image(tile)
        anchors(tile)
        if tile in tunnel_sensitive():
            tile_image(tile, tunnel=True)
    for kind in FIGURE_KINDS:
        for player in range(len(PLAYERS)):
            figure_image(kind, player)
    for kind in MARKER_KINDS:
        marker_image(kind)
