"""Slash commands in the player's language: `/carc colocar` in a Spanish Discord client.

discord.py asks a `Translator` for every command name, option name, description and
choice, for every Discord locale, when it builds the payload it syncs. We answer
from the bot catalogue, with the English as the key and a gettext context saying
what the string is (a command name is not the same word as in a sentence):
"command name", "command description", "option name", "option description" and
"choice". The words are listed in `command_words` so the catalogue tool finds them.
"""

from __future__ import annotations

import re

from discord import Locale
from discord.app_commands import (
    TranslationContextLocation,
    TranslationContextTypes,
    Translator,
    locale_str,
)

from carca_bot.bot.command_words import WORDS
from carca_bot.i18n import Domain

_T = Domain("bot")
# Discord's rule for command and option names: lowercase letters of any script,
# digits, '-' and '_', 1 to 32 of them.
VALID_NAME = re.compile(r"^[-_\w]{1,32}$")
CONTEXTS = {
    TranslationContextLocation.command_name: "command name",
    TranslationContextLocation.group_name: "command name",
    TranslationContextLocation.command_description: "command description",
    TranslationContextLocation.group_description: "command description",
    TranslationContextLocation.parameter_name: "option name",
    TranslationContextLocation.parameter_description: "option description",
    TranslationContextLocation.choice_name: "choice",
}
# The Discord locales we translate to, and the catalogue each reads.
LOCALES = {Locale.spain_spanish: "es", Locale.latin_american_spanish: "es"}


def valid_name(name: str) -> bool:
    return bool(VALID_NAME.match(name)) and name == name.lower()


class CommandTranslator(Translator):
    """The bot catalogue as discord.py's translator (no I/O: the catalogues are files
    read once and cached by `carca_bot.i18n`)."""

    async def translate(self, string: locale_str, locale: Locale,
                        context: TranslationContextTypes) -> str | None:
        language = LOCALES.get(locale)
        kind = CONTEXTS.get(context.location)
        if language is None or kind is None or (kind, string.message) not in WORDS:
            return None
        said = _T.translations(language).pgettext(kind, string.message)
        if kind in ("command name", "option name") and not valid_name(said):
            return None  # Discord would refuse the whole sync; English is better than none
        return said
