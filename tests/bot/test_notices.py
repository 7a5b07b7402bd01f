"""Messages for what the service reports besides moves: a command stored but not shown,
a limit reached, a lobby closed for waiting too long."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from carca_bot.service import SavedNotShown, TimerReport
from tests.bot.conftest import ANA, BEN, CY, BotHarness, offline_bot
from tests.bot.outgoing import assert_clean
from tests.bot.test_lobby import assert_private_refusal, assert_public_reply, followups, lobby
from tests.bot.test_turns import place_of, started

CHANNEL = 810000000000000001


async def test_a_stored_command_that_could_not_be_shown_says_so(harness: BotHarness) -> None:
    first, _ = await started(harness)
    service = harness.bot.service
    real = service.begin_turn

    async def stored_then_lost(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)  # the draw is stored, as the service's own would be
        raise SavedNotShown("your command was saved, but the game could not be shown just "
                            "now: look at it again in a moment (do not repeat the command)")

    service.begin_turn = stored_then_lost  # type: ignore[method-assign]
    requests = await harness.command(first, "tile")
    (answer,) = followups(requests)
    assert answer.ephemeral and "was saved" in answer.content
    assert "do not repeat" in answer.content and "nothing" not in answer.content.lower()
    assert_clean(requests)


async def test_a_limit_reached_is_a_private_refusal_naming_it(tmp_path: Path) -> None:
    async with offline_bot(tmp_path / "bot.sqlite3",
                           {"CARCA_LIMITS": "games_per_user=1"}) as h:
        assert_public_reply(await h.command(BEN, "create"))
        assert_public_reply(await h.command(ANA, "create", _channel=810000000000000009))
        requests = await h.command(ANA, "join")
        assert_private_refusal(requests, "you are already in 1 game")
        assert_private_refusal(requests, "the limit is 1")
        assert_clean(requests)


async def test_an_expired_lobby_is_announced_pinging_nobody(harness: BotHarness) -> None:
    await lobby(harness, CY)
    view = await harness.bot.service.status(place_of(harness), str(ANA[0]))
    start = len(harness.fake.requests)
    await harness.bot.announce_timer(TimerReport(
        view.game_id, view.where, str(ANA[0]), "Ana", False, view, reason="lobby_expired"))
    requests = harness.fake.since(start)
    (post,) = [r for r in requests if r.path == f"/channels/{CHANNEL}/messages"]
    assert "waited 7 days without starting and was closed" in post.content
    assert "Ana" in post.content and f"<@{ANA[0]}>" not in post.content
    assert not post.json.get("components")  # no Join or Start on a closed lobby
    assert_clean(requests, pinged=[])
