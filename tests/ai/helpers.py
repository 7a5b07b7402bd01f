"""Games for the AI tests: expansion mixes and a referee that asks one step at a time."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from carca_bot.ai import reply
from carca_bot.ai.players import Budget, choose
from carca_bot.ai.turns import Plan, play, undo
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw
from carca_bot.engine.rules import EXPANSIONS
from carca_bot.engine.setup import Setup

ALL = frozenset(EXPANSIONS)  # every expansion the engine has a record for
MIXES = {
    "base": frozenset(),
    "river": frozenset({"river"}),
    "abbot": frozenset({"abbot"}),
    "abbey_mayor": frozenset({"abbey_mayor"}),
    "king_robber": frozenset({"king_robber"}),
    "cult": frozenset({"cult"}),
    "tunnel": frozenset({"tunnel"}),
    "inns_cathedrals": frozenset({"inns_cathedrals"}),
    "all": ALL,
}
QUICK = Budget(seconds=None, iterations=3)  # the strong level, machine-independent and short


def play_by_steps(setup: Setup, levels: tuple[str, ...], seed: int,
                  budget: Budget = QUICK, stop_after: int | None = None) -> tuple[Game, int]:
    """Play with `choose`, one step at a time, checking every step is legal first.

    Returns the game and how many steps were chosen.
    """
    game = Game(setup)
    rngs = [random.Random(seed * 31 + seat) for seat in range(len(levels))]
    tile: str | None = None
    steps = 0
    while not game.finished and (stop_after is None or steps < stop_after):
        seat = game.deciding
        assert seat is not None
        move = choose(levels[seat], game, tile, rngs[seat], budget)
        legal = game.legal_moves(tile if game.phase is Phase.TILE else None)
        assert move in legal, (move, legal)
        steps += 1
        if isinstance(move, Draw):
            tile = game.draw()
            continue
        game.push(move)
        if game.phase is not Phase.TILE:
            continue
        tile = None
    return game, steps


def value_after_answers(game: Game, plan: Plan, seeds: list[int]) -> float:
    """What `plan` is worth to its player once the next player has answered each
    sampled tile (`reply.answered`); `game` is left as it was."""
    player = game.deciding
    assert player is not None
    count = play(game, plan)
    try:
        return reply.answered(game, player, seeds)
    finally:
        undo(game, count)


def bench_script(file: str, name: str) -> ModuleType:
    """A script of bench/ loaded as a module under `name` (the process pool pickles its
    functions by module name), with bench/ first on the path, as running it puts it."""
    path = Path(__file__).resolve().parents[2] / "bench" / file
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
