"""A line chart of every player's score over the game, in the players' colours.

The final scoring (fields, unfinished features) often gives the leader dozens of points
on the last action, which used to squeeze the whole game into the chart's bottom third;
its points are drawn as bars of their own beside the curves, which show the game's
progress up to it. Drawn with Pillow alone: everything is drawn at `SUPERSAMPLE` times the size and
scaled down with a Lanczos filter, which gives anti-aliased lines and text without a
plotting library. Axis ticks fall on round numbers (1, 2 or 5 times a power of ten).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.palette import RGB, player
from carca_bot.render.png import encode_rgb

_T = Domain("render")
_ = _T.gettext

SUPERSAMPLE = 3
PAPER: RGB = (255, 255, 255)
GRID_LINE: RGB = (226, 222, 214)
AXIS: RGB = (120, 114, 106)
HALO: RGB = (70, 66, 62)  # drawn under pale lines (yellow, white) so they read on paper
CHART_SIZE = (1200, 620)
FINAL_BAND: RGB = (248, 244, 232)  # behind the final scoring's bars


def nice_step(span: float, ticks: int = 6) -> int:
    """A round step (1, 2 or 5 times a power of ten, at least 1) giving about `ticks` ticks."""
    raw = max(span, 1) / max(ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))  # pragma: no cover - the loop always returns


def _pale(colour: RGB) -> bool:
    r, g, b = colour
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 200


def progress(curves: Sequence[Sequence[int]], final: Sequence[int]) -> list[list[int]]:
    """The curves without the final scoring: its points taken off each last value (the
    final scoring comes with the game's last action)."""
    out = [list(c) for c in curves]
    for p, c in enumerate(out):
        if c and p < len(final):
            c[-1] -= final[p]
    return out


def draw_chart(names: Sequence[str], curves: Sequence[Sequence[int]],
               size: tuple[int, int] = CHART_SIZE, final: Sequence[int] = ()) -> Image.Image:
    """The chart as an RGB image of `size`; seat i is drawn in player colour i. `final`:
    the points each seat got at the final scoring (already in the curves' last values),
    drawn as bars of their own beside the game's progress, so a big final scoring does not
    flatten the rest of the game; the legend says the totals.

    Call inside `speaking(language)`: the axis titles are words.
    """
    s = SUPERSAMPLE
    w, h = size[0] * s, size[1] * s
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    f = round(h / 34)  # the base font size
    split = any(final)
    lines = progress(curves, final) if split else [list(c) for c in curves]
    moves = max((len(c) for c in lines), default=1) - 1
    top_score = max((max(c) for c in lines if c), default=0)
    y_step = nice_step(top_score, 6)
    y_max = max(y_step, math.ceil(top_score / y_step) * y_step)
    x_step = nice_step(moves, 8)
    x_max = max(1, moves)

    # Room: the legend on the right, the final scoring's bars before it, tick labels on
    # the left and below.
    legend_w = round(w * 0.24)
    bars_w = _bars_width(len(names), f) if split else 0
    left = text.width(str(y_max), f) + round(3.2 * f)
    right = w - legend_w - bars_w
    top = round(1.6 * f)
    bottom = h - round(3.6 * f)

    def px(move: float, score: float) -> tuple[float, float]:
        return (left + (right - left) * move / x_max,
                bottom - (bottom - top) * score / y_max)

    thin = max(1, s)
    for value in range(0, y_max + 1, y_step):
        y = px(0, value)[1]
        d.line([(left, y), (right, y)], fill=GRID_LINE if value else AXIS, width=thin)
        text.draw(d, (left - f // 2, y), str(value), f, fill=text.MUTED, anchor="rm")
    for value in range(0, x_max + 1, x_step):
        x = px(value, 0)[0]
        d.line([(x, bottom), (x, bottom + f // 3)], fill=AXIS, width=thin)
        text.draw(d, (x, bottom + round(0.9 * f)), str(value), f, fill=text.MUTED,
                  anchor="mm")
    d.line([(left, top), (left, bottom)], fill=AXIS, width=thin)
    text.draw(d, ((left + right) / 2, h - round(1.1 * f)), _("Move"), f, fill=text.INK,
              anchor="mm")
    label = Image.new("RGB", (text.width(_("Points"), f) + f, round(1.6 * f)), PAPER)
    text.draw(ImageDraw.Draw(label), (label.width / 2, label.height / 2), _("Points"), f,
              anchor="mm")
    turned = label.rotate(90, expand=True)
    img.paste(turned, (round(0.2 * f), round((top + bottom - turned.height) / 2)))

    line_w = max(2, round(0.22 * f))
    order = sorted(range(len(curves)), key=lambda p: (curves[p][-1] if curves[p] else 0, -p))
    for p in order:  # the leader drawn last, on top
        points = [px(i, v) for i, v in enumerate(lines[p])]
        colour = player(p)
        if len(points) == 1:
            points = points * 2
        if _pale(colour.fill):
            d.line(points, fill=HALO, width=line_w + 2 * s, joint="curve")
        d.line(points, fill=colour.fill, width=line_w, joint="curve")
        x, y = points[-1]
        r = round(0.42 * f)
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour.fill, outline=HALO, width=s)

    if split:
        _final_bars(d, final, (right + round(0.8 * f), top, right + bars_w, bottom), f)
    _legend(d, names, curves, (w - legend_w + round(1.4 * f), top), legend_w - round(2 * f), f)
    return img.resize(size, Image.Resampling.LANCZOS)


def _bars_width(players: int, f: int) -> int:
    """The final scoring's panel: a bar per player, and room for its title."""
    return max(players * round(1.5 * f), text.width(_("Final scoring"), round(0.9 * f),
                                                    bold=True)) + round(2.0 * f)


def _final_bars(d: ImageDraw.ImageDraw, final: Sequence[int], box: tuple[int, int, int, int],
                f: int) -> None:
    """One bar per player for the points of the final scoring, each labelled "+n", under
    the title "Final scoring", on a scale of their own (the largest fills the panel)."""
    x0, top, x1, bottom = box
    small = round(0.9 * f)
    d.rectangle((x0, top - round(1.4 * f), x1 - round(0.6 * f), bottom), fill=FINAL_BAND)
    text.draw(d, ((x0 + x1 - round(0.6 * f)) / 2, top - round(0.7 * f)), _("Final scoring"),
              small, fill=text.INK, anchor="mm", bold=True)
    most = max(max(final), 1)
    room = bottom - top - round(1.6 * f)  # leaves room for the labels over the bars
    bar = round(1.1 * f)
    n = len(final)
    gap = (x1 - x0 - round(0.6 * f) - n * bar) / (n + 1)
    for p, points in enumerate(final):
        colour = player(p)
        x = x0 + gap + p * (bar + gap)
        height = round(room * points / most)
        if points:
            d.rectangle((x, bottom - height, x + bar, bottom), fill=colour.fill,
                        outline=HALO, width=max(1, SUPERSAMPLE))
        text.draw(d, (x + bar / 2, bottom - height - round(0.6 * f)), f"+{points}", small,
                  fill=text.INK, anchor="mm", bold=bool(points))
    d.line([(x0, bottom), (x1 - round(0.6 * f), bottom)], fill=AXIS, width=SUPERSAMPLE)


def _legend(d: ImageDraw.ImageDraw, names: Sequence[str], curves: Sequence[Sequence[int]],
            at: tuple[int, int], width: int, f: int) -> None:
    """Names with their line's colour and final score, best first."""
    x, y = at
    ranked = sorted(range(len(names)), key=lambda p: (-(curves[p][-1] if curves[p] else 0), p))
    row = round(2.1 * f)
    for p in ranked:
        colour = player(p)
        cy = y + row // 2
        sw = round(1.8 * f)
        if _pale(colour.fill):
            d.line([(x, cy), (x + sw, cy)], fill=HALO, width=round(0.22 * f) + 2 * SUPERSAMPLE)
        d.line([(x, cy), (x + sw, cy)], fill=colour.fill, width=max(2, round(0.22 * f)))
        score = str(curves[p][-1] if curves[p] else 0)
        score_w = text.width(score, f)
        name_x = x + sw + round(0.6 * f)
        room = width - (name_x - x) - score_w - round(0.6 * f)
        text.draw(d, (name_x, cy), text.fit(names[p], f, max(room, f)), f)
        text.draw(d, (x + width, cy), score, f, anchor="rm")
        y += row


def render_score_chart(names: Sequence[str], curves: Sequence[Sequence[int]],
                       language: str = "en", size: tuple[int, int] = CHART_SIZE,
                       final: Sequence[int] = ()) -> bytes:
    """The chart as PNG bytes, its words in `language` (it runs in worker threads, which
    do not see the caller's language); `final` as in `draw_chart`."""
    with speaking(language):
        return encode_rgb(draw_chart(names, curves, size, final), 6)
