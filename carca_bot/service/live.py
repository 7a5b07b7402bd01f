"""A game in memory, rebuilt from the store: the log replayed, then the unconfirmed moves.

The committed log is the truth; the pending turn is a list of engine moves
stored beside it (as JSON), so a turn half played survives a restart. In memory
the moves are pushed on the live game, so undo is `Game.pop`, and previews work
on `Game.copy`: nothing replays the log except loading a game from the store.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game, Phase, Placement
from carca_bot.engine.moves import Deploy, Move, PlaceAbbey, PlaceTile, PlaceToken, Recall
from carca_bot.engine.setup import Setup
from carca_bot.service.model import GameOptions, Note
from carca_bot.store import GameData, GameRow, SeatRow

Step = dict[str, Any]  # one pending move as stored (see `move_json`)
LOBBY_CLOSED = "lobby_closed"  # the outcome of a lobby cancelled before it started


class Unreplayable(Exception):
    """The stored log does not replay: a bug or a damaged database, never a player's doing."""


def move_json(move: Move) -> Step:
    """A pending move as stored: `{"move": kind, ...}`, rotations in quarter turns."""
    match move:
        case PlaceTile(tile, pos, rot):
            return {"move": "tile", "tile": tile, "at": list(pos), "rot": rot}
        case PlaceAbbey(pos):
            return {"move": "abbey", "at": list(pos)}
        case Deploy(figure, on):
            return {"move": "deploy", "figure": figure, "on": on}
        case Recall():
            return {"move": "recall"}
        case PlaceToken(pos, on, pair):
            return {"move": "token", "at": list(pos), "on": on, "pair": pair}
    raise ValueError(f"{move!r} is not a step of an unconfirmed turn")


def _at(value: Any) -> tuple[int, int]:
    return (int(value[0]), int(value[1]))


def move_of(step: Step) -> Move:
    """A stored pending move back, in either format: `move_json`'s, or the step dicts
    written before typed moves (`{"tile", "at", "rot" in degrees}`, `{"abbey": [x, y]}`,
    `{"deploy": {...}}`, `{"recall": true}`, `{"token": {...}}`). ValueError if neither."""
    kind = step.get("move")
    if kind == "tile":
        return PlaceTile(str(step["tile"]), _at(step["at"]), int(step["rot"]))
    if kind == "abbey":
        return PlaceAbbey(_at(step["at"]))
    if kind == "deploy":
        return Deploy(str(step["figure"]), str(step["on"]))
    if kind == "recall":
        return Recall()
    if kind == "token":
        return PlaceToken(_at(step["at"]), str(step["on"]), int(step["pair"]))
    if kind is not None:
        raise ValueError(f"unknown pending move {kind!r}")
    if "tile" in step:  # the old step dicts
        return PlaceTile(str(step["tile"]), _at(step["at"]), int(step["rot"]) // 90)
    if "abbey" in step:
        return PlaceAbbey(_at(step["abbey"]))
    if "deploy" in step:
        return Deploy(str(step["deploy"]["figure"]), str(step["deploy"]["on"]))
    if "recall" in step:
        return Recall()
    if "token" in step:
        token = step["token"]
        return PlaceToken(_at(token["at"]), str(token["on"]), int(token["pair"]))
    raise ValueError(f"unknown step {step!r}")


@dataclass
class Pending:
    """The unconfirmed turn: who, on which log length, whether they drew, what they did."""

    seat: int
    seq: int
    drew: bool = False  # chose to draw rather than place the abbey (cannot be taken back)
    moves: list[Move] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "seq": self.seq, "drew": self.drew,
                "moves": [move_json(m) for m in self.moves]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        """Reads both `to_json`'s form and the older one (`"steps"`, see `move_of`)."""
        stored = data.get("moves", data.get("steps", []))
        return cls(int(data["seat"]), int(data["seq"]), bool(data.get("drew")),
                   [move_of(s) for s in stored])


def seating(seed: int, count: int) -> list[int]:
    """The seat order drawn from the game's seed: old seat numbers in their new order."""
    order = list(range(count))
    random.Random(f"seats:{seed}").shuffle(order)
    return order


@dataclass
class Batch:
    """What one command changes, stored in one transaction at its end (see core)."""

    row: GameRow  # the game as the command found it
    seats: list[SeatRow]  # ... its seats then
    seq: int  # ... and its log length
    changes: dict[str, Any] = field(default_factory=dict)
    new_seats: list[SeatRow] | None = None
    actions: list[tuple[int, str | None, dict[str, Any]]] = field(default_factory=list)


def owed_post(batch: Batch, live: Live) -> bool:
    """Whether players must be told in public what the command did.

    Yes for every committed action (a turn, a wagon move, a skipped abbey, a discard,
    an auto-played turn), a start, the end of a running game (finished, resigned or
    cancelled) and a resignation or kick from a running game. No for lobby changes
    (join, leave, a lobby cancelled or expired), unconfirmed steps, and timer reminders.
    """
    if batch.actions:
        return True
    before, after = batch.row.status, live.row.status
    if (before != after and before != "lobby") or (before, after) == ("lobby", "active"):
        return True
    if batch.new_seats is not None:
        return sum(s.resigned for s in batch.new_seats) != sum(s.resigned for s in batch.seats)
    return False


@dataclass
class Live:
    row: GameRow
    seats: list[SeatRow]
    seq: int  # committed actions
    game: Game | None  # None until the game has started
    pending: Pending | None
    notes: list[Note] = field(default_factory=list)  # said by the service during a command
    batch: Batch | None = None  # what the running command will store
    # Who made each logged action and when (for turn-time statistics).
    times: list[tuple[str | None, float]] = field(default_factory=list)
    # A clock game: the vacations of its seated users, read afresh for every command.
    vacations: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    # The time the timers act at, while they act (`check_timers(now)`): a clock charges
    # the mover up to it rather than up to the service's clock.
    timer_now: float | None = None
    hints: dict[int, int] = field(default_factory=dict)  # hints asked for, per seat
    # The next tile and where it fits, for the tile count and log length they were
    # worked out at: asked for several times per command, and not free.
    _next: tuple[tuple[int, int], str, list[Placement]] | None = None
    _options: GameOptions | None = None  # options never change after creation

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def options(self) -> GameOptions:
        if self._options is None:
            self._options = GameOptions.from_json(self.row.options)
        return self._options

    def seat_of(self, user_id: str) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def vacations_of(self, seat: int | None) -> list[tuple[float, float]]:
        """The vacations of the user in `seat` (none for a seat nobody owns)."""
        if seat is None or seat >= len(self.seats):
            return []
        user = self.seats[seat].user_id
        return self.vacations.get(user, []) if user is not None else []

    def ai_level(self, seat: int | None) -> str | None:
        """The level of the AI that plays `seat` now: None for a person, a seat that
        left the game, or no seat."""
        if seat is None or seat >= len(self.seats) or self.seats[seat].resigned:
            return None
        return self.seats[seat].ai

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def drawn_tile(self) -> str | None:
        """The tile the player to act holds, if they have drawn or cannot choose the abbey;
        never one from an empty pile (a builder's second part then is the abbey only)."""
        game = self.game
        if game is None or game.phase is not Phase.TILE or self.row.status != "active" \
                or game.tiles_left == 0:
            return None
        drew = self.pending is not None and self.pending.drew
        if not drew and game.can_place_abbey(game.current):
            return None
        return self.next_tile()[0]

    def next_tile(self) -> tuple[str, list[Placement]]:
        """The tile the next draw gives, and where it may go (in TILE phase)."""
        game = self.game
        assert game is not None
        key = (game.drawn, len(game.history))
        if self._next is None or self._next[0] != key:
            tile = game.draw()
            self._next = (key, tile, game.legal_placements(tile))
        return self._next[1], self._next[2]


def setup_for(row: GameRow, seats: list[SeatRow]) -> Setup:
    options = GameOptions.from_json(row.options)
    return Setup(tuple(s.name for s in seats), options.expansions, options.wagon_rule,
                 options.tunnel_pairs, row.seed, options.start)


def rebuild(data: GameData) -> Live:
    """Replay the log and the unconfirmed steps. A pending turn that no longer applies
    (it was written for another log length) is dropped, never half applied."""
    row = data.game
    live = Live(row, data.seats, len(data.actions), None, None,
                times=[(a.user_id, a.at) for a in data.actions])
    if not started(row):
        return live
    for expected, action in enumerate(data.actions):
        if action.seq != expected:
            raise Unreplayable(f"game {row.id}: the log has a gap before action {action.seq}")
    try:
        live.game = Game.replay(setup_for(row, data.seats), [a.action for a in data.actions])
    except (IllegalMove, ValueError, KeyError) as exc:  # for the logs and `ops check`
        raise Unreplayable(f"game {row.id} does not replay: {exc}") from exc
    if row.pending is not None:
        try:
            live.pending = Pending.from_json(row.pending)
        except (KeyError, ValueError, TypeError, IndexError):
            return live  # unreadable: dropped like a pending turn that no longer applies
        if not _reapply(live.game, live.pending, live.seq):
            live.pending = None
    return live


def started(row: GameRow) -> bool:
    """Whether the game left its lobby (a lobby closed before starting never did)."""
    return row.status != "lobby" and row.outcome != LOBBY_CLOSED


def _reapply(game: Game, pending: Pending, seq: int) -> bool:
    """Push the pending moves; all or none (a move that no longer applies pops the rest)."""
    if pending.seq != seq or game.deciding != pending.seat:
        return False
    depth = len(game.frames)
    try:
        for move in pending.moves:
            game.push(move)
    except (IllegalMove, KeyError, ValueError, TypeError):
        while len(game.frames) > depth:
            game.pop()
        return False
    return True


def snapshot(live: Live) -> Game | None:
    """A private copy of the game with the unconfirmed moves, safe to keep, try moves on
    and render: `Game.copy`, not a replay of the log."""
    if live.game is None:
        return None
    return live.game.copy()
