"""Per-user and per-server limits, stale lobbies, and what "/carc games" leaves out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from carca_bot.service import (
    GameOptions,
    GameService,
    LimitReached,
    Limits,
    NoGameHere,
    ServiceError,
    User,
    Where,
)
from tests.service.helpers import (
    ANA,
    BEN,
    CY,
    DEE,
    HERE,
    THERE,
    Clock,
    raises_saying,
    said,
    started,
    words,
)

SMALL = Limits(lobbies_per_user=2, lobbies_per_server=3, games_per_user=3, games_per_server=2,
               threads_per_day=2, imports_per_hour=2)
ELSEWHERE = Where("guild-2", "channel-9")
RECORD = {"format": "carca-record/1", "players": ["A", "B"], "actions": []}


@pytest.fixture
async def small(db: Path, clock: Clock) -> AsyncIterator[GameService]:
    svc = await GameService.open(db, clock=clock, limits=SMALL)
    yield svc
    await svc.close()


def _at(n: int, guild: str = "guild-1") -> Where:
    return Where(guild, f"room-{n}")


async def test_the_defaults_are_sane() -> None:
    limits = Limits()
    assert (limits.lobbies_per_user, limits.lobbies_per_server) == (3, 25)
    assert (limits.games_per_user, limits.games_per_server) == (20, 500)
    assert (limits.threads_per_day, limits.imports_per_hour) == (5, 10)
    assert limits.lobby_lifetime == 7 * 24 * 3600


async def test_open_lobbies_per_user(small: GameService) -> None:
    await small.create(_at(1), ANA, GameOptions())
    await small.create(_at(2), ANA, GameOptions())
    with raises_saying(LimitReached, r"already host 2 open lobbies \(the limit is 2\): "
                                           "start or cancel"):
        await small.create(_at(3), ANA, GameOptions())
    with pytest.raises(NoGameHere):
        await small.status(_at(3))  # nothing was stored
    await small.cancel(_at(1), ANA)
    await small.create(_at(3), ANA, GameOptions())


async def test_open_lobbies_per_server(small: GameService) -> None:
    for n, user in enumerate((ANA, BEN, CY)):
        await small.create(_at(n), user, GameOptions())
    with raises_saying(LimitReached, "this server already has 3 open lobbies"):
        await small.create(_at(5), DEE, GameOptions())
    await small.create(ELSEWHERE, DEE, GameOptions())  # another server has its own


async def test_games_per_user_counts_lobbies_joined(small: GameService) -> None:
    await started(small, (ANA, BEN), where=_at(1))
    await small.create(_at(2), BEN, GameOptions())
    await small.join(_at(2), ANA)
    await small.create(_at(3), CY, GameOptions())
    await small.join(_at(3), ANA)
    await small.create(_at(4), DEE, GameOptions())
    with raises_saying(LimitReached, r"already in 3 games .*the limit is 3"):
        await small.join(_at(4), ANA)
    await small.leave(_at(3), ANA)
    await small.join(_at(4), ANA)


async def test_running_games_per_server(small: GameService) -> None:
    await started(small, (ANA, BEN), where=_at(1))
    await started(small, (CY, DEE), where=_at(2))
    await small.create(_at(3), User("7", "Eve"), GameOptions())
    await small.join(_at(3), User("8", "Flo"))
    with raises_saying(LimitReached, "already has 2 running games"):
        await small.start(_at(3), User("7", "Eve"))
    assert (await small.status(_at(3))).status == "lobby"


async def test_new_threads_per_user_over_a_rolling_day(small: GameService,
                                                       clock: Clock) -> None:
    await small.check_can_create("guild-1", ANA.id, new_thread=True)
    await small.create(_at(1), ANA, GameOptions(), new_thread=True)
    await small.cancel(_at(1), ANA)
    clock.now += 3600
    await small.create(_at(2), ANA, GameOptions(), new_thread=True)
    await small.cancel(_at(2), ANA)
    with raises_saying(LimitReached, r"2 game threads in the last 24 hours"):
        await small.check_can_create("guild-1", ANA.id, new_thread=True)
    with raises_saying(LimitReached, "game threads"):
        await small.create(_at(3), ANA, GameOptions(), new_thread=True)
    await small.check_can_create("guild-1", ANA.id, new_thread=False)  # a channel is fine
    await small.check_can_create("guild-1", BEN.id, new_thread=True)  # so is someone else
    clock.now += 23 * 3600 + 1  # the first thread is a day old
    await small.create(_at(3), ANA, GameOptions(), new_thread=True)


async def test_check_can_create_says_what_create_would(small: GameService) -> None:
    await small.create(_at(1), ANA, GameOptions())
    await small.create(_at(2), ANA, GameOptions())
    with raises_saying(LimitReached, "open lobbies"):
        await small.check_can_create("guild-1", ANA.id, new_thread=False)


async def test_imports_per_user_per_hour(small: GameService, clock: Clock) -> None:
    for n in range(2):
        await small.import_record(_at(n), ANA, RECORD)
        await small.cancel(_at(n), ANA)
    with raises_saying(LimitReached, r"imported 2 records in the last hour"):
        await small.import_record(_at(3), ANA, RECORD)
    clock.now += 3601
    await small.import_record(_at(3), ANA, RECORD)


async def test_a_limit_is_a_service_error_with_a_message(small: GameService) -> None:
    await small.create(_at(1), ANA, GameOptions())
    await small.create(_at(2), ANA, GameOptions())
    with pytest.raises(ServiceError) as refused:
        await small.create(_at(3), ANA, GameOptions())
    assert words(refused.value).startswith("you already host")


# -- stale lobbies --------------------------------------------------------------------------


async def test_a_lobby_not_started_in_a_week_is_closed(service: GameService,
                                                       clock: Clock) -> None:
    await service.create(HERE, ANA, GameOptions())
    await service.join(HERE, BEN)
    running = await started(service, (CY, DEE), where=THERE)
    clock.now += 6 * 24 * 3600
    await service.create(Where("guild-1", "young"), BEN, GameOptions())
    assert await service.check_timers() == []
    clock.now += 24 * 3600
    (report,) = await service.check_timers()
    assert (report.reason, report.where, report.user_id, report.name) == (
        "lobby_expired", HERE, ANA.id, "Ana")
    assert report.view.status == "cancelled" and not report.auto_played
    assert any("not started within 7 days" in e for e in said(report.view))
    # A lobby's end is said by the report, not owed as a game post.
    assert report.game_id not in {p.game_id for p in await service.pending_posts()}
    assert running.game_id in {p.game_id for p in await service.pending_posts()}
    await service.create(HERE, BEN, GameOptions())  # the channel is free again
    assert (await service.status(THERE)).status == "active"  # a running game stays
    assert (await service.status(Where("guild-1", "young"))).status == "lobby"


async def test_cancelled_games_leave_my_games(service: GameService) -> None:
    await started(service, (ANA, BEN))
    await service.create(THERE, ANA, GameOptions())
    assert len(await service.my_games(ANA.id)) == 2
    await service.cancel(HERE, ANA)
    await service.cancel(THERE, ANA)
    assert await service.my_games(ANA.id) == []
