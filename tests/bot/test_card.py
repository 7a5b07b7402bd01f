"""The live game in the channel: one card per game edited in place, one ping per turn
(the previous one deleted), the turn's steps in one private message, and how each
user wants to be told (a mention, a direct message, nothing; early or not)."""

from __future__ import annotations

import dataclasses
import logging
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from carca_bot.bot.components.card import card_layout, seat_line
from carca_bot.i18n import PSEUDO, speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.service import ClockRules, NotifyPref, TurnView, options
from tests.bot.cards import assert_card_reply, card_requests, channel_posts, deletes, pings
from tests.bot.conftest import ANA, BEN, CY, BotHarness, offline_bot, start_bot
from tests.bot.fake_discord import APP_ID, FakeDiscord, Interactions, Request, texts, walk
from tests.bot.outgoing import assert_clean
from tests.bot.test_lobby import followups, lobby
from tests.bot.test_turns import choices, place_of

Player = tuple[int, str]
CHANNEL = 810000000000000001
PLAYERS = {str(p[0]): p for p in (ANA, BEN, CY)}


async def begin(h: BotHarness, *others: Player) -> None:
    await lobby(h, *(others or (BEN,)))
    assert_card_reply(await h.command(ANA, "start"))


async def to_act(h: BotHarness) -> tuple[Player, TurnView]:
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None and view.deciding.user_id is not None
    return PLAYERS[view.deciding.user_id], view


async def play_turn(h: BotHarness, rng: random.Random) -> list[Request]:
    """One whole turn of the player to act, in one command."""
    player, _ = await to_act(h)
    legal = await choices(h, player)
    x, y, rot = rng.choice(legal.placements)
    return await h.command(player, "place", square=f"{x},{y}", rotation=rot, confirm=True)


def card_id(fake: FakeDiscord) -> int:
    (found,) = [i for i, m in fake.messages.items() if m["flags"] & (1 << 15)]
    return found


async def test_one_card_per_game_and_one_ping_per_turn(harness: BotHarness) -> None:
    h = harness
    await begin(h)
    card = card_id(h.fake)
    rng = random.Random(3)
    for _ in range(8):
        (old_ping,) = [m for m in h.fake.channel_messages(CHANNEL) if not m["flags"]]
        requests = await play_turn(h, rng)
        shown = assert_card_reply(requests)
        assert shown.card.method == "PATCH"
        assert shown.card.path == f"/channels/{CHANNEL}/messages/{card}"
        (ping,) = pings(requests)
        player, view = await to_act(h)
        assert f"<@{player[0]}>" in ping.content
        assert ping.json["allowed_mentions"]["users"] == [player[0]]
        (gone,) = deletes(requests)  # the last turn's ping
        assert gone.path == f"/channels/{CHANNEL}/messages/{old_ping['id']}"
        # The channel holds the card and this turn's ping, nothing else of the bot's.
        kept = h.fake.channel_messages(CHANNEL)
        assert len(kept) == 2 and int(kept[0]["id"]) == card
        assert kept[1]["content"] == ping.content
        assert f"<@{player[0]}>, your turn" in shown.card.text and view.must == "place"
    assert len([r for r in card_requests(h.fake.requests) if r.method == "POST"]) == 1
    assert_clean(h.fake.requests, pinged=[ANA[0], BEN[0]])


async def test_the_card_shows_scores_turn_last_move_and_buttons(harness: BotHarness) -> None:
    h = harness
    await begin(h)
    rng = random.Random(5)
    assert_card_reply(await play_turn(h, rng))
    shown = assert_card_reply(await play_turn(h, rng))
    player, view = await to_act(h)
    words = shown.card.text
    assert f"Carcassonne · game #{view.game_id}" in words
    assert "placed" in words and "turned" in words  # the last move
    assert "**Ana** " in words and "**Ben** " in words and "Tiles left: 69" in words
    assert f"<@{player[0]}>, your turn" in words
    body = shown.card.json
    gallery = [c for c in body["components"][0]["components"] if c["type"] == 12]
    assert gallery[0]["items"][0]["media"]["url"] == "attachment://board.png"
    (attached,) = body["attachments"]
    assert attached["filename"] == "board.png"
    # The picture's alt text, on the attachment and its gallery item: the last move and
    # who is to act (tests/bot/test_alt_text.py says more).
    assert attached["description"] == gallery[0]["items"][0]["description"]
    assert f"It is {player[1]}'s turn" in attached["description"]
    ids = [str(c["custom_id"]) for c in walk(body["components"]) if "custom_id" in c]
    assert [i.split(":")[1] for i in ids] == ["tile", "board", "status"]
    assert all(i.endswith(f":{view.game_id}:{view.version}") for i in ids)
    # The status view: each player's median time to move.
    (status,) = followups(await h.click(BEN, ids[2]))
    assert status.ephemeral and "Median time to move" in status.content
    assert "under a minute" in status.content  # the second to move: one move timed
    assert f"• {player[1]}: —" in status.content  # the first: no move before theirs
    # Full board, privately.
    (board,) = followups(await h.click(BEN, ids[1]))
    assert board.ephemeral and board.files[0].filename == "board.png"


def components_of(layout: Any) -> list[dict[str, Any]]:
    """A layout's components as sent to Discord (discord.py leaves the call untyped)."""
    found: list[dict[str, Any]] = layout.to_components()
    return found


async def test_a_restart_keeps_editing_the_same_card(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    fake = FakeDiscord()
    await fake.start()
    try:
        async with offline_bot(db, fake=fake) as h:
            await begin(h)
            assert_card_reply(await play_turn(h, random.Random(1)))
            card = card_id(fake)
            (ping,) = [m for m in fake.channel_messages(CHANNEL) if not m["flags"]]
        async with offline_bot(db, fake=fake) as again:
            requests = await play_turn(again, random.Random(2))
            shown = assert_card_reply(requests)
            assert shown.card.path == f"/channels/{CHANNEL}/messages/{card}"
            (gone,) = deletes(requests)  # the ping of the first process, deleted by this one
            assert gone.path.endswith(f"/messages/{ping['id']}")
            assert len(fake.channel_messages(CHANNEL)) == 2
    finally:
        await fake.stop()


async def test_a_deleted_card_is_posted_again_and_remembered(harness: BotHarness) -> None:
    h = harness
    await begin(h)
    first = card_id(h.fake)
    del h.fake.messages[first]  # a moderator deleted it
    rng = random.Random(4)
    requests = await play_turn(h, rng)
    edit, post = card_requests(requests)  # the edit fails (404), a new card goes up
    assert (edit.method, post.method) == ("PATCH", "POST")
    assert edit.path.endswith(f"/messages/{first}") and len(pings(requests)) == 1
    second = card_id(h.fake)
    assert second != first
    again = assert_card_reply(await play_turn(h, rng))
    assert again.card.method == "PATCH" and again.card.path.endswith(f"/messages/{second}")
    view = await h.bot.service.status(place_of(h))
    assert (await h.bot.service.game_messages(view.game_id)).card_id == str(second)
    assert await h.bot.service.pending_posts() == []


async def test_a_card_discord_will_not_take_stays_owed(harness: BotHarness) -> None:
    """Neither edited nor posted again: the move is not marked posted (the timer shows it)."""
    h = harness
    await begin(h)

    def card(r: Request) -> bool:
        return r.v2 and r.method in ("PATCH", "POST")

    h.fake.fail_when.extend([(card, 403)] * 2)
    requests = await play_turn(h, random.Random(6))
    assert not pings(requests)
    view = await h.bot.service.status(place_of(h))
    assert [p.game_id for p in await h.bot.service.pending_posts()] == [view.game_id]


async def test_dm_preference_and_its_fallback(harness: BotHarness,
                                              caplog: pytest.LogCaptureFixture) -> None:
    h = harness
    (said,) = followups(await h.command(BEN, "/carc-notify", mode="dm"))
    assert said.ephemeral and "a direct message" in said.content
    assert (await h.bot.service.notify_prefs([str(BEN[0])]))[str(BEN[0])] == NotifyPref("dm")
    await begin(h)
    rng = random.Random(8)
    player, _ = await to_act(h)
    if player != BEN:
        await play_turn(h, rng)
    # Ben's turn began with the last request: a direct message, no mention in the channel.
    start = len(h.fake.requests)
    await play_turn(h, rng)  # Ben plays; Ana is mentioned in the channel
    await play_turn(h, rng)  # Ana plays; Ben is told by DM
    requests = h.fake.since(start)
    dms = [r for r in h.fake.requests if r.path == "/users/@me/channels"]
    assert [r.json for r in dms] == [{"recipient_id": BEN[0]}]  # opened once
    (dm_channel,) = {c for c, u in h.fake.dm_channels.items() if u == BEN[0]}
    direct = [r for r in channel_posts(requests) if r.path == f"/channels/{dm_channel}/messages"]
    assert direct and "Your turn in game #1" in direct[-1].content
    assert f"<#{CHANNEL}>" in direct[-1].content
    # Nothing in the channel may ping Ben (the card names him: an edit notifies nobody).
    assert all(BEN[0] not in p.json["allowed_mentions"]["users"] for p in pings(requests))
    assert all(f"<@{BEN[0]}>" not in p.content for p in pings(requests))
    assert_clean(requests, pinged=[ANA[0], BEN[0]])
    # Closed DMs: the mention in the channel after all, logged once.
    h.fake.closed_dms.add(BEN[0])
    caplog.set_level(logging.INFO, logger="carca_bot.ping")
    for _ in range(2):
        await play_turn(h, rng)
        requests = await play_turn(h, rng)
        (ping,) = pings(requests)
        assert f"<@{BEN[0]}>" in ping.content and ping.json["allowed_mentions"]["users"] == [
            BEN[0]]
    assert len([r for r in caplog.records if "takes no direct messages" in r.getMessage()]) \
        == 1


async def test_nothing_and_the_early_notice(harness: BotHarness) -> None:
    h = harness
    await h.command(CY, "/carc-notify", mode="none")
    (said,) = followups(await h.command(ANA, "/carc-notify", early=True))
    assert "also told when the player before you" in said.content
    await begin(h, BEN, CY)
    rng = random.Random(9)
    seen_early = seen_cy = False
    for _ in range(6):
        requests = await play_turn(h, rng)
        player, view = await to_act(h)
        found = pings(requests)
        if player == CY:  # "nothing": no ping at all, the previous one deleted all the same
            assert all(f"<@{CY[0]}>" not in p.content for p in found)
            seen_cy = True
        assert view.deciding is not None
        nxt = next(s for s in view.seats if s.seat == (view.deciding.seat + 1) % 3)
        if nxt.user_id == str(ANA[0]):
            (ping,) = [p for p in found if "you are next after" in p.content]
            assert f"<@{ANA[0]}>, you are next after **" in ping.content
            assert ANA[0] in ping.json["allowed_mentions"]["users"]
            seen_early = True
    assert seen_early and seen_cy
    assert len([m for m in h.fake.channel_messages(CHANNEL) if not m["flags"]]) <= 1


async def test_the_turn_steps_edit_one_private_message(harness: BotHarness) -> None:
    h = harness
    await begin(h)
    player, view = await to_act(h)
    legal = await choices(h, player)
    # A square the tile fits more than one way, so Rotate turns it (where it fits only
    # one way, Rotate answers with a refusal of its own, which the deal sometimes gave)
    ways = Counter((x, y) for x, y, _ in legal.placements)
    x, y, rotation = max(legal.placements, key=lambda p: ways[(p[0], p[1])])
    requests = await h.command(player, "place", square=f"{x},{y}", rotation=rotation)
    (preview,) = followups(requests)
    assert preview.ephemeral
    steps: list[Request] = []
    view = await h.bot.service.status(place_of(h), str(player[0]))
    if ways[(x, y)] > 1:
        steps += await h.click(player, f"carc:rotate:{view.game_id}:{view.version}",
                               ephemeral=True)
    view = await h.bot.service.status(place_of(h), str(player[0]))
    legal = await choices(h, player)
    if legal.deployments:
        figure, on = legal.deployments[0]
        steps += await h.click(player, f"carc:pick:{view.game_id}:{view.version}",
                               values=[f"{figure}:{on}"], ephemeral=True)
        view = await h.bot.service.status(place_of(h), str(player[0]))
    steps += await h.click(player, f"carc:confirm:{view.game_id}:{view.version}",
                           ephemeral=True)
    assert not followups(steps), [r.path for r in followups(steps)]  # no new message
    edits = [r for r in steps if r.method == "PATCH" and r.path.startswith(f"/webhooks/{APP_ID}/")]
    assert all(r.path.endswith("/messages/@original") for r in edits)
    assert len(edits) == len([r for r in steps if r.path.endswith("/callback")])
    assert [r.json["type"] for r in steps if r.path.endswith("/callback")] == [6] * len(edits)
    assert "card of game #1 is up to date" in edits[-1].content
    assert len(card_requests(steps)) == 1


async def test_a_private_message_past_its_time_is_sent_anew(harness: BotHarness) -> None:
    h = harness
    await begin(h)
    player, _ = await to_act(h)
    legal = await choices(h, player)
    x, y, rot = legal.placements[0]
    await h.command(player, "place", square=f"{x},{y}", rotation=rot)
    view = await h.bot.service.status(place_of(h), str(player[0]))
    h.fake.fail_when.append((lambda r: r.method == "PATCH" and r.path.endswith(
        "/messages/@original"), 404))
    requests = await h.click(player, f"carc:undo:{view.game_id}:{view.version}",
                             ephemeral=True)
    (anew,) = followups(requests)
    assert anew.ephemeral and anew.files and anew.files[0].filename == "your-tile.png"
    after = await h.bot.service.status(place_of(h), str(player[0]))
    assert not after.steps  # the undo was made, and said


async def test_a_clock_game_card_marks_banks_vacations_and_expelled(
        harness: BotHarness) -> None:
    h = harness
    await begin(h, BEN, CY)
    view = await h.bot.service.status(place_of(h))
    clocked = dataclasses.replace(
        view, options=dataclasses.replace(view.options, clock=ClockRules(
            bank=86400, increment=3600, cap=172800)), deadline=1_800_000_000.0,
        seats=(dataclasses.replace(view.seats[0], bank=82800.0),
               dataclasses.replace(view.seats[1], bank=7200.0, on_vacation=True),
               dataclasses.replace(view.seats[2], resigned=True, expelled=True)))
    lines = [seat_line(clocked, s) for s in clocked.seats]
    assert "⏳ 23 h left" in lines[0]
    assert "⏳ 2 h left" in lines[1] and "🌴 on vacation" in lines[1]
    assert "expelled" in lines[2] and "left" not in lines[2]
    said = "\n".join(texts(components_of(card_layout(clocked, "", picture=False))))
    assert "⏳ Their time runs out <t:1800000000:R>." in said
    with speaking(PSEUDO):
        words = "\n".join(texts(components_of(card_layout(clocked, "", picture=True))))
    assert untranslated(words, frozenset({"Ana", "Ben", "Cy", "Carcassonne"})) == []


async def test_the_new_words_are_translated(harness: BotHarness,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Card, ping, direct message, status view and /carc-notify, in the pseudo-language."""
    h = harness
    h.make.locale = h.make.guild_locale = PSEUDO
    monkeypatch.setattr(options, "LANGUAGES", (*options.LANGUAGES, PSEUDO))
    await h.command(BEN, "/carc-notify", mode="dm", early=True)
    await h.command(CY, "/carc-notify")
    await h.command(ANA, "/carc-notify", early=True)
    await begin(h, BEN, CY)
    rng = random.Random(12)
    for _ in range(4):
        await play_turn(h, rng)
    view = await h.bot.service.status(place_of(h))
    await h.click(ANA, f"carc:status:{view.game_id}:{view.version}")
    await h.click(ANA, f"carc:board:{view.game_id}:{view.version}")
    from tests.bot.test_pseudo_locale import leaks

    assert leaks(h.fake.requests) == []


async def test_buttons_on_a_card_work_after_a_restart(harness: BotHarness) -> None:
    h = harness
    await begin(h)
    player, view = await to_act(h)
    await h.bot.close()
    h.bot, h.errors = await start_bot(h.fake, h.db)
    h.make = Interactions(h.fake, h.make.channel_id)
    (tile,) = followups(await h.click(player, f"carc:tile:{view.game_id}:{view.version}"))
    assert tile.ephemeral and "Your tile is" in tile.content


async def test_a_reminder_replaces_the_turn_ping(harness: BotHarness) -> None:
    h = harness
    await h.command(ANA, "create", timer_hours=1)
    await h.command(BEN, "join")
    shown = assert_card_reply(await h.command(ANA, "start"))
    assert shown.ping is not None
    (first_ping,) = [m for m in h.fake.channel_messages(CHANNEL) if not m["flags"]]
    player, view = await to_act(h)
    assert view.deadline is not None and f"<t:{int(view.deadline)}:R>" in shown.card.text
    start = len(h.fake.requests)
    for report in await h.bot.service.check_timers(now=view.deadline + 1):
        await h.bot.announce_timer(report)
    requests = h.fake.since(start)
    (reminder,) = pings(requests)
    assert f"<@{player[0]}>, the game is waiting for you" in reminder.content
    (gone,) = deletes(requests)
    assert gone.path.endswith(f"/messages/{first_ping['id']}")
    assert [m["content"] for m in h.fake.channel_messages(CHANNEL) if not m["flags"]] == [
        reminder.content]


async def test_a_cancelled_game_shows_on_its_card_and_its_ping_goes(
        harness: BotHarness) -> None:
    h = harness
    await begin(h)
    card = card_id(h.fake)
    requests = await h.command(ANA, "cancel")
    (edit,) = card_requests(requests)
    assert edit.method == "PATCH" and edit.path.endswith(f"/messages/{card}")
    assert "The game was cancelled." in edit.text
    ids = [str(c["custom_id"]).split(":")[1] for c in walk(edit.components)
           if "custom_id" in c]
    assert ids == ["hist", "board"]  # nothing left to play
    assert len(deletes(requests)) == 1 and not pings(requests)
    assert [int(m["id"]) for m in h.fake.channel_messages(CHANNEL)] == [card]
