"""Tournaments and leagues run by the service, put together from their parts:

- `event_model.py`: the values commands take and give (`Actor`, `EventInfo`,
  `Pairing`, `EventNotice`, `PairingsView`, `event_config`);
- `events.py`: an event's commands: organisers, sign-ups, pairing (off the event
  loop), games, results and rulings (after the end too);
- `event_timers.py`: `check_events`, forfeits at the deadline, repeated time-outs;
- `seasons.py`: leagues of divisions over seasons;
- `reminders.py`: clock reminders, one message a day per player, none dropped.
"""

from __future__ import annotations

from carca_bot.service.event_model import (
    TIEBREAKS,
    Actor,
    EventInfo,
    EventNotice,
    PairedMatch,
    Pairing,
    PairingsView,
    event_config,
    league_refusal,
)
from carca_bot.service.event_timers import EventTimerOps
from carca_bot.service.seasons import Division, Season, SeasonOps, SeasonRound


class LeagueOps(SeasonOps, EventTimerOps):
    """Every event and league command."""


__all__ = ["TIEBREAKS", "Actor", "Division", "EventInfo", "EventNotice", "LeagueOps",
           "PairedMatch", "Pairing", "PairingsView", "Season", "SeasonRound", "event_config",
           "league_refusal"]
