"""Refusals, each with a message a player understands; front ends post `message` as is."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carca_bot.service.model import TurnView


class ServiceError(Exception):
    """A command the service refused; nothing changed (except for SavedNotShown)."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else "refused"


class NoGameHere(ServiceError):
    """No game in this channel (or not the one named)."""


class NotInGame(ServiceError):
    """The user has no seat in the game."""


class NotYourTurn(ServiceError):
    """Someone else must act now."""


class NotAllowed(ServiceError):
    """The user may not do this (not the host, game not started, full, ...)."""


class ChannelBusy(NotAllowed):
    """The channel already has a lobby or a running game."""


class NotNow(ServiceError):
    """The command does not fit this point of the turn (a figure before the tile, ...)."""


class IllegalMoveError(ServiceError):
    """The rules forbid the move; the message is the engine's explanation."""


class BadInput(ServiceError):
    """The command or record is malformed (bad rotation, unknown option, broken JSON)."""


class Unavailable(ServiceError):
    """The database could not be used just now (busy too long, disk full); nothing changed."""


class LimitReached(NotAllowed):
    """The user or the server holds as much as `Limits` allows; the message says which
    limit and what to do."""


class SavedNotShown(ServiceError):
    """The command WAS stored, but its result could not be shown; it must not be repeated.

    Its public post, if it owes one, is kept for `pending_posts`.
    """


class GameMovedOn(ServiceError):
    """Another command changed the game first; `view` is the game as it is now."""

    def __init__(self, message: str, view: TurnView) -> None:
        super().__init__(message)
        self.view = view
