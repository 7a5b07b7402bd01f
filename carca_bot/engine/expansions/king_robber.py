"""King & Robber (docs/RULES.md 2.9): titles for the largest completed city and road.

Hooks: `turn_end` (the title moves to whoever completes a larger city or road
than any before) and `final` (each title scores 1 per completed city or road).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.events import Event

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.state import GameState, ScorerState


def titles(scorer: ScorerState, completed: list[int]) -> None:
    """The King and the Robber go to whoever completes the largest city or road so far."""
    game, outcome = scorer.game, scorer.outcome
    for kind, title in ((Kind.CITY, "king"), (Kind.ROAD, "robber")):
        sizes = [len(f.tiles) for r in completed
                 if (f := scorer.board.features[r]) is not None and f.kind is kind]
        best = outcome.best.get(kind, game.best_city if kind is Kind.CITY else game.best_road)
        if not sizes or max(sizes) <= best:
            continue
        outcome.best[kind] = max(sizes)
        if not game.setup.has("king_robber"):
            continue
        outcome.titles[title] = scorer.turn.player
        outcome.events.append(Event(title, (scorer.turn.player,), feature=title,
                                 reason="title_taken",
                                 params={"title": title, "kind": kind.value,
                                         "size": max(sizes)}))


def final(game: GameState, roots: list[int], outcome: Outcome) -> None:
    """Each title holder scores 1 per completed city (King) or road (Robber)."""
    for title, kind in (("king", Kind.CITY), ("robber", Kind.ROAD)):
        holder = game.king if title == "king" else game.robber
        if holder is not None:
            count = game.completed[kind]
            outcome.award((holder,), count, title, "title_final",
                          {"title": title, "kind": kind.value, "count": count}, (), final=True)
