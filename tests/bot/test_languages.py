"""Who reads which language: private replies follow the user, public posts the game,
a new game the creator's choice or the server's; `/carc-language` sets the overrides."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import cast

import pytest

from carca_bot.bot.words.languages import Prefs, game_language, new_game_language, private_language
from carca_bot.service import GameOptions, TurnView
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, CY, MANAGE_GUILD, BotHarness
from tests.bot.test_lobby import assert_public_reply, custom_ids, followups
from tests.bot.test_turns import place_of


def interaction(locale: str | None, guild_locale: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(locale=locale, guild_locale=guild_locale)


@pytest.mark.parametrize(("prefs", "locale", "spoken"), [
    (Prefs(user="es", guild="en"), "en-US", "es"),  # the user's own choice first
    (Prefs(user=None, guild="en"), "es-419", "es"),  # then their Discord app
    (Prefs(user=None, guild="es"), "fr", "es"),  # a language we lack: the server's
    (Prefs(user=None, guild="es"), "en-GB", "en"),  # English is a language we have
    (Prefs(), "de", "en"),  # nothing known: English
    (None, "es-ES", "es"),  # preferences unreadable: the app's language still counts
])
def test_private_replies(prefs: Prefs | None, locale: str, spoken: str) -> None:
    assert private_language(interaction(locale), prefs) == spoken


@pytest.mark.parametrize(("chosen", "prefs", "guild_locale", "spoken"), [
    ("en", Prefs(guild="es"), "es-ES", "en"),  # the creator's explicit choice
    (None, Prefs(user="en", guild="es"), "en-US", "es"),  # the server's override
    (None, Prefs(user="en"), "es-419", "es"),  # the server's preferred locale, not the user
    (None, Prefs(), "pt-BR", "en"),  # English otherwise
])
def test_new_games(chosen: str | None, prefs: Prefs, guild_locale: str, spoken: str) -> None:
    assert new_game_language(interaction("en-US", guild_locale), chosen, prefs) == spoken


def test_a_game_speaks_its_own_language() -> None:
    def view(options: GameOptions) -> TurnView:
        return cast(TurnView, SimpleNamespace(options=options))

    assert game_language(view(GameOptions(language="es"))) == "es"
    assert game_language(view(GameOptions())) == "en"  # also what older stored games read


async def test_private_replies_follow_the_user_public_posts_the_game(
        harness: BotHarness) -> None:
    """A Spanish player in an English game: the lobby post is English, what only she
    reads is Spanish, and an English player reads English."""
    lobby = assert_public_reply(await harness.command(ANA, "create", language="en",
                                                      _locale="es-ES"))
    assert "opened Carcassonne game #1" in lobby.content
    (rules,) = followups(await harness.command(ANA, "rules", _locale="es-ES"))
    assert rules.ephemeral and rules.content.startswith("**Carcassonne con carca-bot**")
    (rules,) = followups(await harness.command(BEN, "rules"))
    assert rules.content.startswith("**Carcassonne with carca-bot**")
    (bad,) = followups(await harness.command(ANA, "create", expansions="nope",
                                             _locale="es-419"))
    assert bad.ephemeral and bad.content.startswith("Expansión desconocida 'nope'")


async def test_one_click_two_languages(harness: BotHarness) -> None:
    """Join clicked in the parent channel of an English thread game by a Spanish
    player: the thread hears English, the player is told privately in Spanish."""
    requests = await harness.command(ANA, "create", thread=True, language="en")
    parent = assert_public_reply(requests)
    join, _ = custom_ids(parent)
    requests = await harness.click(BEN, join, locale="es-ES")
    posts = [r for r in requests if r.path.startswith("/channels/") and r.method == "POST"
             and "messages" in r.path]
    (told,) = followups(requests)
    assert [p.content.split(".")[0] for p in posts] == ["**Ben** joined"]
    assert told.ephemeral and told.content.startswith("Hecho: la partida n.º 1 se juega en <#")


async def test_choosing_your_own_language(harness: BotHarness) -> None:
    (said,) = followups(await harness.command(BEN, "/carc-language"))
    assert said.ephemeral and said.content.startswith("Your language: not chosen")
    (said,) = followups(await harness.command(BEN, "/carc-language", language="es"))
    assert said.content.startswith("Tu idioma: Español (elegido por ti).")
    (games,) = followups(await harness.command(BEN, "games"))  # an en-US app, Spanish reply
    assert games.content == "No estás en ninguna partida. Empieza una con `/carc crear`."
    (said,) = followups(await harness.command(BEN, "/carc-language", language="default"))
    assert said.content.startswith("Your language: not chosen")
    (games,) = followups(await harness.command(BEN, "games"))
    assert games.content.startswith("You are not in any game")


async def test_the_server_language_needs_manage_server(harness: BotHarness) -> None:
    (refused,) = followups(await harness.command(CY, "/carc-language", language="es",
                                                 server=True))
    assert refused.ephemeral and "Manage Server" in refused.content
    (french,) = followups(await harness.command(CY, "games", _locale="fr"))
    assert french.content.startswith("You are not in any game")  # nothing was stored
    (said,) = followups(await harness.command(ANA, "/carc-language", language="es",
                                              server=True, _perms=MANAGE_GUILD))
    # Her own app is English, which comes before the server's choice for her.
    assert "This server's language: Español." in said.content
    (french,) = followups(await harness.command(CY, "games", _locale="fr"))
    assert french.content.startswith("No estás en ninguna partida")  # the server's Spanish
    (english,) = followups(await harness.command(CY, "games", _locale="en-GB"))
    assert english.content.startswith("You are not in any game")  # their app's English
    await harness.command(ANA, "/carc-language", language="default", server=True,
                          _perms=MANAGE_GUILD)
    (french,) = followups(await harness.command(CY, "games", _locale="fr"))
    assert french.content.startswith("You are not in any game")


async def test_a_new_game_speaks_the_servers_language(harness: BotHarness) -> None:
    lobby = assert_public_reply(await harness.command(ANA, "create", _guild_locale="es-ES"))
    assert "abrió la partida de Carcassonne n.º 1" in lobby.content
    view = await harness.bot.service.status(place_of(harness))
    assert dataclasses.asdict(view.options)["language"] == "es"
    (rules,) = followups(await harness.command(ANA, "rules"))  # her app is English
    assert rules.content.startswith("**Carcassonne with carca-bot**")


async def test_the_creator_may_choose_another_language(harness: BotHarness) -> None:
    lobby = assert_public_reply(await harness.command(ANA, "create", language="en",
                                                      _guild_locale="es-ES"))
    assert "opened Carcassonne game #1" in lobby.content
    await harness.command(BEN, "join", _locale="es-ES")
    start = assert_card_reply(await harness.command(ANA, "start", _locale="es-ES"))
    assert "Tiles left:" in start.content  # the game's English, whoever started it
