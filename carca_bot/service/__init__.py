"""The application layer every front end shares: games in channels, turns, records, timers.

It knows nothing of Discord: users and channels are opaque strings, results are
plain dataclasses, refusals are `ServiceError`s with a message for players.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from carca_bot.service.errors import (
    BadInput,
    ChannelBusy,
    GameMovedOn,
    IllegalMoveError,
    NoGameHere,
    NotAllowed,
    NotInGame,
    NotNow,
    NotYourTurn,
    ServiceError,
)
from carca_bot.service.info import InfoOps
from carca_bot.service.lobby import LobbyOps
from carca_bot.service.model import (
    MUST_WORDS,
    Choices,
    GameOptions,
    GameSummary,
    SeatView,
    TimerReport,
    TurnOrder,
    TurnView,
    User,
    Where,
)
from carca_bot.service.play import PlayOps
from carca_bot.store import Store


class GameService(LobbyOps, PlayOps, InfoOps):
    """All operations; one instance per process and database file."""

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float] = time.time,
                   synchronous: str = "FULL") -> GameService:
        return cls(await Store.open(path, synchronous=synchronous), clock)

    async def close(self) -> None:
        await self.store.close()


__all__ = [
    "MUST_WORDS",
    "BadInput",
    "ChannelBusy",
    "Choices",
    "GameMovedOn",
    "GameOptions",
    "GameService",
    "GameSummary",
    "IllegalMoveError",
    "NoGameHere",
    "NotAllowed",
    "NotInGame",
    "NotNow",
    "NotYourTurn",
    "SeatView",
    "ServiceError",
    "TimerReport",
    "TurnOrder",
    "TurnView",
    "User",
    "Where",
]
