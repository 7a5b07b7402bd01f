"""One bot process's service, in a process of its own, for the two-process test.

`run` is the target of a `multiprocessing` spawn: it opens a `GameService` on the
PostgreSQL database `url` (its clock at `now`, then at each instant the timers are
fired at, the same in both processes), then follows `plan` step by step, waiting at
`barrier` before each step so that the two processes do each step at the same moment.
What it saw goes back on `results` as plain data (game ids, versions, codes, actions),
never live objects.
"""

from __future__ import annotations

import asyncio
import traceback
from dataclasses import dataclass
from typing import Any

from carca_bot.service import GameMovedOn, GameService, ServiceError, TurnOrder, User, Where
from carca_bot.service.shards import Shards

BARRIER_SECONDS = 120.0


@dataclass(frozen=True)
class Plan:
    """What one process does: the games to move in, rounds of moves, then timers at
    each of `timer_times`, then the owed posts."""

    games: tuple[tuple[str, str], ...]  # (guild, channel) of the games to move in
    players: dict[str, str]  # user id -> name
    rounds: int
    timer_times: tuple[float, ...]
    shards: tuple[tuple[int, ...], int] | None  # (ids, count), or None for every shard


def run(name: str, url: str, now: float, plan: Plan, barrier: Any, results: Any) -> None:
    try:
        results.put((name, asyncio.run(_drive(url, now, plan, barrier))))
    except BaseException:  # the test reports it, rather than waiting on the barrier
        results.put((name, {"error": traceback.format_exc()}))
        barrier.abort()


def _wait(barrier: Any) -> None:
    barrier.wait(BARRIER_SECONDS)


async def _drive(url: str, now: float, plan: Plan, barrier: Any) -> dict[str, Any]:
    clock = [now]  # the service's clock; moved to each instant the timers are fired at
    service = await GameService.open(url, clock=lambda: clock[0])
    if plan.shards is not None:
        service.shards = Shards.of(*plan.shards)
    out: dict[str, Any] = {"moves": [], "timers": [], "posts": []}
    try:
        for _ in range(plan.rounds):
            # Both read while nobody writes, so both aim the same move at the same version.
            _wait(barrier)
            aimed = [await _aim(service, Where(*g), plan) for g in plan.games]
            _wait(barrier)
            sent = await asyncio.gather(*(_send(service, Where(*g), a)
                                          for g, a in zip(plan.games, aimed, strict=True)))
            out["moves"].extend(s for s in sent if s is not None)
        for at in plan.timer_times:
            _wait(barrier)
            clock[0] = at
            reports = await service.check_timers(now=at)
            out["timers"].extend({"game": r.game_id, "reason": r.reason, "user": r.user_id,
                                  "version": r.view.version, "played": list(r.actions)}
                                 for r in reports)
        _wait(barrier)
        out["posts"] = [{"game": p.game_id, "version": p.version}
                        for p in await service.pending_posts()]
        _wait(barrier)
    finally:
        await service.close()
    return out


async def _aim(service: GameService, where: Where, plan: Plan
               ) -> tuple[User, TurnOrder, int] | None:
    """The move the player to act will send: the first legal placement, no figure."""
    view = await service.status(where)
    if view.finished or view.deciding is None or view.deciding.user_id is None:
        return None
    user = User(view.deciding.user_id, plan.players[view.deciding.user_id])
    choices = await service.legal_moves(where, user)
    if choices.must != "place" or not choices.placements:
        return None
    x, y, rot = choices.placements[0]
    return user, TurnOrder(at=(x, y), rot=rot), view.version


async def _send(service: GameService, where: Where,
                aimed: tuple[User, TurnOrder, int] | None) -> dict[str, Any] | None:
    if aimed is None:
        return None
    user, order, version = aimed
    try:
        view = await service.play_turn(where, user, order, expect=version)
    except GameMovedOn as exc:
        return {"game": exc.view.game_id, "from": version, "outcome": "moved_on"}
    except ServiceError as exc:
        return {"game": where.channel, "from": version, "outcome": exc.code}
    return {"game": view.game_id, "from": version, "outcome": "applied",
            "version": view.version, "played": list(view.played)}
