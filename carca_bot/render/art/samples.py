"""Regenerate `docs/sample-board.png` and `docs/sample-your-tile.png` from a seeded game.

Run from a checkout: `python -m carca_bot.render.art.samples [--seed N] [--out DIR]`. The game
is random play with every expansion, stopped when about 100 tiles are down, so the samples
show a late, crowded board; the same seed always gives the same files.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.board import BoardRenderer

PLAYERS = ("Ana", "Bartholomew", "Chen", "Dee")
SEED = 4
TILES = 100


def sample_game(seed: int = SEED, tiles: int = TILES) -> Game:
    """All expansions, four players, random play until `tiles` tiles are on the board and a
    player is about to draw."""
    game = Game(Setup(PLAYERS, frozenset(EXPANSIONS), seed=seed))
    rng = random.Random(seed)
    while not game.finished and (len(game.board.tiles) < tiles or game.phase is not Phase.TILE):
        play_random_turn(game, rng)
    return game


def write_samples(out_dir: Path, seed: int = SEED) -> list[Path]:
    game = sample_game(seed)
    renderer = BoardRenderer()
    board = out_dir / "sample-board.png"
    yours = out_dir / "sample-your-tile.png"
    out_dir.mkdir(parents=True, exist_ok=True)
    board.write_bytes(renderer.render(game))
    yours.write_bytes(renderer.your_tile(game, game.draw()))
    return [board, yours]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[3] / "docs")
    args = parser.parse_args()
    for path in write_samples(args.out, args.seed):
        print(path)


if __name__ == "__main__":
    main()
