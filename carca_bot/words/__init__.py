"""English words for what the engine reports as codes: refusals and events.

The engine says what happened as data (`IllegalMove.code`/`params`,
`Event.reason`/`params`); each front end turns that into words here, so a
translation replaces this package and nothing else.
"""

from carca_bot.words.english import detail, event, refusal, square

__all__ = ["detail", "event", "refusal", "square"]
