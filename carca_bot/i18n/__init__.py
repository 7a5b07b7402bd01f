"""Which language a player reads, and the gettext catalogues that hold the words.

Every player-facing sentence goes through a `Domain` (one catalogue per layer that
speaks: `words`, `render`, `bot`, `local`, ...), so a translator edits `.po` files and
nothing else. The language is a context variable rather than an argument because one
bot process serves many players at once: each interaction (an asyncio task, with its
own context) says which language it speaks with `speaking(...)`, and every `Domain`
call inside it follows. Only the standard library is used at run time; Babel is the
tool that extracts and compiles the catalogues (`python -m carca_bot.i18n.catalogues`).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from carca_bot.i18n.pseudo import PSEUDO, PseudoTranslations

LANGUAGES = ("en", "es")  # what players may choose; PSEUDO is for tests only
DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
NAMES = {"en": "English", "es": "Español"}  # each language in its own words

_current: ContextVar[str] = ContextVar("carca_language", default=DEFAULT)

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "NAMES",
    "N_",
    "PSEUDO",
    "RECORDS",
    "Domain",
    "current",
    "language_of",
    "speaking",
]


def language_of(locale: str | None) -> str:
    """Our language for a Discord locale ('es-ES', 'es-419'), a POSIX one ('es_MX.UTF-8')
    or a name we offer; anything else reads English, the catalogues' source."""
    if not locale:
        return DEFAULT
    base = locale.strip().lower().replace("_", "-").split(".")[0].split("-")[0]
    if base == PSEUDO:
        return PSEUDO
    return base if base in LANGUAGES else DEFAULT


def current() -> str:
    return _current.get()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Speak `language` (any locale form) until the block ends, in this task only."""
    chosen = language_of(language)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def use_language(language: str | None) -> str:
    """Speak `language` from now on in this context (a process-wide front end's choice)."""
    chosen = language_of(language)
    _current.set(chosen)
    return chosen


def N_(message: str) -> str:
    """Mark a string for extraction where it is defined; translate it where it is shown."""
    return message


@cache
def _translations(domain: str, language: str) -> gettext.NullTranslations:
    if language == PSEUDO:
        return PseudoTranslations()
    return gettext.translation(domain, LOCALE_DIR, languages=[language], fallback=True)


class Domain:
    """One catalogue: the words of one layer, in whatever language is being spoken."""

    def __init__(self, name: str) -> None:
        self.name = name

    def translations(self, language: str | None = None) -> gettext.NullTranslations:
        return _translations(self.name, language_of(language) if language else current())

    def gettext(self, message: str) -> str:
        return self.translations().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.translations().pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.translations().npgettext(context, singular, plural, n)

    def __repr__(self) -> str:
        return f"Domain({self.name!r})"


# The expansions' records name their figures, pieces and themselves with message ids
# (`N_` in `engine/expansions/`), which the catalogue tool extracts into the "words"
# catalogue. A layer that cannot import `carca_bot.words` (pictures, the HTML replay)
# says them through this domain, so a new expansion's names arrive with its record.
RECORDS = Domain("words")
