"""Refusals as data: a `code` and the `params` a sentence about it needs.

The service writes no sentences: front ends say a refusal with `carca_bot.words.say`.
"""

from __future__ import annotations

import re
from typing import Any

from carca_bot.engine.errors import IllegalMove

_CODE = re.compile(r"[a-z][a-z0-9_]*")
# The code of a refusal built from a sentence: only front ends build those (their own
# refusals, already in the user's language); no service module does (a test checks).
SAID = "said"


class ServiceError(Exception):
    """A command the service refused; nothing changed (except for SavedNotShown).

    Built from a code (`NotNow("must_place")`) with keyword params. A front end may
    still raise one from a sentence of its own: code `said`, params `{"text": ...}`.
    """

    engine = False  # whether `code` is an engine refusal code (IllegalMoveError)

    def __init__(self, code: str = "refused", /, **params: Any) -> None:
        if not _CODE.fullmatch(code):
            code, params = SAID, {"text": code}
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params
        self.names: tuple[str, ...] = ()  # the players, for engine refusals' words

    def __str__(self) -> str:
        """For logs only: the code and its parameters (players see `words.say`)."""
        params = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({params})" if params else self.code


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
    """The rules forbid the move: the engine's refusal code and params, as they are."""

    engine = True

    @classmethod
    def of(cls, exc: IllegalMove) -> IllegalMoveError:
        err = cls(exc.code, **exc.params)
        err.names = exc.names
        return err


class BadInput(ServiceError):
    """The command or record is malformed (bad rotation, unknown option, broken JSON)."""


class Unavailable(ServiceError):
    """The database could not be used just now (busy too long, disk full); nothing changed."""


class LimitReached(NotAllowed):
    """The user or the server holds as much as `Limits` allows: the code names the
    limit (`games_per_user`, ...), `count` what is held and `limit` the most allowed."""


class SavedNotShown(ServiceError):
    """The command WAS stored, but its result could not be shown; it must not be repeated.

    Its public post, if it owes one, is kept for `pending_posts`.
    """
