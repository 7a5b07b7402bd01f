"""Divisions over seasons: each season every division is its own event; between seasons
the best of a division go up and the worst go down.

Decisions where the issue is silent:
- moves are worked out on the final standings with withdrawn players put last (so they
  are the first relegated); then players leaving the league are taken out and new
  players join the lowest division;
- the top division has nobody to promote and the bottom one nobody to relegate, so
  divisions keep their sizes (apart from leavers and newcomers).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from carca_bot.league.event import Event
from carca_bot.league.model import EventConfig, LeagueError

Division = tuple[str, ...]  # players, in final standings order (best first)


def next_season(finals: Sequence[Sequence[str]], moves: int, *,
                leaving: Collection[str] = (),
                joining: Sequence[str] = ()) -> tuple[Division, ...]:
    """Next season's divisions (top first) from this season's final standings.

    `moves` players go up from each division but the top, as many go down from each
    but the bottom. Players listed in more than one division are refused.
    """
    seen = [p for d in finals for p in d]
    if len(seen) != len(set(seen)):
        raise LeagueError("twice", "a player is in two divisions")
    if moves < 0 or any(2 * moves > len(d) for d in finals[1:-1]) or any(
            moves > len(d) for d in finals):
        raise LeagueError("bad_moves", "a division cannot promote and relegate more "
                          "players than it has")
    new: list[list[str]] = [[] for _ in finals]
    for i, division in enumerate(finals):
        players = list(division)
        up = players[:moves] if i > 0 else []
        down = players[len(players) - moves:] if i < len(finals) - 1 and moves else []
        stay = [p for p in players if p not in up and p not in down]
        new[i - 1 if i else 0] += up
        new[i] += stay
        if down:
            new[i + 1] += down
    gone = set(leaving)
    fresh = [p for p in joining if p not in seen]
    out = [[p for p in d if p not in gone] for d in new]
    if out:
        out[-1] += fresh
    return tuple(tuple(d) for d in out)


def season_events(divisions: Sequence[Sequence[tuple[str, str]]],
                  config: EventConfig) -> tuple[Event, ...]:
    """One event per division, its players seeded in the order given ((player, name) pairs)."""
    events = []
    for division in divisions:
        event = Event(config)
        for i, (player, name) in enumerate(division):
            event = event.sign_up(player, name, seed=float(len(division) - i))
        events.append(event)
    return tuple(events)


def final_order(event: Event) -> Division:
    """A finished division's players best first, withdrawn players last."""
    if not event.finished:
        raise LeagueError("not_finished", "the division has not finished")
    rows = event.standings()
    return tuple([r.player for r in rows if not r.withdrawn]
                 + [r.player for r in rows if r.withdrawn])
