"""Errors the engine raises; every message is written for the player who caused it."""


class IllegalMove(Exception):
    """A well-formed action that the rules forbid. The game is unchanged."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else "illegal move"


class RecordError(ValueError):
    """A record or action that is not well-formed (wrong type, unknown name or key)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
