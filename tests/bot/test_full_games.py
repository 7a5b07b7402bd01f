"""A complete game with every expansion, through the real discord.py code, in Spanish
and in English; the checks read real sentences of each language.

The game's language is the creator's choice of Spanish (or English) on `/carc create`;
the Spanish game is also checked for English words left anywhere it posted.
"""

from __future__ import annotations

import random
import re
import secrets
from collections import Counter
from typing import Any

import pytest

from carca_bot.bot.words.names import on_tile_figures
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.words.names import expansion_title
from tests.bot.cards import Shown, assert_card_reply, card_requests
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.outgoing import assert_clean, assert_described, labels, messages
from tests.bot.spoken import shown
from tests.bot.test_lobby import assert_public_reply, followups
from tests.bot.test_turns import choices, place_of

Player = tuple[int, str]
FIGURES = on_tile_figures()  # every figure a tile's feature may hold, from the records
DEAL_SEED = 1  # a deal in which every new rule comes up (see the English game)
ENGLISH_WORDS = re.compile(r"\b(the|your|turn|tile|scored|points|wins|place|draw)\b", re.I)


async def play_to_the_end(h: BotHarness, rng: random.Random) -> Shown:
    """Every decision through Discord commands, as players would type them; a figure
    now and then (a builder or a pig wherever one may go, else any of the figure table's,
    a follower most often), chosen from the autocomplete's suggestions. Returns the last
    post."""
    players = {str(ANA[0]): ANA, str(BEN[0]): BEN}
    last = None
    for _ in range(500):
        view = await h.bot.service.status(place_of(h))
        if view.finished:
            break
        assert view.deciding is not None and view.deciding.user_id is not None
        player = players[view.deciding.user_id]
        legal = await choices(h, player)
        if legal.must == "choose" and not legal.can_draw:  # a second part, no tile left
            x, y = legal.abbey_squares[0]
            await h.command(player, "abbey", square=f"{x},{y}")
            last = assert_card_reply(await h.command(player, "confirm"))
            continue
        if legal.must == "choose":
            await h.command(player, "draw")
            continue
        if legal.must == "wagon":
            last = assert_card_reply(await h.command(player, "wagon", target="return"))
            continue
        if legal.must == "abbey_round":
            last = assert_card_reply(await h.command(player, "abbey", square="skip"))
            continue
        assert legal.must == "place", legal.must
        x, y, rot = rng.choice(legal.placements)
        figure: dict[str, Any] = {}
        if rng.random() < 0.5:
            kinds = [k for k in ("builder", "pig") if k in FIGURES]
            for kind in [*kinds, "follower" if rng.random() < 0.5 else rng.choice(FIGURES)]:
                spots = await h.autocomplete(player, "place", "on", square=f"{x},{y}",
                                             rotation=rot, figure=kind, on="")
                if spots:
                    figure = {"figure": kind, "on": rng.choice(spots)["value"]}
                    break
        last = assert_card_reply(await h.command(player, "place", square=f"{x},{y}",
                                                   rotation=rot, confirm=True, **figure))
    assert last is not None and (await h.bot.service.status(place_of(h))).finished
    return last


async def a_whole_game(h: BotHarness, locale: str, language: str) -> dict[str, Any]:
    h.make.locale = h.make.guild_locale = locale
    lobby = assert_public_reply(await h.command(ANA, "create", expansions="all",
                                                language=language))
    await h.command(BEN, "join")
    start = assert_card_reply(await h.command(ANA, "start"))
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None
    first = ANA if view.deciding.user_id == str(ANA[0]) else BEN
    (tile,) = followups(await h.command(first, "tile"))
    (status,) = followups(await h.command(first, "status"))
    (bad,) = followups(await h.command(first, "place", square="zz"))
    last = await play_to_the_end(h, random.Random(7))
    game = await h.bot.service.game(place_of(h))
    assert game is not None
    reasons = Counter(e.reason for e in game.events)
    actions = (await h.bot.service.export(place_of(h)))["actions"]
    placed = Counter(a["deploy"]["figure"] for a in actions if isinstance(a.get("deploy"), dict))
    # In the channel: the card and the end-of-game post; the last ping is gone.
    kept = h.fake.channel_messages(h.make.channel_id)
    assert [bool(m["flags"] & (1 << 15)) for m in kept] == [True, False]
    assert last.final is not None and kept[1]["content"] == last.final.content
    (score,) = followups(await h.command(ANA, "score"))
    assert_clean(h.fake.requests, pinged=[ANA[0], BEN[0]])
    assert_described(h.fake.requests)  # every file and picture of the game: alt text
    scores_file = next(p.data.decode() for p in last.files
                       if (p.filename or "").endswith(".txt"))
    buttons = [label for _, msg in messages([start.card]) for label in labels(msg) if label]
    # One card for the whole game: posted at the start, then only edited.
    cards = card_requests(h.fake.requests)
    assert [r.method for r in cards].count("POST") == 1 and cards[0].method == "POST"
    assert len({r.path for r in cards[1:]}) == 1 and len(cards) > 50
    return {"lobby": lobby.content, "start": start.content, "tile": tile.content,
            "status": status.content, "bad": bad.content, "last": last.content,
            "score": score.content, "file": scores_file, "buttons": buttons,
            "descriptions": [a.get("description") for a in last.json.get("attachments", [])],
            "all": "\n".join(shown(h.fake.requests)), "placed": placed, "reasons": reasons}


async def test_a_whole_game_in_spanish(harness: BotHarness,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    said = await a_whole_game(harness, "es-ES", "es")
    assert "abrió la partida de Carcassonne n.º 1" in said["lobby"]
    assert "El Río" in said["lobby"] and "`/carc unirse`" in said["lobby"]
    assert "te toca" in said["start"] and "Losetas restantes:" in said["start"]
    assert said["buttons"] == ["Mi loseta", "Tablero completo", "Estado"]
    assert said["tile"].startswith("Tu loseta es **")
    assert "`/carc colocar`" in said["tile"]
    assert said["status"].startswith("Partida n.º 1 · en juego")
    assert "seguidores" in said["status"] and "Expansiones:" in said["status"]
    assert said["bad"] == "'zz' no es una casilla: escríbela como x,y (por ejemplo 2,-1)"
    assert re.search(r"🏆 (¡\*\*\w+\*\* gana con|¡Victoria compartida para)", said["last"])
    assert "**Clasificación final**" in said["last"] and "**Recuento final**" in said["last"]
    assert said["descriptions"][0].startswith("El tablero final:")
    assert said["file"].startswith("Partida de Carcassonne n.º 1: clasificación final")
    assert "Durante la partida:" in said["file"] and "Recuento final:" in said["file"]
    assert "**Puntuaciones, página" in said["score"]
    assert re.search(r"\*\*(Ana|Ben)\*\* colocó \S+ en -?\d+,-?\d+, girada \d+°\.",
                     said["all"])
    assert re.search(r"\*\*(Ana|Ben)\*\* puso un seguidor en \w+ \(", said["all"])
    leftovers = sorted({m.group(0).lower() for m in ENGLISH_WORDS.finditer(said["all"])})
    assert leftovers == [], leftovers


async def test_a_whole_game_in_english(harness: BotHarness,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # A fixed deal (the seed is otherwise secret and new each time), so that the game
    # certainly meets every new rule checked at the end.
    monkeypatch.setattr(secrets, "randbits", lambda bits: DEAL_SEED)
    said = await a_whole_game(harness, "en-US", "en")
    every = ", ".join(sorted(expansion_title(e) for e in EXPANSIONS))  # by their records
    assert f"opened Carcassonne game #1 ({every})" in said["lobby"]
    assert "Inns & Cathedrals" in every
    assert "your turn" in said["start"] and "Tiles left:" in said["start"]
    assert said["buttons"] == ["My tile", "Full board", "Status"]
    assert said["tile"].startswith("Your tile is **")
    assert said["status"].startswith("Game #1 · in play")
    assert said["bad"] == "'zz' is not a square: write it as x,y (for example 2,-1)"
    assert re.search(r"🏆 (\*\*\w+\*\* wins with|Shared victory for)", said["last"])
    assert "**Final ranking**" in said["last"] and "**Final scoring**" in said["last"]
    assert said["descriptions"][0].startswith("The final board:")
    assert said["file"].startswith("Carcassonne game #1: final ranking")
    assert re.search(r"\*\*(Ana|Ben)\*\* placed \S+ at -?\d+,-?\d+, turned \d+°\.",
                     said["all"])
    assert re.search(r"\*\*(Ana|Ben)\*\* put a follower on \w+ \(", said["all"])
    assert "colocó" not in said["all"] and "Puntos" not in said["all"]
    # Both newest expansions were played: every new figure stood on the board, goods were
    # taken and counted at the end, a builder gave a second part, the pig paid.
    assert {"large", "builder", "pig"} <= set(said["placed"]), said["placed"]
    assert {"goods_taken", "goods_final", "builder_second_part", "inn", "cathedral",
            "pig_bonus"} <= set(said["reasons"]), said["reasons"]
    assert "(The second part of the turn: the builder's road or city grew.)" in said["all"]
