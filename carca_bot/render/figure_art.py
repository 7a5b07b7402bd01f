"""Figures, tunnel tokens and the King/Robber markers: the committed art, scaled.

The pictures are files under `tiles_art/figures/` (64 px figures and markers, 48 px
tokens, made by `python -m carca_bot.render.art.make_art`); the bot reads them and never
runs the drawing code. A token's pair number is written into its tunnel mouth here, so
any number of pairs can be shown.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.engine.rules import PIECES
from carca_bot.render import palette as pal
from carca_bot.render import text
from carca_bot.render.tile_art import ASSETS


def lying(figure: str) -> str:
    """The picture of a figure that farms, lying in a field ('farmer' for the follower)."""
    return "farmer" if figure == "follower" else f"{figure}_farmer"


# Every figure of the figure table has a picture, and each that farms a lying one too.
FIGURE_KINDS = tuple(kind for f in FIGURE_TABLE
                     for kind in ((f.name, lying(f.name)) if f.farms else (f.name,)))
# Pictures drawn first, under the standing ones: figures lying in fields, corner figures.
FLAT_KINDS = frozenset({lying(f.name) for f in FIGURE_TABLE if f.farms}
                       | {f.name for f in FIGURE_TABLE if f.corner})
MARKER_KINDS = ("king", "robber")
# Pieces held in hand with a picture of their own (goods tokens, say), by `supply` key.
PIECE_KINDS = tuple(p.name for p in PIECES if p.art)
FIGURE_SIZE = 64
TOKEN_SIZE = 48
_MOUTH: tuple[float, float, float, float] = (0.5, 0.63, 0.34, 0.22)  # centre, width, height


def figure_file(kind: str, player: int) -> str:
    return f"figures/{kind}-{player}.png"


def token_file(player: int) -> str:
    return f"figures/token-{player}.png"


def marker_file(kind: str) -> str:
    return f"figures/{kind}.png"


def piece_file(kind: str) -> str:
    return f"figures/piece-{kind}.png"


def _load(rel: str, size: int, master: int) -> Image.Image:
    if size != master:
        return _load(rel, master, master).resize((size, size), Image.Resampling.BOX)
    with Image.open(ASSETS / rel) as img:
        return img.convert("RGBA")


def figure_image(kind: str, player: int, size: int = FIGURE_SIZE) -> Image.Image:
    """A figure of `kind` for seat `player` (0-based; the number shown is player + 1)."""
    if kind not in FIGURE_KINDS:
        raise ValueError(f"unknown figure kind {kind!r}")
    return _figure(kind, player % len(pal.PLAYERS), size).copy()


@lru_cache(maxsize=512)
def _figure(kind: str, player: int, size: int) -> Image.Image:
    return _load(figure_file(kind, player), size, FIGURE_SIZE)


def token_image(player: int, pair: int, size: int = TOKEN_SIZE) -> Image.Image:
    """A tunnel token: owner colour with seat pips on the rim, pair number in the tunnel."""
    return _token(player % len(pal.PLAYERS), pair, size).copy()


@lru_cache(maxsize=256)
def _token(player: int, pair: int, size: int) -> Image.Image:
    return number_token(_load(token_file(player), size, TOKEN_SIZE), pair)


def number_token(img: Image.Image, pair: int) -> Image.Image:
    """Write the pair number into a token's tunnel mouth (in place), shrunk to fit."""
    size = img.width
    label = str(pair)
    cx, cy, room_w, room_h = _MOUTH
    f = max(6, round(room_h * size / 0.7))  # digits are about 0.7 of the font size tall
    wide = text.width(label, f)
    if wide > room_w * size:
        f = max(6, int(f * room_w * size / wide))
    text.draw(ImageDraw.Draw(img), (cx * size, cy * size), label, f, fill=pal.WHITE,
              anchor="mm", bold=size >= 32)
    return img


def marker_image(kind: str, size: int = FIGURE_SIZE) -> Image.Image:
    """The King (crown) or the Robber (masked bandit) scoring marker."""
    if kind not in MARKER_KINDS:
        raise ValueError(f"unknown marker {kind!r}")
    return _marker(kind, size).copy()


@lru_cache(maxsize=64)
def _marker(kind: str, size: int) -> Image.Image:
    return _load(marker_file(kind), size, FIGURE_SIZE)


def piece_image(kind: str, size: int = TOKEN_SIZE) -> Image.Image:
    """The picture of a piece held in hand (one of `PIECE_KINDS`), in no player's colour."""
    if kind not in PIECE_KINDS:
        raise ValueError(f"unknown piece {kind!r}")
    return _piece(kind, size).copy()


@lru_cache(maxsize=64)
def _piece(kind: str, size: int) -> Image.Image:
    return _load(piece_file(kind), size, TOKEN_SIZE)
