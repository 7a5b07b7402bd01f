"""Durable games: SQLite tables for games, seats and the carca-record/1 action log."""

from carca_bot.store.league_rows import (
    ClockTurnRow,
    EventGameRow,
    EventNewsRow,
    EventRow,
    RatingHistoryRow,
    RatingRow,
    ReminderRow,
    ResultRow,
)
from carca_bot.store.processes import Counts, Lease, PostAttempt
from carca_bot.store.rows import (
    LIVE_STATUSES,
    ActionRow,
    GameData,
    GameRow,
    HintRow,
    PublicChange,
    PublicEvents,
    SeatRow,
    TakebackRow,
    Unposted,
    Usage,
)
from carca_bot.store.schema import SCHEMA_VERSION, SchemaTooNew
from carca_bot.store.store import (
    ChannelBusy,
    Conflict,
    Store,
    StoreError,
    Unavailable,
    UsageCheck,
)

__all__ = [
    "LIVE_STATUSES",
    "SCHEMA_VERSION",
    "ActionRow",
    "ChannelBusy",
    "ClockTurnRow",
    "Conflict",
    "Counts",
    "EventGameRow",
    "EventNewsRow",
    "EventRow",
    "GameData",
    "GameRow",
    "HintRow",
    "Lease",
    "PostAttempt",
    "PublicChange",
    "PublicEvents",
    "RatingHistoryRow",
    "RatingRow",
    "ReminderRow",
    "ResultRow",
    "SchemaTooNew",
    "SeatRow",
    "Store",
    "StoreError",
    "TakebackRow",
    "Unavailable",
    "Unposted",
    "Usage",
    "UsageCheck",
]
