"""King & Robber (docs/RULES.md 2.9): titles for the largest completed city and road.

Hooks: `turn_end` (the title moves to whoever completes a larger city or road
than any before) and `final` (each title scores 1 per completed city or road).
Its slot is the `Titles`: who holds each, and the largest city and road so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.events import Event
from carca_bot.engine.msgids import N_
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion, HasSlots

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.state import GameState, ScorerState, SetupView

NAME = "king_robber"


@dataclass(frozen=True, slots=True)
class Titles:
    king: int | None = None
    robber: int | None = None
    best_city: int = 0  # tiles of the largest completed city so far
    best_road: int = 0


NO_TITLES = Titles()


def titles_of(game: HasSlots) -> Titles:
    state = game.slots.get(NAME, NO_TITLES)
    assert isinstance(state, Titles)
    return state


def titles(scorer: ScorerState, completed: list[int]) -> None:
    """The King and the Robber go to whoever completes the largest city or road so far."""
    outcome, player = scorer.outcome, scorer.turn.player
    state = titles_of(scorer.game)
    king, robber, best_city, best_road = state.king, state.robber, state.best_city, \
        state.best_road
    for kind, title in ((Kind.CITY, "king"), (Kind.ROAD, "robber")):
        sizes = [len(f.tiles) for r in completed
                 if (f := scorer.board.features[r]) is not None and f.kind is kind]
        best = best_city if kind is Kind.CITY else best_road
        if not sizes or max(sizes) <= best:
            continue
        if kind is Kind.CITY:
            king, best_city = player, max(sizes)
        else:
            robber, best_road = player, max(sizes)
        outcome.events.append(Event(title, (player,), feature=title, reason="title_taken",
                                    params={"title": title, "kind": kind.value,
                                            "size": max(sizes)}))
    new = Titles(king, robber, best_city, best_road)
    if new != state:
        outcome.slots[NAME] = new


def final(game: GameState, roots: list[int], outcome: Outcome) -> None:
    """Each title holder scores 1 per completed city (King) or road (Robber)."""
    state = titles_of(game)
    for title, kind in (("king", Kind.CITY), ("robber", Kind.ROAD)):
        holder = state.king if title == "king" else state.robber
        if holder is not None:
            count = game.completed[kind]
            outcome.award((holder,), count, title, "title_final",
                          {"title": title, "kind": kind.value, "count": count}, (), final=True)


def _start(setup: SetupView) -> Titles:
    return NO_TITLES


EXPANSION = Expansion(
    NAME, N_("King & Robber"), 4, 50, aliases=("king", "robber", "king_and_robber"),
    tile_prefix="KR",
    slot=_start, turn_end=titles, final=final)
