"""Which language the bot speaks, to whom (issue 14's rules, in one place).

- A private (ephemeral) reply speaks the user's own override (`/carc-language`),
  else their Discord client's language, else the server's override, else English.
- A game's public posts (lobby, turns, board, catch-up, timer notices) speak the
  game's language, whoever caused them: everyone at the table reads the same words.
- A new game speaks the language its creator chose, else the server's override,
  else the server's preferred locale, else English.

A Discord locale we do not translate (say `fr`) is skipped rather than read as
English, so a French player in a Spanish server gets the server's Spanish.
"""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.i18n import DEFAULT, LANGUAGES, PSEUDO, language_of
from carca_bot.service import TurnView


@dataclass(frozen=True)
class Prefs:
    """The overrides stored for a user and a server (None: not set)."""

    user: str | None = None
    guild: str | None = None


def ours(locale: object) -> str | None:
    """Our language for a locale we translate (or the test pseudo-language), else None."""
    if locale is None:
        return None
    text = str(getattr(locale, "value", locale))
    base = text.strip().lower().replace("_", "-").split(".")[0].split("-")[0]
    if base not in (*LANGUAGES, PSEUDO):
        return None
    return language_of(text)


def private_language(interaction: object, prefs: Prefs | None) -> str:
    """What an ephemeral reply to this interaction speaks."""
    return (ours(prefs.user if prefs else None) or ours(getattr(interaction, "locale", None))
            or ours(prefs.guild if prefs else None) or DEFAULT)


def new_game_language(interaction: object, chosen: str | None, prefs: Prefs | None) -> str:
    """What a game created now will speak."""
    return (ours(chosen) or ours(prefs.guild if prefs else None)
            or ours(getattr(interaction, "guild_locale", None)) or DEFAULT)


def game_language(view: TurnView) -> str:
    """The language of a game's public posts (`GameOptions.language`)."""
    return ours(view.options.language) or DEFAULT
