"""Tournaments and leagues run by the service: sign-ups, pairings, games, results, rulings.

An event is a `carca_bot.league.Event` stored as carca-event/1 JSON with a version
(optimistic writes: a change made from an older copy is refused, `event_changed`).
Every command reads it, asks the pure library for the new value and stores it; the
library's refusals come out as `BadInput("league_<code>")`.

Who may do what is data from the front end (`Actor`): a server admin chooses the
organiser role (`set_organiser_role`); an admin or a member of that role runs events
(create, start, pair, override, forfeit, appeal); a player signs up and withdraws
themselves. Without a role set, only admins organise.

Pairing a round runs off the event loop: in the service's worker threads, and a
large Swiss (`PROCESS_FROM` players or more) in a worker process, as its matching
holds the interpreter while it works (a 512-player round takes about a second).

Games: pairing a round returns `Pairing`s; the front end makes a thread for each and
calls `open_event_game(event_id, pairing, where)`, which deals a game there with the
event's options and clock, its players seated in the pairing's order (first player
first: the pairing balanced it). When a linked game ends its result goes to the
event by itself (`_record_ended`); a game cancelled is opened again on request. An
organiser's ruling on a match with a game still running cancels that game; an
override or forfeit on a game already rated re-rates it (`amend_result`), an appeal
puts it back. A ruling on a finished event keeps it finished (it must leave every
match decided) and queues an "amended" announcement for the event's channel.

Locks: an event's lock is never held while a game command runs (a game ending inside
one would report to the event and wait for that very lock), so game effects of an
event command run after its lock is let go.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from multiprocessing import get_context

from carca_bot.engine.game import Game
from carca_bot.league import (
    Event,
    EventConfig,
    Format,
    LeagueError,
    Pool,
    Result,
    Source,
    StandingRow,
    event_to_json,
    to_csv,
)
from carca_bot.league.event import paired
from carca_bot.league.swiss import SEAT_LIMIT
from carca_bot.service import errors
from carca_bot.service.core import log
from carca_bot.service.errors import BadInput, NoGameHere, NotAllowed, NotNow
from carca_bot.service.event_model import (
    DEFAULT_OPTIONS,
    MAX_TITLE,
    Actor,
    EventInfo,
    PairedMatch,
    Pairing,
    PairingsView,
    info_of,
    league_refusal,
    next_game,
    pairing_of,
    ranks_of,
    status_of,
)
from carca_bot.service.live import LOBBY_CLOSED, Live, setup_for
from carca_bot.service.lobby import SEED_BITS, LobbyOps, unique_name
from carca_bot.service.model import GameOptions, Note, TurnView, User, Where
from carca_bot.service.ratings_ops import RatingsOps
from carca_bot.service.reminders import ReminderOps
from carca_bot.store import ChannelBusy, Conflict, ResultRow, SeatRow

PROCESS_FROM = 128  # Swiss players from whom a pairing runs in a worker process
Change = Callable[[EventInfo], Event]


class _Processes:
    """One worker process for large pairings, started on first use (spawned: safe beside
    the loop's threads) and started again if it dies."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def pair(self, event: Event, now: float) -> Event:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, paired, event, now)
        except BrokenProcessPool:
            self._pool = None
            raise NotNow("pairing_busy") from None


_PROCESSES = _Processes()


class EventOps(LobbyOps, RatingsOps, ReminderOps):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._event_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # -- organisers ------------------------------------------------------------------

    async def set_organiser_role(self, guild: str, actor: Actor, role_id: str | None) -> None:
        """Choose the role that runs events on the server (None: admins only)."""
        if not actor.admin:
            raise NotAllowed("admin_only")
        await self.store.set_organiser_role(guild, role_id, self.clock())

    async def organiser_role(self, guild: str) -> str | None:
        return await self.store.organiser_role(guild)

    async def is_organiser(self, guild: str, actor: Actor) -> bool:
        if actor.admin:
            return True
        role = await self.store.organiser_role(guild)
        return role is not None and role in actor.roles

    async def _need_organiser(self, guild: str, actor: Actor) -> None:
        if not await self.is_organiser(guild, actor):
            raise NotAllowed("not_organiser")

    # -- reading -----------------------------------------------------------------------

    async def event_info(self, event_id: int, guild: str | None = None) -> EventInfo:
        """The event (on that server, if named); NoGameHere("no_event") if there is none."""
        row = await self.store.event(event_id)
        if row is None or (guild is not None and row.guild_id != guild):
            raise NoGameHere("no_event", event=event_id)
        return info_of(row)

    async def events(self, guild: str, live_only: bool = True) -> list[EventInfo]:
        statuses = ("signup", "running") if live_only else ()
        return [info_of(r) for r in await self.store.events(guild, statuses)]

    async def event_standings(self, event_id: int, group: str | None = None
                              ) -> tuple[StandingRow, ...]:
        return (await self.event_info(event_id)).event.standings(group)

    async def standings_csv(self, event_id: int) -> str:
        """The standings as CSV: who, games, wins, byes, the event's tie-breaks in order."""
        info = await self.event_info(event_id)
        return to_csv(info.event.standings(), info.config.chain)

    async def event_pairings(self, event_id: int, round_no: int | None = None
                             ) -> PairingsView:
        """A round's matches (the latest paired, by default) and why each was made."""
        info = await self.event_info(event_id)
        rounds = info.event.rounds
        if not rounds:
            raise BadInput("league_not_started")
        number = round_no or len(rounds)
        if not 1 <= number <= len(rounds):
            raise BadInput("league_no_round", rounds=len(rounds))
        r = rounds[number - 1]
        names = {e.player: e.name for e in info.event.entrants}
        why = {w.match_id: w for w in r.why}
        matches = tuple(PairedMatch(m.id, tuple(User(p, names.get(p, p)) for p in m.seats),
                                    why.get(m.id), m.decided) for m in r.matches)
        crossings = sum(w.code == "floated" for w in r.why)
        rematches = sum(w.met for w in r.why if w.code in ("floated", "same_group"))
        return PairingsView(info.id, number, info.config.format.value, matches, crossings,
                            rematches, SEAT_LIMIT)

    # -- writing an event ----------------------------------------------------------------

    async def _event_write(self, info: EventInfo, event: Event, **extra: object) -> EventInfo:
        changes: dict[str, object] = {"data": event_to_json(event), **extra}
        if info.status not in ("cancelled", "finished"):  # a ruling after the end: stays
            changes.setdefault("status", status_of(event))
        try:
            version = await self.store.put_event(info.id, info.version, self.clock(), changes)
        except Conflict:
            raise NotNow("event_changed") from None
        return replace(info, event=event, version=version,
                       status=str(changes.get("status", info.status)))

    async def _event_change(self, event_id: int, change: Change | None,
                            actor: Actor | None = None, guild: str | None = None,
                            *, pair_at: float | None = None) -> tuple[EventInfo, EventInfo]:
        """Apply `change` under the event's lock (or, with `pair_at`, pair its next round
        off the event loop); an `actor` must be an organiser."""
        async with self._event_locks[event_id]:
            before = await self.event_info(event_id, guild)
            if actor is not None:
                await self._need_organiser(before.guild, actor)
            if before.status == "cancelled":
                raise NotAllowed("event_cancelled")
            try:
                if pair_at is not None:
                    new = await self._pair_off_loop(before.event, pair_at)
                else:
                    assert change is not None
                    new = change(before)
            except LeagueError as exc:
                raise league_refusal(exc) from None
            if before.status == "finished" and not new.finished:
                raise NotAllowed("event_would_reopen")
            return before, await self._event_write(before, new)

    async def _pair_off_loop(self, event: Event, now: float) -> Event:
        """Start the event or pair its next round, never on the event loop."""
        active = sum(not e.withdrawn for e in event.entrants)
        if event.config.format is Format.SWISS and active >= PROCESS_FROM:
            return await _PROCESSES.pair(event, now)
        return await self._workers.run(lambda: paired(event, now))

    async def create_event(self, where: Where, actor: Actor, title: str, config: EventConfig,
                           options: GameOptions = DEFAULT_OPTIONS, *, series: str = "",
                           season: int = 0, division: int = 0) -> EventInfo:
        """A new event taking sign-ups (organisers only); its games get `options` (any
        clock a casual game can have: `service.model.clock_rules`)."""
        await self._need_organiser(where.guild, actor)
        title = " ".join(title.split())[:MAX_TITLE]
        if not title:
            raise BadInput("league_no_title")
        options = replace(options, seed=None, max_players=6, allow_solo=False)
        event_id = await self.store.insert_event(
            where.guild, where.channel, title, event_to_json(Event(config)), options.to_json(),
            actor.id, self.clock(), series=series[:MAX_TITLE], season=season,
            division=division)
        return await self.event_info(event_id)

    async def cancel_event(self, event_id: int, actor: Actor) -> EventInfo:
        """Stop an event (organisers): its games still running are cancelled."""
        async with self._event_locks[event_id]:
            info = await self.event_info(event_id)
            await self._need_organiser(info.guild, actor)
            info = await self._event_write(info, info.event, status="cancelled")
        for link in await self.store.event_games(event_id):
            await self._close_game(link.game_id)
        return info

    def _pool(self, info: EventInfo) -> Pool:
        return Pool.MULTI if info.config.format is Format.TABLES else Pool.DUEL

    async def sign_up(self, event_id: int, user: User) -> EventInfo:
        """Enter the event; seeded by the player's rating on the server (its pool)."""
        info = await self.event_info(event_id)
        seed = (await self.rating_of(info.guild, user.id, self._pool(info))).ordinal
        _, after = await self._event_change(
            event_id, lambda i: i.event.sign_up(user.id, user.name, seed))
        return after

    async def withdraw(self, event_id: int, actor: Actor, player: str | None = None
                       ) -> EventInfo:
        """Withdraw `player` (an organiser) or oneself. Their open duel of this round is
        forfeited and its game cancelled; at a table they leave the game (as resigning)."""
        target = player or actor.id
        info = await self.event_info(event_id)
        if target != actor.id:
            await self._need_organiser(info.guild, actor)
        return await self._withdraw(event_id, target)

    async def _withdraw(self, event_id: int, target: str) -> EventInfo:
        before, after = await self._event_change(event_id, lambda i: i.event.withdraw(target))
        for link in await self.store.event_games(event_id):
            match = after.event.match(link.match_id)
            if target not in match.seats or before.event.match(link.match_id).decided:
                continue
            if match.decided:
                await self._close_game(link.game_id)
            else:
                await self._leave_game(link.game_id, target)
        await self._sync_all(after)
        return after

    async def start_event(self, event_id: int, actor: Actor) -> tuple[EventInfo, list[Pairing]]:
        """Close sign-ups and pair round one: the games to open."""
        _, after = await self._event_change(event_id, None, actor, pair_at=self.clock())
        return after, self._round_pairings(after)

    async def pair_next_round(self, event_id: int, actor: Actor
                              ) -> tuple[EventInfo, list[Pairing]]:
        """Pair the next round once the current one is decided: the games to open."""
        info = await self.event_info(event_id)
        if not info.event.started:
            raise BadInput("league_not_started")
        _, after = await self._event_change(event_id, None, actor, pair_at=self.clock())
        return after, self._round_pairings(after)

    @staticmethod
    def _round_pairings(info: EventInfo) -> list[Pairing]:
        current = info.event.current
        assert current is not None
        return [pairing_of(info, m, index) for m in current.matches
                if (index := next_game(m)) is not None]

    async def pairings_to_open(self, event_id: int) -> list[Pairing]:
        """Games the event needs that no live or finished game plays yet."""
        info = await self.event_info(event_id)
        if info.status != "running":
            return []
        linked = {(link.match_id, link.game_index): link.game_id
                  for link in await self.store.event_games(event_id)}
        out = []
        for m in info.event.open_matches():
            index = next_game(m)
            if index is None:
                continue
            game_id = linked.get((m.id, index))
            row = None if game_id is None else await self.store.game(game_id)
            if row is None or row.status == "cancelled":
                out.append(pairing_of(info, m, index))
        return out

    async def open_event_game(self, event_id: int, pairing: Pairing, where: Where) -> TurnView:
        """Deal the pairing's game in `where` (a thread the front end made for it), with
        the event's options, its players seated in the pairing's order."""
        info = await self.event_info(event_id)
        if info.status != "running":
            raise NotAllowed("event_not_running")
        try:
            match = info.event.match(pairing.match_id)
        except LeagueError as exc:
            raise league_refusal(exc) from None
        if next_game(match) != pairing.game_index:
            raise NotNow("pairing_stale")
        seats = match.seats_for_game(pairing.game_index)
        names = {e.player: e.name for e in info.event.entrants}
        for link in await self.store.event_games(event_id):
            if (link.match_id, link.game_index) == (match.id, pairing.game_index):
                row = await self.store.game(link.game_id)
                if row is not None and row.status != "cancelled":
                    raise NotNow("game_already_open", game=link.game_id)
                await self.store.unlink_game(link.game_id)
        host = SeatRow(0, seats[0], unique_name(names.get(seats[0], seats[0]), set()), 0)
        try:
            game_id = await self.store.create_game(
                where.guild, where.channel, host, info.options.to_json(),
                secrets.randbits(SEED_BITS), self.clock())
        except ChannelBusy:
            raise errors.ChannelBusy("channel_busy") from None
        if not await self.store.link_game(event_id, match.id, pairing.game_index, game_id):
            await self._close_game(game_id)
            raise NotNow("game_already_open")

        async def body(live: Live) -> None:
            taken: set[str] = set()
            rows = []
            for i, player in enumerate(seats):
                name = unique_name(names.get(player, player), taken)
                taken.add(name)
                rows.append(SeatRow(i, player, name, i))
            self._change(live, {"status": "active", "deadline": self._deadline(live)}, rows)
            live.game = Game(setup_for(live.row, rows))
            self._start_clock(live)
            live.notes.append(Note("game_starts", {"order": [s.name for s in rows]}))

        return await self._act_on(game_id, None, body)

    # -- results and rulings -------------------------------------------------------------

    async def _record_ended(self, rows: list[ResultRow]) -> bool:
        if not await super()._record_ended(rows):
            return False
        link = await self.store.event_of_game(rows[0].game_id)
        if link is not None:
            await self._report(link.event_id, link.match_id, link.game_index, rows)
        return True

    async def _report(self, event_id: int, match_id: str, index: int,
                      rows: list[ResultRow]) -> None:
        """A linked game ended: its result goes to the match (unless already ruled on)."""
        result = Result.of(*((r.user_id or "", r.score) for r in rows),
                           absent=[r.user_id or "" for r in rows if r.left_game])

        def report(info: EventInfo) -> Event:
            if len(info.event.match(match_id).reported) != index:
                raise LeagueError("not_this_game", "the match is at another game")
            return info.event.report(match_id, result)

        try:
            _, after = await self._event_change(event_id, report)
        except (BadInput, NotAllowed) as exc:
            log.info("event %s: game %s's result not taken: %s", event_id, rows[0].game_id,
                     exc)
            after = await self.event_info(event_id)
        await self._sync_ratings(after, match_id)

    async def override_result(self, event_id: int, actor: Actor, match_id: str,
                              games: Sequence[Sequence[tuple[str, int]]], note: str = ""
                              ) -> EventInfo:
        """An organiser's result for a match: every game's scores (player, score)."""
        results = [Result.of(*g, source=Source.OVERRIDE) for g in games]
        return await self._ruling(event_id, actor, match_id,
                                  lambda i: i.event.override(match_id, results, note[:200]),
                                  note[:200])

    async def forfeit_match(self, event_id: int, actor: Actor, match_id: str,
                            absent: Sequence[str], note: str = "") -> EventInfo:
        """A no-show: the `absent` players lose the match (organisers)."""
        return await self._ruling(event_id, actor, match_id,
                                  lambda i: i.event.forfeit(match_id, absent, note[:200]),
                                  note[:200])

    async def appeal(self, event_id: int, actor: Actor, match_id: str) -> EventInfo:
        """Grant an appeal: the match's last ruling is withdrawn (organisers)."""
        return await self._ruling(event_id, actor, match_id,
                                  lambda i: i.event.appeal(match_id), "appeal")

    async def _ruling(self, event_id: int, actor: Actor | None, match_id: str,
                      change: Change, note: str) -> EventInfo:
        before, after = await self._event_change(event_id, change, actor)
        match = after.event.match(match_id)
        if match.rulings:  # its games still running are replaced by the ruling
            for link in await self.store.event_games(event_id):
                if link.match_id == match_id:
                    row = await self.store.game(link.game_id)
                    if row is not None and row.live:
                        await self._close_game(link.game_id)
        rated = await self._sync_ratings(after, match_id)
        if before.status == "finished":
            await self._announce_amendment(before, after, match_id, note, actor, rated)
        return after

    async def _announce_amendment(self, before: EventInfo, after: EventInfo, match_id: str,
                                  note: str, actor: Actor | None, rated: bool) -> None:
        """Queue the "amended" news of a finished event: who moved, for its channel."""
        was = {r.player: r.place for r in before.event.standings()}
        now = {r.player: r.place for r in after.event.standings()}
        moves = [[p, was[p], now[p]] for p in now if was.get(p) != now[p]]
        await self.store.add_event_news(after.id, "amended", {
            "match": match_id, "round": after.event.match(match_id).round, "note": note,
            "by": None if actor is None else actor.id, "moves": moves, "rated": rated},
            self.clock())

    async def _sync_ratings(self, info: EventInfo, match_id: str) -> bool:
        """Make the match's rated games count as the match's result says (a ruling's
        games, or the games as played when there is none), re-rated by the ratings code
        (`amend_result`). Whether any rating changed."""
        match = info.event.match(match_id)
        changed = False
        for link in await self.store.event_games(info.id):
            if link.match_id != match_id:
                continue
            ranks = None
            if match.rulings and link.game_index < len(match.games):
                ranks = ranks_of(match.games[link.game_index])
            try:
                changed = await self.amend_result(link.game_id, ranks) or changed
            except (NoGameHere, BadInput):
                continue  # not ended (no result), or the ruling names other players
        return changed

    async def _sync_all(self, info: EventInfo) -> None:
        for m in info.event.matches:
            if m.rulings:
                await self._sync_ratings(info, m.id)

    # -- games an event command touches (never under the event's lock) --------------------

    async def _game_step(self, game_id: int, body: Callable[[Live], Awaitable[None]]) -> None:
        try:
            await self._act_on(game_id, None, body)
        except (errors.ServiceError, NoGameHere) as exc:
            log.warning("game %s: the event could not change it: %s", game_id, exc)

    async def _close_game(self, game_id: int) -> None:
        """Cancel a linked game the event no longer needs (a ruling decided its match)."""
        async def body(live: Live) -> None:
            if not live.row.live:
                return
            outcome = "cancelled" if live.row.status == "active" else LOBBY_CLOSED
            self._change(live, {"status": "cancelled", "outcome": outcome, "pending": None,
                                "deadline": None, "alarm": None})
            if live.pending is not None and live.game is not None:
                live.game.restore()
                live.pending = None
            live.notes.append(Note("cancelled"))

        await self._game_step(game_id, body)

    async def _leave_game(self, game_id: int, player: str) -> None:
        """A withdrawn player leaves their table's game as if they resigned."""
        async def body(live: Live) -> None:
            seat = live.seat_of(player)
            if live.row.status == "active" and seat is not None and not seat.resigned:
                self._resign(live, seat, Note("resigned", {"name": seat.name}))

        await self._game_step(game_id, body)

