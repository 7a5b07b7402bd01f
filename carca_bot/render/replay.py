"""The whole game as an animation, tile by tile with figures and scores: animated WebP,
or GIF where WebP will not do, within an upload limit.

Heavy CPU work (a replay and an encode of every frame): front ends call
`render_replay` from a worker pool, never on the event loop. The game is replayed
from its committed actions with the seed removed, so no frame can show the order
of the pile or a tile drawn for a turn not yet confirmed.

Every frame has the same size, so the picture never jumps, but the camera follows the
board as it grows: each frame shows the squares around the tiles laid so far (with a
square of room all round, and at least `MIN_VIEW` squares across) as large as the frame
allows, never past the art's own size. The view only ever grows, and with some slack,
so it changes now and then rather than every move (each change redraws the whole frame,
which costs bytes). A caption says what each move did: who, where, the figure placed and
the points scored. When the file is over the limit the frame shrinks, then frames are
merged (each one then shows several actions), until it fits.
"""

from __future__ import annotations

import dataclasses
import io
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from PIL import Image, ImageDraw, features

from carca_bot.engine.catalogue import Kind, catalogue
from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.i18n import N_, Domain, speaking
from carca_bot.render import text
from carca_bot.render.figure_art import FLAT_KINDS, figure_image, token_image
from carca_bot.render.grid import BACKGROUND, EMPTY, GRID
from carca_bot.render.palette import player
from carca_bot.render.pieces import figure_spots, token_spots
from carca_bot.render.record_words import figure_noun
from carca_bot.render.tile_art import ABBEY, TILE_SIZE, tile_image

_T = Domain("render")
_ = _T.gettext

DISCORD_LIMIT = 10 * 1024 * 1024  # Discord's upload limit without boosts
MAX_SIDE = 960  # the board's longest side at most, in px
MIN_TILE = 12
MIN_VIEW = 5  # squares across (and down) the camera shows at least
SLACK = 0.25  # when the view must grow, it grows by this share more, to grow less often
STEP_MS = 450
LAST_MS = 5000
# Frames between WebP key frames: few keys halve the file and the time (every frame
# but the first is then stored as its change from the one before; Discord plays it
# from the start anyway).
KEYFRAMES = 10_000
Format = Literal["webp", "gif"]
ACTOR = (255, 232, 150)  # the band behind the player who just moved
GAIN = (30, 130, 50)
FEATURES = {"city": N_("city"), "road": N_("road"), "field": N_("field"),
            "monastery": N_("monastery"), "shrine": N_("shrine"), "abbey": N_("abbey"),
            "garden": N_("garden"), "barn": N_("barn"), "king": N_("the King"),
            "robber": N_("the Robber")}


class ReplayTooLarge(ValueError):
    """Even the smallest animation does not fit the byte limit."""


@dataclass(frozen=True, slots=True)
class Replay:
    data: bytes
    format: Format  # also the file extension
    frames: int
    actions_per_frame: int
    tile: int  # px per square in the last frame
    size: tuple[int, int]
    seconds: float  # time taken to make it

    @property
    def mime(self) -> str:
        return f"image/{self.format}"


def animated_webp_available() -> bool:
    """Whether this Pillow can write animated WebP (it needs libwebp's mux support)."""
    return bool(features.check("webp"))


@dataclass(frozen=True, slots=True)
class _Frame:
    """What a frame shows, worked out once and drawn at any size."""

    board: tuple[tuple[Pos, str, int], ...]  # every tile laid so far
    figures: tuple[tuple[str, int, Pos, tuple[float, float]], ...]
    tokens: tuple[tuple[int, int, Pos, tuple[float, float]], ...]
    scores: tuple[int, ...]
    gained: tuple[int, ...]
    last: tuple[Pos, int] | None
    move: int  # actions played
    actor: int | None  # who played the last of them
    tiles_left: int
    finished: bool
    action: Mapping[str, Any] | None  # the last action shown (its record form)
    events: tuple[Event, ...]  # what it did
    merged: int = 1  # actions this frame shows


def _walk(game: Game) -> Iterator[_Frame]:
    """The start, then the table after each committed action (replayed without the seed)."""
    walk = Game(dataclasses.replace(game.setup, seed=None))
    before = list(walk.scores)
    actions: list[Mapping[str, Any]] = [dict(a) for a in game.history]
    for move in range(len(actions) + 1):
        actor, action, events = None, None, []
        if move:
            before = list(walk.scores)
            action = actions[move - 1]
            events = walk.apply(dict(action))
            actor = walk.players.index(action["by"]) if "by" in action else None
        board = tuple((pos, p.tile, p.rot) for pos, p in sorted(walk.board.tiles.items()))
        yield _Frame(board, tuple(figure_spots(walk)), tuple(token_spots(walk)),
                     tuple(walk.scores),
                     tuple(a - b for a, b in zip(walk.scores, before, strict=True)),
                     walk.last_placed, move, actor, walk.tiles_left, walk.finished, action,
                     tuple(events))


def _merged(frames: Sequence[_Frame], every: int) -> list[_Frame]:
    """Every `every`-th frame (and the last), each carrying the points gained since the
    previous one kept and the events of the actions it stands for."""
    out: list[_Frame] = []
    gained = [0] * len(frames[0].scores)
    events: list[Event] = []
    count = 0
    for i, frame in enumerate(frames):
        gained = [g + n for g, n in zip(gained, frame.gained, strict=True)]
        events.extend(frame.events)
        count += 1 if frame.move else 0
        if i % every == 0 or i == len(frames) - 1:
            out.append(dataclasses.replace(frame, gained=tuple(gained), events=tuple(events),
                                           merged=max(1, count)))
            gained, events, count = [0] * len(gained), [], 0
    return out


@dataclass(frozen=True, slots=True)
class View:
    """The squares a frame shows and their size: first column, first row, columns, rows,
    px per square."""

    x0: int
    y0: int
    cols: int
    rows: int
    tile: int

    def holds(self, x0: int, y0: int, x1: int, y1: int) -> bool:
        return (self.x0 <= x0 and self.y0 <= y0 and x1 < self.x0 + self.cols
                and y1 < self.y0 + self.rows)


def _box(board: Sequence[tuple[Pos, str, int]]) -> tuple[int, int, int, int]:
    xs = [p[0] for p, _t, _r in board]
    ys = [p[1] for p, _t, _r in board]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def _fit(box: tuple[int, int, int, int], area: tuple[int, int]) -> View:
    """The view showing `box` (first and last column and row), at least MIN_VIEW squares
    each way, as large as `area` (px) allows and no larger than the art, centred, with
    the rest of the area filled with more squares."""
    x0, y0, x1, y1 = box
    cols, rows = max(MIN_VIEW, x1 - x0 + 1), max(MIN_VIEW, y1 - y0 + 1)
    t = max(1, min(TILE_SIZE, area[0] // cols, area[1] // rows))
    cols, rows = max(cols, area[0] // t), max(rows, area[1] // t)
    return View((x0 + x1) // 2 - (cols - 1) // 2, (y0 + y1) // 2 - (rows - 1) // 2, cols,
                rows, t)


def cameras(frames: Sequence[_Frame], area: tuple[int, int]) -> list[View]:
    """The view of each frame: the last one's (or a larger one) as long as it holds the
    board with a square of room; else one grown by SLACK, kept within the final board."""
    final = _box(frames[-1].board)
    views: list[View] = []
    view: View | None = None
    for frame in frames:
        need = _box(frame.board)
        if view is None or not view.holds(*need):
            grow_x = math.ceil(SLACK * (need[2] - need[0] + 1) / 2)
            grow_y = math.ceil(SLACK * (need[3] - need[1] + 1) / 2)
            view = _fit((max(final[0], need[0] - grow_x), max(final[1], need[1] - grow_y),
                         min(final[2], need[2] + grow_x), min(final[3], need[3] + grow_y)),
                        area)
        views.append(view)
    return views


def board_area(frames: Sequence[_Frame], max_side: int) -> tuple[int, int]:
    """The board's part of every frame, in px: the final board's shape within max_side."""
    x0, y0, x1, y1 = _box(frames[-1].board)
    cols, rows = max(MIN_VIEW, x1 - x0 + 1), max(MIN_VIEW, y1 - y0 + 1)
    t = max(MIN_TILE, min(TILE_SIZE, max_side // max(cols, rows)))
    return max(t * cols, 240), max(t * rows, 200)


class _Painter:
    """Draws frames of one size; keeps a layer of the tiles laid for the current view."""

    def __init__(self, names: Sequence[str], area: tuple[int, int], tunnel: bool,
                 total: int) -> None:
        self.names = names
        self.tunnel = tunnel
        self.total = total
        self.area = area
        self.width = max(area[0], 360)
        self.f = max(12, min(26, round(self.width / 36)))
        self.cols = min(3, len(names))
        self.row_h = round(1.9 * self.f)
        self.head_h = round(3.3 * self.f)
        strip_h = self.row_h * math.ceil(len(names) / self.cols) + self.f // 2
        self.height = self.head_h + area[1] + strip_h
        self.left = (self.width - area[0]) // 2
        self.view: View | None = None
        self.layer = Image.new("RGB", (self.width, self.height), BACKGROUND)
        self.laid: set[Pos] = set()

    def at(self, pos: Pos, unit: tuple[float, float] = (0.0, 0.0)) -> tuple[int, int]:
        v = self.view
        assert v is not None
        return (round(self.left + (pos[0] - v.x0 + unit[0]) * v.tile),
                round(self.head_h + (pos[1] - v.y0 + unit[1]) * v.tile))

    def _look(self, view: View) -> None:
        """Move the camera: a fresh layer of empty squares at the view's scale."""
        self.view, self.laid = view, set()
        self.layer = Image.new("RGB", (self.width, self.height), BACKGROUND)
        d = ImageDraw.Draw(self.layer)
        w, h = self.area
        d.rectangle((self.left, self.head_h, self.left + w - 1, self.head_h + h - 1),
                    fill=EMPTY)
        if view.tile >= 24:
            for c in range(view.cols + 1):
                x = self.left + c * view.tile
                d.line([(x, self.head_h), (x, self.head_h + h - 1)], fill=GRID)
            for r in range(view.rows + 1):
                y = self.head_h + r * view.tile
                d.line([(self.left, y), (self.left + w - 1, y)], fill=GRID)

    def draw(self, frame: _Frame, view: View) -> Image.Image:
        if view != self.view:
            self._look(view)
        t = view.tile
        for pos, tile_id, rot in frame.board:
            if pos not in self.laid and view.holds(*pos, *pos):
                self.layer.paste(tile_image(tile_id, rot, t, self.tunnel), self.at(pos))
                self.laid.add(pos)
        img = self.layer.copy()
        d = ImageDraw.Draw(img)
        ts = max(6, round(0.32 * t))
        for owner, pair, pos, unit in frame.tokens:
            x, y = self.at(pos, unit)
            icon = token_image(owner, pair + 1, ts)
            img.paste(icon, (x - ts // 2, y - ts // 2), icon)
        fs = max(8, round(0.46 * t))
        for kind, owner, pos, unit in sorted(frame.figures, key=lambda s: (
                s[0] not in FLAT_KINDS, s[2][1] + s[3][1], s[2][0] + s[3][0])):
            x, y = self.at(pos, unit)
            icon = figure_image(kind, owner, fs)
            img.paste(icon, (x - fs // 2, y - fs // 2), icon)
        if frame.last is not None:
            pos, who = frame.last
            left, top = self.at(pos)
            w = max(2, t // 14)
            d.rectangle((left, top, left + t - 1, top + t - 1), outline=player(who).outline,
                        width=w + 1)
            d.rectangle((left + 1, top + 1, left + t - 2, top + t - 2),
                        outline=player(who).fill, width=w)
        self._head(d, frame)
        self._scores(img, d, frame)
        return img

    def _head(self, d: ImageDraw.ImageDraw, frame: _Frame) -> None:
        f, pad = self.f, self.f // 2
        d.rectangle((0, 0, self.width, self.head_h - 2), fill=BACKGROUND)
        if frame.finished:
            left = _("Final scores")
        elif frame.move == 0:
            left = _("Start")
        else:
            left = _("Move {n} of {total}").format(n=frame.move, total=self.total)
        if frame.actor is not None and not frame.finished:
            left = _("{move}: {name}").format(move=left, name=self.names[frame.actor])
        right = _T.ngettext("{n} tile left", "{n} tiles left",
                            frame.tiles_left).format(n=frame.tiles_left)
        right_w = text.width(right, round(0.8 * f)) + f
        text.draw(d, (pad, round(0.9 * f)),
                  text.fit(left, f, self.width - 2 * pad - right_w, bold=True), f, bold=True)
        text.draw(d, (self.width - pad, round(0.9 * f)), right, round(0.8 * f),
                  fill=text.MUTED, anchor="rm")
        said = caption(frame, self.names)
        text.draw(d, (pad, round(2.3 * f)), text.fit(said, round(0.85 * f), self.width - 2 * pad),
                  round(0.85 * f), fill=text.INK)

    def _scores(self, img: Image.Image, d: ImageDraw.ImageDraw, frame: _Frame) -> None:
        f = self.f
        top = self.height - self.row_h * math.ceil(len(self.names) / self.cols) - f // 4
        col_w = self.width // self.cols
        icon_size = round(1.3 * f)
        for p, name in enumerate(self.names):
            r, c = divmod(p, self.cols)
            x, cy = c * col_w + f // 2, top + r * self.row_h + self.row_h // 2
            if p == frame.actor and not frame.finished:  # who just played
                d.rounded_rectangle((x - f // 3, cy - self.row_h // 2 + 2,
                                     x + col_w - round(0.7 * f), cy + self.row_h // 2 - 2),
                                    radius=f // 2, fill=ACTOR)
            icon = figure_image("follower", p, icon_size)
            img.paste(icon, (x, cy - icon_size // 2), icon)
            score = str(frame.scores[p])
            gain = f"+{frame.gained[p]}" if frame.gained[p] else ""
            right = x + col_w - f
            score_w = text.width(score, f) + (text.width(gain, round(0.8 * f)) + f // 3
                                              if gain else 0)
            nx = x + icon_size + f // 3
            text.draw(d, (nx, cy), text.fit(name, round(0.85 * f), right - nx - score_w - f // 2),
                      round(0.85 * f))
            if gain:
                text.draw(d, (right, cy), gain, round(0.8 * f), fill=GAIN, anchor="rm",
                          bold=True)
                right -= text.width(gain, round(0.8 * f)) + f // 3
            text.draw(d, (right, cy), score, f, anchor="rm", bold=True)


def _feature(action: Mapping[str, Any], on: str) -> str:
    """What `on` names on the action's tile: its kind of feature, in words."""
    tile = action.get("tile")
    if not isinstance(tile, str):
        kind = "abbey" if on == "C" else ""
    else:
        try:
            shape = catalogue().shape(tile, int(action.get("rot", 0)) // 90 % 4)
        except KeyError:
            return on
        index = shape.names.get(on)
        if index is None:
            return on
        seg = shape.segments[index]
        kind = seg.building if seg.kind is Kind.BUILDING else seg.kind.value
    return _(FEATURES[kind]) if kind in FEATURES else on


def _did(action: Mapping[str, Any]) -> list[str]:
    """What one action did, in short phrases."""
    if action.get("end"):
        return [_("the tiles ran out")]
    if "discard" in action:
        return [_("a tile that fits nowhere, set aside")]
    wagon = action.get("wagon")
    if wagon == "return":
        return [_("wagon taken back")]
    if isinstance(wagon, Mapping):
        at = wagon.get("at", (0, 0))
        return [_("wagon moved to {square}").format(square=f"{at[0]},{at[1]}")]
    abbey = action.get("abbey")
    if abbey == "skip":
        return [_("abbey kept")]
    out: list[str] = []
    if abbey is not None:
        out.append(_("abbey at {square}").format(square=f"{abbey[0]},{abbey[1]}"))
    elif "at" in action:
        at = action["at"]
        out.append(_("tile at {square}").format(square=f"{at[0]},{at[1]}"))
    deploy = action.get("deploy")
    if isinstance(deploy, Mapping):
        figure = str(deploy.get("figure", ""))
        on = str(deploy.get("on", ""))
        out.append(_("{figure} on {feature}").format(figure=figure_noun(figure),
                                                         feature=_feature(action, on)))
    if action.get("recall"):
        out.append(_("abbot taken back"))
    if isinstance(action.get("token"), Mapping):
        out.append(_("tunnel token"))
    return out


def _points(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Who scored what, by feature: "city: Ana +4"."""
    out: list[str] = []
    for ev in events:
        if ev.kind != "score" or not ev.points or not ev.players:
            continue
        what = _(FEATURES[ev.feature]) if ev.feature in FEATURES else ev.feature
        who = ", ".join(names[p] for p in ev.players if 0 <= p < len(names))
        out.append(_("{feature}: {who} +{points}").format(feature=what, who=who,
                                                          points=ev.points))
    return out


def caption(frame: _Frame, names: Sequence[str]) -> str:
    """The frame's second line: what its move did and what it scored."""
    if frame.move == 0:
        return _("The start tile")
    parts = _did(frame.action) if frame.action is not None else []
    if frame.finished and any(ev.final for ev in frame.events):
        parts.append(_("final scoring (the points in green below)"))
    else:
        parts += _points(frame.events, names)
    if frame.merged > 1:
        parts.insert(0, _T.ngettext("{n} move", "{n} moves", frame.merged).format(
            n=frame.merged))
    return " · ".join(parts)


def _encode(frames: list[Image.Image], durations: list[int], fmt: Format) -> bytes:
    buf = io.BytesIO()
    if fmt == "webp":
        frames[0].save(buf, format="WEBP", save_all=True, append_images=frames[1:],
                       duration=durations, loop=0, quality=80, method=0,
                       kmin=KEYFRAMES - 1, kmax=KEYFRAMES)
        return buf.getvalue()
    palette = frames[-1].quantize(255, method=Image.Quantize.MEDIANCUT)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    indexed[0].save(buf, format="GIF", save_all=True, append_images=indexed[1:],
                    duration=durations, loop=0, optimize=False, disposal=1)
    return buf.getvalue()


def _pictures(game: Game, frames: Sequence[_Frame], max_side: int) -> list[Image.Image]:
    area = board_area(frames, max_side)
    painter = _Painter(game.players, area, game.setup.has("tunnel"), frames[-1].move)
    return [painter.draw(frame, view) for frame, view in zip(frames, cameras(frames, area),
                                                             strict=True)]


def render_replay(game: Game, max_bytes: int = DISCORD_LIMIT, language: str = "en",
                  fmt: Format | None = None, max_side: int = MAX_SIDE,
                  step_ms: int = STEP_MS, last_ms: int = LAST_MS) -> Replay:
    """The animation of `game`'s committed actions, at most `max_bytes` long.

    `fmt` None: WebP when this Pillow writes it, else GIF. Raises ReplayTooLarge when
    even tiny tiles and merged frames do not fit.
    """
    started = time.monotonic()
    chosen: Format = fmt or ("webp" if animated_webp_available() else "gif")
    frames = list(_walk(game))
    every = 1
    with speaking(language):
        while True:
            kept = _merged(frames, every)
            pictures = _pictures(game, kept, max_side)
            durations = [step_ms * every] * len(pictures)
            durations[-1] = last_ms
            data = _encode(pictures, durations, chosen)
            final = cameras(kept, board_area(kept, max_side))[-1].tile
            if len(data) <= max_bytes:
                return Replay(data, chosen, len(pictures), every, final,
                              pictures[0].size, time.monotonic() - started)
            ratio = math.sqrt(max_bytes / len(data)) * 0.92
            if final > MIN_TILE and ratio * final >= MIN_TILE * 0.8:
                max_side = max(MIN_TILE * 5, min(max_side - 40, int(max_side * ratio)))
            elif len(kept) > 2:
                every = max(every + 1, math.ceil(every / (ratio * ratio)))
            else:
                raise ReplayTooLarge(f"the replay needs {len(data)} bytes; the limit is "
                                     f"{max_bytes}")


__all__ = ["ABBEY", "DISCORD_LIMIT", "Replay", "ReplayTooLarge", "animated_webp_available",
           "caption", "render_replay"]
