"""`/carc-ai` and `/carc-hint` through the real discord.py code and a fake Discord: AI
seats, private replies and refusals, hints, and a solo game against an AI to the end."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from carca_bot.bot.commands.ai import suggested
from carca_bot.engine.catalogue import tile_ids
from carca_bot.engine.figures import FIGURES
from carca_bot.engine.moves import Draw, EndTurn
from carca_bot.i18n import PSEUDO, speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.service import GameOptions, User, model
from tests.bot.cards import assert_card_reply, card_requests, pings
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.fake_discord import Request
from tests.bot.spoken import shown
from tests.bot.test_lobby import assert_private_refusal, followups, lobby
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
    shown = assert_card_reply(await h.command(ANA, "start"))
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None
    first, second = (ANA, BEN) if view.deciding.user_id == str(ANA[0]) else (BEN, ANA)
    assert shown.ping is not None and shown.ping.content.startswith(f"<@{first[0]}>")
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
    h.bot.service.on_public_change = h.bot.outbox.on_public_change
    await lobby(h)
    private(await ai(h, ANA, "add", level="strong"))
    start = len(h.fake.requests)
    assert_card_reply(await h.command(ANA, "start"))
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
        assert_card_reply(await h.command(ANA, "place", square=f"{x},{y}", rotation=rot,
                                          confirm=True))
    view = await h.bot.service.status(place_of(h))
    assert view.finished and view.outcome == "complete"
    # Every AI move went on the card (one game, one card), none left owed; Ana was
    # pinged at most once per turn of hers.
    assert await h.bot.service.pending_posts() == []
    sent = h.fake.since(start)
    cards = card_requests(sent)
    assert len({r.path.rsplit("/messages", 1)[0] for r in cards}) == 1
    assert len([r for r in cards if r.method == "POST"]) == 1
    record = await h.bot.service.export(place_of(h))
    ai_turns = [a for a in record["actions"] if a.get("by") == "AI (strong)"]
    ana_turns = [a for a in record["actions"] if a.get("by") == "Ana"]
    assert len(ai_turns) > 20
    assert len(ai_turns) <= len(cards) <= len(ai_turns) + len(ana_turns) + 1
    assert len(pings(sent)) <= len(ana_turns) + 1


async def test_an_ai_move_goes_on_the_card_and_pings_the_next_human_once(
        h: BotHarness) -> None:
    """Ana, Ben and an AI: after a human's move and the AI's answer, the card shows the
    AI's move at once (the service hook, not the owed-post catch-up), the change is
    posted, and the human after the AI is pinged once."""
    h.bot.service.on_public_change = h.bot.outbox.on_public_change
    await lobby(h, BEN)
    private(await ai(h, ANA, "add", level="easy"))
    assert_card_reply(await h.command(ANA, "start"))
    players = {str(p[0]): p for p in (ANA, BEN)}
    checked = 0
    for _ in range(6):
        await h.bot.service.wait_for_ai()
        await h.settle()
        view = await h.bot.service.status(place_of(h))
        assert view.deciding is not None and view.deciding.user_id in players
        mover = players[view.deciding.user_id]
        legal = await choices(h, mover)
        if legal.must != "place":
            break
        x, y, rot = legal.placements[0]
        start = len(h.fake.requests)
        assert_card_reply(await h.command(mover, "place", square=f"{x},{y}", rotation=rot,
                                          confirm=True))
        await h.bot.service.wait_for_ai()
        await h.settle()
        after = await h.bot.service.status(place_of(h))
        assert after.deciding is not None
        record = await h.bot.service.export(place_of(h))
        if record["actions"][-1].get("by") != "AI (easy)":
            continue  # the next player was human: no AI move this time
        checked += 1
        sent = h.fake.since(start)
        cards = card_requests(sent)
        assert len(cards) == 2 and all(r.method == "PATCH" for r in cards), cards
        assert f"▶ **{after.deciding.name}**" in cards[-1].text
        assert await h.bot.service.pending_posts() == []  # posted, nothing owed
        told = [p for p in pings(sent)
                if f"<@{after.deciding.user_id}>" in p.content]
        assert len(told) == 1, [p.content for p in pings(sent)]
    assert checked >= 2


def test_a_hint_to_draw_reads_as_advice() -> None:
    assert suggested(Draw(), []) == "draw a tile (rather than place your abbey)"
    with speaking("es"):
        assert suggested(Draw(), []) == "roba una loseta (en lugar de colocar tu abadía)"
        assert suggested(EndTurn(), []) != "turn confirmed"  # the step's own words
    with speaking(PSEUDO):
        assert untranslated(suggested(Draw(), [])) == []
