"""The application layer every front end shares: games in channels, turns, records, timers.

It knows nothing of Discord: users and channels are opaque strings, results are
plain dataclasses, refusals are `ServiceError`s with a message for players.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from carca_bot import store
from carca_bot.service.errors import (
    BadInput,
    ChannelBusy,
    GameMovedOn,
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
from carca_bot.service.lobby import LobbyOps
from carca_bot.service.model import (
    DEFAULT_LIMITS,
    MUST_WORDS,
    Choices,
    GameOptions,
    GameSummary,
    Limits,
    SeatView,
    TimerReport,
    TurnOrder,
    TurnView,
    User,
    Where,
)
from carca_bot.service.play import PlayOps
from carca_bot.service.posts import CatchUp, PendingPost, PostOps
from carca_bot.store import Store
from carca_bot.store.rows import GameRow  # front ends read rows through the service


class GameService(LobbyOps, PlayOps, InfoOps, PostOps):
    """All operations; one instance per process and database file."""

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float] = time.time,
                   synchronous: str = "FULL", limits: Limits = DEFAULT_LIMITS) -> GameService:
        return cls(await Store.open(path, synchronous=synchronous), clock, limits)

    async def close(self) -> None:
        self._workers.close()
        await self.store.close()


UNAVAILABLE = ("the game could not be saved just now (the database is busy or full); nothing "
               "was changed, so please try again in a moment")


def _refusing_when_unavailable(operation: Callable[..., Awaitable[Any]]
                               ) -> Callable[..., Awaitable[Any]]:
    """A database that is locked too long or full is a refusal players can read, not a crash."""
    @functools.wraps(operation)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await operation(*args, **kwargs)
        except store.Unavailable as exc:
            raise Unavailable(UNAVAILABLE) from exc
    return wrapper


for _name, _operation in inspect.getmembers(GameService, inspect.iscoroutinefunction):
    if not _name.startswith("_") and _name not in ("open", "close"):
        setattr(GameService, _name, _refusing_when_unavailable(_operation))


__all__ = [
    "MUST_WORDS",
    "BadInput",
    "CatchUp",
    "ChannelBusy",
    "Choices",
    "FeatureLabel",
    "GameMovedOn",
    "GameOptions",
    "GameRow",
    "GameService",
    "GameSummary",
    "IllegalMoveError",
    "LimitReached",
    "Limits",
    "NoGameHere",
    "NotAllowed",
    "NotInGame",
    "NotNow",
    "NotYourTurn",
    "PendingPost",
    "SavedNotShown",
    "SeatView",
    "ServiceError",
    "TimerReport",
    "TurnOrder",
    "TurnView",
    "Unavailable",
    "User",
    "Where",
]
