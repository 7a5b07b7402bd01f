"""What the groups of `Store` methods share: the plumbing `Store` gives them, the two
writes both a game's change and an accepted take-back make, and JSON as stored.

`Store` (store.py) is one class made of groups of methods, a module each: game_reads,
game_extras, clocks, prefs, results, events (all built on `StoreMethods`), and
privacy and processes. `StoreMethods` names what `Store` provides (`_db`,
`_transaction`, `_rows`), so each module type-checks on its own and none imports
store.py; every public method of every group is still a `Store` method, run again
when PostgreSQL could not serialize it (store.py applies `retry.retried` to them all).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from carca_bot.store.driver import Connection, Database
from carca_bot.store.errors import Conflict
from carca_bot.store.rows import PublicChange

# Columns a caller may change along with a version bump.
CHANGEABLE = frozenset({"status", "pending", "deadline", "outcome", "host_id", "clock",
                        "alarm"})
JSON_COLUMNS = frozenset({"pending", "options", "clock"})


def dumps(value: object) -> str:
    """JSON as the store writes it: compact, and text as it is (not escaped to ASCII)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class StoreMethods:
    """The base of each group of `Store` methods (`Store` provides the three below)."""

    _db: Database

    def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        raise NotImplementedError

    @staticmethod
    async def _bump(db: Connection, game_id: int, version: int, now: float,
                    changes: Mapping[str, Any], by: int = 1) -> None:
        unknown = set(changes) - CHANGEABLE
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        names = sorted(changes)
        values = [dumps(changes[n]) if n in JSON_COLUMNS and changes[n] is not None
                  else changes[n] for n in names]
        sets = "".join(f", {n} = ?" for n in names)
        cursor = await db.execute(
            f"UPDATE games SET version = version + ?, updated_at = ?{sets} "
            "WHERE id = ? AND version = ?", (by, now, *values, game_id, version))
        if cursor.rowcount != 1:
            raise Conflict(f"game {game_id} is no longer at version {version}")

    @staticmethod
    async def _insert_public(db: Connection, game_id: int, version: int,
                             public: PublicChange, now: float) -> None:
        await db.execute(
            "INSERT INTO public_events (game_id, version, moves_before, at, lines) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, version, public.moves_before, now, dumps(list(public.lines))))
