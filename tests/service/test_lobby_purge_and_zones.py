"""Issue 26's smaller items through the service: closed lobbies are deleted by the timers
after a grace period, and clocks take only IANA zone names from the tz database."""

from __future__ import annotations

import pytest

from carca_bot.i18n import speaking
from carca_bot.service import BadInput, GameOptions, GameService, NoGameHere
from carca_bot.service.lobby import CLOSED_LOBBY_GRACE
from carca_bot.service.model import clock_rules
from carca_bot.service.zones import MAX_ZONE_CHARS, zone_names, zone_problem
from carca_bot.words import say
from tests.service.helpers import ANA, BEN, HERE, THERE, Clock, started


async def test_closed_lobbies_go_after_the_grace_period(service: GameService,
                                                        clock: Clock) -> None:
    lobby = await service.create(HERE, ANA, GameOptions())
    await service.cancel(HERE, ANA)
    game = await started(service, [ANA, BEN], where=THERE)
    await service.cancel(THERE, ANA)  # a game that was dealt: kept, it has moves to show
    clock.now += CLOSED_LOBBY_GRACE - 1
    await service.check_timers()
    assert await service.store.game(lobby.game_id) is not None
    clock.now += 2
    await service.check_timers()
    assert await service.store.game(lobby.game_id) is None
    assert await service.store.game(game.game_id) is not None
    with pytest.raises(NoGameHere):
        await service.status(HERE)
    # The channel is free for a new lobby, as before.
    assert (await service.create(HERE, BEN, GameOptions())).status == "lobby"


async def test_an_expired_lobby_is_deleted_a_grace_period_after_it_expired(
        service: GameService, clock: Clock) -> None:
    lobby = await service.create(HERE, ANA, GameOptions())
    clock.now += service.limits.lobby_lifetime + 1
    assert [r.reason for r in await service.check_timers()] == ["lobby_expired"]
    clock.now += CLOSED_LOBBY_GRACE - 1
    await service.check_timers()
    assert await service.store.game(lobby.game_id) is not None
    clock.now += 2
    await service.check_timers()
    assert await service.store.game(lobby.game_id) is None


@pytest.mark.parametrize("name", ["localtime", "posixrules", "Factory", "right/Europe/Madrid",
                                  "posix/Europe/Madrid", "Europe/Nowhere", "../etc/passwd",
                                  "", "europe/madrid"])
def test_only_the_tz_databases_zones_are_time_zones(name: str) -> None:
    with pytest.raises(BadInput) as refused:
        clock_rules({"preset": "normal", "timezone": name})
    assert refused.value.code == "unknown_time_zone"


def test_a_very_long_zone_name_is_refused_in_words_not_as_an_os_error() -> None:
    """A name over 255 characters used to raise OSError (a file name too long)."""
    for length in (MAX_ZONE_CHARS + 1, 300, 100_000):
        with pytest.raises(BadInput) as refused:
            clock_rules({"preset": "normal", "timezone": "A" * length})
        assert refused.value.code == "time_zone_too_long"
    with speaking("es"):
        assert "zona horaria" in say(refused.value)


def test_real_zones_are_accepted() -> None:
    for name in ("UTC", "Europe/Madrid", "America/Argentina/ComodRivadavia", "Etc/GMT+5"):
        assert zone_problem(name) is None
        assert clock_rules({"preset": "normal", "timezone": name}).timezone == name
    assert len(zone_names()) > 500 and max(map(len, zone_names())) <= MAX_ZONE_CHARS
    assert zone_problem(7) == "unknown_time_zone"
