"""The whole game as an animation, tile by tile with figures and scores: animated WebP,
or GIF where WebP will not do, within an upload limit.

Heavy CPU work (a replay and an encode of every frame): front ends call
`render_replay` from a worker pool, never on the event loop. The game is replayed
from its committed actions with the seed removed, so no frame can show the order
of the pile or a tile drawn for a turn not yet confirmed.

Every frame has the size of the final board, so the picture never jumps; when the
encoded file is over the limit the tiles shrink, then frames are merged (each one
then shows several actions), until it fits.
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

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.i18n import Domain, speaking
from carca_bot.render import text
from carca_bot.render.figure_art import figure_image, token_image
from carca_bot.render.grid import BACKGROUND, EMPTY
from carca_bot.render.palette import player
from carca_bot.render.pieces import figure_spots, token_spots
from carca_bot.render.tile_art import tile_image

_T = Domain("render")
_ = _T.gettext

DISCORD_LIMIT = 10 * 1024 * 1024  # Discord's upload limit without boosts
MAX_SIDE = 960  # the board's longest side at most, in px
MIN_TILE = 12
STEP_MS = 450
LAST_MS = 5000
# Frames between WebP key frames: few keys halve the file and the time (every frame
# but the first is then stored as its change from the one before; Discord plays it
# from the start anyway).
KEYFRAMES = 10_000
Format = Literal["webp", "gif"]
ACTOR = (255, 232, 150)  # the band behind the player who just moved


class ReplayTooLarge(ValueError):
    """Even the smallest animation does not fit the byte limit."""


@dataclass(frozen=True, slots=True)
class Replay:
    data: bytes
    format: Format  # also the file extension
    frames: int
    actions_per_frame: int
    tile: int  # px per square
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
    """What a frame shows, worked out once and drawn at any tile size."""

    tiles: tuple[tuple[Pos, str, int], ...]  # new tiles since the previous frame
    figures: tuple[tuple[str, int, Pos, tuple[float, float]], ...]
    tokens: tuple[tuple[int, int, Pos, tuple[float, float]], ...]
    scores: tuple[int, ...]
    gained: tuple[int, ...]
    last: tuple[Pos, int] | None
    move: int  # actions played
    actor: int | None  # who played the last of them
    tiles_left: int
    finished: bool


def _walk(game: Game) -> Iterator[_Frame]:
    """The start, then the table after each committed action (replayed without the seed)."""
    walk = Game(dataclasses.replace(game.setup, seed=None))
    seen: set[Pos] = set()
    before = list(walk.scores)
    actions: list[Mapping[str, Any]] = [dict(a) for a in game.history]
    for move in range(len(actions) + 1):
        actor = None
        if move:
            before = list(walk.scores)
            action = actions[move - 1]
            walk.apply(dict(action))
            actor = walk.players.index(action["by"]) if "by" in action else None
        new = tuple((pos, p.tile, p.rot) for pos, p in sorted(walk.board.tiles.items())
                    if pos not in seen)
        seen.update(pos for pos, _t, _r in new)
        yield _Frame(new, tuple(figure_spots(walk)), tuple(token_spots(walk)),
                     tuple(walk.scores),
                     tuple(a - b for a, b in zip(walk.scores, before, strict=True)),
                     walk.last_placed, move, actor, walk.tiles_left, walk.finished)


def _merged(frames: Sequence[_Frame], every: int) -> list[_Frame]:
    """Every `every`-th frame (and the last), each carrying the tiles laid since the
    previous one kept and the points gained meanwhile."""
    out: list[_Frame] = []
    tiles: list[tuple[Pos, str, int]] = []
    gained = [0] * len(frames[0].scores)
    for i, frame in enumerate(frames):
        tiles.extend(frame.tiles)
        gained = [g + n for g, n in zip(gained, frame.gained, strict=True)]
        if i % every == 0 or i == len(frames) - 1:
            out.append(dataclasses.replace(frame, tiles=tuple(tiles), gained=tuple(gained)))
            tiles, gained = [], [0] * len(gained)
    return out


class _Painter:
    """Draws frames at one tile size over a board layer that keeps every tile laid."""

    def __init__(self, names: Sequence[str], squares: Sequence[Pos], tile: int,
                 tunnel: bool, total: int) -> None:
        xs = [x for x, _y in squares]
        ys = [y for _x, y in squares]
        self.x0, self.y0 = min(xs), min(ys)
        self.tile = tile
        self.tunnel = tunnel
        self.names = names
        self.total = total
        self.margin = max(4, tile // 4)
        board_w = (max(xs) - self.x0 + 1) * tile + 2 * self.margin
        board_h = (max(ys) - self.y0 + 1) * tile + 2 * self.margin
        self.f = max(12, min(26, round(max(board_w, 360) / 36)))
        self.cols = min(3, len(names))
        self.row_h = round(1.9 * self.f)
        self.head_h = round(2.0 * self.f)
        strip_h = self.row_h * math.ceil(len(names) / self.cols) + self.f // 2
        self.width = max(board_w, 360)
        self.height = self.head_h + board_h + strip_h
        self.board_left = (self.width - board_w) // 2 + self.margin
        self.board_top = self.head_h + self.margin
        self.layer = Image.new("RGB", (self.width, self.height), BACKGROUND)
        ImageDraw.Draw(self.layer).rectangle(
            (self.board_left - self.margin, self.head_h, self.board_left - self.margin
             + board_w - 1, self.head_h + board_h - 1), fill=EMPTY)

    def at(self, pos: Pos, unit: tuple[float, float] = (0.0, 0.0)) -> tuple[int, int]:
        return (round(self.board_left + (pos[0] - self.x0 + unit[0]) * self.tile),
                round(self.board_top + (pos[1] - self.y0 + unit[1]) * self.tile))

    def draw(self, frame: _Frame) -> Image.Image:
        for pos, tile_id, rot in frame.tiles:
            self.layer.paste(tile_image(tile_id, rot, self.tile, self.tunnel), self.at(pos))
        img = self.layer.copy()
        d = ImageDraw.Draw(img)
        ts = max(6, round(0.32 * self.tile))
        for owner, pair, pos, unit in frame.tokens:
            x, y = self.at(pos, unit)
            icon = token_image(owner, pair + 1, ts)
            img.paste(icon, (x - ts // 2, y - ts // 2), icon)
        fs = max(8, round(0.46 * self.tile))
        for kind, owner, pos, unit in sorted(frame.figures, key=lambda s: (
                s[0] not in ("farmer", "barn"), s[2][1] + s[3][1], s[2][0] + s[3][0])):
            x, y = self.at(pos, unit)
            icon = figure_image(kind, owner, fs)
            img.paste(icon, (x - fs // 2, y - fs // 2), icon)
        if frame.last is not None:
            pos, who = frame.last
            left, top = self.at(pos)
            w = max(2, self.tile // 14)
            d.rectangle((left, top, left + self.tile - 1, top + self.tile - 1),
                        outline=player(who).outline, width=w + 1)
            d.rectangle((left + 1, top + 1, left + self.tile - 2, top + self.tile - 2),
                        outline=player(who).fill, width=w)
        self._head(d, frame)
        self._scores(img, d, frame)
        return img

    def _head(self, d: ImageDraw.ImageDraw, frame: _Frame) -> None:
        f, pad = self.f, self.f // 2
        cy = self.head_h // 2
        if frame.finished:
            left = _("Final scores")
        elif frame.move == 0:
            left = _("Start")
        else:
            left = _("Move {n} of {total}").format(n=frame.move, total=self.total)
        text.draw(d, (pad, cy), left, f, bold=True)
        right = _T.ngettext("{n} tile left", "{n} tiles left",
                            frame.tiles_left).format(n=frame.tiles_left)
        text.draw(d, (self.width - pad, cy), right, round(0.8 * f), fill=text.MUTED,
                  anchor="rm")

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
                text.draw(d, (right, cy), gain, round(0.8 * f), fill=(30, 130, 50),
                          anchor="rm", bold=True)
                right -= text.width(gain, round(0.8 * f)) + f // 3
            text.draw(d, (right, cy), score, f, anchor="rm", bold=True)


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
    squares = [pos for frame in frames for pos, _t, _r in frame.tiles]
    span = max(max(x for x, _y in squares) - min(x for x, _y in squares),
               max(y for _x, y in squares) - min(y for _x, y in squares)) + 1
    tile = max(MIN_TILE, min(64, (max_side - 16) // span))
    every = 1
    with speaking(language):
        while True:
            kept = _merged(frames, every)
            painter = _Painter(game.players, squares, tile, game.setup.has("tunnel"),
                               len(frames) - 1)
            pictures = [painter.draw(frame) for frame in kept]
            durations = [step_ms * every] * len(pictures)
            durations[-1] = last_ms
            data = _encode(pictures, durations, chosen)
            if len(data) <= max_bytes:
                return Replay(data, chosen, len(pictures), every, tile,
                              pictures[0].size, time.monotonic() - started)
            ratio = math.sqrt(max_bytes / len(data)) * 0.92
            if tile > MIN_TILE and ratio * tile >= MIN_TILE * 0.8:
                tile = max(MIN_TILE, min(tile - 2, int(tile * ratio)))
            elif len(kept) > 2:
                every = max(every + 1, math.ceil(every / (ratio * ratio)))
            else:
                raise ReplayTooLarge(f"the replay needs {len(data)} bytes; the limit is "
                                     f"{max_bytes}")
