"""Words for what the engine and the service report as data: events, refusals, notes,
the steps of a turn and what happens next, in the language being spoken.

The engine and the service say what happened as data (`IllegalMove.code`/`params`,
`Event.reason`/`params`, `ServiceError`, `Note`); each front end turns that into
words here with `say` and `prompt`, so a translation changes the catalogues only.
"""

from carca_bot.words.english import detail, event, refusal, square
from carca_bot.words.service import feature_label, say
from carca_bot.words.turns import MUST_WORDS, must_now, must_words, prompt, scores, situation, step

__all__ = ["MUST_WORDS", "detail", "event", "feature_label", "must_now", "must_words", "prompt",
           "refusal", "say", "scores", "situation", "square", "step"]
