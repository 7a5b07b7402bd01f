"""What goes into and comes out of the service: plain values, no Discord types.

Users and channels are opaque strings so any front end can use the service:
Discord passes snowflakes as text, the terminal passes made-up names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from carca_bot.engine.events import Event
from carca_bot.engine.moves import Discard, Move, action_moves
from carca_bot.service.errors import ServiceError
from carca_bot.service.labels import FeatureLabel

# A game's options are options.py's; their names stay importable from here.
from carca_bot.service.options import CLOCK_KEYS as CLOCK_KEYS
from carca_bot.service.options import DEFAULT_LANGUAGE as DEFAULT_LANGUAGE
from carca_bot.service.options import LANGUAGES as LANGUAGES
from carca_bot.service.options import MAX_AI_SECONDS as MAX_AI_SECONDS
from carca_bot.service.options import MAX_PLAYERS as MAX_PLAYERS
from carca_bot.service.options import MIN_AI_SECONDS as MIN_AI_SECONDS
from carca_bot.service.options import MIN_TIMER as MIN_TIMER
from carca_bot.service.options import GameOptions as GameOptions
from carca_bot.service.options import check_language as check_language
from carca_bot.service.options import clock_json as clock_json
from carca_bot.service.options import clock_rules as clock_rules

if TYPE_CHECKING:
    from carca_bot.engine.game import Game

ROTATIONS = (0, 90, 180, 270)


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
