"""A player's profile card: ratings, games, wins, average score, favourite expansions, time
per move and recent results, as one picture for `/carc profile`.

It draws a `ProfileCard` of plain numbers that the service works out, in the style of the
league tables (render/table.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from carca_bot.i18n import N_, Domain, speaking
from carca_bot.render import text
from carca_bot.render.chart import PAPER
from carca_bot.render.palette import RGB
from carca_bot.render.png import encode_rgb
from carca_bot.render.summary import RULE
from carca_bot.render.table import MEDALS, STRIPE, WIDTH, Sizes, header, header_height, safe_name

_T = Domain("render")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

LEVEL = 6
RECENT = 10  # recent results shown, newest first
CHIP: RGB = (232, 240, 226)

# Expansion codes (carca_bot.engine.catalogue.EXPANSIONS) and their names on the boxes.
EXPANSION_NAMES: Mapping[str, str] = {
    "river": N_("The River"), "abbot": N_("The Abbot"), "abbey_mayor": N_("Abbey & Mayor"),
    "king_robber": N_("King & Robber"), "cult": N_("Cult"), "tunnel": N_("Tunnel"),
}


@dataclass(frozen=True, slots=True)
class ProfileCard:
    """What the card shows. Ratings are None with no rated game in that pool; averages
    None with no finished game. `recent_results` are (place, players) per game, newest
    first; `favourite_expansions` expansion codes, most played first."""

    name: str
    rating2: float | None
    rating_multi: float | None
    games: int
    wins: int
    average_score: float | None
    favourite_expansions: tuple[str, ...] = ()
    median_move_seconds: float | None = None
    recent_results: tuple[tuple[int, int], ...] = ()
    provisional2: bool = False
    provisional_multi: bool = False


def duration(seconds: float) -> str:
    """A time per move as people say it: 40 s, 12 min, 3 h 20 min, 2 d 5 h."""
    s = max(0, round(seconds))
    if s < 60:
        return pgettext("duration", "{n} s").format(n=s)
    if s < 3600:
        return pgettext("duration", "{n} min").format(n=round(s / 60))
    if s < 86400:
        h, m = divmod(round(s / 60), 60)
        return pgettext("duration", "{h} h {m} min").format(h=h, m=m)
    d, h = divmod(round(s / 3600), 24)
    return pgettext("duration", "{d} d {h} h").format(d=d, h=h)


def expansion_name(code: str) -> str:
    return _(EXPANSION_NAMES[code]) if code in EXPANSION_NAMES else safe_name(code)


def _rating(value: float | None, provisional: bool) -> tuple[str, str]:
    if value is None:
        # TRANSLATORS: under a rating when the player has no rated game in that pool.
        return "—", _("no rated games")
    # TRANSLATORS: under a rating the player has had for only a few games.
    return f"{value:.1f}" + ("?" if provisional else ""), _("provisional") if provisional else ""


def _stats(card: ProfileCard) -> list[tuple[str, str, str]]:
    """(label, value, note) for each box of the grid."""
    share = (_("{percent}% of games").format(percent=round(100 * card.wins / card.games))
             if card.games else "")
    return [
        (_("2-player rating"), *_rating(card.rating2, card.provisional2)),
        (_("Multiplayer rating"), *_rating(card.rating_multi, card.provisional_multi)),
        (_("Games"), str(card.games), ""),
        (_("Wins"), str(card.wins), share),
        (_("Average score"), "—" if card.average_score is None
         else f"{card.average_score:.1f}", ""),
        (_("Median time per move"), "—" if card.median_move_seconds is None
         else duration(card.median_move_seconds), ""),
    ]


def draw_profile(card: ProfileCard, width: int = WIDTH) -> Image.Image:
    """The card as an RGB image. Call inside `speaking(language)`."""
    s = Sizes.of(width)
    f = s.f
    cols, box_h, gap = 3, round(3.9 * f), round(0.5 * f)
    stats = _stats(card)
    box_w = (width - 2 * s.pad - (cols - 1) * gap) // cols
    grid_h = (len(stats) + cols - 1) // cols * (box_h + gap)
    chips = [expansion_name(c) for c in card.favourite_expansions] or ["—"]
    chip_lines = _chip_lines(chips, f, width - 2 * s.pad)
    recent = card.recent_results[:RECENT]
    badge = round(2.6 * f)
    height = (header_height(1, s) + round(0.8 * f) + grid_h + round(2.1 * f)
              + round(1.9 * f) * len(chip_lines) + round(2.0 * f) + round(0.5 * f) + badge
              + s.pad)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    y = header(d, width, safe_name(card.name), [_("Player profile")], "", s)
    y += round(0.8 * f)
    for i, (label, value, note) in enumerate(stats):
        left = s.pad + (i % cols) * (box_w + gap)
        top = y + (i // cols) * (box_h + gap)
        d.rounded_rectangle((left, top, left + box_w, top + box_h), radius=f // 2, fill=STRIPE,
                            outline=RULE, width=max(1, f // 12))
        inner = box_w - round(0.9 * f)
        text.draw(d, (left + f // 2, top + round(0.8 * f)), text.fit(label, s.small, inner),
                  s.small, fill=text.MUTED)
        text.draw(d, (left + f // 2, top + round(2.1 * f)),
                  text.fit(value, round(1.5 * f), inner, bold=True), round(1.5 * f), bold=True)
        if note:
            text.draw(d, (left + f // 2, top + round(3.3 * f)), text.fit(note, s.small, inner),
                      s.small, fill=text.MUTED)
    y += grid_h + round(0.6 * f)
    text.draw(d, (s.pad, y + round(0.5 * f)), _("Favourite expansions"), s.small,
              fill=text.MUTED)
    y += round(1.5 * f)
    for line in chip_lines:
        _chips(d, line, s.pad, y + round(0.8 * f), f)
        y += round(1.9 * f)
    y += round(0.5 * f)
    text.draw(d, (s.pad, y + round(0.5 * f)),
              _("Recent games, newest first (place / players)") if recent
              else _("No finished games yet"), s.small, fill=text.MUTED)
    y += round(1.5 * f)
    x = s.pad
    for place, players in recent:
        colour = MEDALS["1"] if place == 1 else CHIP  # a win stands out; places do not
        d.rounded_rectangle((x, y, x + badge, y + badge), radius=f // 3, fill=colour,
                            outline=RULE, width=max(1, f // 12))
        text.draw(d, (x + badge // 2, y + round(1.05 * f)), str(place), round(1.3 * f),
                  anchor="mm", bold=True)
        text.draw(d, (x + badge // 2, y + round(2.05 * f)), f"/ {players}", s.small,
                  fill=text.MUTED, anchor="mm")
        x += badge + round(0.35 * f)
    return img


def _chip_width(name: str, f: int) -> int:
    return text.width(name, f) + f


def _chip_lines(names: list[str], f: int, room: int) -> list[list[str]]:
    """Names cut to fit a line, then as many to a line as fit."""
    lines: list[list[str]] = []
    used = 0
    for name in (text.fit(n, f, room - f) for n in names):
        w = _chip_width(name, f) + f // 2
        if lines and used + w <= room:
            lines[-1].append(name)
            used += w
        else:
            lines.append([name])
            used = w
    return lines


def _chips(d: ImageDraw.ImageDraw, names: list[str], x: int, cy: int, f: int) -> None:
    """Expansion names in rounded chips, left to right."""
    for name in names:
        w = _chip_width(name, f)
        d.rounded_rectangle((x, cy - round(0.75 * f), x + w, cy + round(0.75 * f)),
                            radius=round(0.75 * f), fill=CHIP, outline=RULE, width=1)
        text.draw(d, (x + f // 2, cy), name, f)
        x += w + f // 2


def render_profile(card: ProfileCard, *, language: str = "en", width: int = WIDTH) -> bytes:
    """The card as PNG bytes, its words in `language` (drawn in worker threads)."""
    with speaking(language):
        return encode_rgb(draw_profile(card, width), LEVEL)

