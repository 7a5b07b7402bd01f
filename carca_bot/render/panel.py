"""The side panel: players in turn order with score, what they hold, and whose turn it is.

Everything here is sized from one font size `f`, so the panel scales with the board. The
panel only changes when a score, a hand or the turn changes, so `draw_panel` is cached on a
`PanelState` that holds exactly what is drawn.

What a player holds is listed from the records: the figure table's figures, then the
pieces dealt at the start (the abbey, drawn as its tile) and those with a picture of
their own (goods), wrapping onto more lines when they do not fit; tunnel tokens have a
line of their own, by pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from carca_bot.engine.figures import FIGURES
from carca_bot.engine.game import Game
from carca_bot.engine.rules import PIECES
from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.figure_art import (
    PIECE_KINDS,
    figure_image,
    marker_image,
    piece_image,
    token_image,
)
from carca_bot.render.grid import BACKGROUND
from carca_bot.render.palette import RGB
from carca_bot.render.tile_art import ABBEY, tile_image

ABBEY_PIECE = "abbey"  # the piece drawn as the abbey's tile
HAND_ORDER = (*FIGURES, *(p.name for p in PIECES if p.per_player or p.art))
_UNDRAWN = [k for k in HAND_ORDER if k not in FIGURES and k not in PIECE_KINDS
            and k != ABBEY_PIECE]
if _UNDRAWN:  # a piece the panel would show with no picture: stop at start-up
    raise ValueError(f"the side panel has no picture for the piece {_UNDRAWN[0]!r}")
TURN: RGB = (255, 232, 150)
TURN_EDGE: RGB = (214, 160, 30)
RULE: RGB = (216, 208, 192)
WIDTH_EM = 17  # panel width in font sizes: room for seven hand icons with counts a line
ROW_EM = 3.1
HAND_EM = 1.45  # each further line of held pieces
TOKEN_EM = 1.3

_T = Domain("render")
_ = _T.gettext
ngettext = _T.ngettext


@dataclass(frozen=True)
class PanelState:
    """What the panel shows; equal states draw identical panels."""

    f: int  # font size in px
    names: tuple[str, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (kind, count) in HAND_ORDER
    tokens: tuple[tuple[int, ...], ...]  # per seat: tokens in hand per pair
    king: int | None
    robber: int | None
    deciding: int | None
    tiles_left: int


def panel_state(game: Game, f: int) -> PanelState:
    hands: list[tuple[tuple[str, int], ...]] = []
    tokens: list[tuple[int, ...]] = []
    for p in range(len(game.players)):
        held = game.in_hand(p)
        hands.append(tuple((k, held[k]) for k in HAND_ORDER if k in held))
        tokens.append(tuple(game.tokens[p]) if "tokens" in held else ())
    return PanelState(f, tuple(game.players), tuple(game.scores), tuple(hands), tuple(tokens),
                      game.king, game.robber, game.deciding, game.tiles_left)


def panel_width(f: int) -> int:
    return WIDTH_EM * f


def _row_em(state: PanelState) -> float:
    """Rows grow a line for each further line of held pieces, and one when tunnel tokens
    are in play; every row as tall as the tallest."""
    more = max((len(_hand_lines(state, p)) for p in range(len(state.names))), default=1) - 1
    return ROW_EM + HAND_EM * max(more, 0) + (TOKEN_EM if any(state.tokens) else 0.0)


def _icon_size(kind: str, f: int) -> int:
    return round(1.15 * f) if kind in FIGURES else round(1.1 * f)


def _hand_icon(kind: str, p: int, f: int) -> Image.Image:
    """A held figure in the player's colour, a goods piece, or the abbey's tile."""
    size = _icon_size(kind, f)
    if kind in PIECE_KINDS:
        return piece_image(kind, size)
    if kind == ABBEY_PIECE:
        return tile_image(ABBEY, 0, size)
    return figure_image(kind, p, size)


def _advance(f: int, icon: int, n: int) -> int:
    """The width an icon and its count take in a line, with the gap after them."""
    return icon + max(1, f // 8) + text.width(str(n), round(0.85 * f)) + round(0.4 * f)


def _hand_lines(state: PanelState, p: int) -> list[list[tuple[str, int]]]:
    """Seat p's held pieces split into the lines that fit the panel's width."""
    f = state.f
    room = panel_width(f) - 2 * round(0.6 * f) - round(0.7 * f)
    lines: list[list[tuple[str, int]]] = [[]]
    used = 0
    for kind, n in state.hands[p]:
        step = _advance(f, _icon_size(kind, f), n)
        if lines[-1] and used + step > room:
            lines.append([])
            used = 0
        lines[-1].append((kind, n))
        used += step
    return lines


def panel_height(state: PanelState) -> int:
    return round(state.f * (2.4 + _row_em(state) * len(state.names) + 3.6))


@lru_cache(maxsize=32)
def draw_panel(state: PanelState, language: str = "en") -> Image.Image:
    """The panel as an RGB image, `panel_width` by `panel_height` px, its words in
    `language` (an argument, not the context: pictures are drawn in a thread pool)."""
    with speaking(language):
        return _draw_panel(state)


def _draw_panel(state: PanelState) -> Image.Image:
    f = state.f
    w, h = panel_width(f), panel_height(state)
    img = Image.new("RGB", (w, h), BACKGROUND)
    d = ImageDraw.Draw(img)
    pad = round(0.6 * f)
    n = state.tiles_left
    head = (_("Game over") if state.deciding is None
            else ngettext("Tiles left: {n}", "Tiles left: {n}", n).format(n=n))
    text.draw(d, (pad, round(1.2 * f)), head, round(1.15 * f), bold=True)
    y = round(2.4 * f)
    for p in range(len(state.names)):
        _player_row(img, d, state, p, y)
        y += round(_row_em(state) * f)
    d.line([(pad, y + f // 4), (w - pad, y + f // 4)], fill=RULE, width=max(1, f // 12))
    # TRANSLATORS: how the board names a square; keep "x,y" as it is.
    text.draw(d, (pad, y + round(1.2 * f)), _("square = x,y"), f, bold=True)
    text.draw(d, (pad, y + round(2.4 * f)),
              text.fit(_("x along the top, y down the side"), round(0.72 * f), w - 2 * pad),
              round(0.72 * f), fill=text.MUTED)
    return img


def _paste(img: Image.Image, icon: Image.Image, x: int, y: int) -> None:
    img.paste(icon, (x, y), icon if icon.mode == "RGBA" else None)


def _faded(icon: Image.Image) -> Image.Image:
    """An icon for something the player has none of: drawn, but clearly switched off."""
    rgba = icon.convert("RGBA")
    alpha = rgba.getchannel("A").point(lambda a: a * 35 // 100)
    rgba.putalpha(alpha)
    return rgba


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, state: PanelState, p: int,
                y: int) -> None:
    f = state.f
    w = img.width
    pad = round(0.6 * f)
    row_h = round(_row_em(state) * f)
    if state.deciding == p:  # whose turn: a highlighted band and an arrow
        d.rounded_rectangle((pad // 3, y, w - pad // 3, y + row_h - f // 6), radius=f // 2,
                            fill=TURN, outline=TURN_EDGE, width=max(2, f // 10))
        ax, ay = pad // 2 + 2, y + round(0.95 * f)
        d.polygon([(ax, ay - f // 2), (ax + round(0.55 * f), ay), (ax, ay + f // 2)],
                  fill=text.INK)
    swatch = round(1.6 * f)
    sx = pad + round(0.7 * f)
    _paste(img, figure_image("follower", p, swatch), sx, y + round(0.15 * f))
    x = sx + swatch + round(0.35 * f)
    score = str(state.scores[p])
    score_f = round(1.6 * f)
    score_w = text.width(score, score_f, bold=True)
    text.draw(d, (w - pad, y + round(0.95 * f)), score, score_f, anchor="rm", bold=True)
    markers = [k for k, who in (("king", state.king), ("robber", state.robber)) if who == p]
    marker = round(1.25 * f)
    room = w - pad - score_w - round(0.5 * f) - x - len(markers) * (marker + f // 5)
    bold = state.deciding == p
    name = text.fit(state.names[p], f, max(room, f), bold)
    text.draw(d, (x, y + round(0.95 * f)), name, f, bold=bold)
    mx = x + text.width(name, f, bold) + round(0.3 * f)
    for kind in markers:
        _paste(img, marker_image(kind, marker), mx, y + round(0.95 * f) - marker // 2)
        mx += marker + f // 5
    lines = _hand_lines(state, p)
    for i, line in enumerate(lines):
        _icons(img, d, f, [(_hand_icon(kind, p, f), n) for kind, n in line], sx,
               y + round((2.3 + i * HAND_EM) * f))
    if state.tokens[p]:
        cy = y + round((2.3 + (len(lines) - 1) * HAND_EM + TOKEN_EM) * f)
        # TRANSLATORS: a label before a player's tunnel tokens in the side panel.
        label = _("tokens")
        text.draw(d, (sx, cy), label, round(0.8 * f), fill=text.MUTED)
        tokens = [(token_image(p, pair + 1, round(1.1 * f)), n)
                  for pair, n in enumerate(state.tokens[p])]
        _icons(img, d, f, tokens, sx + text.width(label, round(0.8 * f)) + f // 2, cy)


def _icons(img: Image.Image, d: ImageDraw.ImageDraw, f: int,
           items: list[tuple[Image.Image, int]], x: int, cy: int) -> None:
    """Icons with counts, in a line; a zero count fades its icon."""
    count_f = round(0.85 * f)
    for pic, n in items:
        icon = pic.width
        _paste(img, pic if n else _faded(pic), x, cy - icon // 2)
        x += icon + max(1, f // 8)
        label = str(n)
        text.draw(d, (x, cy + f // 8), label, count_f, fill=text.INK if n else text.MUTED,
                  bold=bool(n))
        x += text.width(label, count_f) + round(0.4 * f)
