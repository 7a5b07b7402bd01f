"""Language overrides: the language a server or a user chose for the bot to speak.

The service stores the choice and hands it back; which language a message speaks
(the user's override, their Discord locale, the server's, English) is the front
end's rule, since only the front end knows the locales.
"""

from __future__ import annotations

from typing import Literal

from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import BadInput
from carca_bot.service.model import LanguagePrefs, check_language
from carca_bot.store.store import SCOPES


class PrefsOps(ServiceCore):
    async def set_language(self, scope: Literal["guild", "user"], scope_id: str,
                           language: str | None) -> None:
        """Choose the language for a server ("guild") or a user; None clears the choice.

        BadInput("unknown_language") for a language players may not choose,
        BadInput("bad_scope") for a scope other than guild or user.
        """
        if scope not in SCOPES:
            raise BadInput("bad_scope", scope=str(scope)[:20])
        if language is not None:
            check_language(language)
        await self.store.set_language(scope, scope_id, language, self.clock())

    async def language_prefs(self, user_id: str | None, guild_id: str | None) -> LanguagePrefs:
        """The user's and the server's overrides (None where none was chosen)."""
        user, guild = await self.store.languages(user_id, guild_id)
        return LanguagePrefs(user=user, guild=guild)
