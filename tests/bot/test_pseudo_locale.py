"""The pseudo-locale test: every message path of the bot, spoken in `qps`, leaves no
untranslated word in front of a player (only data: names, tile ids, numbers).

A `qps` interaction and server locale make private replies pseudo, and the games
created speak `qps` (the service is told it is a language, for this test only).
Everything is checked: the bot's own words and what it says for the service and the
engine (`words.say`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from carca_bot.bot.core.gate import RateLimit
from carca_bot.engine.catalogue import tile_ids
from carca_bot.engine.figures import FIGURES
from carca_bot.i18n import PSEUDO
from carca_bot.i18n.pseudo import CLOSE, OPEN, untranslated
from carca_bot.service import TimerReport, User, model
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, CY, MANAGE_GUILD, BotHarness
from tests.bot.fake_discord import Request
from tests.bot.spoken import shown
from tests.bot.test_turns import choices, place_of

ALLOWED = frozenset({"Ana", "Ben", "Cy", *tile_ids(), *FIGURES})


@pytest.fixture
def pseudo_bot(harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> Iterator[BotHarness]:
    harness.make.locale = PSEUDO
    harness.make.guild_locale = PSEUDO
    # Games may speak the pseudo-language too (a real one speaks "en" or "es").
    monkeypatch.setattr(model, "LANGUAGES", (*model.LANGUAGES, PSEUDO))
    yield harness


def leaks(requests: list[Request]) -> list[tuple[str, list[str]]]:
    return [(text, found) for text in map(closed, shown(requests))
            if (found := untranslated(text, ALLOWED))]


def closed(text: str) -> str:
    """A text cut to one of Discord's limits (alt text ends in "…" then) with the marks
    it cut through closed: what was cut was translated."""
    if not text.endswith("…"):
        return text
    return text + CLOSE * max(0, text.count(OPEN) - text.count(CLOSE))


async def drive(h: BotHarness, player: tuple[int, str], rng: random.Random) -> None:
    """One turn of whoever must act, through commands, buttons, menus and autocomplete."""
    view = await h.bot.service.status(place_of(h), str(player[0]))
    legal = await choices(h, player)
    if legal.must == "choose":
        await h.click(player, f"carc:abbey:{view.game_id}:{view.version}")
        await h.command(player, "draw")
        return
    if legal.must == "wagon":
        await h.autocomplete(player, "wagon", "target", target="")
        await h.command(player, "wagon", target="return")
        return
    if legal.must == "abbey_round":
        await h.autocomplete(player, "abbey", "square", square="")
        await h.command(player, "abbey", square="skip")
        return
    await h.command(player, "tile")
    await h.autocomplete(player, "place", "square", square="")
    x, y, rot = rng.choice(legal.placements)
    await h.autocomplete(player, "place", "on", square=f"{x},{y}", rotation=rot,
                         figure="follower", on="")
    await h.command(player, "place", square=f"{x},{y}", rotation=rot)
    view = await h.bot.service.status(place_of(h), str(player[0]))
    await h.click(player, f"carc:rotate:{view.game_id}:{view.version}")
    await h.autocomplete(player, "follower", "on", on="")
    await h.autocomplete(player, "tunnel", "entrance", entrance="")
    legal = await choices(h, player)
    view = await h.bot.service.status(place_of(h), str(player[0]))
    if legal.deployments:
        figure, on = legal.deployments[0]
        await h.click(player, f"carc:pick:{view.game_id}:{view.version}",
                      values=[f"{figure}:{on}"])
        view = await h.bot.service.status(place_of(h), str(player[0]))
    await h.click(player, f"carc:confirm:{view.game_id}:{view.version}")


async def test_every_message_path_is_translated(pseudo_bot: BotHarness) -> None:
    h = pseudo_bot
    rng = random.Random(3)
    await asyncio.wait_for(h.bot.caught_up.wait(), 10)
    # Lobby: autocomplete, create, join, leave, refusals of the bot's own.
    await h.autocomplete(ANA, "create", "expansions", expansions="")
    await h.autocomplete(ANA, "create", "expansions", expansions="river, ab")
    await h.command(ANA, "create", expansions="nonsense")
    await h.command(ANA, "create", expansions="all", timer_hours=2, auto_play=True)
    await h.command(BEN, "join")
    await h.command(CY, "join")
    await h.command(CY, "leave")
    await h.command(ANA, "place", square="zz")
    await h.command(ANA, "rules")
    await h.command(ANA, "games")
    await h.command(ANA, "/carc-language", language="es", server=True)
    await h.command(ANA, "/carc-language", language="es", server=True, _perms=MANAGE_GUILD)
    await h.command(ANA, "/carc-language", language="default")
    await h.command(ANA, "/carc-language")
    await h.command(ANA, "/carc-language", language="default", server=True,
                    _perms=MANAGE_GUILD)
    await h.command(ANA, "start")
    view = await h.bot.service.status(place_of(h))
    await h.click(ANA, "carc:bogus:1:1")
    # Turns, with every view of the game along the way.
    for turn in range(8):
        view = await h.bot.service.status(place_of(h))
        if view.finished or view.deciding is None or view.deciding.user_id is None:
            break
        player = ANA if view.deciding.user_id == str(ANA[0]) else BEN
        await drive(h, player, rng)
        if turn == 2:
            await h.command(player, "status")
            await h.command(player, "board")
            await h.command(player, "score")
            await h.command(player, "export")
            await h.command(player, "games")
            await h.command(player, "undo")
    # Timers: a reminder, then a turn played for the late player.
    view = await h.bot.service.status(place_of(h))
    assert view.deadline is not None
    for report in await h.bot.service.check_timers(now=view.deadline + 1):
        await h.bot.announce_timer(report)
    view = await h.bot.service.status(place_of(h))
    assert view.deadline is not None
    for report in await h.bot.service.check_timers(now=view.deadline + 1):
        await h.bot.announce_timer(report)
    # Resigning (asked, kept, then done), and the end of the game.
    await h.command(BEN, "resign")
    view = await h.bot.service.status(place_of(h))
    await h.click(BEN, f"carc:keep:{view.game_id}:{view.version}")
    await h.click(BEN, f"carc:resign:{view.game_id}:{view.version}")
    await h.command(ANA, "status")
    assert leaks(h.fake.requests) == []


async def test_lobby_notices_kick_cancel_and_busy_replies(pseudo_bot: BotHarness) -> None:
    h = pseudo_bot
    await h.command(ANA, "create", thread=True)
    await h.command(ANA, "cancel")
    await h.command(ANA, "create")
    await h.command(BEN, "join")
    await h.command(ANA, "kick", player=BEN)
    view = await h.bot.service.status(place_of(h))
    await h.bot.announce_timer(TimerReport(view.game_id, view.where, str(ANA[0]), "Ana", False,
                                           view, reason="lobby_expired"))
    await h.command(BEN, "join")
    await h.command(ANA, "cancel", _perms=MANAGE_GUILD)
    await h.command(ANA, "create", timer_hours=1)
    await h.command(BEN, "join")
    await h.command(ANA, "start")
    view = await h.bot.service.status(place_of(h))
    assert view.deadline is not None
    reminders = await h.bot.service.check_timers(now=view.deadline + 1)
    assert [r.reason for r in reminders] == ["reminder"]
    await h.bot.announce_timer(reminders[0])
    h.bot.actions.limit = RateLimit(burst=1, window=60.0)
    await h.command(ANA, "rules")
    await h.command(ANA, "rules")
    h.bot.actions.accepting = False
    await h.command(ANA, "rules")
    h.bot.actions.accepting = True
    assert leaks(h.fake.requests) == []


async def test_a_late_post_and_the_final_post_are_translated(pseudo_bot: BotHarness) -> None:
    h = pseudo_bot
    await asyncio.wait_for(h.bot.caught_up.wait(), 10)
    await h.command(ANA, "create")
    await h.command(BEN, "join")
    await h.command(ANA, "start")
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None and view.deciding.user_id is not None
    player = ANA if view.deciding.user_id == str(ANA[0]) else BEN
    x, y, rot = (await choices(h, player)).placements[0]
    h.fake.fail_when.extend([(_public_followup, 403)] * 2)  # the edit, then a new card
    await h.command(player, "place", square=f"{x},{y}", rotation=rot, confirm=True)
    h.fake.fail_when.clear()
    assert await h.bot.deliver_pending(min_age=0.0) == 1
    # Play to the end quickly through the service, then the last move through Discord.
    rng = random.Random(1)
    while True:
        view = await h.bot.service.status(place_of(h))
        assert view.deciding is not None and view.deciding.user_id is not None
        if view.tiles_left <= 1:
            break
        user = User(view.deciding.user_id, view.deciding.name)
        legal = await h.bot.service.legal_moves(place_of(h), user)
        px, py, prot = rng.choice(legal.placements)
        await h.bot.service.place(place_of(h), user, px, py, prot, None, None, True)
    player = ANA if view.deciding.user_id == str(ANA[0]) else BEN
    x, y, rot = (await choices(h, player)).placements[0]
    last = assert_card_reply(await h.command(player, "place", square=f"{x},{y}",
                                             rotation=rot, confirm=True)).final
    assert last is not None and last.files
    assert any((p.filename or "").endswith(".txt") for p in last.files)
    assert len(last.files) == 5  # board, scores, card, animation, HTML: all described
    assert leaks(h.fake.requests) == []


async def test_history_tiles_and_their_refusals_are_translated(
        pseudo_bot: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The history browser (opened, stepped, refused), `/carc-tiles`, the export's HTML,
    and a last post whose pictures were left out."""
    from carca_bot.bot.posts import endgame
    from carca_bot.render.replay import ReplayTooLarge

    h = pseudo_bot
    await h.command(ANA, "/carc-history")  # no game here yet
    await h.command(ANA, "/carc-tiles")
    await h.command(ANA, "create", expansions="all")
    await h.command(BEN, "join")
    await h.command(ANA, "/carc-history")  # not started yet
    await h.command(ANA, "start")
    rng = random.Random(5)
    for _ in range(3):
        view = await h.bot.service.status(place_of(h))
        assert view.deciding is not None and view.deciding.user_id is not None
        await drive(h, ANA if view.deciding.user_id == str(ANA[0]) else BEN, rng)
    view = await h.bot.service.status(place_of(h))
    game = view.game_id
    await h.command(ANA, "/carc-history")
    await h.command(ANA, "/carc-history", move=0)
    await h.command(ANA, "/carc-history", move=9999)
    for custom_id in (f"carc:hback:{game}:2", f"carc:hnext:{game}:0", f"carc:hfirst:{game}:2",
                      f"carc:hlast:{game}:0", f"carc:hnext:{game}:999", f"carc:hist:{game}:1"):
        payload = h.make.component(ANA, custom_id)
        payload["message"]["flags"] = 64
        await h.send(payload)
    await h.command(ANA, "/carc-tiles")
    await h.command(ANA, "export")

    def too_large(*args: Any, **kwargs: Any) -> Any:
        raise ReplayTooLarge("too large")

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("broken")

    monkeypatch.setattr(endgame, "render_replay", too_large)
    monkeypatch.setattr(endgame, "html_replay", broken)
    while True:
        view = await h.bot.service.status(place_of(h))
        assert view.deciding is not None and view.deciding.user_id is not None
        user = User(view.deciding.user_id, view.deciding.name)
        legal = await h.bot.service.legal_moves(place_of(h), user)
        if legal.must == "choose":
            await h.bot.service.draw(place_of(h), user)
            continue
        if legal.must == "wagon":
            await h.bot.service.return_wagon(place_of(h), user)
            continue
        if legal.must == "abbey_round" or view.tiles_left <= 1:
            break
        px, py, prot = rng.choice(legal.placements)
        await h.bot.service.place(place_of(h), user, px, py, prot, None, None, True)
    for _ in range(10):  # the last tile and any abbey round, through Discord
        view = await h.bot.service.status(place_of(h))
        if view.finished:
            break
        assert view.deciding is not None and view.deciding.user_id is not None
        player = ANA if view.deciding.user_id == str(ANA[0]) else BEN
        legal = await choices(h, player)
        if legal.must == "abbey_round":
            await h.command(player, "abbey", square="skip")
        elif legal.must == "wagon":
            await h.command(player, "wagon", target="return")
        elif legal.must == "choose":
            await h.command(player, "draw")
        else:
            x, y, rot = legal.placements[0]
            await h.command(player, "place", square=f"{x},{y}", rotation=rot, confirm=True)
    assert (await h.bot.service.status(place_of(h))).finished
    said = "\n".join(shown(h.fake.requests))
    assert OPEN in said and "carc-history" in said
    assert leaks(h.fake.requests) == []


def _public_followup(r: Request) -> bool:
    """The game's card, edited or posted again (the public part of a move)."""
    return r.method in ("PATCH", "POST") and r.path.startswith("/channels/") and r.v2


def test_untranslated_text_is_caught() -> None:
    """The check itself fails on plain English, so the tests above can fail."""
    sample: Any = [Request("POST", "/channels/1/messages", {}, {"content": "Your turn, Ana"})]
    assert leaks(sample) == [("Your turn, Ana", ["Your", "turn"])]
