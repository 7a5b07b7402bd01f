"""Rows of the community-play tables (ratings, events): plain values, no behaviour."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat of a game that ended: its final score and place."""

    game_id: int
    seat: int
    guild_id: str
    user_id: str | None
    name: str
    score: int
    played_rank: int  # the place as the game ended (1 = first)
    rank: int  # the place as it counts (an organiser may have amended it)
    players: int
    ending: str  # carca_bot.league.Ending: normal, forfeit
    rated: bool
    left_game: bool  # resigned, expelled or removed before the end
    ended_at: float
    expansions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RatingHistoryRow:
    guild_id: str
    game_id: int
    user_id: str
    pool: str
    ended_at: float
    rank: int
    players: int
    before_mu: float
    before_sigma: float
    after_mu: float
    after_sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: str
    pool: str
    user_id: str
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class EventRow:
    id: int
    guild_id: str
    channel_id: str
    title: str
    status: str  # signup, running, finished, cancelled
    data: dict[str, Any]  # carca-event/1
    options: dict[str, Any]  # the game options its games get
    version: int
    created_by: str
    created_at: float
    updated_at: float
    series: str  # a league's name: its divisions and seasons share it ("" for none)
    season: int
    division: int
    reminded_round: int  # the last round whose players were reminded of its deadline
    announced_round: int  # the last round whose end was announced
    digest_at: float  # when the organisers last had a digest of late games


@dataclass(frozen=True, slots=True)
class EventGameRow:
    event_id: int
    match_id: str
    game_index: int
    game_id: int


@dataclass(frozen=True, slots=True)
class EventNewsRow:
    """An announcement an event owes its channel (`Store.add_event_news`)."""

    id: int
    event_id: int
    kind: str
    data: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class ReminderRow:
    """A clock game's reminder to a player for one decision (`seq`): owed until told."""

    user_id: str
    game_id: int
    seq: int
    due_at: float
    deadline: float
    told_at: float | None


@dataclass(frozen=True, slots=True)
class ClockTurnRow:
    """One of a player's running clock games: their seat, its clock state and deadline."""

    game_id: int
    channel_id: str
    seat: int
    clock: dict[str, Any] | None
    deadline: float | None
    guild_id: str = ""
