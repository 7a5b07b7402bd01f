"""Ratings and organised play, as pure functions: no I/O, no clock, no Discord.

`ratings` rates finished games with openskill; `event` runs a tournament or league
(sign-ups, pairings, results, rulings, deadlines) as immutable values; `standings`
ranks the players by a chain of tie-breaks and writes CSV; `divisions` moves players
between divisions at the end of a season. The service stores what these return.
"""

from carca_bot.league.codec import event_from_json, event_to_json
from carca_bot.league.divisions import final_order, next_season, season_events
from carca_bot.league.event import Event, LateGame
from carca_bot.league.model import (
    Entrant,
    EventConfig,
    Format,
    LeagueError,
    Match,
    Result,
    Round,
    Ruling,
    Source,
    Tiebreak,
    Why,
)
from carca_bot.league.ratings import (
    PROVISIONAL_GAMES,
    Ending,
    HistoryRow,
    LeaderRow,
    Pool,
    RatedGame,
    Rating,
    RatingBook,
    ranks_from_scores,
)
from carca_bot.league.standings import StandingRow, to_csv

__all__ = [
    "PROVISIONAL_GAMES", "Ending", "Entrant", "Event", "EventConfig", "Format", "HistoryRow",
    "LateGame", "LeaderRow", "LeagueError", "Match", "Pool", "RatedGame", "Rating",
    "RatingBook", "Result", "Round", "Ruling", "Source", "StandingRow", "Tiebreak", "Why",
    "event_from_json", "event_to_json", "final_order", "next_season", "ranks_from_scores",
    "season_events", "to_csv",
]
