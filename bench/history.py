"""Time and size of the end-of-game pictures, the animated replay and the HTML replay,
for a full 2-player base game and a full 6-player game with every expansion.

The games are played by a greedy player (best immediate points for itself, less its
rivals', over a sample of placements), so they score like real games; `--images DIR`
also writes the pictures shown in the README.
Run: python bench/history.py [--images docs/images]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.render.chart import render_score_chart
from carca_bot.render.pile import render_pile
from carca_bot.render.replay import Replay, render_replay
from carca_bot.render.summary import render_summary
from carca_bot.replay_html import build_replay_html
from carca_bot.service.history import pile, public_history, tally

T = TypeVar("T")
NAMES = ("Ana", "Bartholomew", "Chen", "Dolores", "Eun-ji", "Farid")


def _gain(game: Game, player: int) -> int:
    """The player's score lead over the best rival (what a greedy player maximises)."""
    rivals = [s for p, s in enumerate(game.scores) if p != player]
    return game.scores[player] - (max(rivals) if rivals else 0)


def greedy_turn(game: Game, rng: random.Random) -> None:
    """Place the drawn tile and a figure where the turn gains most; else play at random."""
    player = game.deciding
    if game.phase is not Phase.TILE or player is None or game.can_place_abbey(player):
        play_random_turn(game, rng)
        return
    tile = game.draw()
    spots = game.legal_placements(tile)
    if not spots:
        game.discard(player, tile)
        return
    best: tuple[float, int, str, str] | None = None  # value, spot, figure, on
    for index in rng.sample(range(len(spots)), min(30, len(spots))):
        spot = spots[index]
        game.place_tile(player, tile, spot.pos, spot.rot)
        options = [("", ""), *((d.figure, d.on) for d in game.legal_deployments())]
        for figure, on in options:
            depth = len(game.frames)
            if figure:
                game.deploy(player, figure, on)
            game.end_turn(player)
            held = game.hand[player].get("follower", 0)
            value = _gain(game, player) + 0.3 * bool(figure) * min(held, 3) + rng.random() * 0.1
            while len(game.frames) > depth:
                game.pop()
            if best is None or value > best[0]:
                best = (value, index, figure, on)
        game.pop()
    assert best is not None
    _, index, figure, on = best
    game.place_tile(player, tile, spots[index].pos, spots[index].rot)
    if figure:
        game.deploy(player, figure, on)
    game.end_turn(player)


def play(setup: Setup, seed: int) -> Game:
    game = Game(setup)
    rng = random.Random(seed)
    while not game.finished:
        greedy_turn(game, rng)
    return game


def timed(label: str, work: Callable[[], T], size: Callable[[T], int] = len) -> T:  # type: ignore[assignment]
    started = time.perf_counter()
    result = work()
    took = time.perf_counter() - started
    print(f"  {label:<24} {took:6.2f} s {size(result) / 1024:9.0f} KiB")
    return result


def _bytes(made: Replay) -> int:
    return len(made.data)


def main() -> None:
    parser = argparse.ArgumentParser(description="Time and size of the history pictures")
    parser.add_argument("--images", type=Path, help="write the README pictures here")
    args = parser.parse_args()
    games = {
        "2 players, base game": play(Setup(NAMES[:2], frozenset(), seed=11), 3),
        "6 players, every expansion": play(Setup(NAMES, frozenset(EXPANSIONS), seed=12), 4),
    }
    for name, game in games.items():
        measure(name, game, args.images)


def measure(name: str, game: Game, images: Path | None) -> None:
    print(f"{name}: {len(game.history)} actions, scores {game.scores}")
    history = timed("public history", lambda: public_history(game), lambda _h: 0)
    card = tally(history)
    summary = timed("summary card (PNG)", lambda: render_summary(card))
    timed("score chart (PNG)", lambda: render_score_chart(card.names, card.curves,
                                                          final=card.final))
    webp = timed("replay (WebP, 10 MB)", lambda: render_replay(game, fmt="webp"), _bytes)
    gif = timed("replay (GIF, 10 MB)", lambda: render_replay(game, fmt="gif"), _bytes)
    timed("HTML replay", lambda: build_replay_html(game))
    for label, made in (("WebP", webp), ("GIF", gif)):
        print(f"    {label}: {made.frames} frames, {made.actions_per_frame} action(s) "
              f"each, {made.tile} px tiles, {made.size[0]}x{made.size[1]}")
    if images is not None and "6 players" in name:
        out = images
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary-card.png").write_bytes(summary)
        (out / "score-chart.png").write_bytes(
            render_score_chart(card.names, card.curves, final=card.final))
        (out / "replay.webp").write_bytes(webp.data)
        mid = Game.replay(game.setup, game.history[: len(game.history) // 2])
        (out / "tiles-left.png").write_bytes(render_pile(pile(mid), tunnel=True))


if __name__ == "__main__":
    main()
