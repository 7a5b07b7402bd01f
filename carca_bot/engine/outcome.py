"""What a scoring changes, worked out apart from the game, and the one place that applies it.

Scoring (the turn's, the final one, an abbot's recall, the expansions' scoring
hooks) reads the game and fills an `Outcome`; only `apply` writes it to the game.
Taking it back is the scoring move's undo frame (`Game._frame`), which saves
every part of the game an outcome can touch (`Scored`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from carca_bot.engine.events import Event
from carca_bot.engine.phase import Figure, PendingWagon
from carca_bot.engine.shapes import Kind


class Scored(Protocol):
    """The parts of a game an outcome changes (the undo frame of a scoring move saves them)."""

    scores: list[int]
    events: list[Event]
    figures: list[Figure]
    hand: list[dict[str, int]]
    completed: Counter[Kind]
    slots: dict[str, object]


@dataclass(slots=True)
class Outcome:
    """Points per player, figures going home, wagons lifted, events, expansions' state.

    `home` figures go back to their owner's hand; `lifted` wagons leave the board to
    wait for their owner (None: no feature was scored; Abbey & Mayor's `turn_end`
    hook queues them). `slots`: the new state of the expansions whose hooks changed
    it (the titles, goods taken), by name.
    """

    points: list[int]
    events: list[Event] = field(default_factory=list)
    home: list[Figure] = field(default_factory=list)
    lifted: list[tuple[Figure, PendingWagon]] | None = None
    completed: list[Kind] = field(default_factory=list)  # one entry per completed feature
    slots: dict[str, object] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: int) -> Outcome:
        return cls([0] * players)

    def award(self, players: tuple[int, ...], points: int, feature: str, reason: str,
              params: dict[str, Any], tiles: tuple[tuple[int, int], ...], *,
              pennants: int = 0, complete: bool = False, final: bool = False) -> None:
        """The majority owners score and everyone is told why (nobody scores: still told)."""
        for p in players:
            self.points[p] += points
        self.events.append(Event("score", players, points if players else 0, feature, tiles,
                                 reason, params, pennants, complete=complete, final=final))

    def off(self) -> list[Figure]:
        """Every figure this outcome takes off the board."""
        return [*self.home, *(fig for fig, _ in self.lifted or ())]

    def standing(self, figures: list[Figure]) -> list[Figure]:
        """`figures` without those this outcome takes off the board."""
        off = self.off()
        if not off:
            return figures
        return [f for f in figures if not any(f is g for g in off)]


def apply(game: Scored, outcome: Outcome) -> None:
    """Make `outcome` so: the only place a scoring changes the game."""
    scores = game.scores
    for player, points in enumerate(outcome.points):
        if points:
            scores[player] += points
    game.events.extend(outcome.events)
    off = outcome.off()
    if off:
        game.figures[:] = [f for f in game.figures if not any(f is g for g in off)]
    for fig in outcome.home:
        game.hand[fig.player][fig.kind] += 1
    if outcome.completed:  # a new counter: undo frames keep the old one
        completed = Counter(game.completed)
        for kind in outcome.completed:
            completed[kind] += 1
        game.completed = completed
    if outcome.slots:  # a new dict: copies and undo frames keep the old one
        game.slots = {**game.slots, **outcome.slots}
