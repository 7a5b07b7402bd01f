"""Looking at games, records in and out, and turn timers."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from carca_bot import store
from carca_bot.engine.game import Game
from carca_bot.engine.record import write_record
from carca_bot.service import errors
from carca_bot.service.core import Body, log, nothing
from carca_bot.service.errors import NoGameHere, NotAllowed
from carca_bot.service.limits import check_import
from carca_bot.service.live import LOBBY_CLOSED, Live, snapshot
from carca_bot.service.lobby import CLOSED_LOBBY_GRACE, SEED_BITS
from carca_bot.service.model import (
    DAY,
    MAX_PLAYERS,
    GameMovedOn,
    GameOptions,
    GameSummary,
    Note,
    TimerReport,
    TurnView,
    User,
    Where,
)
from carca_bot.service.reminders import ReminderOps
from carca_bot.service.shards import TIMER_LEASE, lease, release
from carca_bot.service.timing import bank_now, reminders_due
from carca_bot.service.views import deciding_seat, seat_score, seed_is_public
from carca_bot.store import ChannelBusy, SeatRow


class InfoOps(ReminderOps):
    async def _game_id(self, where: Where, game_id: int | None) -> int:
        """The named game, else the channel's running game, else its latest one."""
        if game_id is not None:
            return game_id
        found = (await self.store.live_game(where.guild, where.channel)
                 or await self.store.latest_game(where.guild, where.channel))
        if found is None:
            raise NoGameHere("no_game_yet")
        return found

    async def status(self, where: Where, viewer: str | None = None,
                     game_id: int | None = None) -> TurnView:
        """The channel's game (running, else the last one) as `viewer` may see it."""
        return await self._act_on(await self._game_id(where, game_id), viewer, nothing)

    async def game(self, where: Where, game_id: int | None = None) -> Game | None:
        """A private copy of the game for the renderer (None while in the lobby)."""
        found: list[Game | None] = []

        async def body(live: Live) -> None:
            found.append(await self._workers.run(lambda: snapshot(live)))

        await self._act_on(await self._game_id(where, game_id), None, body)
        return found[0]

    async def my_games(self, user_id: str, live_only: bool = False,
                       limit: int = 25) -> list[GameSummary]:
        """The games the user is seated in, across channels, latest first."""
        summaries = []
        for row in await self.store.games_of(user_id, live_only, limit):
            async with self._locked(row.id, user_id) as live:
                who = deciding_seat(live)
                summaries.append(GameSummary(
                    game_id=live.id, where=Where(live.row.guild_id, live.row.channel_id),
                    status=live.row.status, players=tuple(live.names()),
                    scores=tuple(seat_score(live, s) for s in live.seats),
                    waiting_for=None if who is None else live.seats[who].name,
                    your_turn=who is not None and live.seats[who].user_id == user_id,
                    updated_at=live.row.updated_at,
                    deadline=live.row.deadline if live.row.status == "active" else None,
                    bank=self._bank_of(live, user_id)))
        return summaries

    def _bank_of(self, live: Live, user_id: str) -> float | None:
        """The user's bank in a running clock game, as it stands now."""
        rules, state, seat = live.options.clock, self._clock_state(live), live.seat_of(user_id)
        if rules is None or state is None or seat is None or live.row.status != "active":
            return None
        if seat.seat >= len(state.banks):
            return None
        return bank_now(rules, state, seat.seat, live.vacations_of(seat.seat), self.clock())

    async def export(self, where: Where, game_id: int | None = None) -> dict[str, Any]:
        """The game as a carca-record/1 object: confirmed actions only.

        A game still being played is exported without its seed: the seed fixes every
        draw to come. An analysis game keeps the seed its importer gave.
        """
        record: list[dict[str, Any]] = []

        async def body(live: Live) -> None:
            if live.game is None:
                raise NotAllowed("nothing_to_export")
            written = write_record(live.game)
            if not seed_is_public(live):
                written.pop("seed", None)
            record.append(written)

        await self._act_on(await self._game_id(where, game_id), None, body)
        return record[0]

    async def import_record(self, where: Where, user: User, data: object) -> TurnView:
        """Load a record into a new game for analysis; the importer plays every seat.

        `data` is the record file's bytes (refused over `Limits.record_bytes`
        before parsing) or JSON already parsed. It is parsed and replayed in full, in
        a worker thread within `Limits.import_seconds`, before anything is stored.
        """
        check_import(self.limits, await self._usage(where.guild, user.id))
        record, game = await self._workers.replay_import(data, self.limits)
        setup = record.setup
        # A record exported mid-game has no seed; the rest of its pile is dealt from a
        # fresh secret, so not even the importer can tell the next tile.
        seed = setup.seed if setup.seed is not None else secrets.randbits(SEED_BITS)
        options = GameOptions(expansions=setup.expansions, wagon_rule=setup.wagon_rule,
                              max_players=len(setup.players), tunnel_pairs=setup.tunnel_pairs,
                              start=setup.start, seed=seed, analysis=True,
                              allow_solo=True)
        seats = [SeatRow(i, None, name, i % MAX_PLAYERS) for i, name in enumerate(setup.players)]
        check = self._usage_check(lambda usage: check_import(self.limits, usage))
        try:
            game_id = await self.store.import_game(
                where.guild, where.channel, user.id,
                "finished" if game.finished else "active", options.to_json(), seed,
                seats, game.history, self.clock(), check=check)
        except ChannelBusy:
            raise errors.ChannelBusy("channel_busy_import") from None
        return await self._shown(game_id, user.id)

    async def check_timers(self, now: float | None = None) -> list[TimerReport]:
        """Games whose player to act is past their deadline (or, with a clock, due a
        reminder), and lobbies too old to wait.

        A game with a per-decision `turn_timer`: with `auto_play` the service plays
        that move for them (the AI's easy level if the service has the AI, else
        `auto_move`: see `_stand_in`); otherwise the deadline is pushed one timer
        period on, so the front end reminds the player once per period. An AI seat is
        never late: its deadline just moves on.

        First, the turns of AI seats that no task is playing (after a restart) start
        again (`resume_ai_turns`).

        A clock game climbs its ladder (see `_clock_body`): reminders as each of the
        rules' shares of the time is left (at most one a day per user across all their
        games), then at the deadline the rules' `on_timeout`: the turn played for them
        (reason "auto_played"), skipped ("skipped"), or a vote to expel opened
        ("expel_vote"; one not carried within a day, or one increment if longer, closes
        and the turn is played: "auto_played"). Every step is stored before it is
        reported, and the alarm
        moves past it, so nothing fires twice, even across a restart.

        A lobby not started within `Limits.lobby_lifetime` is cancelled; one closed
        before it started is deleted `lobby.CLOSED_LOBBY_GRACE` later. A game that
        cannot be handled now (database busy) is left for the next call. Last, the data
        due for deletion goes (servers the bot left, games past retention: privacy).
        """
        now = self.clock() if now is None else now
        reports: list[TimerReport] = []
        await self._resume_ai()
        for game_id in await self._ours(await self.store.overdue(now)):
            late: list[SeatRow] = []
            what: list[str] = []
            view = await self._timer_step(game_id, self._timer_body(now, late, what), now)
            if view is None or not late or not what:
                continue
            reason = what[0]
            reports.append(TimerReport(game_id, view.where, late[0].user_id, late[0].name,
                                       reason in ("auto_played", "skipped"), view, reason,
                                       view.played))
        reports += await self._after_timers(reports, now)
        await self.store.delete_closed_lobbies(now - CLOSED_LOBBY_GRACE)  # lobby.py
        stale = await self.store.stale_lobbies(now - self.limits.lobby_lifetime)
        for game_id in await self._ours(stale):
            host: list[SeatRow] = []
            view = await self._timer_step(game_id, self._expiry_body(now, host), now)
            if view is not None and host:
                reports.append(TimerReport(game_id, view.where, host[0].user_id, host[0].name,
                                           False, view, "lobby_expired"))
        await self._privacy_timers(now)
        return reports

    async def _timer_step(self, game_id: int, body: Body, now: float) -> TurnView | None:
        """One game's timers, by one process at a time (`shards.lease`): a second process
        looking at the same game waits for the next period, when the game has moved past
        what was due. The version-conditional write is the last guard."""
        name = f"timer:{game_id}"
        try:
            if not await lease(self.store, name, self.holder, now, TIMER_LEASE):
                return None
        except store.StoreError as exc:
            log.warning("game %s: the timers could not handle it now: %s", game_id, exc)
            return None
        try:
            return await self._act_on(game_id, None, body)
        except GameMovedOn:
            return None  # someone moved in the meantime; their new deadline applies
        except (errors.ServiceError, store.StoreError) as exc:
            log.warning("game %s: the timers could not handle it now: %s", game_id, exc)
            return None
        finally:
            await release(self.store, name, self.holder)

    def _timer_body(self, now: float, late: list[SeatRow], what: list[str]) -> Body:
        async def body(live: Live) -> None:
            if live.options.clock is not None:
                live.timer_now = now
                try:
                    await self._clock_body(live, now, late, what)
                finally:
                    live.timer_now = None
                return
            deadline, timer = live.row.deadline, live.options.turn_timer
            if (live.row.status != "active" or live.game is None or deadline is None
                    or timer is None or deadline > now):
                return
            who = live.game.deciding
            assert who is not None
            if live.ai_level(who) is not None:  # an AI is never late: its turn is under way
                self._change(live, {"deadline": now + timer})
                return
            late.append(live.seats[who])
            if live.options.auto_play:
                await self._stand_in(live, who, "played_for_late")
                what.append("auto_played")
            else:
                self._change(live, {"deadline": now + timer})
                live.notes.append(Note("time_up", {"name": live.seats[who].name}))
                what.append("reminder")

        return body

    async def _clock_body(self, live: Live, now: float, late: list[SeatRow],
                          what: list[str]) -> None:
        """One step of a clock game's ladder, if one is due at `now`."""
        rules, state, game = live.options.clock, self._clock_state(live), live.game
        if (rules is None or state is None or game is None or live.row.status != "active"
                or state.seat is None or state.seat != game.deciding
                or live.row.alarm is None or live.row.alarm > now):
            return
        seat = live.seats[state.seat]
        vacations = live.vacations_of(state.seat)
        end = live.row.deadline
        if state.vote is not None:  # the alarm is the vote's close: nobody expelled them
            late.append(seat)
            self._change(live, self._clock_columns(live, replace(state, vote=None,
                                                                 vote_at=None)))
            live.notes.append(Note("expel_vote_closed", {"name": seat.name}))
            self._auto(live, seat.seat, "played_for_late")
            what.append("auto_played")
            return
        if end is not None and end <= now:
            late.append(seat)
            if rules.on_timeout == "skip":
                self._skip(live, seat.seat)
                what.append("skipped")
            elif rules.on_timeout == "vote" and len(live.seats) > 1:
                self._change(live, self._clock_columns(live, replace(state, vote=(),
                                                                     vote_at=now)))
                live.notes.append(Note("expel_vote_open", {"name": seat.name}))
                what.append("expel_vote")
            else:
                await self._stand_in(live, seat.seat, "played_for_late")
                what.append("auto_played")
            return
        due = reminders_due(rules, state, vacations, now)
        if due <= state.reminded:  # a stale alarm (the rules' times moved): set it again
            self._change(live, self._clock_columns(live, state))
            return
        self._change(live, self._clock_columns(live, replace(state, reminded=due)))
        also = None if end is None else await self._clock_reminder_due(live, seat, now, end)
        if also is None:
            return  # owed: one message a day per player carries them all (reminders.py)
        late.append(seat)
        left = bank_now(rules, state, seat.seat, vacations, now)
        live.notes.append(Note("clock_reminder", {
            "name": seat.name, "seconds": round(left), "deadline": end, "also": also}))
        what.append("clock_reminder")

    def _expiry_body(self, now: float, host: list[SeatRow]) -> Body:
        async def body(live: Live) -> None:
            if (live.row.status != "lobby"
                    or live.row.created_at > now - self.limits.lobby_lifetime):
                return
            host.extend(s for s in live.seats if s.user_id == live.row.host_id)
            self._change(live, {"status": "cancelled", "outcome": LOBBY_CLOSED,
                                "pending": None, "deadline": None})
            live.notes.append(Note("lobby_expired", {"days": self.limits.lobby_lifetime / DAY}))

        return body
