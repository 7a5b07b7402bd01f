"""Errors the engine raises. A refusal is data: a reason code and its parameters.

The words for each code live in `carca_bot.words`; the engine writes no sentences.
"""

from __future__ import annotations

from typing import Any


class IllegalMove(Exception):
    """A well-formed move that the rules forbid. The game is unchanged.

    `code` names the reason (`not_your_turn`, `tile_edge_mismatch`, ...) and `params`
    holds what a sentence about it needs: players as seat numbers, squares as
    (x, y) tuples, tile ids, figure and feature names.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params
        self.names: tuple[str, ...] = ()  # the players' names, for the compat `message`

    @property
    def message(self) -> str:
        """Compat: front ends move to `carca_bot.words.refusal` (needs the player names)."""
        from carca_bot.words import refusal  # compat, see docstring

        return refusal(self, list(self.names))

    def __str__(self) -> str:
        """Compat: front ends move to `carca_bot.words.refusal`."""
        return self.message


class RecordError(ValueError):
    """A record or action that is not well-formed (wrong type, unknown name or key)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
