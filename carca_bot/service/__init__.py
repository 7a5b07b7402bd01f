"""The application layer every front end shares: games in channels, turns, records, timers.

It knows nothing of Discord: users and channels are opaque strings, results are
plain dataclasses, refusals are `ServiceError`s: a code and its parameters. It writes
no words for players: front ends say its data with `carca_bot.words.say`.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from carca_bot import store
from carca_bot.league.standings import StandingRow as Standing  # a row of an event's table
from carca_bot.league.standings import head_to_head
from carca_bot.service.ai_play import AI_LEVELS, Thinks
from carca_bot.service.ai_seats import AiOps, Hint
from carca_bot.service.clock_ops import ClockOps, Vacation
from carca_bot.service.clocks import ClockRules, QuietHours
from carca_bot.service.errors import (
    BadInput,
    ChannelBusy,
    IllegalMoveError,
    LimitReached,
    NoGameHere,
    NotAllowed,
    NotInGame,
    NotNow,
    NotYourTurn,
    SavedNotShown,
    ServiceError,
    Unavailable,
)
from carca_bot.service.info import InfoOps
from carca_bot.service.labels import FeatureLabel
from carca_bot.service.league_ops import (
    Actor,
    EventInfo,
    EventNotice,
    LeagueOps,
    Pairing,
    event_config,
)
from carca_bot.service.messages import NOTIFY_MODES, MessageOps, NotifyPref
from carca_bot.service.model import (
    DEFAULT_LIMITS,
    LANGUAGES,
    Choices,
    ExpelVote,
    GameMovedOn,
    GameOptions,
    GameSummary,
    LanguagePrefs,
    Limits,
    Moment,
    Note,
    Played,
    SeatView,
    Shown,
    TimerReport,
    Told,
    TurnOrder,
    TurnView,
    User,
    Where,
    played,
)
from carca_bot.service.play import PlayOps
from carca_bot.service.posts import CatchUp, PendingPost, PostOps
from carca_bot.service.prefs import PrefsOps
from carca_bot.service.privacy import (
    Erased,
    ErasePlan,
    EventStep,
    GameStep,
    MessageRef,
    PrivacyOps,
    PrivacySettings,
    SettingError,
)
from carca_bot.service.rating_reads import (
    GameRating,
    HeadToHead,
    LeaderEntry,
    LeaderPage,
    Meeting,
    Opponent,
    PoolRating,
    Profile,
    RatingPoint,
    RatingReads,
    SeatRating,
)
from carca_bot.service.ratings_ops import RatingChange, VoidReport
from carca_bot.service.shown import ShownOps
from carca_bot.service.takeback import TakebackOps, TakebackView, VoteMessage
from carca_bot.store import Store
from carca_bot.store.rows import GameRow  # front ends read rows through the service


class GameService(PrivacyOps, AiOps, TakebackOps, ClockOps, PlayOps, InfoOps, PostOps,
                  PrefsOps, RatingReads, LeagueOps, MessageOps, ShownOps):
    """All operations; one instance per process and database file."""

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float] = time.time,
                   synchronous: str = "FULL", limits: Limits = DEFAULT_LIMITS,
                   thinker: Thinks | None = None) -> GameService:
        """`thinker`: the AI (`carca_bot.workers.Thinker`), for AI seats, hints, and to
        play for players out of time; without one, one is started for the first AI seat
        or hint, and players out of time get the plainest move until then."""
        service = cls(await Store.open(path, synchronous=synchronous), clock, limits)
        service.thinker = thinker
        return service

    async def close(self) -> None:
        await self._stop_ai()
        self._workers.close()
        await self.store.close()


def _refusing_when_unavailable(operation: Callable[..., Awaitable[Any]]
                               ) -> Callable[..., Awaitable[Any]]:
    """A database that is locked too long or full is a refusal players can read, not a crash."""
    @functools.wraps(operation)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await operation(*args, **kwargs)
        except store.Unavailable as exc:
            raise Unavailable("unavailable") from exc
    return wrapper


for _name, _operation in inspect.getmembers(GameService, inspect.iscoroutinefunction):
    if not _name.startswith("_") and _name not in ("open", "close"):
        setattr(GameService, _name, _refusing_when_unavailable(_operation))


__all__ = [
    "AI_LEVELS",
    "LANGUAGES",
    "NOTIFY_MODES",
    "Actor",
    "BadInput",
    "CatchUp",
    "ChannelBusy",
    "Choices",
    "ClockRules",
    "ErasePlan",
    "Erased",
    "EventInfo",
    "EventNotice",
    "EventStep",
    "ExpelVote",
    "FeatureLabel",
    "GameMovedOn",
    "GameOptions",
    "GameRating",
    "GameRow",
    "GameService",
    "GameStep",
    "GameSummary",
    "HeadToHead",
    "Hint",
    "IllegalMoveError",
    "LanguagePrefs",
    "LeaderEntry",
    "LeaderPage",
    "LimitReached",
    "Limits",
    "Meeting",
    "MessageRef",
    "Moment",
    "NoGameHere",
    "NotAllowed",
    "NotInGame",
    "NotNow",
    "NotYourTurn",
    "Note",
    "NotifyPref",
    "Opponent",
    "Pairing",
    "PendingPost",
    "Played",
    "PoolRating",
    "PrivacySettings",
    "Profile",
    "QuietHours",
    "RatingChange",
    "RatingPoint",
    "SavedNotShown",
    "SeatRating",
    "SeatView",
    "ServiceError",
    "SettingError",
    "Shown",
    "Standing",
    "TakebackView",
    "TimerReport",
    "Told",
    "TurnOrder",
    "TurnView",
    "Unavailable",
    "User",
    "Vacation",
    "VoidReport",
    "VoteMessage",
    "Where",
    "event_config",
    "head_to_head",
    "played",
]
