"""Hostile names, forged buttons, threads and timers through the real discord.py code paths."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import discord
import pytest

from carca_bot.bot.commands import looking
from carca_bot.bot.components.ids import custom_id
from carca_bot.engine.moves import PlaceAbbey
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import ServiceError, User, Where
from tests.bot.cards import assert_card_reply, card_requests, pings
from tests.bot.conftest import ANA, BEN, CY, BotHarness
from tests.bot.fake_discord import GUILD_ID, Request
from tests.bot.outgoing import assert_clean, assert_pings_only, messages
from tests.bot.test_lobby import callback, custom_ids, followups
from tests.bot.test_turns import choices, place_of, started
from tests.engine.records import record, turn

HOSTILE = (100000000000000666, "<@100000000000000003> @everyone **b** ||s|| `c` "
                               "[x](https://evil.example) \u202eevil\u200b# h")


def channel_posts(requests: list[Request], channel: int | str) -> list[Request]:
    return [r for r in requests if r.method == "POST" and r.path == f"/channels/{channel}/messages"]


async def test_hostile_display_name_pings_nobody_and_shows_no_markup(
        harness: BotHarness) -> None:
    start = len(harness.fake.requests)
    await harness.command(HOSTILE, "create")
    await harness.command(ANA, "join")
    await harness.command(HOSTILE, "status")
    post = assert_card_reply(await harness.command(HOSTILE, "start"))
    await harness.command(ANA, "games")
    sent = harness.fake.since(start)
    # The player to act after the start may be pinged; nobody else, never @everyone.
    assert_clean(sent, pinged=[HOSTILE[0], ANA[0]])
    assert "everyone" in post.content and f"<@{CY[0]}>" not in post.content
    for _, msg in messages(sent):
        assert len(msg["allowed_mentions"].get("users", [])) <= 1


async def test_hostile_names_in_an_imported_record(harness: BotHarness) -> None:
    bad = ["@everyone", "<@100000000000000003>", "**x** ||s|| `c` # h", "[x](https://e.vil)"]
    data = record([turn(bad[0], "U", (1, 0), figure="follower", on="E")], seed=4)
    data["players"] = bad
    data["actions"][0]["by"] = bad[0]
    upload = harness.fake.upload("game.json", json.dumps(data).encode())
    requests = await harness.command(ANA, "import", record=upload)
    assert_card_reply(requests)
    requests += await harness.command(ANA, "status")
    requests += await harness.command(ANA, "score")
    assert_clean(requests)  # an analysis game pings nobody: its seats have no users


@pytest.mark.parametrize("name", ["y" * 3000, "r\u202eevil", "zero\u200bwidth"])
async def test_an_imported_name_the_record_cannot_hold_is_refused(
        harness: BotHarness, name: str) -> None:
    data = record([turn("Ana", "U", (1, 0))], seed=4)
    data["players"] = ["Ana", name]
    upload = harness.fake.upload("game.json", json.dumps(data).encode())
    requests = await harness.command(ANA, "import", record=upload)
    (answer,) = followups(requests)
    assert answer.ephemeral and "name" in answer.content, answer.content
    assert len(answer.content) < 500  # the 3,000-character name is not echoed back
    assert_clean(requests)
    with pytest.raises(ServiceError):
        await harness.bot.service.status(place_of(harness))


async def test_timer_reminder_pings_only_the_late_player(harness: BotHarness) -> None:
    await harness.command(HOSTILE, "create", timer_hours=1)
    await harness.command(ANA, "join")
    post = assert_card_reply(await harness.command(HOSTILE, "start"))
    assert "<t:" in post.content and ":R>" in post.content  # the deadline, as a timestamp
    status = followups(await harness.command(ANA, "status"))[0]
    assert "<t:" in status.content
    view = await harness.bot.service.status(place_of(harness))
    assert view.deciding is not None and view.deadline is not None
    start = len(harness.fake.requests)
    for report in await harness.bot.service.check_timers(now=view.deadline + 1):
        await harness.bot.announce_timer(report)
    (notice,) = channel_posts(harness.fake.since(start), harness.make.channel_id)
    late = view.deciding.user_id
    assert late is not None
    assert notice.json["allowed_mentions"] == {"parse": [], "users": [int(late)]}
    assert f"<@{late}>" in notice.content and "<t:" in notice.content
    assert_clean([notice], pinged=[late])


async def test_auto_played_turn_says_what_was_played_and_shows_the_board(
        harness: BotHarness) -> None:
    await harness.command(ANA, "create", timer_hours=1, auto_play=True)
    lobby = followups(harness.fake.requests)[-1]
    assert "Turn timer: 1 h per turn" in lobby.content
    await harness.command(BEN, "join")
    await harness.command(ANA, "start")
    view = await harness.bot.service.status(place_of(harness))
    assert view.deciding is not None and view.deadline is not None
    late = view.deciding
    start = len(harness.fake.requests)
    for report in await harness.bot.service.check_timers(now=view.deadline + 1):
        await harness.bot.announce_timer(report)
    requests = harness.fake.since(start)
    (card,) = card_requests(requests)  # the game's card, edited
    assert card.method == "PATCH"
    assert f"**{late.name}** ran out of time, so the bot played the turn: **{late.name}** " \
           "placed" in card.text
    assert card.files and card.files[0].data.startswith(b"\x89PNG")
    (notice,) = channel_posts(requests, harness.make.channel_id)  # the next player's ping
    after = await harness.bot.service.status(place_of(harness))
    assert after.deciding is not None and after.deciding.user_id != late.user_id
    assert after.deciding.user_id is not None
    assert notice.json["allowed_mentions"]["users"] == [int(after.deciding.user_id)]
    assert f"<@{after.deciding.user_id}>" in notice.content


@pytest.mark.parametrize("forged", [
    "garbage", "carc:explode:1:1", "carc:confirm:1", "carc:confirm:x:1",
    "carc:confirm:123456789012345678901234567890:1", "carc:pick:1:1:extra", ""])
async def test_malformed_component_ids_get_a_private_answer(harness: BotHarness,
                                                            forged: str) -> None:
    await harness.command(ANA, "create")
    requests = await harness.click(ANA, forged)
    answer = callback(requests)
    assert answer.json["type"] == 4 and answer.ephemeral
    assert "does not belong to any game" in answer.content
    assert_clean(requests)


async def test_a_button_of_a_game_that_does_not_exist(harness: BotHarness) -> None:
    await harness.command(ANA, "create")
    (post,) = followups(await harness.click(ANA, custom_id("join", 999_999, 0)))
    assert post.ephemeral and "no game 999999" in post.content


async def test_thread_game_from_the_parent_channel_buttons(harness: BotHarness) -> None:
    requests = await harness.command(ANA, "create", thread=True)
    (made,) = [r for r in requests if r.path.endswith("/threads")]
    assert made.json["name"] == "Carcassonne — Ana"
    (lobby,) = [r for r in requests if r.method == "POST" and r.path.startswith("/channels/")
                and r.path.endswith("/messages")]  # the lobby is posted in the thread
    thread = int(lobby.path.split("/")[2])
    assert thread != harness.make.channel_id
    assert "opened Carcassonne game" in lobby.content
    parent = followups(requests)[0]
    assert f"<#{thread}>" in parent.content and not parent.ephemeral
    join, start = custom_ids(parent)
    assert custom_ids(lobby) == [join, start]
    # Join and Start clicked in the parent act on the thread's game and post there.
    requests = await harness.click(BEN, join)
    (told,) = followups(requests)
    assert told.ephemeral and f"<#{thread}>" in told.content
    (joined,) = channel_posts(requests, thread)
    assert "**Ben** joined" in joined.content
    requests = await harness.click(ANA, start)
    (card,) = card_requests(requests)  # the card goes to the game's thread
    assert card.path == f"/channels/{thread}/messages" and card.files
    assert "Tiles left" in card.text
    (ping,) = pings(requests)
    assert ping.path == f"/channels/{thread}/messages"
    (told,) = followups(requests)
    assert told.ephemeral and f"<#{thread}>" in told.content
    assert_clean(harness.fake.requests, pinged=[ANA[0], BEN[0]])
    # Commands typed in the thread find the game.
    (status,) = followups(await harness.command(BEN, "status", _channel=thread))
    assert "in play" in status.content and "Ben" in status.content
    view = await harness.bot.service.status(Where(str(GUILD_ID), str(thread)))
    assert view.status == "active" and len(view.seats) == 2


async def test_place_refuses_a_feature_of_another_kind_than_offered(
        harness: BotHarness) -> None:
    """`on` chosen before `rotation`: the kind picked must still be what lies there."""
    found = None
    for _ in range(40):
        first, _ = await started(harness)
        legal = await choices(harness, first)
        by_square: dict[tuple[int, int], list[int]] = {}
        for x, y, r in legal.placements:
            by_square.setdefault((x, y), []).append(r)
        for (x, y), rots in by_square.items():
            if len(rots) < 2:
                continue
            # Without a rotation there is nothing to offer yet: it decides the features.
            assert await harness.autocomplete(first, "place", "on", square=f"{x},{y}",
                                              figure="follower", on="") == []
            offers = {r: {c["value"].split()[0]: c["value"] for c in await harness.autocomplete(
                first, "place", "on", square=f"{x},{y}", rotation=r, figure="follower",
                on="")} for r in rots}
            for r1 in rots:
                for r2 in rots:
                    for code, value in offers[r1].items():
                        other = offers[r2].get(code)
                        if r1 != r2 and other is not None and other != value:
                            found = (first, x, y, r2, value)
            if found:
                break
        if found:
            break
        await harness.command(ANA, "cancel")
    assert found is not None, "no opening with a feature that changes kind when turned"
    first, x, y, rot, value = found
    before = await harness.bot.service.status(place_of(harness))
    (post,) = followups(await harness.command(first, "place", square=f"{x},{y}", rotation=rot,
                                              figure="follower", on=value, confirm=True))
    assert post.ephemeral and "not the" in post.content and "you picked" in post.content
    after = await harness.bot.service.status(place_of(harness))
    assert after.version == before.version and after.moves == before.moves


async def test_score_pages_and_leaves_out_features_nobody_held(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(looking, "SCORE_PAGE", 2)  # pages after a few scorings
    await started(harness)
    service, where = harness.bot.service, place_of(harness)
    players = {str(ANA[0]): ANA, str(BEN[0]): BEN}
    rng = random.Random(3)
    for _ in range(120):
        view = await service.status(where)
        game = await service.game(where)
        assert game is not None
        held = [e for e in game.events if e.kind == "score" and e.players]
        if view.finished or (len(held) >= 3 and any(not e.players for e in game.events)):
            break
        assert view.deciding is not None and view.deciding.user_id is not None
        who = players[view.deciding.user_id]
        await play_random_move(service, where, User(str(who[0]), who[1]), rng)
    assert game is not None and len(held) >= 3 and any(not e.players for e in game.events)
    (post,) = followups(await harness.command(ANA, "score"))
    assert "nobody" not in post.content and "Garden" not in post.content
    pages = -(-len(held) // 2)
    assert f"page {pages} of {pages}" in post.content  # the newest page first
    ids = custom_ids(post)
    assert len(ids) == 1 and ids[0].startswith("carc:page:")
    (earlier,) = followups(await harness.click(ANA, ids[0]))
    assert f"page {pages - 1} of {pages}" in earlier.content
    (first,) = followups(await harness.command(ANA, "score", page=1))
    assert f"page 1 of {pages}" in first.content


async def test_six_player_final_post_keeps_the_winner_and_attaches_every_score(
        harness: BotHarness) -> None:
    names = [f"Player {i} with a long name ……" [:32] for i in range(6)]
    people = [(100000000000000101 + i, n) for i, n in enumerate(names)]
    await harness.command(people[0], "create", expansions="river, abbot, king_robber")
    for p in people[1:]:
        await harness.command(p, "join")
    await harness.command(people[0], "start")
    service, where = harness.bot.service, place_of(harness)
    by_id = {str(p[0]): p for p in people}
    rng = random.Random(11)
    last = None
    for _ in range(400):
        view = await service.status(where)
        if view.finished:
            break
        assert view.deciding is not None and view.deciding.user_id is not None
        who = by_id[view.deciding.user_id]
        legal = await service.legal_moves(where, User(str(who[0]), who[1]))
        if legal.must == "place" and view.tiles_left <= 1:  # the last tile: through Discord
            x, y, rot = rng.choice(legal.placements)
            last = await harness.command(who, "place", square=f"{x},{y}", rotation=rot,
                                         confirm=True)
            continue
        await play_random_move(service, where, User(str(who[0]), who[1]), rng)
    assert last is not None, "the game ended before its last tile"
    post = assert_card_reply(last).final
    assert post is not None and len(post.content) <= 2000
    assert "wins with" in post.content or "Shared victory" in post.content
    assert all(name[:20] in post.content for name in names)  # the whole ranking
    scores = [f for f in post.files if f.filename and f.filename.endswith("-scores.txt")]
    assert scores and "Final scoring:" in scores[0].data.decode()
    assert_pings_only(last)


async def test_rules_explain_the_feature_codes(harness: BotHarness) -> None:
    (post,) = followups(await harness.command(ANA, "rules"))
    assert "NL is the west half of the north edge" in post.content
    assert len(post.content) <= 2000


async def test_figure_menu_says_what_and_where(harness: BotHarness) -> None:
    first, _ = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    (post,) = followups(await harness.command(first, "place", square=f"{x},{y}",
                                              rotation=rot))
    menu = [item for row in post.json["components"] for item in row["components"]
            if item["type"] == 3]
    assert menu, post.json["components"]
    for option in menu[0]["options"]:
        if option["value"].startswith("follower:"):
            assert any(k in option["label"] for k in ("city", "road", "field", "monastery")), \
                option
            # Where, unless the feature is the whole tile's middle: "city, north".
            assert option["label"].count(":") == 1, option


async def test_abbey_button_without_holes_says_so(harness: BotHarness) -> None:
    await harness.command(ANA, "create", expansions="abbey_mayor")
    await harness.command(BEN, "join")
    post = assert_card_reply(await harness.command(ANA, "start"))
    first = ANA if f"<@{ANA[0]}>" in post.content else BEN
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    assert view.must == "place"  # no hole yet, so the tile was drawn at once
    (answer,) = followups(await harness.click(first, custom_id("abbey", view.game_id,
                                                               view.version)))
    assert answer.ephemeral and "hole at the start of a turn" in answer.content


async def test_debug_logs_carry_no_interaction_token(harness: BotHarness) -> None:
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    keep = Keep(logging.DEBUG)
    loggers = [logging.getLogger(n) for n in ("discord", "discord.http", "discord.webhook")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
    logging.getLogger("discord").addHandler(keep)
    try:
        payload = harness.make.command(ANA, "create")
        await harness.send(payload)
    finally:
        logging.getLogger("discord").removeHandler(keep)
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
    assert any("/callback" in m or "/webhooks/" in m for m in seen), seen[:5]
    assert not [m for m in seen if payload["token"] in m]


def test_no_voice_warning_at_start_up(caplog: pytest.LogCaptureFixture,
                                      tmp_path: Path) -> None:
    from carca_bot.bot.client import CarcaBot
    from carca_bot.bot.config import Settings

    discord.VoiceClient.warn_nacl = True  # as in a fresh process without PyNaCl
    with caplog.at_level(logging.WARNING, logger="discord"):
        CarcaBot(Settings(token="t", database=str(tmp_path / "x.db"), warm_up=False))
    assert not [r for r in caplog.records if "voice" in r.getMessage().lower()]


def test_unreachable_discord_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from discord import http

    from carca_bot.bot.client import Unreachable, serve
    from carca_bot.bot.config import Settings

    monkeypatch.setattr(http.Route, "BASE", "http://127.0.0.1:9/api/v10")  # nothing listens
    with pytest.raises(Unreachable) as stopped:
        asyncio.run(serve(Settings(token="t", database=str(tmp_path / "x.db"),
                                   warm_up=False)))
    message = str(stopped.value)
    assert message.startswith("carca-bot: cannot reach Discord") and "\n" not in message


async def test_place_my_abbey_offers_holes_and_places_it(harness: BotHarness) -> None:
    await harness.command(ANA, "create", expansions="abbey_mayor")
    await harness.command(BEN, "join")
    await harness.command(ANA, "start")
    service, where = harness.bot.service, place_of(harness)
    players = {str(ANA[0]): ANA, str(BEN[0]): BEN}
    rng = random.Random(2)
    for _ in range(150):  # random tiles until someone could put their abbey in a hole
        view = await service.status(where)
        assert not view.finished and view.deciding is not None
        who = players[str(view.deciding.user_id)]
        legal = await service.legal_moves(where, User(str(who[0]), who[1]))
        if legal.must == "choose" and legal.abbey_squares:
            break
        if legal.must == "choose":
            await service.draw(where, User(str(who[0]), who[1]))
        await play_random_move(service, where, User(str(who[0]), who[1]), rng)
    assert legal.must == "choose" and legal.abbey_squares
    view = await service.status(where, str(who[0]))
    (menu_post,) = followups(await harness.click(who, custom_id("abbey", view.game_id,
                                                                view.version)))
    (select,) = [i for row in menu_post.json["components"] for i in row["components"]]
    holes = [o["value"] for o in select["options"]]
    assert menu_post.ephemeral and 1 <= len(holes) <= 25
    assert {tuple(int(v) for v in h.split(",")) for h in holes} <= set(legal.abbey_squares)
    (post,) = followups(await harness.click(who, select["custom_id"], values=[holes[0]]))
    assert post.ephemeral, post.content
    after = await service.status(where, str(who[0]))
    assert after.must == "finish" and any(isinstance(s, PlaceAbbey) for s in after.steps)


async def test_kick_names_and_pings_who_is_next(harness: BotHarness) -> None:
    await harness.command(ANA, "create")
    await harness.command(BEN, "join")
    await harness.command(CY, "join")
    await harness.command(ANA, "start")
    view = await harness.bot.service.status(place_of(harness))
    assert view.deciding is not None
    target = next(p for p in (ANA, BEN, CY) if str(p[0]) == view.deciding.user_id)
    if target == ANA:  # the host kicks someone else: whoever is next is still named
        target = BEN
    requests = await harness.command(ANA, "kick", player=target)
    (post,) = followups(requests)
    after = await harness.bot.service.status(place_of(harness))
    assert after.deciding is not None and after.deciding.user_id is not None
    assert f"<@{after.deciding.user_id}>" in post.content
    assert post.json["allowed_mentions"]["users"] == [int(after.deciding.user_id)]


async def test_turn_buttons_act_only_in_their_own_channel(harness: BotHarness) -> None:
    first, _ = await started(harness)
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    other = harness.make.component(first, custom_id("draw", view.game_id, view.version))
    other["channel_id"] = other["channel"]["id"] = str(harness.fake.new_id())
    (post,) = followups(await harness.send(other))
    assert post.ephemeral and "use the buttons there" in post.content
    after = await harness.bot.service.status(place_of(harness), str(first[0]))
    assert after.version == view.version
