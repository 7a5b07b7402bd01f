"""What goes into and comes out of the service: plain values, no Discord types.

Users and channels are opaque strings so any front end can use the service:
Discord passes snowflakes as text, the terminal passes made-up names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.events import Event
from carca_bot.engine.moves import Discard, Move, action_moves
from carca_bot.engine.setup import WAGON_RULES
from carca_bot.service.clocks import PRESETS, ClockRules, QuietHours
from carca_bot.service.errors import BadInput, ServiceError
from carca_bot.service.labels import FeatureLabel

if TYPE_CHECKING:
    from carca_bot.engine.game import Game

MAX_PLAYERS = 6
ROTATIONS = (0, 90, 180, 270)
MIN_TIMER = 60  # seconds
MIN_AI_SECONDS, MAX_AI_SECONDS = 0.1, 10.0  # what an AI seat may be given to think
# The languages a game or a preference may be set to: `carca_bot.i18n.LANGUAGES` (the
# service speaks none of them itself; tests/service/test_language.py keeps them equal).
LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Note:
    """Something the service says happened during a command, as data: a `code`
    (`joined`, `resigned`, `time_up`, ...) and the `params` a sentence needs (player
    names as they are, never seat numbers: seats are renumbered in a lobby).
    Front ends say it with `carca_bot.words.say`."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


# What a command told its players: the engine's events and the service's notes. A plain
# string is what a version before notes-as-data stored (only in `CatchUp.lines`).
Told: TypeAlias = Event | Note | str


@dataclass(frozen=True, slots=True)
class User:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Where:
    """A channel or thread: the place a game lives."""

    guild: str
    channel: str


@dataclass(frozen=True)
class GameOptions:
    """Choices made when a game is created; stored as JSON with the game."""

    expansions: frozenset[str] = frozenset()
    wagon_rule: str = "c2"
    turn_timer: int | None = None  # seconds per decision; None: no timer
    auto_play: bool = False  # when the timer runs out, play the turn for the player
    max_players: int = MAX_PLAYERS
    allow_solo: bool = False  # the host may start alone
    # None: a secret random seed at creation. Never shown while the game can deal.
    seed: int | None = field(default=None, repr=False)
    tunnel_pairs: int | None = None
    start: tuple[str, int] | None = None  # start tile and quarter turns (imported records)
    analysis: bool = False  # an imported record: the host plays every seat
    language: str = DEFAULT_LANGUAGE  # what the game's public posts speak (LANGUAGES)
    # A turn-based clock (time bank per player; see `clock_rules` for the forms it is
    # given in); a game has either this or `turn_timer`, or neither.
    clock: ClockRules | None = None
    # A game that changes nobody's rating (games are rated by default: see ratings_ops).
    unrated: bool = False
    hints: bool = False  # the player to act may ask the AI for a move (`GameService.hint`)
    # Seconds an AI seat may think per decision; None: its level's default (`ai_play`).
    ai_seconds: float | None = None

    def __post_init__(self) -> None:
        unknown = sorted(self.expansions - set(EXPANSIONS))
        if unknown:
            raise BadInput("unknown_expansion", name=unknown[0], choices=EXPANSIONS)
        if self.wagon_rule not in WAGON_RULES:
            raise BadInput("unknown_wagon_rule", rule=self.wagon_rule)
        if self.turn_timer is not None and self.turn_timer < MIN_TIMER:
            raise BadInput("timer_too_short", seconds=MIN_TIMER)
        if not 1 <= self.max_players <= MAX_PLAYERS:
            raise BadInput("bad_max_players", most=MAX_PLAYERS)
        if self.tunnel_pairs is not None and self.tunnel_pairs < 0:
            raise BadInput("bad_tunnel_pairs")
        if self.auto_play and self.turn_timer is None:
            raise BadInput("auto_play_needs_timer")
        if self.clock is not None:
            if self.turn_timer is not None:
                raise BadInput("clock_and_timer")
            code = self.clock.problem()
            if code is not None:
                raise BadInput(code)
        check_language(self.language)
        if self.ai_seconds is not None and not MIN_AI_SECONDS <= self.ai_seconds <= MAX_AI_SECONDS:
            raise BadInput("bad_ai_seconds", seconds=MIN_AI_SECONDS, most=MAX_AI_SECONDS)

    def to_json(self) -> dict[str, Any]:
        return {
            "expansions": [e for e in EXPANSIONS if e in self.expansions],
            "wagon_rule": self.wagon_rule,
            "turn_timer": self.turn_timer,
            "auto_play": self.auto_play,
            "max_players": self.max_players,
            "allow_solo": self.allow_solo,
            "seed": self.seed,
            "tunnel_pairs": self.tunnel_pairs,
            "start": None if self.start is None else list(self.start),
            "analysis": self.analysis,
            "language": self.language,
            "clock": None if self.clock is None else clock_json(self.clock),
            "unrated": self.unrated,
            "hints": self.hints,
            "ai_seconds": self.ai_seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOptions:
        start = data.get("start")
        return cls(
            expansions=frozenset(data.get("expansions", ())),
            wagon_rule=data.get("wagon_rule", "c2"),
            turn_timer=data.get("turn_timer"),
            auto_play=bool(data.get("auto_play", False)),
            max_players=int(data.get("max_players", MAX_PLAYERS)),
            allow_solo=bool(data.get("allow_solo", False)),
            seed=data.get("seed"),
            tunnel_pairs=data.get("tunnel_pairs"),
            start=None if start is None else (str(start[0]), int(start[1])),
            analysis=bool(data.get("analysis", False)),
            language=str(data.get("language", DEFAULT_LANGUAGE)),  # none before languages
            clock=None if data.get("clock") is None else clock_rules(data["clock"]),
            unrated=bool(data.get("unrated", False)),
            hints=bool(data.get("hints", False)),  # none before AI players
            ai_seconds=None if data.get("ai_seconds") is None else float(data["ai_seconds"]),
        )


CLOCK_KEYS = frozenset({"preset", "bank", "increment", "cap", "quiet", "timezone",
                        "vacation_days", "reminders", "on_timeout"})


def clock_rules(value: object) -> ClockRules:
    """A game's clock from what a front end or the stored options give.

    A preset name ("fast", "normal", "slow"), a `ClockRules`, or a JSON object: every
    key of `clock_json`'s form, or `"preset"` and the keys that change it, e.g.
    `{"preset": "normal", "on_timeout": "vote", "timezone": "Europe/Madrid",
    "quiet": [1380, 420]}` (quiet hours as minutes of the day, start and end).
    BadInput with the rules' own refusal code when they cannot run a game.
    """
    if isinstance(value, ClockRules):
        rules = value
    elif isinstance(value, str):
        if value not in PRESETS:
            raise BadInput("unknown_clock_preset", name=value[:20], choices=tuple(PRESETS))
        rules = PRESETS[value]
    elif isinstance(value, Mapping):
        rules = _custom_clock(value)
    else:
        raise BadInput("bad_clock")
    code = rules.problem()
    if code is not None:
        raise BadInput(code)
    return rules


def _custom_clock(data: Mapping[str, Any]) -> ClockRules:
    if set(data) - CLOCK_KEYS:
        raise BadInput("bad_clock")
    preset = data.get("preset")
    if preset is None and not {"bank", "increment", "cap"} <= set(data):
        raise BadInput("bad_clock")
    base = clock_rules(preset) if preset is not None else None
    try:
        quiet = data.get("quiet", "base")
        if quiet == "base":
            hours = base.quiet if base is not None else None
        elif quiet is None:
            hours = None
        else:
            start, end = quiet
            hours = QuietHours(int(start), int(end))
        return ClockRules(
            bank=int(data.get("bank", base.bank if base else 0)),
            increment=int(data.get("increment", base.increment if base else 0)),
            cap=int(data.get("cap", base.cap if base else 0)),
            quiet=hours,
            vacation_days=int(data.get("vacation_days", base.vacation_days if base else 0)),
            reminders=tuple(float(r) for r in data.get(
                "reminders", base.reminders if base else (0.5, 0.1))),
            on_timeout=str(data.get("on_timeout", base.on_timeout if base else "play")),
            timezone=str(data.get("timezone", base.timezone if base else "UTC")),
        )
    except (TypeError, ValueError):
        raise BadInput("bad_clock") from None


def clock_json(rules: ClockRules) -> dict[str, Any]:
    """The clock as stored with the game's options: every rule spelled out, so changing
    a preset later changes no running game."""
    return {
        "bank": rules.bank, "increment": rules.increment, "cap": rules.cap,
        "quiet": None if rules.quiet is None else [rules.quiet.start, rules.quiet.end],
        "timezone": rules.timezone, "vacation_days": rules.vacation_days,
        "reminders": list(rules.reminders), "on_timeout": rules.on_timeout,
    }


def check_language(language: object) -> str:
    """`language` if it is one players may choose; BadInput("unknown_language") if not."""
    if not isinstance(language, str) or language not in LANGUAGES:
        raise BadInput("unknown_language", language=str(language)[:20], choices=LANGUAGES)
    return language


@dataclass(frozen=True, slots=True)
class LanguagePrefs:
    """The languages a user and a server chose to override the defaults (None: none)."""

    user: str | None
    guild: str | None


DAY = 24 * 3600


@dataclass(frozen=True)
class Limits:
    """What one user or one server may hold at once, so nobody can flood a server.

    Defaults: an asynchronous game takes days, and a keen player keeps a handful
    going, so 20 games per user leaves room while a script filling a server
    meets a wall; 3 open lobbies per user is enough to gather players in a few
    channels. A server with 25 lobbies waiting or 500 games running is far past
    normal play. Threads are a moderator's clean-up work, hence 5 per user per
    day; imports replay a whole record, hence 10 per user per hour. A lobby not
    started within a week is forgotten: it is cancelled by `check_timers`.
    """

    lobbies_per_user: int = 3  # open lobbies the user hosts
    lobbies_per_server: int = 25
    games_per_user: int = 20  # lobbies and running games the user sits in or hosts
    games_per_server: int = 500  # running games
    threads_per_day: int = 5  # threads made for a user's games, rolling 24 hours
    imports_per_hour: int = 10  # per user, rolling hour
    lobby_lifetime: float = 7 * DAY  # seconds a lobby may wait for its start
    record_bytes: int = 256 * 1024  # a whole 6-player game with everything is ~15 KiB
    import_seconds: float = 5.0  # replaying an imported record must take less


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class TurnOrder:
    """A whole turn in one command: tile (or abbey), figure or recall, token."""

    at: tuple[int, int]
    rot: int = 0  # degrees, 0/90/180/270; ignored for an abbey
    abbey: bool = False  # place the abbey at `at` instead of the drawn tile
    figure: str | None = None
    on: str | None = None
    recall: bool = False
    token: tuple[int, int, str, int] | None = None  # x, y, side, pair
    token_first: bool = False


@dataclass(frozen=True)
class SeatView:
    seat: int
    user_id: str | None
    name: str
    colour: int
    score: int
    resigned: bool
    in_hand: dict[str, int] = field(default_factory=dict)
    # Turn-time statistics: the median seconds this player took to make a move (their
    # own moves in the log, not the ones played for them); None before their first.
    median_move_seconds: float | None = None
    # A clock game: seconds in the player's bank when their current (or next) decision
    # began; the player to act runs out at `TurnView.deadline`.
    bank: float | None = None
    on_vacation: bool = False  # a clock game: the player's clock is paused for a vacation
    expelled: bool = False  # voted out (`resigned` is also true: they are out the same way)
    ai: str | None = None  # the AI level playing this seat (`user_id` is then None)
    hints: int = 0  # hints this player asked for in this game (`GameService.hint`)


@dataclass(frozen=True)
class TurnView:
    """A game as one user sees it right now: enough to post a message and draw the board."""

    game_id: int
    version: int  # pass back as `expect` so a stale button cannot act twice
    moves: int  # confirmed actions in the log so far
    where: Where
    status: str  # lobby, active, finished, cancelled
    outcome: str | None  # complete, resigned, cancelled
    host_id: str
    options: GameOptions
    seats: tuple[SeatView, ...]  # turn order once the game has started
    deciding: SeatView | None  # who must act now
    # What the game waits for: join, choose, place, finish, wagon, abbey_round or over
    # (`carca_bot.words.prompt` says it; `carca_bot.words.situation` says the whole view).
    must: str
    tile: str | None  # the tile to place: only for the player who must place it
    steps: tuple[Move, ...]  # the unconfirmed moves of the turn (`words.say` says each)
    # What happened during this command: engine events and service notes (a view from
    # the service holds no `str`; see `Told`).
    events: tuple[Told, ...]
    tiles_left: int
    deadline: float | None  # when the player to act runs out of time (a Unix time)
    # The carca-record/1 actions this command committed, in order: the player's own
    # move, then any played for others (resigned, out of time) and discards.
    played: tuple[dict[str, Any], ...] = ()
    yours: bool = False  # the viewer is the one who must act now (or acts for them)
    expel_vote: ExpelVote | None = None  # a clock game: the open vote to expel, if any
    part: int = 1  # 2: a builder's second part, the same turn (no new ping, clock or timer)

    @property
    def finished(self) -> bool:
        return self.status in ("finished", "cancelled")

    @property
    def standings(self) -> tuple[SeatView, ...]:
        return ranked(self.seats)

    @property
    def done(self) -> tuple[Played, ...]:
        """`played` as typed moves: what a front end says of this command's actions."""
        return played(self.played)

    def done_by(self, name: str | None) -> Played | None:
        """The action `name` made in this command (the first: automatic actions for
        others may follow it); None when they made none."""
        return next((p for p in self.done if name is not None and p.by == name), None)


@dataclass(frozen=True, slots=True)
class Played:
    """One committed action as everyone may read it: who made it (None for the end of
    the pile) and its moves in order, typed (`carca_bot.engine.moves`), so a front end
    says it without reading the record's dictionaries."""

    by: str | None
    moves: tuple[Move, ...]

    @property
    def discard(self) -> bool:
        """An automatic discard (a tile that fits nowhere), not a decision of `by`'s."""
        return any(isinstance(m, Discard) for m in self.moves)


def played(actions: Iterable[Mapping[str, Any]]) -> tuple[Played, ...]:
    """Committed `carca-record/1` actions (as `TurnView.played`, `CatchUp.played` or
    `TakebackView.undone` hold them) as `Played` values."""
    found = []
    for action in actions:
        by, moves = action_moves(dict(action))
        found.append(Played(by, tuple(moves)))
    return tuple(found)


@dataclass(frozen=True)
class Shown:
    """A game as a front end shows it, read in one go under the game's lock.

    The public view (`GameService.public_view`) is what everyone at the table sees
    after a change: `view` as nobody in particular sees it, the tile the player to act
    drew once everyone may see it, the choices of the player to act that everyone may
    see (a wagon's targets, for the menu under the card), and every event of the game
    so far (scoring pages, the final post). A player's own view of their turn
    (`GameService.own_view`) has their drawn tile and every legal choice instead.

    `board` is a private copy of the game for pictures only: hand it to
    `carca_bot.render` (and `service.history`); None before the game starts. `last`
    is the game's newest committed action (None before the first): what a picture's
    alt text names as the last move when the change shown made none itself (a card
    refreshed after a vote, the board looked at, a player's own turn)."""

    view: TurnView
    board: Game | None
    tile: str | None = None
    choices: Choices | None = None
    events: tuple[Event, ...] = ()
    last: Played | None = None


@dataclass(frozen=True)
class Moment:
    """A game right after its move `number` (0: before the first), as anyone may see it:
    replayed from the committed actions without the seed, so nothing in it can tell the
    order of the pile or a tile drawn for a turn not yet confirmed."""

    game_id: int
    number: int
    total: int  # actions committed so far
    finished: bool
    names: tuple[str, ...]
    action: Played | None  # move `number` as played
    events: tuple[Event, ...]  # what it did and scored
    scores: tuple[int, ...]
    table: Game  # the public game after the move, for pictures


@dataclass(frozen=True)
class ExpelVote:
    """An open vote to expel the player whose time ran out (`ClockRules.on_timeout`
    "vote"): who, who voted so far (names), and how many votes expel."""

    target_id: str | None
    target: str
    voters: tuple[str, ...]
    needed: int
    closes: float | None = None  # when it closes unexpelled (their turn is then played)


class GameMovedOn(ServiceError):
    """Another command changed the game first; `view` is the game as it is now.

    It lives beside `TurnView`, which it carries, rather than with the other refusals
    in `errors`, so that neither module needs the other's names."""

    def __init__(self, code: str, view: TurnView) -> None:
        super().__init__(code)
        self.view = view


def ranked(seats: Iterable[SeatView]) -> tuple[SeatView, ...]:
    """Players still in by score, then those who resigned (a resignation ranks last)."""
    return tuple(sorted(seats, key=lambda s: (s.resigned, -s.score, s.seat)))


@dataclass(frozen=True)
class Choices:
    """Every legal option for the player who must act (for buttons, hints, random play)."""

    must: str
    tile: str | None = None
    can_draw: bool = False
    placements: tuple[tuple[int, int, int], ...] = ()  # x, y, rot in degrees
    abbey_squares: tuple[tuple[int, int], ...] = ()
    deployments: tuple[tuple[str, str], ...] = ()  # figure, on
    can_recall: bool = False
    tokens: tuple[tuple[int, int, str, int], ...] = ()  # x, y, side, pair
    can_confirm: bool = False
    wagon_moves: tuple[tuple[int, int, str], ...] = ()  # x, y, on
    can_skip_abbey: bool = False
    last: tuple[int, int] | None = None  # where the newest tile lies, to offer nearby first
    # What each deployment or wagon target stands on, as data (kind, where): for the
    # front ends' labels ("field, south-west half": `carca_bot.words.service`).
    labels: tuple[FeatureLabel, ...] = ()


@dataclass(frozen=True)
class GameSummary:
    """One line of "my games"."""

    game_id: int
    where: Where
    status: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    waiting_for: str | None  # name of who must act
    your_turn: bool
    updated_at: float
    deadline: float | None = None  # when the player to act runs out of time
    # A clock game: the user's own bank now (running down if it is their turn).
    bank: float | None = None


@dataclass(frozen=True)
class TimerReport:
    """What the timers did to one game, for the front end to say.

    `reason`, for a game with a per-decision `turn_timer`: "reminder" (the player to
    act ran out of time; the deadline moved one period on) or "auto_played" (their
    move was played for them: `actions` holds it and anything it led to,
    `view.deciding` is who is next and `view.deadline` their deadline).

    For a clock game (`GameOptions.clock`): "clock_reminder" (a share of the player's
    time is left: note `clock_reminder` with `seconds` left and the `deadline`; at
    most one a day per user across all their games), then at the deadline, by the
    rules' `on_timeout`: "auto_played" (as above), "skipped" (the smallest legal
    play, their unconfirmed steps dropped: note `skipped_for_late`; `auto_played` is
    true as a move was made) or "expel_vote" (a vote to expel them is open:
    `view.expel_vote`, note `expel_vote_open`; the others answer with `vote_expel`).
    A vote not carried by `ExpelVote.closes` (a day after it opened, or one increment
    if longer) closes: note `expel_vote_closed`, their turn is played for them, reason
    "auto_played".

    And "lobby_expired" (a lobby not started in time was cancelled; `user_id` and
    `name` are its host). All data: `view.events` holds the notes (`time_up`,
    `played_for_late`, ...) for `words.say`; `user_id` and `name` are the late player.
    """

    game_id: int
    where: Where
    user_id: str | None
    name: str
    auto_played: bool
    view: TurnView
    reason: str = "reminder"
    actions: tuple[dict[str, Any], ...] = ()
