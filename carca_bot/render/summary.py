"""The end-of-game card: the ranking, each player's points by category, and the score chart.

It draws a `Tally`, plain numbers the service works out from the public history
(`carca_bot.service.history.tally`), so this module never sees a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from carca_bot.i18n import N_, Domain, speaking
from carca_bot.render import text
from carca_bot.render.chart import PAPER, draw_chart
from carca_bot.render.figure_art import figure_image
from carca_bot.render.palette import CITY, FIELD, GOLD, RGB, ROOF, STONE
from carca_bot.render.png import encode_rgb

_T = Domain("render")
_ = _T.gettext

# Category keys (what the service counts) -> the column's title and the bar's colour.
CATEGORY_WORDS: Mapping[str, str] = {
    "cities": N_("Cities"),
    "roads": N_("Roads"),
    "monasteries": N_("Monasteries"),
    "fields": N_("Fields"),
    "barns": N_("Barns"),
    "gardens": N_("Gardens"),
    "titles": N_("Titles"),
    "goods": N_("Goods"),
    "other": N_("Other"),
}
CATEGORY_COLOURS: Mapping[str, RGB] = {
    "cities": CITY, "roads": (214, 200, 160), "monasteries": ROOF, "fields": FIELD,
    "barns": (150, 96, 60), "gardens": (46, 104, 44), "titles": GOLD,
    "goods": (122, 62, 112), "other": STONE,
}
CATEGORIES = tuple(CATEGORY_WORDS)
WIDTH = 1200
HEAD: RGB = (246, 242, 232)
RULE: RGB = (222, 216, 204)


@dataclass(frozen=True, slots=True)
class Tally:
    """What the card shows. `curves[p]` is seat p's score after each action (0 first);
    `categories[p]` its points by category key; `shown` the columns, in order; `final[p]`
    the points seat p got at the final scoring (empty: none, or not known)."""

    names: tuple[str, ...]
    scores: tuple[int, ...]
    categories: tuple[Mapping[str, int], ...]
    shown: tuple[str, ...]
    curves: tuple[tuple[int, ...], ...]
    finished: bool
    moves: int
    final: tuple[int, ...] = ()


def places(scores: tuple[int, ...]) -> list[tuple[int, int]]:
    """(place, seat) best first; equal scores share a place (1, 2, 2, 4)."""
    order = sorted(range(len(scores)), key=lambda p: (-scores[p], p))
    out: list[tuple[int, int]] = []
    for i, p in enumerate(order):
        place = out[-1][0] if i and scores[p] == scores[order[i - 1]] else i + 1
        out.append((place, p))
    return out


def draw_summary(tally: Tally, width: int = WIDTH) -> Image.Image:
    """The card as an RGB image. Call inside `speaking(language)`."""
    f = round(width / 50)  # 24 px at the default width
    pad = round(1.2 * f)
    row_h = round(2.6 * f)
    head_h = round(4.4 * f)
    table_top = head_h + round(0.6 * f)
    table_h = round(2.0 * f) + row_h * len(tally.names)
    chart_h = round(width * 0.46)
    height = table_top + table_h + round(1.0 * f) + chart_h + pad
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)

    d.rectangle((0, 0, width, head_h), fill=HEAD)
    title = _("Final ranking") if tally.finished else _("Scores so far")
    text.draw(d, (pad, round(1.7 * f)), title, round(1.5 * f), bold=True)
    moves = _T.ngettext("after {n} move", "after {n} moves", tally.moves).format(n=tally.moves)
    text.draw(d, (pad, round(3.3 * f)), moves, round(0.9 * f), fill=text.MUTED)

    # Columns from the right: total, then the categories; the name takes what is left.
    small = round(0.8 * f)
    cols: list[tuple[str, int]] = []  # (title, centre x)
    x = width - pad
    total_w = max(text.width(_("Total"), small), text.width("888", round(1.2 * f))) + f
    cols.append((_("Total"), x - total_w // 2))
    x -= total_w + round(0.4 * f)
    keys = ["", *reversed(tally.shown)]  # "" is the total
    for key in keys[1:]:
        title_w = max(text.width(_(CATEGORY_WORDS[key]), small), text.width("888", f)) + f
        cols.append((_(CATEGORY_WORDS[key]), x - title_w // 2))
        x -= title_w
    name_right = x - f
    y = table_top
    for (title_text, cx), key in zip(cols, keys, strict=True):
        text.draw(d, (cx, y + round(0.8 * f)), title_text, small, fill=text.MUTED, anchor="mm")
        if key:  # the colour of the category in the bars
            half = text.width(title_text, small) // 2
            d.rectangle((cx - half, y + round(1.35 * f), cx + half, y + round(1.55 * f)),
                        fill=CATEGORY_COLOURS[key])
    y += round(2.0 * f)
    d.line([(pad, y - f // 4), (width - pad, y - f // 4)], fill=RULE, width=max(1, f // 12))
    top_score = max(max(tally.scores, default=0), 1)
    for place, p in places(tally.scores):
        cy = y + row_h // 2
        text.draw(d, (pad + round(1.1 * f), cy), f"{place}.", round(1.1 * f), anchor="rm",
                  bold=place == 1)
        icon = figure_image("follower", p, round(1.7 * f))
        ix = pad + round(1.5 * f)
        img.paste(icon, (ix, cy - icon.height // 2 - f // 5), icon)
        nx = ix + icon.width + round(0.5 * f)
        name = text.fit(tally.names[p], f, max(name_right - nx, f), place == 1)
        text.draw(d, (nx, cy - round(0.35 * f)), name, f, bold=place == 1)
        _bar(d, tally.categories[p], tally.shown, (nx, cy + round(0.55 * f)),
             name_right - nx, round(0.42 * f), top_score)
        values = [*(tally.categories[p].get(k, 0) for k in reversed(tally.shown))]
        text.draw(d, (cols[0][1], cy), str(tally.scores[p]), round(1.2 * f), anchor="mm",
                  bold=True)
        for (_title, cx), value in zip(cols[1:], values, strict=True):
            text.draw(d, (cx, cy), str(value) if value else "·", f,
                      fill=text.INK if value else text.MUTED, anchor="mm")
        y += row_h
        d.line([(pad, y - f // 6), (width - pad, y - f // 6)], fill=RULE, width=1)

    chart = draw_chart(tally.names, tally.curves, (width - 2 * pad, chart_h), tally.final)
    img.paste(chart, (pad, y + round(0.8 * f)))
    return img


def _bar(d: ImageDraw.ImageDraw, points: Mapping[str, int], shown: tuple[str, ...],
         at: tuple[int, int], width: int, height: int, top: int) -> None:
    """A thin bar of the player's points, one colour per category, scaled to the leader."""
    x, y = at
    for key in shown:
        value = points.get(key, 0)
        if value <= 0:
            continue
        w = max(1, round(width * value / top))
        d.rectangle((x, y, x + w - 1, y + height), fill=CATEGORY_COLOURS[key])
        x += w


def render_summary(tally: Tally, language: str = "en", width: int = WIDTH) -> bytes:
    """The card as PNG bytes, its words in `language` (for worker threads)."""
    with speaking(language):
        return encode_rgb(draw_summary(tally, width), 6)
