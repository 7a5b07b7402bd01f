"""What users and servers chose: the language a server or a user overrides, and how each
user wants to hear that it is their turn (`Store` inherits these methods: `PrefRows`).
"""

from __future__ import annotations

from collections.abc import Iterable

from carca_bot.store.methods import StoreMethods

SCOPES = ("guild", "user")  # what a language override belongs to


class PrefRows(StoreMethods):
    """Mixed into `Store`: one row per choice, none for "no choice"."""

    # -- language overrides -----------------------------------------------------

    async def set_language(self, scope: str, scope_id: str, language: str | None,
                           now: float) -> None:
        """Store the language a server (`scope` "guild") or a user chose; None clears it."""
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}")
        async with self._transaction() as db:
            if language is None:
                await db.execute("DELETE FROM language_prefs WHERE scope = ? AND scope_id = ?",
                                 (scope, scope_id))
            else:
                await db.execute(
                    "INSERT INTO language_prefs (scope, scope_id, language, updated_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (scope, scope_id) DO UPDATE SET "
                    "language = excluded.language, updated_at = excluded.updated_at",
                    (scope, scope_id, language, now))

    async def languages(self, user_id: str | None, guild_id: str | None
                        ) -> tuple[str | None, str | None]:
        """The user's and the server's language overrides (None where there is none)."""
        rows = await self._rows(
            "SELECT scope, language FROM language_prefs WHERE (scope = 'user' AND scope_id = ?) "
            "OR (scope = 'guild' AND scope_id = ?)", (user_id, guild_id))
        found = {str(scope): str(language) for scope, language in rows}
        return found.get("user"), found.get("guild")

    # -- how users want to be told ------------------------------------------------

    async def set_notify(self, user_id: str, mode: str, early: bool, now: float) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO notify_prefs (user_id, mode, early, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "mode = excluded.mode, early = excluded.early, "
                "updated_at = excluded.updated_at", (user_id, mode, int(early), now))

    async def notify_prefs(self, user_ids: Iterable[str]) -> dict[str, tuple[str, bool]]:
        """(mode, early) of those of these users who chose; the others are not listed."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._rows(
            f"SELECT user_id, mode, early FROM notify_prefs WHERE user_id IN ({marks})",
            wanted)
        return {str(u): (str(m), bool(e)) for u, m, e in rows}
