"""Bounds on what a game record, or one stored action, may carry.

A record comes from anyone (an import, a file on the command line, a damaged
database), so everything in it is bounded before the engine sees it. Each
limit is far above anything a real game produces and far below what would
cost the server noticeable memory or time; a record past a limit is refused
as malformed (exit status 2), never half-replayed.

Measured (random games; tests/engine/test_record_limits.py keeps checking it): a
finished 6-player game with every expansion (Inns & Cathedrals and Traders &
Builders included: 152 land tiles) has about 160 actions and, with 32-character
names of two-byte letters, is about 24 kB of compact JSON, 93 kB when indented by
8 with non-ASCII escaped. MAX_RECORD_BYTES leaves a margin of over 40 times for a
compact record and over 10 for the most bloated layout.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from carca_bot.engine.catalogue import catalogue
from carca_bot.engine.rules import BY_NAME

MAX_RECORD_BYTES = 1_000_000
"""A record's whole text, in UTF-8 bytes. CPython takes up to a few hundred
milliseconds to parse a megabyte of the worst JSON (a hundred thousand keys or
strings), so the bound is what keeps a hostile import short."""

MAX_DEPTH = 16
"""JSON nesting: a record needs 5 (record, actions, action, token, square); the
ignored `expect` of a test file a few more. Deeper text is refused before parsing,
so no parser or checker ever recurses far."""

MAX_CONTAINERS = 10_000
"""Lists and objects in a record: an action has at most 5 (itself, two squares, a
deploy, a token), and even a game at the action bound of `max_actions` (about 800)
stays under it. Parsing a couple of megabytes of empty lists took a second."""

MAX_INT_DIGITS = 20
"""Digits of a JSON integer (a seed up to 2**63 - 1 has 19). Turning a long run of
digits into an int is quadratic in Python, and over 4300 digits it raises."""

MAX_FLOAT_CHARS = 40
"""Characters of a JSON number with a fraction or exponent; no record field holds one."""

MAX_PLAYERS = 6
"""Seats at the table, as the rules allow."""

MAX_NAME_CHARS = 32
"""A player's name, in characters after NFC normalisation: Discord's own limit for a
display name, and what fits on the score board and in a message line."""

MAX_WORD_CHARS = 8
"""Any other text in an action (a feature name such as `NW` or `I1`): the longest
real one has 2 characters; a longer one can only be a mistake or an attack."""

MAX_COORD = 200
"""Largest |x| or |y| of a square: the whole supply, every expansion, is 152 tiles,
so even a straight line of every tile stays inside."""

MAX_TUNNEL_PAIRS = 10
"""Largest `rules.tunnel_pairs`: the supply has 12 tunnel entrances, so nobody can
ever place more than 6 pairs; each pair costs a list entry per player, and 10**8
of them took gigabytes."""

MAX_SEED = 2**63 - 1
"""A seed is a whole number from 0 to this (a signed 64-bit integer, as databases store)."""

ZERO_WIDTH_JOINER = "\u200d"
# Control, format (bidi overrides and isolates, zero-width), surrogate, private-use,
# unassigned, and line/paragraph separators: none belongs in a one-line name.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_BREAKS = "\n\r\t\v\f\u2028\u2029\x85"


def one_line(text: str) -> str:
    """User text as one plain line (NFC), for showing it anywhere: breaks become spaces,
    characters that hide or reorder text are dropped, runs of spaces become one."""
    kept = []
    for char in unicodedata.normalize("NFC", str(text)):
        if unicodedata.category(char) not in _HIDDEN:
            kept.append(char)
        elif char in _BREAKS:
            kept.append(" ")
    return re.sub(r" {2,}", " ", "".join(kept)).strip()


def text_problem(text: str) -> str | None:
    """Why `text` may not appear in a record (None if it may).

    Refused: lone surrogates (they cannot be written as UTF-8), control characters,
    and format characters such as a right-to-left override or a zero-width space,
    which reorder or hide what is shown. A zero-width joiner is kept inside an emoji
    sequence (a family, a profession), its one common honest use.
    """
    for i, char in enumerate(text):
        category = unicodedata.category(char)
        if category == "Cs":
            return "contains a lone surrogate (not valid Unicode text)"
        if category in ("Cc", "Zl", "Zp"):
            return f"contains the control character U+{ord(char):04X}"
        if category in ("Cf", "Co") and not _joins_emoji(text, i):
            return f"contains the invisible character U+{ord(char):04X}"
    return None


def _joins_emoji(text: str, i: int) -> bool:
    if text[i] != ZERO_WIDTH_JOINER or i == 0 or i == len(text) - 1:
        return False
    before = unicodedata.category(text[i - 1])
    return before in ("So", "Sk", "Mn") and unicodedata.category(text[i + 1]) == "So"


def name_problem(name: str) -> str | None:
    """Why `name` may not be a player's name (None if it may)."""
    if len(name) > 4 * MAX_NAME_CHARS:  # normalising can shorten it, but not by this much
        return f"is longer than {MAX_NAME_CHARS} characters"
    length = len(unicodedata.normalize("NFC", name))
    if not 1 <= length <= MAX_NAME_CHARS:
        return f"must have 1 to {MAX_NAME_CHARS} characters"
    problem = text_problem(name)
    if problem is not None:
        return problem
    if name != name.strip():
        return "starts or ends with a space"
    return None


def name_key(name: str) -> str:
    """What two names must not share: the same letters up to case and Unicode form."""
    return unicodedata.normalize("NFKC", name).casefold()


def safe_name(wanted: str, taken: Iterable[str] = ()) -> str:
    """A name that passes `name_problem` and differs from `taken`, made from `wanted`.

    For names the bot does not choose (display names): hidden and control characters
    go, runs of spaces become one, the rest is clipped, and a number tells apart two
    people of the same name.
    """
    kept = "".join(char for i, char in enumerate(wanted)
                   if text_problem(char) is None or _joins_emoji(wanted, i))
    base = " ".join(unicodedata.normalize("NFC", kept).split())
    if text_problem(base) is not None:  # composing may have moved a joiner off its emoji
        base = " ".join(base.replace(ZERO_WIDTH_JOINER, "").split())
    base = _clip(base, MAX_NAME_CHARS) or "Player"
    keys = {name_key(name) for name in taken}
    name, number = base, 2
    while name_key(name) in keys:
        suffix = f" {number}"
        name, number = _clip(base, MAX_NAME_CHARS - len(suffix)) + suffix, number + 1
    return name


def _clip(text: str, length: int) -> str:
    """`text` cut to `length` characters, with no space or loose joiner left at the end."""
    return text[:length].rstrip().rstrip(ZERO_WIDTH_JOINER).rstrip()


def max_actions(players: int, expansions: frozenset[str]) -> int:
    """The most actions a game with this setup can have.

    Every tile turn or discard uses a tile of the supply (less the start tile); each
    player places or skips each piece dealt (an abbey) once at most; after a turn each
    figure that waits for its owner (a wagon) is decided on at most once; one `end`.
    """
    tiles = sum(t.count for t in catalogue().tiles.values()
                if t.expansion == "base" or t.expansion in expansions) - 1
    records = [BY_NAME[name] for name in sorted(expansions) if name in BY_NAME]
    turns = tiles + players * sum(p.per_player for r in records for p in r.pieces)
    wagons = players * sum(f.per_player for r in records for f in r.figures if f.lifted)
    return turns * (1 + wagons) + 1
