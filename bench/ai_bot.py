"""`bench/ai.py --bot`: the strong seats played as the bot plays them when it is idle.

An arena game normally runs the strong search in the process that referees it, one
core per game. The bot instead asks its own pool of two worker processes
(`workers.Thinker`): the main search, and, while no other job wants the second worker,
a spare search of the same position whose root visits are added to the main one's
(root parallelism). This plays the strong seats through that same Thinker, so a table
measures the level a player meets on an idle bot, budget, workers and all; games run
one at a time, as the machine is the bot's, and each strong decision's iterations
(main and spare) are kept.
"""

from __future__ import annotations

import asyncio
import logging
import random
import statistics
from collections.abc import Iterator, Sequence

from carca_bot import workers
from carca_bot.ai.arena import Planner, Result, play_game
from carca_bot.ai.players import Budget
from carca_bot.ai.turns import Plan
from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from carca_bot.workers import Thinker

BotJob = tuple[tuple[str, ...], Setup, int, Budget]  # levels, setup, seed, budget


class BotSeats:
    """The strong seats of a run of games on the bot's Thinker, and what its searches
    reached."""

    def __init__(self) -> None:
        self.searched: list[tuple[int, int]] = []  # (main, spare) iterations per decision
        self.stand_ins = _StandIns()  # answers the Thinker had to make up (a random plan)

    def results(self, jobs: Sequence[BotJob]) -> Iterator[Result]:
        """Each job's game, played in turn on one Thinker (a pool of two workers, started
        for these games and stopped after them)."""
        loop = asyncio.new_event_loop()
        thinker = Thinker(processes=2)
        logger = logging.getLogger(workers.__name__)
        logger.addHandler(self.stand_ins)
        try:
            loop.run_until_complete(thinker.warm_up())
            for levels, setup, seed, budget in jobs:
                strong = {seat: self._planner(loop, thinker, budget)
                          for seat, level in enumerate(levels) if level == "strong"}
                yield play_game(setup, levels, seed, budget, planners=strong)
        finally:
            loop.run_until_complete(thinker.close())
            loop.close()
            logger.removeHandler(self.stand_ins)

    def _planner(self, loop: asyncio.AbstractEventLoop, thinker: Thinker,
                 budget: Budget) -> Planner:
        def plan(game: Game, tile: str | None, rng: random.Random) -> Plan:
            thinker.searched = (0, 0)  # a random plan given instead keeps it so
            chosen = loop.run_until_complete(
                thinker.think(game, "strong", tile, rng.getrandbits(32), budget))
            if thinker.searched[0]:  # a search, not a decision with one plan
                self.searched.append(thinker.searched)
            return chosen

        return plan

    def summary(self) -> str:
        """The median iterations per strong decision: the main search's and both's."""
        main = statistics.median(m for m, _ in self.searched)
        both = statistics.median(m + s for m, s in self.searched)
        spared = sum(1 for _, s in self.searched if s) / len(self.searched)
        return (f"strong on the bot's pool: the main search reached a median of {main:.0f} "
                f"iterations, with the spare search {both:.0f}; a spare search added to "
                f"{spared:.0%} of {len(self.searched)} decisions; "
                f"{self.stand_ins.count} random plans given for want of an answer")


class _StandIns(logging.Handler):
    """Counts the Thinker's warnings that a worker gave no answer (a random legal plan
    was played instead), so an arena cannot pass such games off as the level's."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "gave no answer" in record.msg:
            self.count += 1
