"""What the store hands back: plain rows, decoded from JSON, with no behaviour."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LIVE_STATUSES = ("lobby", "active")


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: str | None  # None: a seat of an imported record, nobody's account
    name: str  # the player's name in the game record; unique within the game
    colour: int
    resigned: bool = False
    exit_score: int | None = None  # the score when they left a running game; it stays
    ai: str | None = None  # the AI level that plays this seat (then `user_id` is None)


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: str
    channel_id: str
    status: str  # lobby, active, finished, cancelled
    host_id: str
    options: dict[str, Any]
    seed: int | None = field(repr=False)  # secret while the game runs: keep it out of logs
    created_at: float
    updated_at: float
    version: int  # bumped by every write; the optimistic-concurrency token
    pending: dict[str, Any] | None  # the unconfirmed turn's steps
    deadline: float | None  # when the player who must act runs out of time
    outcome: str | None  # complete, resigned, cancelled; None while undecided
    public_version: int = 0  # the version of the last change owed a public post
    posted_version: int = 0  # the last version whose public post was delivered
    clock: dict[str, Any] | None = None  # a clock game's banks and ladder state (service)
    alarm: float | None = None  # when the timers must next look at a clock game

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES


@dataclass(frozen=True, slots=True)
class PublicChange:
    """What a command that players must hear about said, stored with the command."""

    moves_before: int  # the log length before the command
    lines: tuple[Any, ...]  # JSON values, in the service's own form (service/outbox.py)


@dataclass(frozen=True, slots=True)
class PublicEvents:
    """One stored public change, for a post that was not delivered."""

    version: int
    moves_before: int
    at: float
    lines: tuple[Any, ...]  # JSON values as `PublicChange` stored them


@dataclass(frozen=True, slots=True)
class Unposted:
    """A game owed a public post."""

    game_id: int
    guild_id: str
    channel_id: str
    posted_version: int
    public_version: int
    since: float  # when the oldest undelivered change was stored


@dataclass(frozen=True, slots=True)
class Usage:
    """What limits count for one user in one server."""

    lobbies_hosted: int  # open lobbies the user hosts
    games_in: int  # lobbies and running games the user sits in or hosts
    server_lobbies: int
    server_games: int  # running games in the server
    threads: int  # threads made for the user's games since the window start
    imports: int  # records the user imported since the window start


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    user_id: str | None  # None: played by the service (auto-discard, timer, resigned seat)
    action: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class HintRow:
    """One hint a player asked for: when (log length `seq`, time `at`), and what it said."""

    number: int  # 1, 2, ... within the game
    seq: int
    seat: int
    user_id: str
    at: float
    steps: list[Any]  # the suggested steps, as the service stored them (JSON)


@dataclass(frozen=True, slots=True)
class GameData:
    """Everything needed to rebuild one game."""

    game: GameRow
    seats: list[SeatRow]
    actions: list[ActionRow]


@dataclass(frozen=True, slots=True)
class TakebackRow:
    """A request to take back a confirmed move (schema version 6)."""

    game_id: int
    seq: int  # the log index of the move to take back
    upto: int  # the log length when it was asked
    proposer: str  # the user who made the move and asks
    seat: int
    accepted: tuple[int, ...]  # the seats that accepted so far
    state: str  # open, accepted, refused, withdrawn, closed
    answers: int  # writes so far: a write names the count it read
    opened_at: float
    closed_at: float | None


@dataclass(frozen=True, slots=True)
class GameMessages:
    """The messages a front end keeps for a game: its card (edited in place) and the last
    turn ping (deleted when the next one goes out). Ids as the front end gives them."""

    card_channel: str | None = None
    card_id: str | None = None
    ping_channel: str | None = None
    ping_id: str | None = None
    ping_user: str | None = None  # whom the last ping was for
    ping_moves: int | None = None  # the game's move count when it went out
