"""The events' timers: rounds over, reminders, the organisers' digest, games to open,
forfeits at a round's deadline, what follows repeated time-outs, and queued news.

`check_events` (the front end calls it beside `check_timers`) returns `EventNotice`s
for the front end to post in each event's channel. Each is stored as handled before
it is returned, so none is repeated (a notice whose write was beaten by another
command comes at the next call).

Forfeit at the deadline (`EventConfig.forfeit_at_deadline`): a match still open when
its round's deadline passes is lost by whoever its game is waiting for (BGA's rule:
the late player loses); at a table the others keep the places their scores give them.
A match whose game is not under way is left to the organisers (the digest lists it).

Repeated time-outs (`EventConfig.timeout_rule`): every time a player of an event's
clock game runs out of time (the game's own choice is applied first: played for
them, skipped or a vote) it is counted; after `timeout_limit` in one game the match
is forfeited ("forfeit"), or after `timeout_limit` in the event's games the player is
withdrawn from it ("expel"), and the event's channel is told.
"""

from __future__ import annotations

from collections.abc import Sequence

from carca_bot.league import LeagueError
from carca_bot.service import errors
from carca_bot.service.clocks import escalation
from carca_bot.service.core import log
from carca_bot.service.errors import NotNow
from carca_bot.service.event_model import (
    DIGEST_EVERY,
    REMIND_BEFORE,
    REOPEN_AFTER,
    EventInfo,
    EventNotice,
    info_of,
    next_game,
)
from carca_bot.service.events import Change, EventOps
from carca_bot.service.live import Live
from carca_bot.service.model import TimerReport

TIMED_OUT = ("auto_played", "skipped", "expel_vote")  # TimerReport reasons of a time-out


class EventTimerOps(EventOps):
    async def check_events(self, now: float | None = None) -> list[EventNotice]:
        """What events need said at `now`: rounds over (and the event over), reminders
        before a deadline, the organisers' digest of late games, games to open, matches
        forfeited at the deadline, and the news queued by rulings and time-outs. The
        events of a server the bot was removed from wait (`privacy_servers`)."""
        now = self.clock() if now is None else now
        notices: list[EventNotice] = []
        await self.record_missed_results(now)
        away = {guild for guild, _, _ in await self.store.departures()}
        for row in await self.store.events(statuses=("running",)):
            if self.shards is not None and not self.shards.owns(row.guild_id):
                continue  # another process's server
            if row.guild_id in away:
                continue  # the bot was removed from it: no forfeits nobody could avoid
            try:
                await self._take_missed_reports(row.id)
                await self._deadline_forfeits(row.id, now)
                notices += await self._event_timers(row.id, now)
            except (errors.ServiceError, LeagueError) as exc:
                log.warning("event %s: the timers could not handle it now: %s", row.id, exc)
        return notices + await self._event_news(now)

    async def _event_news(self, now: float) -> list[EventNotice]:
        """The announcements queued by event commands and timers, each handed out once."""
        out = []
        away = {guild for guild, _, _ in await self.store.departures()}
        for event_id in await self.store.events_with_news():
            info = await self.event_info(event_id)
            if self.shards is not None and not self.shards.owns(info.guild):
                continue
            if info.guild in away:
                continue  # told if the bot comes back
            for news in await self.store.untold_event_news(event_id):
                if not await self.store.tell_event_news(news.id, now):
                    continue
                number = int(news.data.get("round", len(info.event.rounds)))
                out.append(EventNotice(news.kind, info, number, news=news.data,
                                       standings=info.event.standings()))
        return out

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
            info = info_of(row)
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
                role = await self.store.organiser_role(info.guild)
                found.append(EventNotice("late_digest", info, current.number, games=late,
                                         ping_roles=() if role is None else (role,),
                                         ping_users=(info.created_by,)))
            if changes:
                try:
                    info = await self._event_write(info, event, **changes)
                except NotNow:
                    return []
        pairings = [p for p in await self.pairings_to_open(event_id)
                    if p.game_index > 0 or now - current.opened_at >= REOPEN_AFTER]
        if pairings:
            found.append(EventNotice("open_games", info, current.number,
                                     pairings=tuple(pairings)))
        return found

    # -- forfeits at the deadline ----------------------------------------------------------

    async def _deadline_forfeits(self, event_id: int, now: float) -> None:
        """Forfeit the matches still open past their round's deadline, if the event says
        so: the player their game waits for loses."""
        info = await self.event_info(event_id)
        if not info.config.forfeit_at_deadline:
            return
        links = {(link.match_id, link.game_index): link.game_id
                 for link in await self.store.event_games(event_id)}
        for late in info.event.late_games(now):
            match = info.event.match(late.match_id)
            game_id = links.get((match.id, len(match.reported)))
            waiting = None if game_id is None else await self._waiting_on(game_id)
            if waiting is None:
                continue  # no game under way: the organisers decide (the digest lists it)
            await self._ruling(event_id, None, match.id,
                               _forfeiting(match.id, *waiting), "deadline")
            player = waiting[0]
            await self.store.add_event_news(event_id, "deadline_forfeit", {
                "match": match.id, "round": match.round, "absent": [player]}, now)

    async def _waiting_on(self, game_id: int) -> tuple[str, dict[str, int]] | None:
        """Whom a running game is waiting for, and everyone's score in it."""
        found: list[tuple[str, dict[str, int]]] = []

        async def body(live: Live) -> None:
            game = live.game
            if live.row.status != "active" or game is None or game.deciding is None:
                return
            user = live.seats[game.deciding].user_id
            if user is not None:
                scores = {s.user_id: game.scores[s.seat] for s in live.seats
                          if s.user_id is not None}
                found.append((user, scores))

        try:
            await self._act_on(game_id, None, body)
        except errors.ServiceError:
            return None
        return found[0] if found else None

    # -- repeated time-outs ------------------------------------------------------------

    async def _timeouts_seen(self, reports: Sequence[TimerReport], now: float) -> None:
        for report in reports:
            if report.reason not in TIMED_OUT or report.user_id is None:
                continue
            link = await self.store.event_of_game(report.game_id)
            if link is None:
                continue
            info = await self.event_info(link.event_id)
            config = info.config
            if config.timeout_rule == "none" or info.status != "running":
                continue
            if not await self.store.add_timeout(info.id, report.user_id, report.game_id,
                                                now):
                continue
            games = await self.store.timeouts(info.id, report.user_id)
            step = escalation(config.timeout_rule, config.timeout_limit,
                              games.count(report.game_id), len(games))
            try:
                await self._escalate(info, step, report.user_id, link.match_id, len(games),
                                     games.count(report.game_id), now)
            except errors.ServiceError as exc:
                log.info("event %s: time-outs of %s not acted on: %s", info.id,
                         report.user_id, exc)

    async def _escalate(self, info: EventInfo, step: str | None, player: str, match_id: str,
                        in_event: int, in_game: int, now: float) -> None:
        if step == "forfeit" and not info.event.match(match_id).decided:
            await self._ruling(info.id, None, match_id,
                               lambda i: i.event.forfeit(match_id, [player], "time-outs"),
                               "time-outs")
            await self.store.add_event_news(info.id, "timeout_forfeit", {
                "match": match_id, "player": player, "timeouts": in_game,
                "round": info.event.match(match_id).round}, now)
        elif step == "expel" and not info.event.entrant(player).withdrawn:
            await self._withdraw(info.id, player)
            await self.store.add_event_news(info.id, "timeout_expelled", {
                "player": player, "timeouts": in_event}, now)


def _forfeiting(match_id: str, player: str, scores: dict[str, int]) -> Change:
    return lambda i: i.event.forfeit(match_id, [player], "deadline", scores)
