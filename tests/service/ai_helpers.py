"""AIs for the service tests: the real process pool, and in-process ones that record
what they were given, answer late, or fail."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from carca_bot.ai.players import DEFAULT_BUDGET, Budget, plan_turn
from carca_bot.ai.pool import Position
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Move


@dataclass
class Asked:
    """One call to the AI, as the worker would see it."""

    level: str
    tile: str | None
    seed: int
    seconds: float | None
    position: Position
    phase: Phase
    abbey_choice: bool  # the player could still place their abbey instead of drawing
    next_tile: str | None  # the tile the seat's draw gives (the test's copy knows the seed)


@dataclass
class Recording:
    """Plans in this process with the real levels, from exactly what a worker gets (the
    game rebuilt from its `Position`), and keeps every question."""

    asked: list[Asked] = field(default_factory=list)
    gate: asyncio.Event | None = None  # when set up, every answer waits for it
    fail: bool = False
    answers: list[tuple[Move, ...]] = field(default_factory=list)

    async def think(self, game: Game, level: str, tile: str | None, seed: int,
                    budget: Budget = DEFAULT_BUDGET) -> tuple[Move, ...]:
        position = Position.of(game)
        current = game.current
        tile_phase = game.phase is Phase.TILE
        self.asked.append(Asked(level, tile, seed, budget.seconds, position, game.phase,
                                tile_phase and bool(game.hand[current].get("abbey", 0))
                                and bool(game.abbey_squares()),
                                game.draw() if tile_phase else None))
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the AI broke")
        # Only the cheap levels here: the tests play many decisions.
        cheap = level if level in ("random", "greedy") else "greedy"
        plan = plan_turn(cheap, position.game(), tile, random.Random(seed), budget)
        self.answers.append(plan)
        return plan
