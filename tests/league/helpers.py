"""Playing events in tests: a fixed strength per player decides every game."""

from __future__ import annotations

from collections.abc import Mapping

from carca_bot.league.event import Event
from carca_bot.league.model import EventConfig, Match, Result

DAY = 24 * 3600.0


def strengths(players: str) -> dict[str, int]:
    """The earlier the letter, the stronger: A scores 100, B 93, C 86..."""
    return {p: 100 - 7 * i for i, p in enumerate(players)}


def entered(config: EventConfig, players: str) -> Event:
    """An event with these players signed up, seeded in the order given."""
    event = Event(config)
    for i, p in enumerate(players):
        event = event.sign_up(p, f"Player {p}", seed=float(len(players) - i))
    return event


def game(match: Match, scores: Mapping[str, int]) -> Result:
    """The next game of `match`, in its seat order, with these scores."""
    seats = match.seats_for_game(len(match.games))
    return Result(tuple((p, scores[p]) for p in seats))


def play_round(event: Event, scores: Mapping[str, int],
               skip: frozenset[str] = frozenset()) -> Event:
    """Report every open match (every game of a series) with `scores`, except `skip`."""
    while True:
        todo = [m for m in event.open_matches() if m.id not in skip]
        if not todo:
            return event
        for m in todo:
            event = event.report(m.id, game(m, scores))
