"""`/carc-ai` and `/carc-hint` through the real discord.py code and a fake Discord: AI
seats, private replies and refusals, hints, and a solo game against an AI to the end."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from carca_bot.bot.ai_commands import public_change_hook, suggested
from carca_bot.engine.catalogue import tile_ids
from carca_bot.engine.figures import FIGURES
from carca_bot.engine.moves import Draw, EndTurn
from carca_bot.i18n import PSEUDO, speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.service import GameOptions, User, model
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.fake_discord import Request
from tests.bot.spoken import shown
from tests.bot.test_lobby import assert_private_refusal, assert_public_reply, followups, lobby
from tests.bot.test_turns import choices, place_of
from tests.service.ai_helpers import Recording

Player = tuple[int, str]


@pytest.fixture
async def h(harness: BotHarness) -> AsyncIterator[BotHarness]:
    """The harness with an in-process AI (the real levels' cheap ones: fast and sure)."""
    harness.bot.service.thinker = Recording()
    yield harness
    await harness.bot.service.wait_for_ai()


async def ai(h: BotHarness, user: Player, sub: str, **options: Any) -> list[Request]:
    """`/carc-ai SUB option=value ...` as Discord sends a group's subcommand."""
    focused = options.pop("focused", None)
    payload = h.make.command(user, "/carc-ai", focused=focused, **options)
    data = payload["data"]
    data["options"] = [{"type": 1, "name": sub, "options": data["options"]}]
    return await h.send(payload)


def private(requests: list[Request]) -> str:
    (post,) = followups(requests)
    assert post.ephemeral, post
    return str(post.content)


async def test_the_host_seats_and_removes_ais_privately(h: BotHarness) -> None:
    await lobby(h)
    said = private(await ai(h, ANA, "add", level="strong"))
    assert "**AI (strong)** takes a seat (2 of 6 seats taken)." in said
    private(await ai(h, ANA, "add", level="easy"))
    view = await h.bot.service.status(place_of(h))
    assert [(s.name, s.ai, s.user_id) for s in view.seats] == [
        ("Ana", None, str(ANA[0])), ("AI (strong)", "strong", None), ("AI (easy)", "easy", None)]
    # Only AI seats are offered for removal.
    offered = await ai(h, ANA, "remove", focused="player", player="")
    assert [c["value"] for c in offered[0].json["data"]["choices"]] == ["AI (strong)",
                                                                        "AI (easy)"]
    assert_private_refusal(await ai(h, BEN, "add", level="easy"),
                           "only the host can add AI players")
    assert_private_refusal(await ai(h, BEN, "remove", player="AI (easy)"),
                           "only the host can remove AI players")
    assert_private_refusal(await ai(h, ANA, "remove", player="Ana"),
                           "there is no AI player called Ana in this game")
    said = private(await ai(h, ANA, "remove", player="AI (strong)"))
    assert said == "**AI (strong)** left the lobby."
    view = await h.bot.service.status(place_of(h))
    assert [s.name for s in view.seats] == ["Ana", "AI (easy)"]


async def test_a_full_lobby_is_refused(h: BotHarness) -> None:
    await lobby(h, players=2)
    private(await ai(h, ANA, "add", level="easy"))
    assert_private_refusal(await ai(h, ANA, "add", level="easy"), "the game is full")


async def test_a_spanish_game_names_its_ai_in_spanish(h: BotHarness) -> None:
    await lobby(h, language="es")
    private(await ai(h, ANA, "add", level="strong"))
    view = await h.bot.service.status(place_of(h))
    assert view.seats[1].name == "IA (fuerte)"


async def test_hints_are_refused_when_off_or_not_yours(h: BotHarness) -> None:
    await lobby(h, BEN)
    post = assert_public_reply(await h.command(ANA, "start"))
    first, second = (ANA, BEN) if f"<@{ANA[0]}>" in post.content else (BEN, ANA)
    assert_private_refusal(await h.command(first, "/carc-hint"), "hints are off in this game")
    assert_private_refusal(await h.command((999, "Zed"), "/carc-hint"), "not")
    assert await h.bot.service.hints_of(place_of(h)) == []
    del second


async def hinted_game(h: BotHarness) -> None:
    """Ana and an AI, hints on (the option `/carc create` gets from the lead), Ana to act."""
    place = place_of(h)
    await h.bot.service.create(place, User(str(ANA[0]), ANA[1]),
                               GameOptions(seed=3, hints=True))
    await h.bot.service.add_ai(place, User(str(ANA[0]), ANA[1]), "easy", "AI (easy)")
    await h.bot.service.start(place, User(str(ANA[0]), ANA[1]))
    await h.bot.service.wait_for_ai()


async def test_a_hint_is_private_and_counted(h: BotHarness) -> None:
    await hinted_game(h)
    said = private(await h.command(ANA, "/carc-hint"))
    assert said.startswith("The AI suggests (hints you have asked for in this game: 1):\n• ")
    tile = (await choices(h, ANA)).tile
    assert tile is not None and f"• {tile} at " in said and "turn confirmed" in said.lower()
    (kept,) = await h.bot.service.hints_of(place_of(h))
    assert kept.user_id == str(ANA[0])
    assert private(await ai(h, BEN, "hints")) == "• Ana: 1 hint"
    # A hint changes nothing: it is still Ana's turn, with nothing placed.
    view = await h.bot.service.status(place_of(h), str(ANA[0]))
    assert view.yours and view.steps == ()


async def test_the_ai_commands_speak_the_pseudo_language(h: BotHarness,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    h.make.locale = PSEUDO
    h.make.guild_locale = PSEUDO
    monkeypatch.setattr(model, "LANGUAGES", (*model.LANGUAGES, PSEUDO))
    await hinted_game(h)
    requests = [*await h.command(ANA, "/carc-hint"), *await ai(h, ANA, "hints"),
                *await ai(h, BEN, "add", level="easy"), *await ai(h, ANA, "remove", player="x"),
                *await h.command(BEN, "/carc-hint")]
    texts = shown(requests)
    assert len(texts) == 5
    # Data only: names (the AI seat's is the game's words, here English), tile ids,
    # figures, and the sides features are named by.
    allowed = frozenset({"Ana", "AI", "easy", "x", *tile_ids(), *FIGURES,
                         "N", "E", "S", "W", "C", "NL", "NR", "EL", "ER", "SL", "SR", "WL",
                         "WR"})
    assert [(t, found) for t in texts if (found := untranslated(t, allowed))] == []


@pytest.mark.slow
async def test_a_solo_game_against_an_ai_to_the_end(h: BotHarness) -> None:
    """Ana against a strong-level seat (thinking with the cheap greedy level here); the
    AI's moves are posted in the channel as they are made, through the hook."""
    h.bot.service.on_public_change = public_change_hook(h.bot)
    await lobby(h)
    private(await ai(h, ANA, "add", level="strong"))
    start = len(h.fake.requests)
    assert_public_reply(await h.command(ANA, "start"))
    rng = random.Random(5)
    for _ in range(200):
        await h.bot.service.wait_for_ai()
        await h.settle()
        view = await h.bot.service.status(place_of(h))
        if view.finished:
            break
        assert view.deciding is not None and view.deciding.user_id == str(ANA[0])
        legal = await choices(h, ANA)
        if legal.must == "wagon":
            await h.command(ANA, "wagon", target="return")
            continue
        assert legal.must == "place", legal.must
        x, y, rot = rng.choice(legal.placements)
        assert_public_reply(await h.command(ANA, "place", square=f"{x},{y}", rotation=rot,
                                            confirm=True))
    view = await h.bot.service.status(place_of(h))
    assert view.finished and view.outcome == "complete"
    # Every AI move was posted in the channel, none twice, none left owed.
    assert await h.bot.service.pending_posts() == []
    channel_posts = [r for r in h.fake.since(start) if r.method == "POST"
                     and "/channels/" in r.path and r.path.endswith("/messages")]
    assert channel_posts, "the AI's moves were never posted"
    record = await h.bot.service.export(place_of(h))
    ai_turns = [a for a in record["actions"] if a.get("by") == "AI (strong)"]
    assert len(ai_turns) > 20
    assert len(channel_posts) <= len(ai_turns)


def test_a_hint_to_draw_reads_as_advice() -> None:
    assert suggested(Draw(), []) == "draw a tile (rather than place your abbey)"
    with speaking("es"):
        assert suggested(Draw(), []) == "roba una loseta (en lugar de colocar tu abadía)"
        assert suggested(EndTurn(), []) != "turn confirmed"  # the step's own words
    with speaking(PSEUDO):
        assert untranslated(suggested(Draw(), [])) == []
