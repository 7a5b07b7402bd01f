"""Slash commands in the player's language: `/carc colocar` in a Spanish Discord client.

Every command word is written once, in English, where its command is defined. discord.py
hands each one to the translator as a `locale_str` (commands are built with
`auto_locale_strings`), with where it stands: a command or option name, a description,
a choice. The translator looks it up in the bot catalogue with a gettext context saying
what the string is (a command name is not the same word as in a sentence): "command
name", "command description", "option name", "option description" and "choice".

The catalogue gets these words from the commands themselves: the catalogue tool
(`carca_bot.i18n.catalogues`) extracts them with `extract`, which asks discord.py for
each command's payload as it would sync it. So a new command or option is in the
catalogue after `catalogues update`, and `catalogues check` fails until it is translated.

A choice that is a figure's name ("Large follower") is its record's title: it is said
from the records' catalogue (`carca_bot.words.names.figure_title`) and not extracted
here, so an expansion's new figure is offered in every language with its record.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

import discord
from discord import Locale
from discord.app_commands import (
    CommandTree,
    TranslationContextLocation,
    TranslationContextTypes,
    Translator,
    locale_str,
)

from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.i18n import Domain, speaking
from carca_bot.words.names import figure_title

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
WORDS = re.compile(r"[A-Za-z]")  # a string with no letters ("0°", "…") is not translated
# Choices named by the records: a figure's title (its source text) -> the figure.
RECORD_CHOICES = {f.title: f.name for f in FIGURE_TABLE}


def valid_name(name: str) -> bool:
    return bool(VALID_NAME.match(name)) and name == name.lower()


@functools.cache
def _known(language: str) -> frozenset[str]:
    """The catalogue's keys ("context\\x04message" for a message with a context); read
    once, as the catalogues are."""
    catalog = getattr(_T.translations(language), "_catalog", None)
    return frozenset(k for k in catalog if isinstance(k, str)) if catalog else frozenset()


class CommandTranslator(Translator):
    """The bot catalogue as discord.py's translator (no I/O: the catalogues are files
    read once and cached by `carca_bot.i18n`)."""

    async def translate(self, string: locale_str, locale: Locale,
                        context: TranslationContextTypes) -> str | None:
        language = LOCALES.get(locale)
        kind = CONTEXTS.get(context.location)
        message = string.message
        if language is None or kind is None or not WORDS.search(message):
            return None
        if kind == "choice" and message in RECORD_CHOICES:
            with speaking(language):
                return figure_title(RECORD_CHOICES[message])
        if f"{kind}\x04{message}" not in _known(language):
            return None  # not in the catalogue: Discord shows the English
        said = _T.translations(language).pgettext(kind, message)
        if kind in ("command name", "option name") and not valid_name(said):
            return None  # Discord would refuse the whole sync; English is better than none
        return said


class _Recorder(Translator):
    """Notes every string discord.py asks to translate, with its context."""

    def __init__(self) -> None:
        self.words: dict[tuple[str, str], None] = {}

    async def translate(self, string: locale_str, locale: Locale,
                        context: TranslationContextTypes) -> str | None:
        kind = CONTEXTS.get(context.location)
        if kind == "choice" and string.message in RECORD_CHOICES:
            return None  # the records' catalogue says it
        if kind is not None and WORDS.search(string.message):
            self.words[(kind, string.message)] = None
        return None


def command_tree() -> CommandTree[discord.Client]:
    """A tree holding every command, for payloads built offline (no connection)."""
    from carca_bot.bot.commands import TOP_LEVEL

    tree: CommandTree[discord.Client] = CommandTree(discord.Client(
        intents=discord.Intents.default()))
    for command in TOP_LEVEL:
        tree.add_command(command)
    return tree


async def payloads(tree: CommandTree[Any], translator: Translator) -> list[dict[str, Any]]:
    """What discord.py syncs for each top-level command, translated by `translator`."""
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]


async def command_words() -> list[tuple[str, str]]:
    """Every (context, English) the translator is asked for, in the order of the commands."""
    recorder = _Recorder()
    await payloads(command_tree(), recorder)
    return list(recorder.words)


def extract(fileobj: BinaryIO, keywords: object, comment_tags: object,
            options: object) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extraction method for the command words (`carca_bot.i18n.catalogues`
    runs it on `bot/commands/__init__.py`, where the command list is): each word as
    a `pgettext(context, message)` call would give it. Run on a thread of its own, so
    it works whether or not the caller is inside an event loop."""
    with ThreadPoolExecutor(max_workers=1) as one:
        words = one.submit(lambda: asyncio.run(command_words())).result()
    for context, message in words:
        yield 1, "pgettext", (context, message), []
