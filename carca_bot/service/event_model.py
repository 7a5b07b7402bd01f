"""What the event commands take and give: plain values for the front ends, no Discord.

`Actor` is who asks (with their roles), `EventInfo` an event as stored, `Pairing` one
game to open, `EventNotice` what the event timers found for the front end to post, and
`PairingsView` why each match of a round was made (`/carc-event pairings`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from carca_bot.league import (
    Event,
    EventConfig,
    Format,
    LateGame,
    LeagueError,
    Match,
    Result,
    StandingRow,
    Tiebreak,
    Why,
    event_from_json,
)
from carca_bot.service.errors import BadInput
from carca_bot.service.model import DAY, GameOptions, User
from carca_bot.store import EventRow

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
    """What the event timers found, for the front end to post in the event's channel.

    `kind`: "round_over" (a round's matches are all decided: `standings`), "finished"
    (the last round is over: final `standings`), "reminder" (`games` due within a day:
    remind their players), "late_digest" (`games` past the deadline: for the
    organisers, pinging `ping_roles` (the organiser role) and `ping_users` (the
    event's creator)), "open_games" (`pairings` still without a game: open them), and
    news an event command or timer queued, with its data in `news`:
    "amended" (a result changed after the end: `news` has `match`, `round`, `note`,
    `by` (who ruled), `moves` ([player, place before, place after] of everyone whose
    place changed), `rated` (the games re-rated); `standings` the new ones),
    "deadline_forfeit" (`match`, `absent`: matches forfeited at their round's deadline),
    "timeout_forfeit" (`match`, `player`, `timeouts`: a match forfeited after repeated
    time-outs), "timeout_expelled" (`player`, `timeouts`: withdrawn from the event).
    """

    kind: str
    event: EventInfo
    round: int
    games: tuple[LateGame, ...] = ()
    pairings: tuple[Pairing, ...] = ()
    standings: tuple[StandingRow, ...] = ()
    ping_roles: tuple[str, ...] = ()
    ping_users: tuple[str, ...] = ()
    news: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PairedMatch:
    """One match of a round with why it was made (`Why`; None for a round paired before
    reasons were kept)."""

    match_id: str
    players: tuple[User, ...]  # in seat order: the first player first
    why: Why | None
    decided: bool


@dataclass(frozen=True)
class PairingsView:
    """A round's matches and why each was made: `/carc-event pairings`.

    `crossings` counts pairs across score groups, `rematches` pairs that had met, both
    in Swiss rounds (0 elsewhere); `seat_limit` is the most first seats a player may
    have over second seats (and the other way round).
    """

    event_id: int
    round: int
    format: str
    matches: tuple[PairedMatch, ...]
    crossings: int
    rematches: int
    seat_limit: int


# The library's refusal codes, as the service's (`league_` + the code: words/league.py).
LEAGUE_CODES = frozenset({
    "already_entered", "event_full", "no_late_entries", "event_over", "already_withdrawn",
    "not_entered", "already_started", "too_few_players", "not_started", "round_open",
    "no_match", "already_decided", "no_games", "no_winner", "one_game", "not_in_match", "bye",
    "nothing_to_appeal", "wrong_players", "bad_score", "already_advanced", "bad_rounds",
    "bad_best_of", "bad_groups", "bad_table_size", "bad_deadline", "bad_tiebreaks",
    "not_finished", "twice", "bad_moves", "bad_format", "bad_timeout_rule"})


def league_refusal(exc: LeagueError) -> BadInput:
    """The library's refusal as the service's: a code, no words."""
    code = "league_" + exc.code if exc.code in LEAGUE_CODES else "league_refused"
    return BadInput(code)


def event_config(format: str, *, rounds: int = 0, best_of: int = 1, groups: int = 1,
                 table_size: int = 4, round_days: float = 7.0,
                 tiebreaks: Sequence[str] = (), late_entries: bool = True,
                 third_place: bool = False, bracket_reset: bool = True,
                 forfeit_at_deadline: bool = False, timeout_rule: str = "none",
                 timeout_limit: int = 3) -> EventConfig:
    """An event's settings from a front end's plain values; BadInput if they cannot run.

    `tiebreaks`: names from the menu (`TIEBREAKS`), in the order they apply; none: the
    format's own chain. `timeout_rule`: "none", "forfeit" (a match is lost after
    `timeout_limit` time-outs in one game) or "expel" (withdrawn from the event after
    `timeout_limit` time-outs in its games)."""
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
                           round_seconds=round_days * DAY, late_entries=late_entries,
                           third_place=third_place, bracket_reset=bracket_reset,
                           forfeit_at_deadline=forfeit_at_deadline,
                           timeout_rule=timeout_rule, timeout_limit=timeout_limit)
    except LeagueError as exc:
        raise league_refusal(exc) from None


TIEBREAKS = tuple(t.value for t in Tiebreak)  # the menu, for the front ends' choices


def info_of(row: EventRow) -> EventInfo:
    return EventInfo(row.id, row.guild_id, row.channel_id, row.title, row.status, row.version,
                     event_from_json(row.data), GameOptions.from_json(row.options), row.series,
                     row.season, row.division, row.created_by)


def status_of(event: Event) -> str:
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
