"""Players' data on Discord (issue 32), through the fake Discord: `/carc-privacy show` (a
private JSON file, zipped past the upload limit), `/carc-privacy erase` (the plan, then
Erase my data or Cancel, buttons only the caller may press; a plan that changed is shown
again), and the servers the bot leaves and joins (their data waits for deletion, or
stays)."""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from carca_bot.bot.config import ConfigError, Settings
from carca_bot.i18n.pseudo import OPEN
from carca_bot.service import PrivacySettings, User, Where
from tests.bot.cards import assert_card_reply, deletes
from tests.bot.conftest import ANA, BEN, CY, BotHarness, offline_bot
from tests.bot.fake_discord import GUILD_ID, Interactions, Request, walk
from tests.bot.outgoing import assert_clean, assert_described
from tests.bot.spoken import shown
from tests.bot.test_lobby import followups, lobby
from tests.bot.test_pseudo_locale import leaks, pseudo_bot
from tests.bot.test_turns import place_of

DAY = 24 * 3600
__all__ = ["pseudo_bot"]  # a fixture, used here


async def privacy(h: BotHarness, user: tuple[int, str], sub: str,
                  **options: Any) -> list[Request]:
    """`/carc-privacy SUB` as Discord sends a group's subcommand."""
    payload = h.make.command(user, "/carc-privacy", **options)
    payload["data"]["options"] = [{"type": 1, "name": sub, "options": []}]
    return await h.send(payload)


def private(requests: list[Request]) -> Request:
    """The one private answer of a command or click."""
    (answer,) = [r for r in followups(requests) if r.ephemeral] or [
        r for r in requests if r.method == "PATCH" and "/messages/@original" in r.path]
    return answer


def buttons(request: Request) -> dict[str, str]:
    """A message's buttons: label -> custom id."""
    return {str(c["label"]): str(c["custom_id"]) for c in walk(request.components)
            if c.get("type") == 2}


async def playing(h: BotHarness) -> None:
    """Ana and Ben in a running game of this channel."""
    await lobby(h, BEN)
    assert_card_reply(await h.command(ANA, "start"))


# -- show -------------------------------------------------------------------------------


async def test_show_sends_everything_stored_as_a_private_json_file(harness: BotHarness) -> None:
    h = harness
    await playing(h)
    requests = await privacy(h, ANA, "show")
    answer = private(requests)
    (part,) = answer.files
    assert part.filename == f"carca-privacy-{ANA[0]}.json"
    data = json.loads(part.data)
    assert data["format"] == "carca-privacy/1" and data["user_id"] == str(ANA[0])
    seats = data["tables"]["seats"]
    assert [s["display_name"] for s in seats] == ["Ana"] and str(BEN[0]) not in part.data.decode()
    assert data == await h.bot.service.privacy_export(str(ANA[0])) | {
        "made_at": data["made_at"]}
    assert "rows" in answer.content and answer.json["allowed_mentions"]["parse"] == []
    assert_described(requests)
    assert_clean(requests)


async def test_show_zips_what_is_past_the_upload_limit(harness: BotHarness) -> None:
    h = harness
    await playing(h)
    plain = private(await privacy(h, ANA, "show")).files[0].data
    limit = 64 * 1024 + len(plain) - 50  # 64 KiB kept for the message; made_at may vary
    zipped = private(await privacy(h, ANA, "show", _size_limit=limit))
    (part,) = zipped.files
    assert part.filename == f"carca-privacy-{ANA[0]}.zip" and len(part.data) < len(plain)
    with zipfile.ZipFile(io.BytesIO(part.data)) as archive:
        inside = archive.read(f"carca-privacy-{ANA[0]}.json")
    assert json.loads(inside)["tables"] == json.loads(plain)["tables"]
    refused = private(await privacy(h, ANA, "show",
                                      _size_limit=64 * 1024 + 100))
    assert not refused.files and "too large" in refused.content


# -- erase ------------------------------------------------------------------------------


async def erase_plan(h: BotHarness, who: tuple[int, str] = ANA) -> Request:
    answer = private(await privacy(h, who, "erase"))
    assert set(buttons(answer)) == {"Erase my data", "Cancel"}
    return answer


async def click(h: BotHarness, who: tuple[int, str], custom_id: str) -> list[Request]:
    return await h.click(who, custom_id, ephemeral=True)


async def test_erase_says_what_it_does_and_only_the_caller_may_confirm(
        harness: BotHarness) -> None:
    h = harness
    await playing(h)
    plan = await erase_plan(h)
    channel = h.make.channel_id
    assert f"you resign from game #1 in <#{channel}>" in plan.content
    assert "rows that name you are deleted or rewritten" in plan.content
    token = (await h.bot.service.erase_plan(str(ANA[0]))).token
    ids = buttons(plan)
    assert ids["Erase my data"] == f"carcu:erase:{ANA[0]}:{token}"
    assert ids["Cancel"] == f"carcu:keep:{ANA[0]}:{token}"
    # Ben presses Ana's button (a forged click): refused privately, nothing erased.
    refused = private(await click(h, BEN, ids["Erase my data"]))
    assert "another player's" in refused.content
    seats = (await h.bot.service.status(place_of(h))).seats
    assert not next(s for s in seats if s.user_id == str(ANA[0])).resigned
    assert (await h.bot.service.privacy_export(str(ANA[0])))["tables"]
    # Cancel: the message says so and loses its buttons; nothing erased.
    kept = await click(h, ANA, ids["Cancel"])
    edit = next(r for r in kept if r.method == "PATCH")
    assert edit.content == "Nothing was erased." and not buttons(edit)
    assert (await h.bot.service.privacy_export(str(ANA[0])))["tables"]
    assert_clean(h.fake.requests, pinged=[ANA[0], BEN[0]])


async def test_confirmed_the_player_is_erased_and_their_ping_deleted(
        harness: BotHarness) -> None:
    h = harness
    await playing(h)
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None
    first = ANA if view.deciding.user_id == str(ANA[0]) else BEN
    if first == BEN:  # Ana to act, so the turn's ping is hers
        x, y, rot = (await h.bot.service.legal_moves(place_of(h), User(str(BEN[0]), "Ben"))
                     ).placements[0]
        assert_card_reply(await h.command(BEN, "place", square=f"{x},{y}", rotation=rot,
                                          confirm=True))
    saved = await h.bot.service.game_messages(view.game_id)
    assert saved.ping_user == str(ANA[0]) and saved.ping_id is not None
    plan = await erase_plan(h)
    requests = await click(h, ANA, buttons(plan)["Erase my data"])
    done = next(r for r in requests if r.method == "PATCH" and "@original" in r.path)
    assert "you are now **Former player 1**" in done.content and not buttons(done)
    assert any(d.path.endswith(f"/messages/{saved.ping_id}") for d in deletes(requests))
    assert int(saved.ping_id) not in h.fake.messages
    assert (await h.bot.service.privacy_export(str(ANA[0])))["tables"] == {}
    names = [s.name for s in (await h.bot.service.status(place_of(h))).seats]
    assert "Former player 1" in names and "Ana" not in names
    assert int(ANA[0]) not in h.bot.actions.limit._seen  # what the bot held about her
    assert_clean(h.fake.requests, pinged=[ANA[0], BEN[0]])


async def test_a_plan_that_changed_is_shown_again_and_nothing_is_erased(
        harness: BotHarness) -> None:
    h = harness
    await playing(h)
    plan = await erase_plan(h)
    # Meanwhile Ana opens a lobby in another channel: erasing would now leave it too.
    other = h.make.channel_id + 5
    await h.command(ANA, "create", _channel=other)
    requests = await click(h, ANA, buttons(plan)["Erase my data"])
    again = next(r for r in requests if r.method == "PATCH" and "@original" in r.path)
    assert "changed while you were deciding" in again.content
    assert f"game #2 in <#{other}>" in again.content
    token = (await h.bot.service.erase_plan(str(ANA[0]))).token
    assert buttons(again)["Erase my data"] == f"carcu:erase:{ANA[0]}:{token}"
    assert (await h.bot.service.privacy_export(str(ANA[0])))["tables"]["seats"]
    done = await click(h, ANA, buttons(again)["Erase my data"])
    assert any("Former player 1" in r.content for r in done)


async def test_nothing_stored_nothing_to_erase(harness: BotHarness) -> None:
    answer = private(await privacy(harness, CY, "erase"))
    assert answer.content == "Nothing is stored about you: there is nothing to erase."
    assert not buttons(answer)


# -- servers ----------------------------------------------------------------------------


async def settled(h: BotHarness) -> None:
    """Wait for the bot's handlers of the gateway events dispatched so far."""
    for _ in range(200):
        await asyncio.sleep(0.005)
        busy = [t for t in asyncio.all_tasks() if not t.done()
                and t.get_name().startswith("discord.py: on_")]
        if not busy:
            return
        await asyncio.wait(busy, timeout=10)


async def dispatched(h: BotHarness, event: str, payload: dict[str, Any]) -> None:
    """A gateway event as Discord sends it, through discord.py's own parser."""
    getattr(h.bot._connection, f"parse_{event}")(payload)
    await settled(h)


def guild(guild_id: int) -> dict[str, Any]:
    return {"id": str(guild_id), "name": "Meeple Club", "features": [], "roles": [],
            "emojis": [], "stickers": [], "channels": [], "threads": [], "members": [],
            "member_count": 3, "owner_id": str(ANA[0])}


async def test_a_server_that_removes_the_bot_waits_for_deletion_unless_it_returns(
        tmp_path: Path) -> None:
    async with offline_bot(tmp_path / "bot.sqlite3",
                           env={"CARCA_LEAVE_GRACE_DAYS": "3"}) as h:
        assert h.bot.service.privacy.guild_grace == 3 * DAY  # the setting reaches it
        await playing(h)
        await dispatched(h, "guild_create", guild(GUILD_ID))  # the bot is in it
        assert await h.bot.service.departures() == []
        await dispatched(h, "guild_delete", {"id": str(GUILD_ID)})
        ((left, at, due),) = await h.bot.service.departures()
        assert left == str(GUILD_ID) and due - at == 3 * DAY
        await dispatched(h, "guild_delete", {"id": str(GUILD_ID), "unavailable": True})
        await dispatched(h, "guild_create", guild(GUILD_ID))  # added back in time
        assert await h.bot.service.departures() == []
        await dispatched(h, "guild_delete", {"id": str(GUILD_ID), "unavailable": True})
        assert await h.bot.service.departures() == []  # an outage is no departure


async def test_at_start_the_servers_left_meanwhile_wait_for_deletion(
        harness: BotHarness) -> None:
    h = harness
    await playing(h)  # in GUILD_ID
    elsewhere = Interactions(h.fake, channel_id=810000000000000099,
                             guild_id=GUILD_ID + 1)
    await h.send(elsewhere.command(CY, "create"))
    await dispatched(h, "guild_create", guild(GUILD_ID))
    h.bot.dispatch("ready")
    await settled(h)
    assert [g for g, _, _ in await h.bot.service.departures()] == [str(GUILD_ID + 1)]
    await h.bot.service.guild_back(str(GUILD_ID + 1))
    h.bot.dispatch("ready")  # a reconnection: not a start, nothing checked again
    await settled(h)
    assert await h.bot.service.departures() == []
    assert (await h.bot.service.status(Where(str(GUILD_ID + 1),
                                             str(elsewhere.channel_id)))).status == "lobby"


def test_the_privacy_settings_come_from_the_environment() -> None:
    env = {"CARCA_LEAVE_GRACE_DAYS": "7", "CARCA_RETENTION_DAYS": "365"}
    assert Settings.from_env(env).privacy == PrivacySettings(7 * DAY, 365 * DAY)
    assert Settings.from_env({}).privacy == PrivacySettings()
    with pytest.raises(ConfigError, match="CARCA_RETENTION_DAYS"):
        Settings.from_env({"CARCA_RETENTION_DAYS": "0"})
    with pytest.raises(ConfigError, match="CARCA_LEAVE_GRACE_DAYS"):
        Settings.from_env({"CARCA_LEAVE_GRACE_DAYS": "soon"})


async def test_the_privacy_words_are_translated(pseudo_bot: BotHarness) -> None:
    """Every word of `/carc-privacy` (in the test pseudo-language), the plan, a plan
    that changed, the refusal of a stranger, the cancel and the erasure."""
    h = pseudo_bot
    await playing(h)
    start = len(h.fake.requests)
    await privacy(h, ANA, "show")
    plan = private(await privacy(h, ANA, "erase"))
    erase, keep = (str(c["custom_id"]) for c in walk(plan.components) if c.get("type") == 2)
    await click(h, BEN, erase)
    await click(h, ANA, keep)
    await h.command(ANA, "create", _channel=h.make.channel_id + 5)
    await click(h, ANA, erase)  # the plan changed: shown again
    again = (await h.bot.service.erase_plan(str(ANA[0]))).token
    await click(h, ANA, erase.rsplit(":", 1)[0] + f":{again}")
    await privacy(h, CY, "erase")  # nothing stored
    said = h.fake.since(start)
    assert any("1" in text and OPEN in text for text in shown(said))
    assert leaks(said) == []
