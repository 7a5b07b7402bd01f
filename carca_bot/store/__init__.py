"""Durable games: SQLite tables for games, seats and the carca-record/1 action log."""

from carca_bot.store.rows import LIVE_STATUSES, ActionRow, GameData, GameRow, SeatRow
from carca_bot.store.schema import SCHEMA_VERSION, SchemaTooNew
from carca_bot.store.store import ChannelBusy, Conflict, Store, StoreError, Unavailable

__all__ = [
    "LIVE_STATUSES",
    "SCHEMA_VERSION",
    "ActionRow",
    "ChannelBusy",
    "Conflict",
    "GameData",
    "GameRow",
    "SchemaTooNew",
    "SeatRow",
    "Store",
    "StoreError",
    "Unavailable",
]
