"""The game card's picture: bytes and milliseconds per encoding, early, mid and late in a game.

A seeded random 6-player game with every expansion is stopped at three points; at each, the
focus picture (`render_focus`: the board around the last move and the squares where the
drawn tile fits, at most 1000 px wide) is drawn once and encoded every way the card could
post it. Prints, per stage and encoding, the bytes and the median encode time, then the
draw time and the full call (`render_focus` with its default format), and the full board
picture's bytes for comparison; then the full call after every move of the game.
WebP at its slowest setting (seconds per picture) only with --slow. Quote `uptime` with
the figures: the machine is shared.
Run: python bench/pictures.py [--seed N] [--repeat N] [--save DIR] [--slow]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image, features

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.board import render_board
from carca_bot.render.focus import DEFAULT_FORMAT, focus_image, render_focus
from carca_bot.render.formats import lossless_webp, palette_png
from carca_bot.render.png import encode_rgb

PLAYERS = ("Ana", "Ben", "Cyrille", "Dee", "Eve", "Finn")
STAGES = (("early", 0.85), ("mid", 0.5), ("late", 0.06))  # share of the tiles still to draw

Encoder = Callable[[Image.Image], bytes]
SLOW: tuple[tuple[str, Encoder], ...] = (
    ("webp lossless, method 6 q100", lambda img: lossless_webp(img, 6, 100)),
)
ENCODERS: tuple[tuple[str, Encoder], ...] = (
    ("png (render/png.py, zlib 1)", lambda img: encode_rgb(img, 1)),
    ("png256 octree, no dither, zlib 6", lambda img: palette_png(img)),
    ("png256 octree, no dither, zlib 9", lambda img: palette_png(img, level=9)),
    ("png256 octree, dithered, zlib 6", lambda img: palette_png(img, dither=True)),
    ("webp lossless, method 0", lambda img: lossless_webp(img, 0, 0)),
    ("webp lossless, method 4 q80", lambda img: lossless_webp(img, 4, 80)),
    ("webp of the png256 colours, m4 q80", lambda img: lossless_webp(
        img.quantize(256, method=Image.Quantize.FASTOCTREE).convert("RGB"), 4, 80)),
)


def stages(seed: int) -> list[tuple[str, Game, str | None]]:
    """(stage, game, the next player's tile) at each stage of one game."""
    game, rng = Game(Setup(PLAYERS, frozenset(EXPANSIONS), seed=seed)), random.Random(seed)
    total = game.tiles_left
    out: list[tuple[str, Game, str | None]] = []
    for name, share in STAGES:
        while not game.finished and game.tiles_left > share * total:
            play_random_turn(game, rng)
        snapshot = game.copy()
        out.append((name, snapshot, snapshot.draw() if not snapshot.finished else None))
    return out


def median_ms(run: Callable[[], object], repeat: int) -> float:
    """The median of `repeat` runs; one run when it takes over a second (slow WebP)."""
    times: list[float] = []
    while len(times) < repeat and sum(times) < 1.0:
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def every_move(seed: int) -> None:
    """`render_focus` (default format) after every move of the game, as the bot calls it:
    ms and bytes over the whole game and over its last third."""
    game, rng = Game(Setup(PLAYERS, frozenset(EXPANSIONS), seed=seed)), random.Random(seed)
    total = game.tiles_left
    runs: list[tuple[bool, float, int]] = []  # (late, ms, bytes)
    while not game.finished:
        play_random_turn(game, rng)
        tile = game.draw() if game.tiles_left and not game.finished else None
        start = time.perf_counter()
        data = render_focus(game, tile)
        runs.append((game.tiles_left < total / 3, (time.perf_counter() - start) * 1000,
                     len(data)))
    for label, chosen in (("whole game", runs), ("last third", [r for r in runs if r[0]])):
        ms = sorted(r[1] for r in chosen)
        size = sorted(r[2] for r in chosen)
        print(f"render_focus per move, {label} ({len(chosen)} moves): median "
              f"{statistics.median(ms):.1f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, "
              f"max {ms[-1]:.1f} ms; bytes median {statistics.median(size):,.0f}, "
              f"max {size[-1]:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--save", type=Path, help="write each picture here, to look at")
    parser.add_argument("--slow", action="store_true", help="also WebP's slowest setting")
    args = parser.parse_args()
    print(f"Pillow WebP support: {features.check('webp')} (libwebp {features.version('webp')})")
    print(f"{'stage':<6} {'tiles':>5} {'size':>9}  {'encoding':<34} {'bytes':>9} {'ms':>7}")
    for name, game, tile in stages(args.seed):
        img = focus_image(game, tile)  # warm: the art at this scale is cached, as in the bot
        draw = median_ms(partial(focus_image, game, tile), args.repeat)
        size = f"{img.width}x{img.height}"
        for i, (label, encoder) in enumerate(ENCODERS + (SLOW if args.slow else ())):
            data = encoder(img)
            ms = median_ms(partial(encoder, img), args.repeat)
            print(f"{name:<6} {len(game.board.tiles):>5} {size:>9}  {label:<34} "
                  f"{len(data):>9,} {ms:>7.1f}")
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                suffix = "webp" if label.startswith("webp") else "png"
                (args.save / f"{name}-{i}.{suffix}").write_bytes(data)
        whole = median_ms(partial(render_focus, game, tile), args.repeat)
        board = len(render_board(game))
        print(f"{name:<6} draw {draw:.1f} ms; render_focus ({DEFAULT_FORMAT}) {whole:.1f} ms; "
              f"full board picture {board:,} bytes")
    every_move(args.seed)


if __name__ == "__main__":
    main()
