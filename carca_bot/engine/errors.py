"""Errors the engine raises. A refusal is data: a reason code and its parameters.

The words for each code live in `carca_bot.words` (`say`); the engine writes no sentences.
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
        # The players' names, set by the game that refused (seat numbers in `params`
        # index them), so a caller far from the game can still say who was meant.
        self.names: tuple[str, ...] = ()

    def __str__(self) -> str:
        """For logs only: the code and its parameters (players see `carca_bot.words.say`)."""
        params = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({params})" if params else self.code


class RecordError(ValueError):
    """A record or action that is not well-formed (wrong type, unknown name or key).

    The message is the record contract's English (what `carca-bot replay` prints).
    `code` and `params` name the refusal as data, for words in a player's language
    (`carca_bot.words`): the reading of the text (size, UTF-8, JSON, duplicate keys,
    numbers, nesting) and the record's top level have codes of their own; the other
    shape checks share `record_invalid`, whose words quote the message.
    """

    def __init__(self, message: str, index: int | None = None, *,
                 code: str = "record_invalid", **params: Any) -> None:
        super().__init__(message)
        self.index = index
        self.code = code
        self.params: dict[str, Any] = params
