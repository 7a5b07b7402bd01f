"""The service's machinery: one lock per game, a cache checked against the log, commits.

Every command for a game runs under that game's asyncio lock, so commands for
one game are serialised while different games proceed in parallel. A command
that was waiting for the lock while another command changed the game is
refused with GameMovedOn: it was aimed at a state that no longer exists. The
store's version check does the same across processes.

The cached `Live` is used only if its version equals the one on disk, and is
dropped whenever a command fails (so a refused command may leave its copy half
changed), so the log always wins over memory.

A command changes the game in memory and stages its writes (`_change`,
`_set_pending`, `_take_actions`); `_flush` stores them in one transaction at its
end, together with the automatic moves it led to. A full disk or a lock thus
stores all of a command or none of it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

from carca_bot.engine.events import Event
from carca_bot.engine.game import Phase
from carca_bot.service.ai_play import Thinks
from carca_bot.service.automatic import AutomaticMoves
from carca_bot.service.errors import NoGameHere, SavedNotShown
from carca_bot.service.heavy import Workers
from carca_bot.service.live import Batch, Live, Pending, owed_post, rebuild
from carca_bot.service.model import (
    DAY,
    DEFAULT_LIMITS,
    GameMovedOn,
    Limits,
    Told,
    TurnView,
    User,
    Where,
)
from carca_bot.service.outbox import told_json
from carca_bot.service.shards import ShardView, holder_name
from carca_bot.service.timing import (
    ClockState,
    after_decision,
    starting,
    times,
    vacations_in_game,
)
from carca_bot.service.views import build_view
from carca_bot.service.who_acts import WhoActs
from carca_bot.store import Conflict, PublicChange, SeatRow, Store, Usage, UsageCheck

Body = Callable[[Live], Awaitable[None]]
CACHE_SIZE = 256
MOVED_ON = "game_moved_on"
SAVED = "saved_not_shown"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mark:
    """Where a command's news starts: the events, notes and log length at that point."""

    events: tuple[Event, ...]
    notes: int
    seq: int

    @classmethod
    def of(cls, live: Live) -> Mark:
        events = tuple(live.game.events) if live.game is not None else ()
        return cls(events, len(live.notes), live.seq)


async def nothing(live: Live) -> None:
    """The body of a command that only looks (the automatic moves still happen)."""


class ServiceCore(AutomaticMoves, WhoActs):
    """What every group of operations builds on (see above); the automatic moves
    (automatic.py) and the checks of who may act (who_acts.py) are mixed in."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 limits: Limits = DEFAULT_LIMITS) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits
        self._workers = Workers()
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._commits: defaultdict[int, int] = defaultdict(int)
        self._cache: OrderedDict[int, Live] = OrderedDict()
        self._channels: dict[Where, int] = {}
        # The AI (`carca_bot.workers.Thinker`): plays AI seats, and stands in for players
        # out of time when it is there (`_stand_in`). Started for the first AI seat to
        # play if no front end gave one (`ai_seats.AiOps`).
        self.thinker: Thinks | None = None
        self._owns_thinker = False
        # The front end's hook, awaited after the service itself stored a change players
        # must be told in public (an AI seat's move): `on_public_change(game_id, after)`,
        # `after` the version before that change (see `ai_seats.AiOps`).
        self.on_public_change: Callable[[int, int], Awaitable[None]] | None = None
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self.shards: ShardView | None = None  # the servers whose timers and posts are ours
        self.holder = holder_name()  # this process, on the leases it takes (shards.py)

    # -- finding and loading games ----------------------------------------------

    async def _live_id(self, where: Where) -> int:
        """The channel's lobby or running game. Remembered, and looked up again once the
        remembered game is over (the unique index allows one live game per channel)."""
        known = self._channels.get(where)
        if known is not None:
            cached = self._cache.get(known)
            if cached is not None and cached.row.live:
                return known
        game_id = await self.store.live_game(where.guild, where.channel)
        if game_id is None:
            raise NoGameHere("no_game_here")
        self._channels[where] = game_id
        return game_id

    async def _load(self, game_id: int) -> Live:
        row = await self.store.game(game_id)
        if row is None:
            raise NoGameHere("no_such_game", game=game_id)
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == row.version:
            self._cache.move_to_end(game_id)
            return cached
        data = await self.store.load(game_id)
        if data is None:
            raise NoGameHere("no_such_game", game=game_id)
        live = await self._workers.run(lambda: rebuild(data))
        if live.game is not None:
            for hint in await self.store.hints(game_id):
                live.hints[hint.seat] = live.hints.get(hint.seat, 0) + 1
        self._cache[game_id] = live
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return live

    @asynccontextmanager
    async def _locked(self, game_id: int, viewer: str | None, expect: int | None = None,
                      strict: bool = False) -> AsyncIterator[Live]:
        """The game, exclusively, as it is on disk.

        GameMovedOn if the caller saw another version (`expect`), or, for a `strict`
        command (a move) sent without one, if the game changed while it waited.
        """
        arrived = self._commits[game_id]
        async with self._locks[game_id]:
            try:
                live = await self._load(game_id)
                await self._read_vacations(live)  # not versioned: read afresh every time
                if (live.version != expect if expect is not None
                        else strict and self._commits[game_id] != arrived):
                    raise GameMovedOn(MOVED_ON, self._view(live, viewer, []))
                yield live
            except BaseException:
                self._cache.pop(game_id, None)
                raise

    async def _read_vacations(self, live: Live) -> None:
        """A clock game's players' vacations, as the game's own rules count them
        (`timing.vacations_in_game`: none where they allow none)."""
        rules = live.options.clock
        if rules is not None:
            live.vacations = vacations_in_game(rules, await self.store.vacations(
                s.user_id for s in live.seats if s.user_id is not None))

    async def _act(self, where: Where, user: User, body: Body, expect: int | None = None,
                   strict: bool = False) -> TurnView:
        """Run `body` on the channel's game under its lock, then play what is automatic."""
        return await self._act_on(await self._live_id(where), user.id, body, expect, strict)

    async def _act_on(self, game_id: int, viewer: str | None, body: Body,
                      expect: int | None = None, strict: bool = False) -> TurnView:
        """The body and the automatic moves it leads to, stored in one transaction.

        Once that transaction is committed, nothing may report the command as not
        made: a failure to show the result is SavedNotShown. Afterwards, if an AI
        seat is to play, its turn starts (`_wake_ai`), whatever the command did; once
        the lock is let go, games the command ended are handed on (`_after_commands`:
        ratings, events).
        """
        try:
            return await self._act_locked(game_id, viewer, body, expect, strict)
        finally:
            self._wake_ai(game_id)
            await self._after_commands()

    async def _ours(self, game_ids: list[int]) -> list[int]:
        """The games of the servers whose background work this process does (`shards`)."""
        shards = self.shards
        if shards is None or shards.everything or not game_ids:
            return game_ids
        guilds = await self.store.guilds_of(game_ids)
        return [g for g in game_ids if g in guilds and shards.owns(guilds[g])]

    def _wake_ai(self, game_id: int) -> None:
        """Start the AI's turn if an AI seat is to play the game (`ai_seats.AiOps`)."""

    async def _resume_ai(self) -> None:
        """Start the turns of AI seats nobody is playing (after a restart: `ai_seats`)."""

    async def _act_locked(self, game_id: int, viewer: str | None, body: Body,
                          expect: int | None = None, strict: bool = False) -> TurnView:
        async with self._locked(game_id, viewer, expect, strict) as live:
            live.notes = []
            first = Mark.of(live)
            # Only a database left unsettled by an older version has anything to do here;
            # it is stored on its own, so a refused body does not undo it.
            self._settle(live)
            committed = live.batch is not None and await self._flush(
                live, self._news(live, first))
            middle = Mark.of(live) if committed else first
            await body(live)
            self._settle(live)
            committed = await self._flush(live, self._news(live, middle)) or committed
            try:
                played = tuple(live.game.history[first.seq:]) if live.game is not None else ()
                return self._view(live, viewer, self._news(live, first), played)
            except Exception as exc:
                if not committed:
                    raise
                log.exception("game %s: showing a stored command failed", game_id)
                raise SavedNotShown(SAVED) from exc

    @staticmethod
    def _news(live: Live, since: Mark) -> list[Told]:
        """What happened since `since`: undo rebuilds the event list, so compare, not count."""
        after = live.game.events if live.game is not None else []
        same = 0
        for old, new in zip(since.events, after, strict=False):
            if old != new:
                break
            same += 1
        return [*after[same:], *live.notes[since.notes:]]

    async def _shown(self, game_id: int, viewer: str) -> TurnView:
        """The view of a game just stored by a command of its own (create, import)."""
        try:
            return await self._act_on(game_id, viewer, nothing)
        except Exception as exc:
            log.exception("game %s: showing a new game failed", game_id)
            raise SavedNotShown(SAVED) from exc

    # -- limits -----------------------------------------------------------------

    def _usage_check(self, check: Callable[[Usage], None]) -> UsageCheck:
        """`check` as the store runs it inside the transaction that creates a game."""
        now = self.clock()
        return UsageCheck(threads_since=now - DAY, imports_since=now - 3600,
                          forget_before=now - DAY, check=check)

    async def _usage(self, guild: str, user: str) -> Usage:
        check = self._usage_check(lambda usage: None)
        return await self.store.usage(guild, user, check.threads_since, check.imports_since)

    # -- writing: a command stages its changes, `_flush` stores them at once ------

    @staticmethod
    def _stage(live: Live) -> Batch:
        if live.batch is None:
            live.batch = Batch(live.row, live.seats, live.seq)
        return live.batch

    def _change(self, live: Live, changes: Mapping[str, Any],
                seats: list[SeatRow] | None = None) -> None:
        """Change the game row (and seats), in memory now and on disk at the flush."""
        batch = self._stage(live)
        batch.changes.update(changes)
        live.row = replace(live.row, **changes)
        if seats is not None:
            batch.new_seats = seats
            live.seats = seats

    def _set_pending(self, live: Live, pending: Pending | None) -> None:
        live.pending = pending
        self._change(live, {"pending": None if pending is None else pending.to_json()})

    def _take_actions(self, live: Live, user_id: str | None, carry_draw: bool = False,
                      decided: bool = True) -> None:
        """Stage every action the engine committed since the last one staged.

        With `carry_draw` the player's choice to draw survives a discard: they drew,
        and go on drawing until a tile fits. `decided`: the actions end the mover's
        decision (a clock game charges their time; a discard does not).
        """
        game = live.game
        assert game is not None
        batch = self._stage(live)
        now = self.clock() if live.timer_now is None else live.timer_now
        same_turn = game.part == 2 and game.phase is Phase.TILE  # a builder's second part
        while live.seq < len(game.history):
            action = game.history[live.seq]
            last = live.seq + 1 == len(game.history)
            pending = None
            if last and carry_draw and game.phase is Phase.TILE and not game.finished:
                pending = Pending(game.current, live.seq + 1, drew=True)
            changes: dict[str, Any] = {
                "pending": None if pending is None else pending.to_json(),
                "deadline": live.row.deadline if same_turn else self._deadline(live),
            }
            if last and game.finished:
                changes.update(status="finished", outcome="complete", deadline=None)
            batch.actions.append((live.seq, user_id, action))
            live.seq += 1
            live.pending = pending
            self._change(live, changes)
            if last and game.finished:
                self._game_finishing(live)
        if live.options.clock is not None:
            self._change(live, self._clock_changes(live, now, decided and not same_turn))

    async def _flush(self, live: Live, lines: list[Told]) -> bool:
        """Store what the command staged, in one transaction; whether there was anything.

        A change players must hear about (see `owed_post`) is stored with what it
        said, so its public post can be delivered later if posting fails.
        """
        batch = live.batch
        if batch is None:
            return False
        live.batch = None
        public = (PublicChange(batch.seq, tuple(told_json(t) for t in lines))
                  if owed_post(batch, live) else None)
        now = self.clock()
        try:
            version = await self.store.write(live.id, live.version, now, batch.changes,
                                             seats=batch.new_seats, actions=batch.actions,
                                             public=public)
        except Conflict:
            raise GameMovedOn(MOVED_ON, await self._fresh_view(live.id)) from None
        live.row = replace(live.row, version=version, updated_at=now,
                           public_version=version if public else live.row.public_version)
        live.times.extend((user, now) for _, user, _ in batch.actions)  # as stored
        self._commits[live.id] += 1
        if batch.changes.get("status") == "finished":
            self._game_ended(live)
        return True

    def _game_finishing(self, live: Live) -> None:
        """A game has just been played to its end, not yet stored: its notes may still
        be added (the ratings' hook: ratings_ops)."""

    def _game_ended(self, live: Live) -> None:
        """A running game has just ended and is stored (the ratings' hook: ratings_ops)."""

    async def _after_commands(self) -> None:
        """Work on games that ended, run with no game lock held (ratings_ops)."""

    async def _privacy_timers(self, now: float) -> None:
        """Deletions that are due: servers the bot left, games past retention (privacy)."""

    def _deadline(self, live: Live) -> float | None:
        """A per-decision timer's deadline (a clock game's comes from `_clock_changes`)."""
        timer = live.options.turn_timer
        return None if timer is None else self.clock() + timer

    # -- clocks -----------------------------------------------------------------

    @staticmethod
    def _clock_state(live: Live) -> ClockState | None:
        data = live.row.clock
        return None if data is None else ClockState.from_json(data)

    def _start_clock(self, live: Live) -> None:
        """A clock game that has just been dealt: full banks, the first player's turn."""
        rules = live.options.clock
        if rules is None or live.game is None:
            return
        state = starting(rules, len(live.seats), live.game.deciding, self.clock(), live.seq)
        self._change(live, self._clock_columns(live, state))

    def _clock_changes(self, live: Live, now: float, decided: bool) -> dict[str, Any]:
        """The clock once the log grew: the mover charged, the next decision begun."""
        rules, state, game = live.options.clock, self._clock_state(live), live.game
        assert rules is not None and game is not None
        if state is None:  # dealt before its clock existed: cannot happen, but start one
            state = starting(rules, len(live.seats), None, now, live.seq)
        if live.row.status != "active" or game.finished:
            return {"clock": replace(state, seat=None, vote=None).to_json(),
                    "deadline": None, "alarm": None}
        if state.seq == live.seq:
            return {}
        state = after_decision(rules, state, live.vacations_of(state.seat), now,
                               game.deciding, live.seq, decided)
        return self._clock_columns(live, state)

    @staticmethod
    def _clock_columns(live: Live, state: ClockState) -> dict[str, Any]:
        """The game's clock, deadline and alarm columns for `state`."""
        rules = live.options.clock
        assert rules is not None
        if live.ai_level(state.seat) is not None:  # an AI has no clock to run out
            return {"clock": state.to_json(), "deadline": None, "alarm": None}
        deadline, alarm = times(rules, state, live.vacations_of(state.seat))
        return {"clock": state.to_json(), "deadline": deadline, "alarm": alarm}

    # -- views ------------------------------------------------------------------

    def _view(self, live: Live, viewer: str | None, events: list[Told],
              played: tuple[dict[str, Any], ...] = ()) -> TurnView:
        return build_view(live, viewer, events, played, self.clock())

    async def _fresh_view(self, game_id: int) -> TurnView:
        self._cache.pop(game_id, None)
        return self._view(await self._load(game_id), None, [])
