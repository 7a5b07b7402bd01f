"""A game's language (an option chosen at creation) and the language overrides of
servers and users."""

from __future__ import annotations

from pathlib import Path

import pytest

from carca_bot import i18n
from carca_bot.service import LANGUAGES, BadInput, GameOptions, GameService, LanguagePrefs
from tests.service.helpers import ANA, HERE, Clock, raises_saying


def test_the_service_offers_the_languages_the_catalogues_speak() -> None:
    assert LANGUAGES == i18n.LANGUAGES


def test_a_game_speaks_english_unless_told_otherwise() -> None:
    assert GameOptions().language == "en"
    assert GameOptions(language="es").to_json()["language"] == "es"
    assert GameOptions.from_json(GameOptions(language="es").to_json()).language == "es"
    stored_before_languages = {k: v for k, v in GameOptions().to_json().items()
                               if k != "language"}
    assert GameOptions.from_json(stored_before_languages).language == "en"


@pytest.mark.parametrize("language", ["fr", "", "ES", "es-ES", "english"])
def test_an_unknown_game_language_is_refused(language: str) -> None:
    with raises_saying(BadInput, "unknown language .*: use en or es") as _:
        GameOptions(language=language)
    with pytest.raises(BadInput) as refused:
        GameOptions(language=language)
    assert refused.value.code == "unknown_language"
    assert refused.value.params["language"] == language


async def test_the_game_language_is_stored_with_the_game(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock)
    try:
        view = await service.create(HERE, ANA, GameOptions(seed=7, language="es"))
        assert view.options.language == "es"
    finally:
        await service.close()
    service = await GameService.open(db, clock=clock)  # as after a restart
    try:
        assert (await service.status(HERE)).options.language == "es"
    finally:
        await service.close()


async def test_overrides_are_set_read_and_cleared(service: GameService) -> None:
    assert await service.language_prefs("u1", "g1") == LanguagePrefs(user=None, guild=None)
    await service.set_language("user", "u1", "es")
    await service.set_language("guild", "g1", "en")
    await service.set_language("guild", "g2", "es")
    assert await service.language_prefs("u1", "g1") == LanguagePrefs(user="es", guild="en")
    assert await service.language_prefs("u2", "g2") == LanguagePrefs(user=None, guild="es")
    assert await service.language_prefs(None, None) == LanguagePrefs(None, None)
    assert await service.language_prefs("u1", None) == LanguagePrefs("es", None)
    await service.set_language("user", "u1", "en")  # changed
    assert (await service.language_prefs("u1", "g1")).user == "en"
    await service.set_language("user", "u1", None)  # cleared
    await service.set_language("user", "u1", None)  # clearing twice is fine
    assert await service.language_prefs("u1", "g1") == LanguagePrefs(None, "en")
    # a user id equal to a server id is still another scope
    await service.set_language("user", "g2", "en")
    assert await service.language_prefs("g2", "g2") == LanguagePrefs("en", "es")


async def test_bad_overrides_are_refused_and_change_nothing(service: GameService) -> None:
    await service.set_language("user", "u1", "es")
    with raises_saying(BadInput, "unknown language 'fr'"):
        await service.set_language("user", "u1", "fr")
    with pytest.raises(BadInput) as refused:
        await service.set_language("server", "u1", "en")  # type: ignore[arg-type]
    assert refused.value.code == "bad_scope"
    assert await service.language_prefs("u1", None) == LanguagePrefs("es", None)
