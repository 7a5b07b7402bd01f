"""Board picture speed and size: a full all-expansions board, and one move at a time.

Prints the median time to render and encode a full board from scratch (tile art already
cached, as in a running bot), the median time per move when a BoardRenderer is reused and
only the newest tile changed, and the PNG sizes.
Run: python bench/render.py [--seeds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.board import BoardRenderer, render_board
from carca_bot.render.grid import bounds

PLAYERS = ("Ana", "Ben", "Cyrille", "Dee")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def new_game(seed: int) -> Game:
    return Game(Setup(PLAYERS, frozenset(EXPANSIONS), seed=seed))


def full_board(seed: int) -> Game:
    game, rng = new_game(seed), random.Random(seed)
    while not game.finished:
        play_random_turn(game, rng)
    return game


def time_full(game: Game, repeat: int) -> tuple[list[float], int]:
    times = []
    size = 0
    for _ in range(repeat):
        renderer = BoardRenderer()  # nothing kept: the whole tile layer is composed again
        start = time.perf_counter()
        size = len(renderer.render(game))
        times.append(time.perf_counter() - start)
    return times, size


def time_moves(seed: int) -> tuple[list[float], list[float]]:
    """Render after every move of a game; split moves that kept the crop from those that grew it."""
    game, rng = new_game(seed), random.Random(seed)
    renderer = BoardRenderer()
    kept: list[float] = []
    grown: list[float] = []
    last = None
    while not game.finished:
        play_random_turn(game, rng)
        crop = bounds(game)
        start = time.perf_counter()
        renderer.render(game)
        elapsed = time.perf_counter() - start
        if len(game.board.tiles) > 40:  # a board of some size
            (kept if crop == last else grown).append(elapsed)
        last = crop
    return kept, grown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    seeds = range(args.seeds)
    games = [full_board(s) for s in seeds]
    start = time.perf_counter()
    render_board(games[0])
    print(f"first render in a fresh process (reads the committed art, scales it): "
          f"{_ms(time.perf_counter() - start)}")
    for game in games:  # warm the art caches at each board's scale, as a running bot has them
        render_board(game)
    full: list[float] = []
    print("full all-expansions boards (4 players), rendered from scratch:")
    for seed, game in zip(seeds, games, strict=True):
        times, size = time_full(game, 5)
        full += times
        _, _, cols, rows = bounds(game)
        print(f"  seed {seed}: {len(game.board.tiles)} tiles, {cols}x{rows} squares, "
              f"median {_ms(statistics.median(times))}, PNG {size / 1e6:.2f} MB")
    print(f"median full render + encode: {_ms(statistics.median(full))} (target < 150 ms)")
    kept: list[float] = []
    grown: list[float] = []
    for seed in seeds:
        k, g = time_moves(seed)
        kept += k
        grown += g
    print(f"per move, only the newest tile changed: median {_ms(statistics.median(kept))} "
          f"over {len(kept)} moves (target < 40 ms)")
    print(f"per move, the crop grew: median {_ms(statistics.median(grown))} "
          f"over {len(grown)} moves")
    renderer = BoardRenderer()
    game = new_game(0)
    rng = random.Random(0)
    while game.tiles_left > 20:
        play_random_turn(game, rng)
    tile = game.draw()
    start = time.perf_counter()
    data = renderer.your_tile(game, tile)
    print(f"your-tile picture ({tile}, 20 tiles left): {_ms(time.perf_counter() - start)}, "
          f"PNG {len(data) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
