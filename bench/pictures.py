"""The game card's picture as a phone shows it: early, mid and late in a 6-player game.

A seeded random 6-player game with every expansion is stopped at three points; at each,
the card's picture (`render_focus`: a fixed-scale view around the last move with the
squares where the drawn tile fits) is drawn as the bot draws it, and one line is printed
in exactly this form (other checks read it):

    card STAGE: S squares across, P px per square at 400 px, L px labels, B KB, T ms

S is how many squares the picture shows across; P and L are what a phone showing the
picture 400 px wide displays: a square's width, and the smallest text drawn (coordinate
labels, a marked square's coordinates, the markers' counts); B the picture's kilobytes
(1000 bytes) and T the median time of the whole call. Goals (issue 27): P >= 30, L >= 9,
B <= 120, T <= 60.

Options: --encodings also times every encoding the card could post (plain PNG, 256
colours, WebP) on each stage's picture; --every-move times the call after every move
of the game; --save DIR writes each stage's picture. Quote `uptime` with the figures:
the machine is shared.
Run: python bench/pictures.py [--seed N] [--repeat N] [--save DIR] [--encodings]
     [--every-move]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.focus import focus_image, plan, render_focus
from carca_bot.render.formats import lossless_webp, palette_png
from carca_bot.render.png import encode_rgb

PLAYERS = ("Ana", "Ben", "Cyrille", "Dee", "Eve", "Finn")
STAGES = (("early", 0.85), ("mid", 0.5), ("late", 0.06))  # share of the tiles still to draw

Encoder = Callable[[Image.Image], bytes]
ENCODERS: tuple[tuple[str, Encoder], ...] = (
    ("png (render/png.py, zlib 1)", lambda img: encode_rgb(img, 1)),
    ("png256 octree, no dither, zlib 6", lambda img: palette_png(img)),
    ("png256 octree, no dither, zlib 9", lambda img: palette_png(img, level=9)),
    ("webp lossless, method 0", lambda img: lossless_webp(img, 0, 0)),
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
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def card_line(name: str, game: Game, tile: str | None, repeat: int) -> str:
    """The stage's line, in the exact form the issue gives."""
    card = plan(game, tile)
    data = render_focus(game, tile)  # warm: the art at this scale is cached, as in the bot
    ms = median_ms(partial(render_focus, game, tile), repeat)
    lay = card.layout
    return (f"card {name}: {lay.cols} squares across, {card.phone(lay.tile):.0f} px per "
            f"square at 400 px, {card.phone(card.smallest):.0f} px labels, "
            f"{len(data) / 1000:.0f} KB, {ms:.0f} ms")


def encodings(name: str, game: Game, tile: str | None, repeat: int) -> None:
    img = focus_image(game, tile)
    for label, encoder in ENCODERS:
        data = encoder(img)
        ms = median_ms(partial(encoder, img), repeat)
        print(f"  {name:<6} {img.width}x{img.height}  {label:<34} {len(data):>9,} B "
              f"{ms:>7.1f} ms")


def every_move(seed: int) -> None:
    """`render_focus` after every move of the game, as the bot calls it."""
    game, rng = Game(Setup(PLAYERS, frozenset(EXPANSIONS), seed=seed)), random.Random(seed)
    runs: list[tuple[float, int]] = []
    while not game.finished:
        play_random_turn(game, rng)
        tile = game.draw() if game.tiles_left and not game.finished else None
        start = time.perf_counter()
        data = render_focus(game, tile)
        runs.append(((time.perf_counter() - start) * 1000, len(data)))
    ms = sorted(r[0] for r in runs)
    size = sorted(r[1] for r in runs)
    print(f"render_focus per move ({len(runs)} moves): median {statistics.median(ms):.1f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms; bytes median "
          f"{statistics.median(size):,.0f}, max {size[-1]:,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=9, help="runs per median (default 9)")
    parser.add_argument("--save", type=Path, help="write each stage's picture here")
    parser.add_argument("--encodings", action="store_true", help="time every encoding too")
    parser.add_argument("--every-move", action="store_true",
                        help="time the call after every move of the game")
    args = parser.parse_args()
    for name, game, tile in stages(args.seed):
        print(card_line(name, game, tile, args.repeat))
        if args.encodings:
            encodings(name, game, tile, args.repeat)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"card-{name}.png").write_bytes(render_focus(game, tile))
    if args.every_move:
        every_move(args.seed)


if __name__ == "__main__":
    main()
