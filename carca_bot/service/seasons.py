"""Leagues: divisions over seasons, created and run through the service.

A league is a name (`series`) shared by its events: each season has one event per
division (1 = the top). An organiser creates season 1 from players given by division
(`create_season`) or from a sign-up event's players split by rating into divisions
(`create_season_from_event`), starts or pairs every division at once (`start_season`,
`pair_season`), looks at a season (`season_overview`) and, once every division is
finished, makes the next season with promotions and relegations (`next_season_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from carca_bot.league import (
    EventConfig,
    LeagueError,
    StandingRow,
    event_to_json,
    final_order,
    next_season,
    season_events,
)
from carca_bot.service.errors import BadInput, NoGameHere, NotAllowed, ServiceError
from carca_bot.service.event_model import (
    DEFAULT_OPTIONS,
    MAX_TITLE,
    Actor,
    EventInfo,
    Pairing,
    info_of,
    league_refusal,
)
from carca_bot.service.events import EventOps
from carca_bot.service.model import GameOptions, User, Where

MAX_DIVISIONS = 12


@dataclass(frozen=True)
class Division:
    """One division of a season: its event and standings."""

    number: int
    event: EventInfo
    standings: tuple[StandingRow, ...]


@dataclass(frozen=True)
class Season:
    series: str
    number: int
    divisions: tuple[Division, ...]

    @property
    def finished(self) -> bool:
        return all(d.event.status == "finished" for d in self.divisions)


@dataclass(frozen=True)
class SeasonRound:
    """What pairing a season's divisions did: each division's games to open, and the
    refusal code of those that could not be paired (a round still open, say)."""

    paired: tuple[tuple[EventInfo, tuple[Pairing, ...]], ...]
    refused: tuple[tuple[int, str], ...]  # (division, code)


class SeasonOps(EventOps):
    async def create_season(self, where: Where, actor: Actor, series: str, config: EventConfig,
                            divisions: Sequence[Sequence[User]],
                            options: GameOptions = DEFAULT_OPTIONS) -> list[EventInfo]:
        """Season 1 of a league: one event per division (top first), players seeded in
        the order given, already signed up."""
        await self._need_organiser(where.guild, actor)
        series = await self._new_series(where.guild, series)
        pairs = [[(u.id, u.name) for u in d] for d in divisions]
        return await self._season(where, actor, series, 1, config, options, pairs)

    async def create_season_from_event(self, where: Where, actor: Actor, series: str,
                                       event_id: int, divisions: int) -> list[EventInfo]:
        """Season 1 of a league from a sign-up event's players: split by their seeds (the
        server's ratings) into `divisions` divisions of near-equal size, the strongest
        on top, with that event's settings and game options. The sign-up event is
        closed (cancelled): its players are in the league now."""
        await self._need_organiser(where.guild, actor)
        info = await self.event_info(event_id, where.guild)
        if info.series:  # a division of a league is no sign-up list for another
            raise NotAllowed("league_from_division", event=event_id, league=info.series)
        if info.status != "signup":
            raise NotAllowed("league_signups_closed")
        players = sorted(info.event.entrants, key=lambda e: -e.seed)
        if not 1 <= divisions <= MAX_DIVISIONS or len(players) < 2 * divisions:
            raise BadInput("league_bad_divisions", most=MAX_DIVISIONS)
        series = await self._new_series(where.guild, series)
        size, extra = divmod(len(players), divisions)
        split, start = [], 0
        for d in range(divisions):
            count = size + (1 if d < extra else 0)
            split.append([(e.player, e.name) for e in players[start:start + count]])
            start += count
        out = await self._season(Where(where.guild, info.channel), actor, series, 1,
                                 info.config, info.options, split)
        await self.cancel_event(event_id, actor)
        return out

    async def _new_series(self, guild: str, series: str) -> str:
        series = " ".join(series.split())[:MAX_TITLE]
        if not series:
            raise BadInput("league_no_title")
        if series.casefold() in {name.casefold() for name in await self.leagues(guild)}:
            raise NotAllowed("league_exists")
        return series

    async def leagues(self, guild: str) -> list[str]:
        """The leagues of the server, by name."""
        return sorted({r.series for r in await self.store.events(guild) if r.series})

    async def _series_named(self, guild: str, series: str) -> str:
        """The league's name as stored, for a name typed in any letter case and spacing
        ("premier" finds "Premier"); the name itself when no league has it."""
        wanted = " ".join(series.split()).casefold()
        for name in await self.leagues(guild):
            if name.casefold() == wanted:
                return name
        return series

    async def season_overview(self, guild: str, series: str, season: int | None = None
                              ) -> Season:
        """A season of a league (the latest by default): its divisions and standings."""
        series = await self._series_named(guild, series)
        rows = [r for r in await self.store.events(guild, series=series)
                if r.status != "cancelled"]
        if not rows:
            raise NoGameHere("no_league")
        number = season if season is not None else max(r.season for r in rows)
        infos = sorted((info_of(r) for r in rows if r.season == number),
                       key=lambda i: i.division)
        if not infos:
            raise NoGameHere("no_season", season=number)
        return Season(series, number, tuple(Division(i.division, i, i.event.standings())
                                            for i in infos))

    async def start_season(self, guild: str, actor: Actor, series: str) -> SeasonRound:
        """Start every division of the league's latest season that has not started."""
        season = await self.season_overview(guild, series)
        return await self._each_division(season, actor, started=False)

    async def pair_season(self, guild: str, actor: Actor, series: str) -> SeasonRound:
        """Pair the next round of every division of the latest season whose round is
        over (the others are listed as refused, with why)."""
        season = await self.season_overview(guild, series)
        return await self._each_division(season, actor, started=True)

    async def _each_division(self, season: Season, actor: Actor, *, started: bool
                             ) -> SeasonRound:
        await self._need_organiser(season.divisions[0].event.guild, actor)
        paired, refused = [], []
        for d in season.divisions:
            if d.event.event.started != started or d.event.status == "finished":
                continue
            try:
                if started:
                    info, pairings = await self.pair_next_round(d.event.id, actor)
                else:
                    info, pairings = await self.start_event(d.event.id, actor)
            except ServiceError as exc:
                refused.append((d.number, exc.code))
                continue
            paired.append((info, tuple(pairings)))
        return SeasonRound(tuple(paired), tuple(refused))

    async def next_season_of(self, where: Where, actor: Actor, series: str, moves: int, *,
                             leaving: Sequence[str] = (), joining: Sequence[User] = ()
                             ) -> list[EventInfo]:
        """The next season of a league once every division of the last one is finished:
        `moves` players go up and down between neighbouring divisions."""
        await self._need_organiser(where.guild, actor)
        series = await self._series_named(where.guild, series)
        rows = await self.store.events(where.guild, series=series)
        if not rows:
            raise NoGameHere("no_league")
        season = max(r.season for r in rows)
        last = sorted((info_of(r) for r in rows if r.season == season
                       and r.status != "cancelled"), key=lambda i: i.division)
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
