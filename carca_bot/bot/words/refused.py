"""The bot's own refusals: input it could not read, a button of another game, ...

They are worded by the bot, in the language of the reply, when raised; refusals the
service decides are `ServiceError`s (data, worded by `carca_bot.words`).
"""

from __future__ import annotations


class Refused(Exception):
    """A command the bot refused before the service changed anything; `text` is what
    the player reads."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text
