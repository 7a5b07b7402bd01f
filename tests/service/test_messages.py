"""A game's card and ping ids, and each user's notification preference, kept on disk."""

from __future__ import annotations

from pathlib import Path

from carca_bot.service import BadInput, GameService, NotifyPref
from tests.service.helpers import ANA, BEN, Clock, raises_saying, started


async def test_card_and_ping_ids_survive_a_restart(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service)
        assert (await service.game_messages(view.game_id)).card_id is None
        await service.set_card_message(view.game_id, "c1", "m1")
        await service.set_ping_message(view.game_id, "c1", "p1", ANA.id, 3)
        await service.set_card_message(view.game_id, "c1", "m2")  # a card posted again
    finally:
        await service.close()
    again = await GameService.open(db, clock=clock)
    try:
        found = await again.game_messages(view.game_id)
        assert (found.card_channel, found.card_id) == ("c1", "m2")
        assert (found.ping_channel, found.ping_id, found.ping_user, found.ping_moves) == (
            "c1", "p1", ANA.id, 3)
        await again.set_ping_message(view.game_id, None, None)
        assert (await again.game_messages(view.game_id)).ping_id is None
        assert (await again.game_messages(view.game_id)).card_id == "m2"
    finally:
        await again.close()


async def test_notify_preferences_default_to_a_mention(service: GameService) -> None:
    assert await service.notify_prefs([ANA.id, BEN.id]) == {
        ANA.id: NotifyPref("channel", False), BEN.id: NotifyPref("channel", False)}
    await service.set_notify(ANA.id, "dm", True)
    await service.set_notify(BEN.id, "none", False)
    await service.set_notify(BEN.id, "channel", True)  # changed again
    assert await service.notify_prefs([ANA.id, BEN.id, ""]) == {
        ANA.id: NotifyPref("dm", True), BEN.id: NotifyPref("channel", True)}


async def test_an_unknown_notify_mode_is_refused(service: GameService) -> None:
    with raises_saying(BadInput, "unknown way to be told 'pigeon': use channel, dm, none"):
        await service.set_notify(ANA.id, "pigeon", False)
    assert (await service.notify_prefs([ANA.id]))[ANA.id] == NotifyPref()
