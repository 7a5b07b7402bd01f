"""A pseudo-language for tests: every translated string comes out visibly marked.

A test speaks `PSEUDO` and drives a message path; any English that reaches the player
without going through a catalogue is then plain ASCII outside the ⟦ ⟧ marks, which a
test can find (`untranslated`). Placeholders (`{name}`, `%(n)d`), markdown and Discord
markup are kept as they are so the output still formats.
"""

from __future__ import annotations

import gettext
import re

PSEUDO = "qps"
OPEN, CLOSE = "⟦", "⟧"
_ACCENTED = str.maketrans("aeiouyAEIOUYcnCN", "áéíóúýÁÉÍÓÚÝçñÇÑ")
# Kept verbatim: format fields, %-fields, <...> Discord markup, `code`, and URLs.
_KEEP = re.compile(r"\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z]|<[^<>]*>|`[^`]*`|https?://\S+")
# Two ASCII letters in a row that the pseudo-language would have changed.
_PLAIN_WORD = re.compile(r"[A-Za-z]{2,}")
_INNERMOST = re.compile(re.escape(OPEN) + "[^" + OPEN + CLOSE + "]*" + re.escape(CLOSE))


def pseudo(message: str) -> str:
    """'Place {tile} here' -> '⟦Plácé {tile} héré⟧'."""
    if not message:
        return message
    out: list[str] = []
    last = 0
    for kept in _KEEP.finditer(message):
        out.append(message[last:kept.start()].translate(_ACCENTED))
        out.append(kept.group())
        last = kept.end()
    out.append(message[last:].translate(_ACCENTED))
    return OPEN + "".join(out) + CLOSE


class PseudoTranslations(gettext.NullTranslations):
    """The pseudo-language as a gettext catalogue (English plural rule)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


def untranslated(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """English words in `text` outside the pseudo-language's marks.

    `allowed` holds words that are data, not language (players' names, tile ids,
    figure ids): a test passes the ones its game uses. Marks nest (a translated word
    inside a translated sentence), so the innermost spans are removed until none is left.
    """
    outside = text
    while (fewer := _INNERMOST.sub(" ", outside)) != outside:
        outside = fewer
    outside = _KEEP.sub(" ", outside)
    return [w for w in _PLAIN_WORD.findall(outside) if w not in allowed]
