"""Tournaments and leagues run by the service: sign-ups, pairings, games, results, rulings.

An event is a `carca_bot.league.Event` stored as carca-event/1 JSON with a version
(optimistic writes: a change made from an older copy is refused, `event_changed`).
Every command reads it, asks the pure library for the new value and stores it; the
library's refusals come out as `BadInput("league_<code>")`.

Who may do what is data from the front end (`Actor`): a server admin chooses the
organiser role (`set_organiser_role`); an admin or a member of that role runs events
(create, start, pair, override, forfeit, appeal); a player signs up and withdraws
themselves. Without a role set, only admins organise.

Games: pairing a round returns `Pairing`s; the front end makes a thread for each and
calls `open_event_game(event_id, pairing, where)`, which deals a game there with the
event's options and clock, its players seated in the pairing's order (first player
first: the pairing balanced it). When a linked game ends its result goes to the
event by itself (`_record_ended`); a game cancelled is opened again on request. An
organiser's ruling on a match with a game still running cancels that game; an
override or forfeit on a game already rated re-rates it (`amend_result`), an appeal
puts it back.

Locks: an event's lock is never held while a game command runs (a game ending inside
one would report to the event and wait for that very lock), so game effects of an
event command run after its lock is let go.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from carca_bot.engine.game import Game
from carca_bot.league import (
    Event,
    EventConfig,
    Format,
    LateGame,
    LeagueError,
    Match,
    Pool,
    Result,
    Source,
    StandingRow,
    Tiebreak,
    event_from_json,
    event_to_json,
    final_order,
    next_season,
    season_events,
    to_csv,
)
from carca_bot.service import errors
from carca_bot.service.core import log
from carca_bot.service.errors import BadInput, NoGameHere, NotAllowed, NotNow
from carca_bot.service.live import LOBBY_CLOSED, Live, setup_for
from carca_bot.service.lobby import SEED_BITS, LobbyOps, unique_name
from carca_bot.service.model import DAY, GameOptions, Note, TurnView, User, Where
from carca_bot.service.ratings_ops import RatingsOps
from carca_bot.store import ChannelBusy, Conflict, EventRow, ResultRow, SeatRow

MAX_TITLE = 80
DEFAULT_OPTIONS = GameOptions()
# A round's players are reminded once, this long before its deadline (or a quarter
# of the round, if shorter); organisers get a digest of late games at most once a day.
REMIND_BEFORE = DAY
DIGEST_EVERY = DAY
# A match without its game this long after its round was paired is offered again to
# the timers (the front end's opening failed, or the game was cancelled).
REOPEN_AFTER = 15 * 60


@dataclass(frozen=True)
class Actor:
    """Who asks, with what the front end knows of them on the server."""

    id: str
    name: str
    roles: frozenset[str] = frozenset()
    admin: bool = False  # may manage the server (chooses the organiser role)


@dataclass(frozen=True)
class EventInfo:
    id: int
    guild: str
    channel: str  # where it was created: its announcements go there
    title: str
    status: str  # signup, running, finished, cancelled
    version: int
    event: Event
    options: GameOptions  # what its games are played with (no seed: each game draws one)
    series: str  # a league's name, shared by its divisions and seasons ("" for none)
    season: int
    division: int  # 1 = top; 0 for an event outside a league
    created_by: str

    @property
    def config(self) -> EventConfig:
        return self.event.config


@dataclass(frozen=True)
class Pairing:
    """One game to open: a match's `game_index`-th game, its players in seat order."""

    event_id: int
    match_id: str
    round: int
    game_index: int
    players: tuple[User, ...]
    group: str = ""


@dataclass(frozen=True)
class EventNotice:
    """What the event timers found, for the front end to post.

    `kind`: "round_over" (a round's matches are all decided: `standings`), "finished"
    (the last round is over: final `standings`), "reminder" (`games` due within a day:
    remind their players), "late_digest" (`games` past the deadline: for the
    organisers), "open_games" (`pairings` still without a game: open them).
    """

    kind: str
    event: EventInfo
    round: int
    games: tuple[LateGame, ...] = ()
    pairings: tuple[Pairing, ...] = ()
    standings: tuple[StandingRow, ...] = ()


# The library's refusal codes, as the service's (`league_` + the code: words/league.py).
LEAGUE_CODES = frozenset({
    "already_entered", "event_full", "no_late_entries", "event_over", "already_withdrawn",
    "not_entered", "already_started", "too_few_players", "not_started", "round_open",
    "no_match", "already_decided", "no_games", "no_winner", "one_game", "not_in_match", "bye",
    "nothing_to_appeal", "wrong_players", "bad_score", "already_advanced", "bad_rounds",
    "bad_best_of", "bad_groups", "bad_table_size", "bad_deadline", "bad_tiebreaks",
    "not_finished", "twice", "bad_moves", "bad_format"})


def league_refusal(exc: LeagueError) -> BadInput:
    """The library's refusal as the service's: a code, no words."""
    code = "league_" + exc.code if exc.code in LEAGUE_CODES else "league_refused"
    return BadInput(code)


def event_config(format: str, *, rounds: int = 0, best_of: int = 1, groups: int = 1,
                 table_size: int = 4, round_days: float = 7.0,
                 tiebreaks: Sequence[str] = (), late_entries: bool = True) -> EventConfig:
    """An event's settings from a front end's plain values; BadInput if they cannot run."""
    try:
        chain = tuple(Tiebreak(t) for t in tiebreaks)
        kind = Format(format)
    except ValueError:
        raise BadInput("league_refused") from None
    if kind in (Format.SWISS, Format.TABLES) and not rounds:
        rounds = 5 if kind is Format.SWISS else 3  # the World Championship plays 5 Swiss rounds
    try:
        return EventConfig(kind, rounds=rounds, best_of=best_of, groups=groups,
                           table_size=table_size, tiebreaks=chain,
                           round_seconds=round_days * DAY, late_entries=late_entries)
    except LeagueError as exc:
        raise league_refusal(exc) from None


def _info(row: EventRow) -> EventInfo:
    return EventInfo(row.id, row.guild_id, row.channel_id, row.title, row.status, row.version,
                     event_from_json(row.data), GameOptions.from_json(row.options), row.series,
                     row.season, row.division, row.created_by)


def _status(event: Event) -> str:
    """An event that has played its last round stays "running" until the timers have
    announced its final standings (`check_events`), then is "finished"."""
    return "running" if event.started else "signup"


def pairing_of(info: EventInfo, match: Match, index: int) -> Pairing:
    names = {e.player: e.name for e in info.event.entrants}
    return Pairing(info.id, match.id, match.round, index,
                   tuple(User(p, names.get(p, p)) for p in match.seats_for_game(index)),
                   match.group)


def next_game(match: Match) -> int | None:
    """The index of the match's next game to play; None if it needs none."""
    if match.bye or match.decided or match.rulings:
        return None
    return len(match.reported)


def ranks_of(result: Result) -> dict[str, int]:
    return {p: place for p, (place, _) in result.places().items()}


class LeagueOps(LobbyOps, RatingsOps):
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
        return _info(row)

    async def events(self, guild: str, live_only: bool = True) -> list[EventInfo]:
        statuses = ("signup", "running") if live_only else ()
        return [_info(r) for r in await self.store.events(guild, statuses)]

    async def event_standings(self, event_id: int, group: str | None = None
                              ) -> tuple[StandingRow, ...]:
        return (await self.event_info(event_id)).event.standings(group)

    async def standings_csv(self, event_id: int) -> str:
        info = await self.event_info(event_id)
        return to_csv(info.event.standings(), info.config.chain)

    # -- writing an event ----------------------------------------------------------------

    async def _event_write(self, info: EventInfo, event: Event, **extra: object) -> EventInfo:
        changes: dict[str, object] = {"data": event_to_json(event), **extra}
        if info.status != "cancelled":
            changes.setdefault("status", _status(event))
        try:
            version = await self.store.put_event(info.id, info.version, self.clock(), changes)
        except Conflict:
            raise NotNow("event_changed") from None
        return replace(info, event=event, version=version,
                       status=str(changes.get("status", info.status)))

    async def _event_change(self, event_id: int, change: Callable[[EventInfo], Event],
                      actor: Actor | None = None, guild: str | None = None
                      ) -> tuple[EventInfo, EventInfo]:
        """Apply `change` under the event's lock; an `actor` must be an organiser."""
        async with self._event_locks[event_id]:
            before = await self.event_info(event_id, guild)
            if actor is not None:
                await self._need_organiser(before.guild, actor)
            if before.status == "cancelled":
                raise NotAllowed("event_cancelled")
            try:
                new = change(before)
            except LeagueError as exc:
                raise league_refusal(exc) from None
            return before, await self._event_write(before, new)

    async def create_event(self, where: Where, actor: Actor, title: str, config: EventConfig,
                           options: GameOptions = DEFAULT_OPTIONS, *, series: str = "",
                           season: int = 0, division: int = 0) -> EventInfo:
        """A new event taking sign-ups (organisers only); its games get `options`."""
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
        _, after = await self._event_change(event_id, lambda i: i.event.sign_up(user.id, user.name,
                                                                           seed))
        return after

    async def withdraw(self, event_id: int, actor: Actor, player: str | None = None
                       ) -> EventInfo:
        """Withdraw `player` (an organiser) or oneself. Their open duel of this round is
        forfeited and its game cancelled; at a table they leave the game (as resigning)."""
        target = player or actor.id
        info = await self.event_info(event_id)
        if target != actor.id:
            await self._need_organiser(info.guild, actor)
        before, after = await self._event_change(event_id, lambda i: i.event.withdraw(target))
        links = await self.store.event_games(event_id)
        for link in links:
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
        _, after = await self._event_change(event_id, lambda i: i.event.start(self.clock()), actor)
        return after, self._round_pairings(after)

    async def pair_next_round(self, event_id: int, actor: Actor
                              ) -> tuple[EventInfo, list[Pairing]]:
        """Pair the next round once the current one is decided: the games to open."""
        _, after = await self._event_change(event_id, lambda i: i.event.next_round(self.clock()),
                                      actor)
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
        options = info.options
        seed = secrets.randbits(SEED_BITS)
        host = SeatRow(0, seats[0], unique_name(names.get(seats[0], seats[0]), set()), 0)
        try:
            game_id = await self.store.create_game(where.guild, where.channel, host,
                                                   options.to_json(), seed, self.clock())
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
                                  lambda i: i.event.override(match_id, results, note[:200]))

    async def forfeit_match(self, event_id: int, actor: Actor, match_id: str,
                            absent: Sequence[str], note: str = "") -> EventInfo:
        """A no-show: the `absent` players lose the match (organisers)."""
        return await self._ruling(event_id, actor, match_id,
                                  lambda i: i.event.forfeit(match_id, absent, note[:200]))

    async def appeal(self, event_id: int, actor: Actor, match_id: str) -> EventInfo:
        """Grant an appeal: the match's last ruling is withdrawn (organisers)."""
        return await self._ruling(event_id, actor, match_id,
                                  lambda i: i.event.appeal(match_id))

    async def _ruling(self, event_id: int, actor: Actor, match_id: str,
                      change: Callable[[EventInfo], Event]) -> EventInfo:
        _, after = await self._event_change(event_id, change, actor)
        match = after.event.match(match_id)
        if match.rulings:  # its games still running are replaced by the ruling
            for link in await self.store.event_games(event_id):
                if link.match_id == match_id:
                    row = await self.store.game(link.game_id)
                    if row is not None and row.live:
                        await self._close_game(link.game_id)
        await self._sync_ratings(after, match_id)
        return after

    async def _sync_ratings(self, info: EventInfo, match_id: str) -> None:
        """Make the match's rated games count as the match's result says (a ruling's
        games, or the games as played when there is none)."""
        match = info.event.match(match_id)
        for link in await self.store.event_games(info.id):
            if link.match_id != match_id:
                continue
            ranks = None
            if match.rulings and link.game_index < len(match.games):
                ranks = ranks_of(match.games[link.game_index])
            try:
                await self.amend_result(link.game_id, ranks)
            except (NoGameHere, BadInput):
                continue  # not ended (no result), or the ruling names other players

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

    # -- the event timers ------------------------------------------------------------------

    async def check_events(self, now: float | None = None) -> list[EventNotice]:
        """What running events need said at `now`: rounds over (and the event over),
        reminders before a deadline, the organisers' digest of late games, games to open.

        Each notice is stored as given before it is returned, so none is repeated (a
        notice whose write was beaten by another command comes at the next call).
        """
        now = self.clock() if now is None else now
        notices: list[EventNotice] = []
        await self.record_missed_results(now)
        for row in await self.store.events(statuses=("running",)):
            if self.shards is not None and not self.shards.owns(row.guild_id):
                continue  # another process's server
            try:
                await self._take_missed_reports(row.id)
                notices += await self._event_timers(row.id, now)
            except (errors.ServiceError, LeagueError) as exc:
                log.warning("event %s: the timers could not handle it now: %s", row.id, exc)
        return notices

    async def _take_missed_reports(self, event_id: int) -> None:
        """Results of linked games that ended but never reached their match (the event
        was busy, or the process stopped in between): reported now, in game order."""
        info = await self.event_info(event_id)
        for link in sorted(await self.store.event_games(event_id),
                           key=lambda g: (g.match_id, g.game_index)):
            match = info.event.match(link.match_id)
            if next_game(match) != link.game_index:
                continue
            rows = await self.store.results_of_game(link.game_id)
            if rows:
                await self._report(event_id, link.match_id, link.game_index, rows)
                info = await self.event_info(event_id)

    async def _event_timers(self, event_id: int, now: float) -> list[EventNotice]:
        found: list[EventNotice] = []
        async with self._event_locks[event_id]:
            row = await self.store.event(event_id)
            if row is None or row.status != "running":
                return []
            info = _info(row)
            event, current = info.event, info.event.current
            if current is None:
                return []
            changes: dict[str, object] = {}
            if current.complete and row.announced_round < current.number:
                changes["announced_round"] = current.number
                kind = "finished" if event.finished else "round_over"
                if event.finished:
                    changes["status"] = "finished"
                found.append(EventNotice(kind, info, current.number,
                                         standings=event.standings()))
            if row.reminded_round < current.number:
                within = min(REMIND_BEFORE, info.config.round_seconds / 4)
                soon = event.due_soon(now, within)
                if soon:
                    changes["reminded_round"] = current.number
                    found.append(EventNotice("reminder", info, current.number, games=soon))
            late = event.late_games(now)
            if late and now - row.digest_at >= DIGEST_EVERY:
                changes["digest_at"] = now
                found.append(EventNotice("late_digest", info, current.number, games=late))
            if changes:
                try:
                    info = await self._event_write(info, event, **changes)
                except NotNow:
                    return []
        pairings = [p for p in await self.pairings_to_open(event_id)
                    if p.game_index > 0 or now - current.opened_at >= REOPEN_AFTER]
        if pairings:
            found.append(EventNotice("open_games", info, current.number, pairings=tuple(pairings)))
        return found

    # -- leagues: divisions over seasons -------------------------------------------------------

    async def create_season(self, where: Where, actor: Actor, series: str, config: EventConfig,
                            divisions: Sequence[Sequence[User]],
                            options: GameOptions = DEFAULT_OPTIONS) -> list[EventInfo]:
        """Season 1 of a league: one event per division (top first), players seeded in
        the order given, already signed up."""
        await self._need_organiser(where.guild, actor)
        series = " ".join(series.split())[:MAX_TITLE]
        if not series:
            raise BadInput("league_no_title")
        if await self.store.events(where.guild, series=series):
            raise NotAllowed("league_exists")
        pairs = [[(u.id, u.name) for u in d] for d in divisions]
        return await self._season(where, actor, series, 1, config, options, pairs)

    async def next_season_of(self, where: Where, actor: Actor, series: str, moves: int, *,
                             leaving: Sequence[str] = (), joining: Sequence[User] = ()
                             ) -> list[EventInfo]:
        """The next season of a league once every division of the last one is finished:
        `moves` players go up and down between neighbouring divisions."""
        await self._need_organiser(where.guild, actor)
        rows = await self.store.events(where.guild, series=series)
        if not rows:
            raise NoGameHere("no_league")
        season = max(r.season for r in rows)
        last = sorted((_info(r) for r in rows if r.season == season and r.status != "cancelled"),
                      key=lambda i: i.division)
        try:
            finals = [final_order(i.event) for i in last]
            names = {e.player: e.name for i in last for e in i.event.entrants}
            names.update({u.id: u.name for u in joining})
            divisions = next_season(finals, moves, leaving=leaving,
                                    joining=[u.id for u in joining])
        except LeagueError as exc:
            raise league_refusal(exc) from None
        pairs = [[(p, names[p]) for p in d] for d in divisions]
        return await self._season(Where(where.guild, last[0].channel), actor, series, season + 1,
                                  last[0].config, last[0].options, pairs)

    async def _season(self, where: Where, actor: Actor, series: str, season: int,
                      config: EventConfig, options: GameOptions,
                      divisions: Sequence[Sequence[tuple[str, str]]]) -> list[EventInfo]:
        try:
            events = season_events(divisions, config)
        except LeagueError as exc:
            raise league_refusal(exc) from None
        out = []
        for number, event in enumerate(events, 1):
            options = replace(options, seed=None)
            event_id = await self.store.insert_event(
                where.guild, where.channel, series, event_to_json(event), options.to_json(),
                actor.id, self.clock(), series=series, season=season, division=number)
            out.append(await self.event_info(event_id))
        return out

