"""Tables as pictures, in the end-of-game card's style: a title band, column headings, rows
on light stripes, a legend for the short headings, and pages for long lists.

Sized for a phone: 1000 px wide with 26 px text, which a phone showing the picture at its
width still reads. Names are user text: `safe_name` makes any of them one plain line
that cannot reach outside its cell, and cells are cut with an ellipsis to fit.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, NamedTuple, TypeVar

from PIL import Image, ImageDraw

from carca_bot.engine.limits import one_line
from carca_bot.render import text
from carca_bot.render.chart import PAPER
from carca_bot.render.palette import GOLD, RGB
from carca_bot.render.summary import HEAD, RULE

WIDTH = 1000
STRIPE: RGB = (249, 246, 239)
MEDALS: dict[str, RGB] = {"1": GOLD, "2": (200, 202, 208), "3": (214, 150, 96)}
MAX_MARKS = 2  # combining marks kept on one letter: more only pile up over other rows
MAX_PER_PAGE = 50
UNASSIGNED = "\u0378"  # no character: the font draws its missing-glyph box
T = TypeVar("T")


class Paged(NamedTuple):
    """A page of a long list as a picture: its bytes, the page drawn (1-based) and how many
    pages the list has."""

    data: bytes
    page: int
    pages: int


def page_of(items: Sequence[T], page: int, per_page: int) -> tuple[Sequence[T], int, int]:
    """The items on `page` (1-based; a page past either end gives the nearest page), the
    page number and the number of pages (at least 1, even for no items)."""
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"per_page must be 1 to {MAX_PER_PAGE}, not {per_page}")
    pages = max(1, math.ceil(len(items) / per_page))
    page = min(max(page, 1), pages)
    return items[(page - 1) * per_page: page * per_page], page, pages


@lru_cache(maxsize=4096)
def drawable(char: str) -> bool:
    """Whether the font has a glyph for `char` (else it draws its missing-glyph box)."""
    face = text.font(24)
    mask = face.getmask(char)
    return (mask.size, bytes(mask)) != _missing()


@cache
def _missing() -> tuple[tuple[int, int], bytes]:
    mask = text.font(24).getmask(UNASSIGNED)
    return mask.size, bytes(mask)


def safe_name(name: str) -> str:
    """A user's name as one line of plain text: no control or format characters, breaks
    as spaces, at most `MAX_MARKS` accents stacked on a letter and none the font lacks
    (drawn beside the letter as a box each); "?" if nothing is left. A letter the font
    lacks (an emoji, Hebrew) stays, drawn as a box: something is there."""
    out: list[str] = []
    marks = 0
    for char in one_line(name[:400]):
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS or not drawable(char):
                continue
        else:
            marks = 0
        out.append(char)
    return "".join(out).strip() or "?"


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its heading, how its cells align, and whether it takes the width left
    over (the name column; its cells are cut to fit) or shows ranks as medals."""

    heading: str
    align: Literal["left", "centre", "right"] = "centre"
    stretch: bool = False
    rank: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """One row's cells; `muted` greys it (withdrawn, provisional), `strong` makes it bold;
    `note` follows the stretching cell, which is cut to leave room for it."""

    cells: tuple[str, ...]
    muted: bool = False
    strong: bool = False
    note: str = ""  # after the stretching cell, never cut: "(withdrawn)"


@dataclass(frozen=True, slots=True)
class Sizes:
    f: int  # body text
    pad: int
    row: int
    small: int  # headings and legend

    @staticmethod
    def of(width: int) -> Sizes:
        f = round(width * 0.026)
        return Sizes(f, round(1.2 * f), round(2.1 * f), round(0.78 * f))


def header_height(lines: int, s: Sizes) -> int:
    return round(3.4 * s.f + 1.3 * s.f * lines)


def header(d: ImageDraw.ImageDraw, width: int, title: str, lines: Sequence[str],
           corner: str, s: Sizes) -> int:
    """The title band with user-text lines under the title and `corner` (the page) on the
    right; returns its height."""
    f = s.f
    height = header_height(len(lines), s)
    d.rectangle((0, 0, width, height), fill=HEAD)
    corner_w = text.width(corner, s.small) + f if corner else 0
    text.draw(d, (s.pad, round(1.7 * f)),
              text.fit(title, round(1.5 * f), width - 2 * s.pad - corner_w, bold=True),
              round(1.5 * f), bold=True)
    if corner:
        text.draw(d, (width - s.pad, round(1.7 * f)), corner, s.small, fill=text.MUTED,
                  anchor="rm")
    y = round(3.4 * f)
    for line in lines:
        text.draw(d, (s.pad, y), text.fit(line, round(0.95 * f), width - 2 * s.pad),
                  round(0.95 * f), fill=text.MUTED)
        y += round(1.3 * f)
    return height


def column_widths(columns: Sequence[Column], lines: Sequence[Line], width: int,
            s: Sizes) -> list[int]:
    """Each column as wide as its widest cell or heading (at most 6 em: longer cells are
    cut) plus a gap; the stretching column takes what is left. Many columns get narrower
    gaps before the names get too narrow."""
    content = []
    for i, col in enumerate(columns):
        cells = [text.width(line.cells[i], s.f, line.strong) for line in lines
                 if i < len(line.cells)]
        content.append(min(max([text.width(col.heading, s.small), *cells]), 6 * s.f))
    fixed = [not c.stretch for c in columns]
    room = width - 2 * s.pad
    for gap in (round(0.9 * s.f), round(0.5 * s.f), round(0.25 * s.f)):
        left = room - sum(w + gap for w, kept in zip(content, fixed, strict=True) if kept)
        if left >= 8 * s.f:
            break
    widths = [w + gap if kept else max(left, 4 * s.f)
              for w, kept in zip(content, fixed, strict=True)]
    for i in sorted(range(len(widths)), key=lambda i: -widths[i]):  # still too wide: the
        excess = sum(widths) - room  # widest columns give way (their cells are cut)
        if excess <= 0:
            break
        if fixed[i]:
            widths[i] = max(widths[i] - excess, 2 * s.f)
    return widths


def wrap_items(items: Sequence[str], size: int, room: int, sep: str = "   ·   ") -> list[str]:
    """Items joined with `sep` into lines at most `room` px wide; an item is never split
    (one too long for a line is cut with an ellipsis)."""
    lines: list[str] = []
    for item in items:
        item = text.fit(item, size, room)
        if lines and text.width(lines[-1] + sep + item, size) <= room:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return lines


def draw_table(title: str, lines: Sequence[str], columns: Sequence[Column],
               rows: Sequence[Line], *, legend: Sequence[str] = (), corner: str = "",
               empty: str = "", width: int = WIDTH) -> Image.Image:
    """The table as an RGB image `width` px wide (as tall as its rows need).

    `lines` go under the title (user text is made safe here), `legend` items at the
    foot, `empty` in place of the rows when there are none.
    """
    s = Sizes.of(width)
    f = s.f
    foot = wrap_items(legend, s.small, width - 2 * s.pad)
    body = s.row * len(rows) if rows else 2 * s.row
    height = (header_height(len(lines), s) + round(2.0 * f) + body + round(0.8 * f)
              + (round(1.25 * s.small) * len(foot) + round(0.3 * f) if foot else 0)
              + s.pad // 2)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    y = header(d, width, title, [safe_name(x) for x in lines], corner, s)
    widths = column_widths(columns, rows, width, s)
    lefts = [s.pad + sum(widths[:i]) for i in range(len(widths))]
    y += round(0.4 * f)
    for col, left, w in zip(columns, lefts, widths, strict=True):
        _cell(d, col, left, w, y + round(0.8 * f), text.fit(col.heading, s.small, w), s.small,
              text.MUTED, bold=False)
    y += round(1.6 * f)
    d.line([(s.pad, y), (width - s.pad, y)], fill=RULE, width=max(1, f // 12))
    if not rows:
        text.draw(d, (width // 2, y + s.row), text.fit(empty, f, width - 2 * s.pad), f,
                  fill=text.MUTED, anchor="mm")
    for n, row in enumerate(rows):
        if n % 2:
            d.rectangle((s.pad // 2, y + 1, width - s.pad // 2, y + s.row - 1), fill=STRIPE)
        cy = y + s.row // 2
        ink = text.MUTED if row.muted else text.INK
        for i, (col, left, w) in enumerate(zip(columns, lefts, widths, strict=True)):
            cell = row.cells[i] if i < len(row.cells) else ""
            if col.rank and cell in MEDALS and not row.muted:
                r = round(0.62 * f)
                cx = left + w // 2
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MEDALS[cell],
                          outline=text.INK, width=max(1, f // 14))
            shown = text.fit(cell, f, w - round(0.3 * f), row.strong or col.rank)
            if col.stretch:
                note = " " + row.note if row.note else ""
                room = w - round(0.6 * f) - text.width(note, f, row.strong)
                shown = text.fit(cell, f, max(room, f), row.strong) + note
            _cell(d, col, left, w, cy, shown, f, ink, row.strong or col.rank)
        y += s.row
    y += round(0.8 * f) + (0 if rows else 2 * s.row)
    if foot:
        d.line([(s.pad, y - f // 2), (width - s.pad, y - f // 2)], fill=RULE, width=1)
        y += round(0.3 * f)
        for item in foot:
            text.draw(d, (s.pad, y + s.small // 2), item, s.small, fill=text.MUTED)
            y += round(1.25 * s.small)
    return img


def _cell(d: ImageDraw.ImageDraw, col: Column, left: int, w: int, cy: int, value: str,
          size: int, ink: RGB, bold: bool) -> None:
    inset = round(0.3 * size)
    if col.align == "left":
        text.draw(d, (left + inset, cy), value, size, fill=ink, bold=bold)
    elif col.align == "right":
        text.draw(d, (left + w - inset, cy), value, size, fill=ink, anchor="rm", bold=bold)
    else:
        text.draw(d, (left + w // 2, cy), value, size, fill=ink, anchor="mm", bold=bold)
