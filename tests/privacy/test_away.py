"""A server the bot was removed from, during the grace period before its data goes, on
SQLite and PostgreSQL: its games' timers, its owed posts and its events wait (nobody
there can see the bot, nor move), other servers' go on; back in time, everything goes
on where it stopped."""

from __future__ import annotations

from carca_bot.league import EventConfig, Format
from carca_bot.service import GameOptions, GameService, Where
from carca_bot.service.privacy_servers import PERIOD
from tests.privacy.world import ADMIN, BEN, CY, DAY, DEE, G1, G2, ZOE
from tests.service.helpers import Clock

HOUR = 3600


async def timed(service: GameService, where: Where) -> int:
    """A game of Ben and Cy with a turn timer of an hour, started, not yet moved."""
    await service.create(where, BEN, GameOptions(seed=3, turn_timer=HOUR))
    await service.join(where, CY)
    return (await service.start(where, BEN)).game_id


async def test_a_left_servers_timers_and_posts_wait_for_its_return(
        service: GameService, clock: Clock) -> None:
    here, there = await timed(service, Where(G1, "a")), await timed(service, Where(G2, "b"))
    owed = {p.game_id for p in await service.pending_posts()}
    assert owed == {here, there}  # the starts were never said posted
    await service.guild_left(G1)
    assert {p.game_id for p in await service.pending_posts()} == {there}
    clock.now += HOUR + 1
    reports = await service.check_timers(clock.now)
    assert [r.game_id for r in reports] == [there]  # the late player is reminded in G2
    before = (await service.status(Where(G1, "a"))).deadline
    clock.now += 5 * HOUR
    assert [r.game_id for r in await service.check_timers(clock.now)] == [there]
    assert (await service.status(Where(G1, "a"))).deadline == before  # nothing piled up
    assert await service.guild_back(G1)
    assert here in {p.game_id for p in await service.pending_posts()}
    assert here in [r.game_id for r in await service.check_timers(clock.now)]


async def test_a_left_servers_events_forfeit_nobody(service: GameService,
                                                    clock: Clock) -> None:
    """An event with forfeits at the deadline: while the bot is away from its server,
    the deadline passes and nobody loses for it; back, the forfeits come."""
    await service.set_organiser_role(G1, ADMIN, "role-org")
    config = EventConfig(Format.SWISS, rounds=1, round_seconds=DAY, forfeit_at_deadline=True)
    info = await service.create_event(Where(G1, "hall"), ADMIN, "Cup", config, GameOptions())
    for user in (ZOE, BEN, CY, DEE):
        info = await service.sign_up(info.id, user)
    info, pairings = await service.start_event(info.id, ADMIN)
    for p in pairings:
        await service.open_event_game(p.event_id, p, Where(G1, f"cup-{p.match_id}"))
    await service.guild_left(G1)
    clock.now += 2 * DAY
    assert await service.check_events(clock.now) == []
    assert await ruled(service, info.id) == 0
    await service.guild_back(G1)
    clock.now += PERIOD
    await service.check_events(clock.now)
    assert await ruled(service, info.id) == len(pairings)


async def ruled(service: GameService, event_id: int) -> int:
    """The event's matches decided by a ruling (a forfeit at the deadline is one)."""
    event = (await service.event_info(event_id)).event
    return sum(bool(m.rulings) for r in event.rounds for m in r.matches)
