"""The lobby through Discord: command sync, create, join, leave, start, kick, cancel."""

from __future__ import annotations

from typing import Any

from carca_bot.service import Where
from tests.bot.cards import assert_card_reply
from tests.bot.cards import callback as callback  # other tests import them from here
from tests.bot.cards import followups as followups
from tests.bot.conftest import ANA, BEN, CY, MANAGE_GUILD, BotHarness
from tests.bot.fake_discord import APP_ID, GUILD_ID, Request, walk


def custom_ids(request: Request) -> list[str]:
    ids: list[str] = []
    for row in (request.json or {}).get("components", []):
        ids.extend(c.get("custom_id", "") for c in row.get("components", []))
    return ids


def assert_public_reply(requests: list[Request]) -> Request:
    assert callback(requests).json == {"type": 5}  # deferred, thinking, public
    posts = followups(requests)
    assert len(posts) == 1 and not posts[0].ephemeral
    return posts[0]


def assert_private_refusal(requests: list[Request], words: str) -> None:
    posts = followups(requests)
    assert len(posts) == 1 and posts[0].ephemeral, requests
    assert words.lower() in posts[0].content.lower(), posts[0].content


async def lobby(h: BotHarness, *players: tuple[int, str], **options: Any) -> str:
    post = assert_public_reply(await h.command(ANA, "create", **options))
    for player in players:
        assert_public_reply(await h.command(player, "join"))
    return post.content


async def test_login_registers_the_command_group(harness: BotHarness) -> None:
    puts = [r for r in harness.fake.requests if r.method == "PUT"]
    assert len(puts) == 1 and puts[0].path == f"/applications/{APP_ID}/commands"
    (carc, language, history, tiles, event, league, profile, leaderboard, versus, ai, hint,
     takeback, away, notify, admin, privacy) = puts[0].json
    assert (notify["name"], versus["name"], admin["name"], privacy["name"]) == (
        "carc-notify", "carc-versus", "carc-admin", "carc-privacy")
    assert [o["name"] for o in privacy["options"]] == ["show", "erase"]
    assert "dm_permission" not in privacy or privacy["dm_permission"] is not False
    assert language["name"] == "carc-language"
    assert (history["name"], tiles["name"]) == ("carc-history", "carc-tiles")
    assert (event["name"], league["name"], profile["name"], leaderboard["name"]) == (
        "carc-event", "carc-league", "carc-profile", "carc-leaderboard")
    assert (ai["name"], hint["name"]) == ("carc-ai", "carc-hint")
    assert (takeback["name"], away["name"]) == ("carc-takeback", "carc-away")
    names = {o["name"] for o in carc["options"]}
    assert carc["name"] == "carc" and len(names) == len(carc["options"]) <= 25
    assert {"create", "join", "leave", "start", "place", "follower", "barn", "recall", "abbey",
            "tunnel", "wagon", "confirm", "undo", "board", "status", "score", "resign", "kick",
            "cancel", "export", "rules", "games"} <= names


async def test_commands_are_not_synced_again_when_unchanged(harness: BotHarness) -> None:
    from tests.bot.conftest import start_bot

    bot, _ = await start_bot(harness.fake, harness.db)
    try:
        assert len([r for r in harness.fake.requests if r.method == "PUT"]) == 1
    finally:
        await bot.close()


async def test_create_posts_a_lobby_with_buttons(harness: BotHarness) -> None:
    post = assert_public_reply(await harness.command(ANA, "create", expansions="river, abbot"))
    assert "opened Carcassonne game" in post.content and "The River" in post.content
    ids = custom_ids(post)
    assert [i.split(":")[1] for i in ids] == ["join", "start"]


async def test_create_refuses_a_second_game_and_bad_expansions(harness: BotHarness) -> None:
    await lobby(harness)
    requests = await harness.command(BEN, "create")
    assert callback(requests).json == {"type": 5}
    assert any(r.method == "DELETE" and r.path.endswith("/messages/@original") for r in requests)
    assert_private_refusal(requests, "already")
    requests = await harness.command(BEN, "create", expansions="seafarers",
                                     _channel=810000000000000099)
    assert_private_refusal(requests, "unknown expansion 'seafarers'")


async def test_join_leave_and_their_refusals(harness: BotHarness) -> None:
    await lobby(harness, BEN)
    assert_private_refusal(await harness.command(BEN, "join"), "already")
    post = assert_public_reply(await harness.command(BEN, "leave"))
    assert "Ben" in post.content and "left" in post.content
    assert_private_refusal(await harness.command(CY, "leave"), "not")
    assert_private_refusal(await harness.command(CY, "join", _channel=810000000000000077),
                           "no game")


async def test_start_by_host_posts_the_board_and_mentions_the_first_player(
        harness: BotHarness) -> None:
    await lobby(harness, BEN)
    assert_private_refusal(await harness.command(BEN, "start"), "host")
    post = assert_card_reply(await harness.command(ANA, "start"))
    assert post.card.method == "POST"  # the game's card, posted once
    (board,) = post.files
    assert board.filename == "board.png" and board.data.startswith(b"\x89PNG\r\n\x1a\n")
    (attached,) = post.json["attachments"]
    assert attached["filename"] == "board.png"
    assert attached["description"].startswith("The board around the last move. No move "
                                              "has been played yet.")
    assert "you drew **" in post.card.text  # the tile is shown to all, as at the table
    view = await harness.bot.service.status(Where(str(GUILD_ID), str(harness.make.channel_id)))
    assert view.deciding is not None and post.ping is not None
    assert post.ping.json["allowed_mentions"]["users"] == [int(view.deciding.user_id or 0)]
    mentioned = [p for p in (ANA, BEN) if f"<@{p[0]}>" in post.content]
    assert len(mentioned) == 1
    assert {c["custom_id"].split(":")[1] for c in walk(post.card.components)
            if "custom_id" in c} == {"tile", "board", "status"}


async def test_kick_needs_the_host_or_manage_server(harness: BotHarness) -> None:
    await lobby(harness, BEN, CY)
    assert_private_refusal(await harness.command(BEN, "kick", player=CY), "host")
    post = assert_public_reply(await harness.command(BEN, "kick", player=CY,
                                                     _perms=MANAGE_GUILD))
    assert "**Cy** was removed" in post.content


async def test_cancel_needs_the_host_or_manage_server(harness: BotHarness) -> None:
    await lobby(harness, BEN)
    assert_private_refusal(await harness.command(BEN, "cancel"), "host")
    post = assert_public_reply(await harness.command(ANA, "cancel"))
    assert "cancelled" in post.content
    (status,) = followups(await harness.command(ANA, "status"))
    assert status.ephemeral and "The game was cancelled." in status.content


async def test_create_in_a_new_thread(harness: BotHarness) -> None:
    requests = await harness.command(ANA, "create", thread=True)
    (thread,) = [r for r in requests if r.path.endswith("/threads")]
    assert thread.json["type"] == 11 and "Ana" in thread.json["name"]
    post = assert_public_reply(requests)
    assert "<#" in post.content


async def test_rules_and_games_are_private(harness: BotHarness) -> None:
    requests = await harness.command(ANA, "rules")
    assert callback(requests).json == {"type": 5, "data": {"flags": 64}}
    assert followups(requests)[0].ephemeral and "/carc place" in followups(requests)[0].content
    await lobby(harness)
    (post,) = followups(await harness.command(ANA, "games"))
    assert post.ephemeral and "waiting for players" in post.content
