"""Every expansion's record, in one table; the figure table gathered from them.

Each module of `engine/expansions/` that declares an `EXPANSION` is an expansion:
the table is made from them, so adding one adds no line here. `REGISTERED`
lists the records in the order records and menus list expansions (their
`position`); `ORDER` the same records in the order their hooks run within one
hook point (their `runs`: Cult challenges before barn scoring, titles after
wagons are lifted). Everything that lists expansions or figures reads these tables: the
record format, `Setup`, the catalogue, the figure table, and the tables of the
other layers (names, parsing, pictures, the AI's values). A record that
contradicts another (a name, an alias, a tile prefix or a figure given twice)
stops the engine at import, as does a table elsewhere that misses a figure
(`require_figures`).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping

from carca_bot.engine import expansions
from carca_bot.engine.expansions.base import BASE
from carca_bot.engine.figure_types import FigureType, Piece
from carca_bot.engine.state import Expansion


def _records() -> list[Expansion]:
    """The `EXPANSION` of every module in `engine/expansions/` (imported here)."""
    found: list[Expansion] = []
    for module in sorted({m.name for m in pkgutil.iter_modules(expansions.__path__)}):
        record = getattr(importlib.import_module(f"{expansions.__name__}.{module}"),
                         "EXPANSION", None)
        if record is not None:
            if not isinstance(record, Expansion):
                raise ValueError(f"expansions/{module}.py: EXPANSION is not an Expansion")
            found.append(record)
    return found


REGISTERED: tuple[Expansion, ...] = tuple(sorted(_records(), key=lambda e: e.position))
ORDER: tuple[Expansion, ...] = tuple(sorted(REGISTERED, key=lambda e: e.runs))
EXPANSIONS: tuple[str, ...] = tuple(e.name for e in REGISTERED)
BY_NAME: dict[str, Expansion] = {e.name: e for e in (BASE, *REGISTERED)}
FIGURE_TABLE: tuple[FigureType, ...] = tuple(f for e in (BASE, *REGISTERED) for f in e.figures)
FIGURE_BY_NAME: dict[str, FigureType] = {f.name: f for f in FIGURE_TABLE}
PIECES: tuple[Piece, ...] = tuple(p for e in REGISTERED for p in e.pieces)


def _check() -> dict[str, str]:
    """Refuse records that contradict each other; the table of every word for an expansion."""
    for key in ("name", "position", "runs"):
        values = [getattr(e, key) for e in REGISTERED]
        if len(set(values)) != len(values):
            raise ValueError(f"two expansions have the same {key}")
    words: dict[str, str] = {}
    for record in REGISTERED:
        for word in (record.name, *record.aliases):
            if words.setdefault(word, record.name) != record.name:
                raise ValueError(f"{word!r} names both {words[word]} and {record.name}")
    prefixes = [e.tile_prefix for e in REGISTERED if e.tile_prefix]
    if len(set(prefixes)) != len(prefixes):
        raise ValueError("two expansions claim the same tile prefix")
    names = [f.name for f in FIGURE_TABLE] + [p.name for p in PIECES]
    if len(set(names)) != len(names):
        raise ValueError("a figure or piece name is given twice")
    for record in (BASE, *REGISTERED):
        for figure in record.figures:
            if figure.expansion != record.name:
                raise ValueError(f"the figure {figure.name} says it comes with "
                                 f"{figure.expansion}, but {record.name} lists it")
            if figure.corner and record.deploy is None:
                raise ValueError(f"{record.name} has a corner figure and no deploy hook")
    return words


WORDS: dict[str, str] = _check()  # a name or alias -> the expansion's name


def expansion_named(word: str) -> str | None:
    """The expansion a player's word names (its name or an alias), or None."""
    return WORDS.get(word.strip().lower().replace(" ", "_").replace("&", "and"))


def expansion_of(tile_id: str) -> str:
    """The expansion whose tiles' ids start like `tile_id` ("base": none does)."""
    for record in REGISTERED:
        if record.tile_prefix and tile_id.startswith(record.tile_prefix):
            return record.name
    return "base"


def active(expansions: frozenset[str]) -> tuple[Expansion, ...]:
    """The records of the expansions in play, in hook order."""
    return tuple(rules for rules in ORDER if rules.name in expansions)


def require_figures(table: Mapping[str, object], what: str) -> None:
    """Stop at start-up when a table keyed by figure names misses one (or has a stranger).

    For the tables other layers keep by figure (pictures, say): a new figure must not
    be silently drawn as nothing or valued at 0.
    """
    missing = [f.name for f in FIGURE_TABLE if f.name not in table]
    if missing:
        raise ValueError(f"{what} has no entry for the figure {missing[0]!r}")
    unknown = sorted(set(table) - set(FIGURE_BY_NAME))
    if unknown:
        raise ValueError(f"{what} has an entry for {unknown[0]!r}, which is no figure")
