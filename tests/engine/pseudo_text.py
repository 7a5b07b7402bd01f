"""English left outside the pseudo-language's marks, when marked sentences nest.

A sentence built from other sentences ("cannot place the token: {reason}") comes out
as ⟦... ⟦...⟧⟧ in the pseudo-language; `carca_bot.i18n.pseudo.untranslated` pairs an
opening mark with the first closing one, so it would read the tail of the outer
sentence as unmarked. Marked spans are removed innermost first, then the rest checked.
"""

from __future__ import annotations

import re

from carca_bot.i18n.pseudo import CLOSE, OPEN, untranslated

_INNERMOST = re.compile(re.escape(OPEN) + f"[^{OPEN}{CLOSE}]*" + re.escape(CLOSE))


def english_left(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The English words in `text` that no catalogue string covers (data in `allowed`)."""
    while True:
        text, found = _INNERMOST.subn(" ", text)
        if not found:
            return untranslated(text, allowed)
