"""Reading what players type: squares, rotations, expansion lists. Refusals say how to fix it."""

from __future__ import annotations

import re

from carca_bot.bot.words.refused import Refused
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.rules import expansion_named
from carca_bot.i18n import Domain

_T = Domain("bot")
_ = _T.gettext

_SQUARE = re.compile(r"^\s*\(?\s*(-?\d{1,4})\s*[, ]\s*(-?\d{1,4})\s*\)?")
MAX_TEXT = 100  # longest free-text option we read
# The words players type instead of a square, accepted in every language we speak, so a
# Spanish player may type what their description shows and still be understood anywhere.
SKIP_WORDS = frozenset({"skip", "saltar"})
RETURN_WORDS = frozenset({"return", "recuperar"})


def is_skip(text: str) -> bool:
    return text.strip().lower() in SKIP_WORDS


def is_return(text: str) -> bool:
    return text.strip().lower() in RETURN_WORDS


def square(text: str) -> tuple[int, int]:
    """'3,-2' (also '3 -2' or '(3, -2)', and a label after it) -> (3, -2)."""
    match = _SQUARE.match(text[:MAX_TEXT])
    if match is None:
        raise Refused(_("'{text}' is not a square: write it as x,y (for example 2,-1)").format(
            text=text[:MAX_TEXT]))
    return int(match.group(1)), int(match.group(2))


def square_and_name(text: str) -> tuple[int, int, str]:
    """'1,-1 C' -> (1, -1, 'C'): a square and a feature name on it."""
    x, y = square(text)
    rest = _SQUARE.sub("", text[:MAX_TEXT], count=1).strip().split()
    if not rest:
        raise Refused(_("say which feature at {square}: for example '{square} C'").format(
            square=f"{x},{y}"))
    return x, y, rest[0]


def feature(text: str) -> str:
    """'nl' or 'NL  (field)' (an autocomplete label) -> 'NL': a feature's short code."""
    word = text.strip().split()[0] if text.strip() else ""
    if not word or len(word) > 3:
        raise Refused(_("'{text}' is not a feature: use N, E, S, W, NL…WR, I1, I2, C or G"
                         ).format(text=text[:MAX_TEXT]))
    return word.upper()


KINDS = ("city", "road", "field", "monastery", "shrine", "abbey", "garden")


def feature_kind(text: str) -> str | None:
    """'N city' (an autocomplete value) -> 'city'; None when no kind was given."""
    words = text.strip().lower().split()
    return words[1] if len(words) > 1 and words[1] in KINDS else None


def expansions(text: str | None) -> frozenset[str]:
    """'river, abbot' -> frozenset; 'all' means every expansion; empty means none. A word
    is an expansion's code or one of its record's aliases (`rules.expansion_named`:
    'inns', 'Traders & Builders', 'tb')."""
    if not text:
        return frozenset()
    words = [w.strip() for w in re.split(r"[,+;]", text[:MAX_TEXT * 2]) if w.strip()]
    if [w.lower() for w in words] == ["all"]:
        return frozenset(EXPANSIONS)
    if [w.lower() for w in words] == ["none"]:
        return frozenset()
    chosen = set()
    for word in words:
        name = expansion_named(word)
        if name is None:
            raise Refused(_("unknown expansion '{word}': choose from {expansions} "
                             "(comma-separated), or 'all'").format(
                word=word.lower(), expansions=", ".join(EXPANSIONS)))
        chosen.add(name)
    return frozenset(chosen)
