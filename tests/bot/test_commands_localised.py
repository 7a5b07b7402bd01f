"""Slash commands in Spanish: what discord.py syncs carries valid Spanish names,
descriptions and choices for es-ES and es-419, built offline through the translator.
The words are written once, where each command is defined: the catalogue gets them from
the commands themselves (`translator.extract`)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from discord import Locale

from carca_bot.bot.translator import (
    RECORD_CHOICES,
    CommandTranslator,
    command_words,
    valid_name,
)
from carca_bot.bot.words.features import legend
from carca_bot.bot.words.names import figure_name, on_tile_figures
from carca_bot.bot.words.rules import rules_text
from carca_bot.bot.words.text import MAX_CONTENT
from carca_bot.i18n import catalogues, speaking
from tests.bot.conftest import BotHarness

SPANISH = ("es-ES", "es-419")


async def payload(h: BotHarness) -> list[dict[str, Any]]:
    tree = h.bot.tree
    return [await c.get_translated_payload(tree, CommandTranslator())
            for c in tree.get_commands()]


def walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every command, subcommand and option in a payload."""
    found = []
    for item in items:
        found.append(item)
        found.extend(walk(item.get("options", [])))
    return found


def names_at_each_level(items: list[dict[str, Any]], locale: str) -> list[list[str]]:
    levels = [[i.get("name_localizations", {}).get(locale, i["name"]) for i in items]]
    for item in items:
        levels.extend(names_at_each_level(item.get("options", []), locale))
    return levels


async def test_every_name_description_and_choice_is_spanish(harness: BotHarness) -> None:
    sent = await payload(harness)
    assert [c["name"] for c in sent] == ["carc", "carc-language", "carc-history", "carc-tiles",
                                          "carc-event", "carc-league", "carc-profile",
                                          "carc-leaderboard", "carc-versus", "carc-ai",
                                          "carc-hint", "carc-takeback", "carc-away",
                                          "carc-notify", "carc-admin", "carc-privacy"]
    assert len(sent[0]["options"]) == 25  # Discord's most: new commands go beside `/carc`
    for item in walk(sent):
        for locale in SPANISH:
            name = item["name_localizations"][locale]
            assert valid_name(name), (item["name"], name)
            description = item["description_localizations"][locale]
            assert 1 <= len(description) <= 100, description  # Discord's bounds
        for choice in item.get("choices", []):
            if re.search(r"[A-Za-z]", choice["name"]):
                assert set(choice["name_localizations"]) >= set(SPANISH), choice
                assert all(len(n) <= 100 for n in choice["name_localizations"].values())
    # Names stay distinct among their siblings once translated.
    for locale in SPANISH:
        for level in names_at_each_level(sent, locale):
            assert len(level) == len(set(level)), level


async def test_spanish_client_sees_carc_colocar(harness: BotHarness) -> None:
    sent = await payload(harness)
    carc = sent[0]
    sub = {o["name"]: o for o in carc["options"]}
    place = sub["place"]
    assert place["name_localizations"]["es-ES"] == "colocar"
    assert place["name_localizations"]["es-419"] == "colocar"
    assert place["description_localizations"]["es-ES"].startswith("Coloca tu loseta")
    options = {o["name"]: o["name_localizations"]["es-ES"] for o in place["options"]}
    assert options == {"square": "casilla", "rotation": "giro", "figure": "figura",
                       "on": "sobre", "confirm": "confirmar"}
    figures = {c["value"]: c["name_localizations"]["es-419"]
               for c in next(o for o in place["options"] if o["name"] == "figure")["choices"]}
    # one choice per figure the figure table puts on a tile's feature, said by its record
    assert tuple(figures) == on_tile_figures()
    assert figures.items() >= {"follower": "Seguidor", "abbot": "Abad", "mayor": "Alcalde",
                               "wagon": "Carromato", "large": "Seguidor mayor"}.items()
    with speaking("es"):
        assert figures == {code: figure_name(code) for code in on_tile_figures()}
    assert sub["wagon"]["name_localizations"]["es-ES"] == "carromato"
    assert sent[1]["name_localizations"]["es-ES"] == "carc-idioma"
    # Other locales keep the English: only languages we translate are sent.
    assert set(place["name_localizations"]) == set(SPANISH)


async def test_every_word_of_the_tree_is_in_the_catalogue(harness: BotHarness) -> None:
    """A new option, or a reworded description, reaches the catalogue from the command
    itself (no second list to keep), with the context the translator asks with; the
    catalogue check then fails until it is translated."""
    used: set[tuple[str, str]] = set()
    for item in walk(await payload(harness)):
        kind = "command" if item["type"] == 1 else "option"  # 1: a command or subcommand
        used.add((f"{kind} name", item["name"]))
        used.add((f"{kind} description", item["description"]))
        used.update(("choice", c["name"]) for c in item.get("choices", [])
                    if re.search(r"[A-Za-z]", c["name"]))
    # An option's "…" default description has no words: nothing to translate. A figure's
    # name is its record's, said from the records' catalogue (not extracted here).
    used = {u for u in used if re.search(r"[A-Za-z]", u[1])}
    records = {("choice", title) for title in RECORD_CHOICES}
    assert records & used and used - records == set(await command_words())
    extracted = {(m.context, m.id) for m in catalogues.template("bot") if m.id}
    assert used - records <= extracted, sorted(used - records - extracted)
    said = {m.id for m in catalogues.template("words") if m.id}
    assert {title for _choice, title in records} <= said


async def test_the_translator_refuses_names_discord_would_refuse(harness: BotHarness) -> None:
    assert valid_name("colocar") and valid_name("carc-idioma") and valid_name("horas_turno")
    assert not valid_name("Colocar") and not valid_name("dos palabras")
    assert not valid_name("x" * 33) and not valid_name("")
    # Only the locales we translate, and only the places a command word goes.
    assert await CommandTranslator().translate(
        _locale_str("place"), Locale.french, _context_for_name()) is None
    assert await CommandTranslator().translate(
        _locale_str("place"), Locale.spain_spanish, _context_for_name()) is None


async def test_the_spanish_help_names_real_spanish_commands(harness: BotHarness) -> None:
    """Every `/carc …` the Spanish rules page mentions is a command a Spanish client has."""
    sent = await payload(harness)
    spanish = {o["name_localizations"]["es-ES"] for o in sent[0]["options"]}
    with speaking("es"):
        page = rules_text()
    mentioned = set(re.findall(r"`/carc ([a-z]+)", page))
    assert mentioned and mentioned <= spanish, mentioned - spanish
    assert "`/carc-idioma`" in page


def _locale_str(text: str) -> Any:
    from discord.app_commands import locale_str

    return locale_str(text)


def _context_for_name() -> Any:
    from discord.app_commands import TranslationContext, TranslationContextLocation

    return TranslationContext(TranslationContextLocation.other, None)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_rules_page_fits_one_message(language: str) -> None:
    """`/carc rules` is one message: cut at Discord's 2000 characters it would lose its
    end (Spanish runs longer than English)."""
    with speaking(language):
        page = f"{rules_text()}{legend()}"
    assert len(page) <= MAX_CONTENT, len(page)
