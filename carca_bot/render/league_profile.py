"""A player's profile card: ratings with their uncertainty, games, wins, average score,
favourite expansions, time per move, recent results and recent opponents, as one picture
for `/carc profile`; a player's rating history as a chart; and two players' head-to-head
record as a card.

Each draws plain numbers that the service works out (`ProfileCard`, `RatingHistoryCard`,
`HeadToHeadCard`), in the style of the league tables (render/table.py) and the score
chart (render/chart.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from carca_bot.engine.rules import EXPANSIONS
from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.chart import AXIS, GRID_LINE, PAPER, SUPERSAMPLE, nice_step
from carca_bot.render.palette import RGB
from carca_bot.render.png import encode_rgb
from carca_bot.render.record_words import expansion_title
from carca_bot.render.summary import RULE
from carca_bot.render.table import MEDALS, STRIPE, WIDTH, Sizes, header, header_height, safe_name

_T = Domain("render")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

LEVEL = 6
RECENT = 10  # recent results shown, newest first
RIVALS = 8  # recent opponents shown
CHIP: RGB = (232, 240, 226)



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
    # The ratings' uncertainty (openskill's sigma; the rating shown is mu - 3 sigma).
    sigma2: float | None = None
    sigma_multi: float | None = None
    # (name, wins, losses, draws) against each player met lately, latest first.
    recent_opponents: tuple[tuple[str, int, int, int], ...] = ()
    # Games without real play (unrated for everyone), left out of `games` and `wins`.
    aborted: int = 0


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
    """An expansion on the boxes by its record's title; a code no record has (an old
    league's), safely as it is."""
    return expansion_title(code) if code in EXPANSIONS else safe_name(code)


def _rating(value: float | None, provisional: bool,
            sigma: float | None = None) -> tuple[str, str]:
    if value is None:
        # TRANSLATORS: under a rating when the player has no rated game in that pool.
        return "—", _("no rated games")
    # TRANSLATORS: under a rating the player has had for only a few games.
    note = _("provisional") if provisional else ""
    if sigma is not None:  # the estimate and its uncertainty: symbols, not words
        spread = f"μ {value + 3 * sigma:.1f} · σ {sigma:.1f}"
        note = f"{spread} · {note}" if note else spread
    return f"{value:.1f}" + ("?" if provisional else ""), note


def _stats(card: ProfileCard) -> list[tuple[str, str, str]]:
    """(label, value, note) for each box of the grid."""
    share = (_("{percent}% of games").format(percent=round(100 * card.wins / card.games))
             if card.games else "")
    return [
        (_("2-player rating"), *_rating(card.rating2, card.provisional2, card.sigma2)),
        (_("Multiplayer rating"), *_rating(card.rating_multi, card.provisional_multi,
                                           card.sigma_multi)),
        # TRANSLATORS: under the number of games: games without real play, not rated.
        (_("Games"), str(card.games), ngettext("{n} aborted game", "{n} aborted games",
                                               card.aborted).format(n=card.aborted)
         if card.aborted else ""),
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
    rivals = _chip_lines([_rival(r) for r in card.recent_opponents[:RIVALS]], f,
                         width - 2 * s.pad)
    recent = card.recent_results[:RECENT]
    badge = round(2.6 * f)
    height = (header_height(1, s) + round(0.8 * f) + grid_h + round(2.1 * f)
              + round(1.9 * f) * len(chip_lines) + round(2.0 * f) + round(0.5 * f) + badge
              + s.pad + (round(2.0 * f) + round(1.9 * f) * len(rivals) if rivals else 0))
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
    if rivals:
        y += badge + round(0.5 * f)
        # TRANSLATORS: over chips like "Ben 3–1" (wins–losses against each player).
        text.draw(d, (s.pad, y + round(0.5 * f)), _("Recent opponents (won–lost)"), s.small,
                  fill=text.MUTED)
        y += round(1.5 * f)
        for line in rivals:
            _chips(d, line, s.pad, y + round(0.8 * f), f)
            y += round(1.9 * f)
    return img


def _rival(opponent: tuple[str, int, int, int]) -> str:
    """'Ben 3–1' (wins–losses), with draws when there were any: 'Ben 3–1–2'."""
    name, wins, losses, draws = opponent
    score = f"{wins}–{losses}" + (f"–{draws}" if draws else "")
    return f"{safe_name(name)} {score}"


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



# -- the rating history ------------------------------------------------------------------

HISTORY_SIZE = (1200, 640)
BAND: RGB = (214, 228, 240)  # mu ± sigma
ESTIMATE: RGB = (96, 130, 170)  # mu
SHOWN: RGB = (46, 96, 60)  # the rating shown: mu - 3 sigma


@dataclass(frozen=True, slots=True)
class RatingHistoryCard:
    """One player's rating in one pool after each rated game, oldest first (the service's
    `rating_history_of`); `start` is the rating before the first (a newcomer's)."""

    name: str
    pool: str  # "duel" or "multi"
    mus: tuple[float, ...]
    sigmas: tuple[float, ...]
    start: tuple[float, float] = (25.0, 25.0 / 3)  # mu, sigma before the first game


def _history_points(card: RatingHistoryCard) -> tuple[list[float], list[float]]:
    mus = [card.start[0], *card.mus]
    sigmas = [card.start[1], *card.sigmas]
    return mus, sigmas


def _history_axes(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], games: int,
                  low: float, high: float, step: int, f: int, thin: int) -> None:
    left, top, right, bottom = box
    for value in range(math.floor(low / step) * step, math.ceil(high / step) * step + 1, step):
        y = bottom - (bottom - top) * (value - low) / (high - low)
        if top - 1 <= y <= bottom + 1:
            d.line([(left, y), (right, y)], fill=GRID_LINE if value else AXIS, width=thin)
            text.draw(d, (left - f // 2, y), str(value), f, fill=text.MUTED, anchor="rm")
    x_step = nice_step(games, 8)
    for value in range(0, games + 1, x_step):
        x = left + (right - left) * value / max(1, games)
        d.line([(x, bottom), (x, bottom + f // 3)], fill=AXIS, width=thin)
        text.draw(d, (x, bottom + round(0.9 * f)), str(value), f, fill=text.MUTED, anchor="mm")
    d.line([(left, top), (left, bottom)], fill=AXIS, width=thin)


def draw_rating_history(card: RatingHistoryCard,
                        size: tuple[int, int] = HISTORY_SIZE) -> Image.Image:
    """The chart as an RGB image: the rating shown after each rated game (a bold line),
    the skill estimate mu (a thin line) in its band of mu ± sigma. Call inside
    `speaking(language)`."""
    ss = SUPERSAMPLE
    w, h = size[0] * ss, size[1] * ss
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    f = round(h / 34)
    mus, sigmas = _history_points(card)
    shown = [m - 3 * s_ for m, s_ in zip(mus, sigmas, strict=True)]
    low = min(min(shown), *(m - s_ for m, s_ in zip(mus, sigmas, strict=True)))
    high = max(m + s_ for m, s_ in zip(mus, sigmas, strict=True))
    step = nice_step(high - low, 6)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    title_h = round(4.4 * f)
    pool = _("duels") if card.pool == "duel" else _("multiplayer")
    text.draw(d, (round(1.2 * f), round(1.5 * f)), text.fit(safe_name(card.name),
              round(1.5 * f), w // 2, bold=True), round(1.5 * f), bold=True)
    # TRANSLATORS: under the player's name on the rating history chart; {pool} is
    # "duels" or "multiplayer".
    text.draw(d, (round(1.2 * f), round(3.2 * f)),
              _("Rating after each rated game, {pool}").format(pool=pool), f,
              fill=text.MUTED)
    left = text.width(str(high), f) + round(3.2 * f)
    box = (left, title_h + f, w - round(1.6 * f), h - round(3.6 * f))
    games = len(mus) - 1
    _history_axes(d, box, games, low, high, step, f, max(1, ss))

    def px(i: int, value: float) -> tuple[float, float]:
        return (box[0] + (box[2] - box[0]) * i / max(1, games),
                box[3] - (box[3] - box[1]) * (value - low) / (high - low))

    band = [px(i, m + s_) for i, (m, s_) in enumerate(zip(mus, sigmas, strict=True))]
    band += [px(i, m - s_) for i, (m, s_) in reversed(list(enumerate(zip(mus, sigmas,
                                                                       strict=True))))]
    d.polygon(band, fill=BAND)
    line = max(2, round(0.22 * f))
    estimate = [px(i, m) for i, m in enumerate(mus)] * (2 if games == 0 else 1)
    d.line(estimate, fill=ESTIMATE, width=max(1, line // 2), joint="curve")
    points = [px(i, v) for i, v in enumerate(shown)] * (2 if games == 0 else 1)
    d.line(points, fill=SHOWN, width=line, joint="curve")
    x, y = points[-1]
    r = round(0.42 * f)
    d.ellipse((x - r, y - r, x + r, y + r), fill=SHOWN)
    text.draw(d, ((box[0] + box[2]) / 2, h - round(1.1 * f)), _("Rated games"), f,
              anchor="mm")
    _history_legend(d, (w - round(1.6 * f), round(1.5 * f)), f, shown[-1])
    return img.resize(size, Image.Resampling.LANCZOS)


def _history_legend(d: ImageDraw.ImageDraw, right_top: tuple[int, int], f: int,
                    now: float) -> None:
    """Two keys, right-aligned at the top: the rating shown (with its value now) and the
    estimate's band."""
    x, y = right_top
    keys = [(SHOWN, _("Rating shown (μ − 3σ): {rating}").format(rating=f"{now:.1f}")),
            (BAND, _("Skill estimate μ ± σ"))]
    for colour, words in keys:
        width = text.width(words, f)
        text.draw(d, (x, y), words, f, anchor="rm")
        sw = round(1.8 * f)
        d.line([(x - width - sw - f // 2, y), (x - width - f // 2, y)], fill=colour,
               width=max(3, round(0.5 * f)))
        y += round(1.6 * f)


def render_rating_history(card: RatingHistoryCard, *, language: str = "en",
                          size: tuple[int, int] = HISTORY_SIZE) -> bytes:
    """The rating history chart as PNG bytes, its words in `language`."""
    with speaking(language):
        return encode_rgb(draw_rating_history(card, size), LEVEL)


# -- head to head --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeadToHeadCard:
    """Two players' record against each other, from the first's side (the service's
    `versus`): `recent` are (first's place, second's place, players), newest first."""

    names: tuple[str, str]
    wins: int
    losses: int
    draws: int
    duel: tuple[float | None, float | None] = (None, None)
    multi: tuple[float | None, float | None] = (None, None)
    recent: tuple[tuple[int, int, int], ...] = ()


def draw_head_to_head(card: HeadToHeadCard, width: int = WIDTH) -> Image.Image:
    """The card as an RGB image: the score between them, their ratings, their latest
    games together. Call inside `speaking(language)`."""
    s = Sizes.of(width)
    f = s.f
    first, second = (safe_name(n) for n in card.names)
    big, row = round(2.6 * f), round(2.0 * f)
    recent = card.recent[:RECENT]
    height = (header_height(1, s) + round(1.2 * f) + big + round(2.6 * f) + 2 * row
              + round(2.0 * f) + round(2.6 * f) + s.pad)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    total = card.wins + card.losses + card.draws
    y = header(d, width, f"{first} · {second}", [_T.ngettext(
        "Head to head: {n} game together", "Head to head: {n} games together", total
    ).format(n=total)], "", s) + round(1.2 * f)
    third = (width - 2 * s.pad) // 3
    for i, (value, label) in enumerate(((card.wins, first), (card.draws, _("draws")),
                                        (card.losses, second))):
        cx = s.pad + third * i + third // 2
        text.draw(d, (cx, y + big // 2), str(value), big, anchor="mm", bold=True)
        text.draw(d, (cx, y + big + round(1.0 * f)), text.fit(label, s.small, third - f),
                  s.small, fill=text.MUTED, anchor="mm")
    y += big + round(2.6 * f)
    for label, pair in ((_("2-player rating"), card.duel),
                        (_("Multiplayer rating"), card.multi)):
        d.rectangle((s.pad // 2, y, width - s.pad // 2, y + row - 2), fill=STRIPE)
        text.draw(d, (width // 2, y + row // 2), label, s.small, fill=text.MUTED, anchor="mm")
        for i, rating in enumerate(pair):
            shown = "—" if rating is None else f"{rating:.1f}"
            x = s.pad if i == 0 else width - s.pad
            text.draw(d, (x, y + row // 2), shown, f, anchor="lm" if i == 0 else "rm",
                      bold=True)
        y += row
    y += round(0.5 * f)
    text.draw(d, (s.pad, y + round(0.5 * f)),
              _("Latest games together, newest first ({name}'s place / other's place)")
              .format(name=first) if recent else _("No finished games together yet"),
              s.small, fill=text.MUTED)
    y += round(1.5 * f)
    _versus_badges(d, recent, s.pad, y, f)
    return img


def _versus_badges(d: ImageDraw.ImageDraw, recent: tuple[tuple[int, int, int], ...], x: int,
                   y: int, f: int) -> None:
    """A badge per game: the first's place over the second's, gold when the first won."""
    badge = round(2.6 * f)
    for mine, theirs, _players in recent:
        colour = MEDALS["1"] if mine < theirs else CHIP
        d.rounded_rectangle((x, y, x + badge, y + badge), radius=f // 3, fill=colour,
                            outline=RULE, width=max(1, f // 12))
        text.draw(d, (x + badge // 2, y + round(1.05 * f)), str(mine), round(1.3 * f),
                  anchor="mm", bold=True)
        text.draw(d, (x + badge // 2, y + round(2.05 * f)), f"/ {theirs}",
                  round(0.78 * f), fill=text.MUTED, anchor="mm")
        x += badge + round(0.35 * f)


def render_head_to_head(card: HeadToHeadCard, *, language: str = "en",
                        width: int = WIDTH) -> bytes:
    """The head-to-head card as PNG bytes, its words in `language`."""
    with speaking(language):
        return encode_rgb(draw_head_to_head(card, width), LEVEL)
