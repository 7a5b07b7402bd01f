"""Before and around play: create, join, leave, kick, start, cancel, resign."""

from __future__ import annotations

import secrets
from dataclasses import replace

from carca_bot.engine.game import Game
from carca_bot.engine.limits import safe_name
from carca_bot.service import errors
from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import NotAllowed, NotInGame
from carca_bot.service.limits import check_creation, check_games, check_start
from carca_bot.service.live import LOBBY_CLOSED, Live, seating, setup_for
from carca_bot.service.model import (
    DAY,
    MAX_PLAYERS,
    GameOptions,
    Note,
    TurnView,
    User,
    Where,
)
from carca_bot.service.ratings_ops import left_early_note
from carca_bot.store import ChannelBusy, SeatRow

# The seed fixes the seat order and every draw. Seat order and the first draws are
# public, so the seed must be far too large to search (2^31 seeds take minutes);
# 63 bits is what SQLite's INTEGER holds.
SEED_BITS = 63
# A lobby closed before it started (cancelled, emptied, or expired: outcome
# `lobby_closed`) has nothing to show, so it is deleted this long after it closed, by
# the timers (`check_timers`), its seats and messages with it: a week, as long as a
# lobby may wait, so a player who saw it close can still ask what happened.
CLOSED_LOBBY_GRACE = 7 * DAY


def unique_name(wanted: str, taken: set[str]) -> str:
    """The user's name as the record accepts it (no hidden characters, at most 32
    characters), told apart from the other seats even where only case differs."""
    return safe_name(wanted, taken)


def renumber(seats: list[SeatRow]) -> list[SeatRow]:
    return [replace(s, seat=i) for i, s in enumerate(seats)]


class LobbyOps(ServiceCore):
    async def check_can_create(self, guild: str, user_id: str, new_thread: bool) -> None:
        """LimitReached if the user may not open a lobby now (in a new thread, with
        `new_thread`): for the front end to ask before it makes the thread."""
        usage = await self._usage(guild, user_id)
        check_creation(self.limits, usage, new_thread)

    async def create(self, where: Where, host: User, options: GameOptions,
                     new_thread: bool = False) -> TurnView:
        """Open a lobby in the channel with `host` seated; one lobby or game per channel.

        `new_thread`: the front end made the thread `where` for this game; it counts
        against the user's threads per day.
        """
        seed = options.seed if options.seed is not None else secrets.randbits(SEED_BITS)
        seat = SeatRow(0, host.id, unique_name(host.name, set()), 0)
        check = self._usage_check(lambda usage: check_creation(self.limits, usage, new_thread))
        try:
            game_id = await self.store.create_game(where.guild, where.channel, seat,
                                                   options.to_json(), seed, self.clock(),
                                                   check=check, thread=new_thread)
        except ChannelBusy:
            raise errors.ChannelBusy("channel_busy") from None
        return await self._shown(game_id, host.id)

    async def join(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            self._need_lobby(live, "join")
            if live.seat_of(user.id) is not None:
                raise NotAllowed("already_in_game")
            check_games(self.limits, await self._usage(where.guild, user.id))
            limit = min(live.options.max_players, MAX_PLAYERS)
            if len(live.seats) >= limit:
                raise NotAllowed("game_full", limit=limit)
            colours = {s.colour for s in live.seats}
            colour = min(c for c in range(MAX_PLAYERS) if c not in colours)
            name = unique_name(user.name, {s.name for s in live.seats})
            seats = [*live.seats, SeatRow(len(live.seats), user.id, name, colour)]
            self._change(live, {}, seats)
            live.notes.append(Note("joined", {"name": name}))

        return await self._act(where, user, body, expect)

    async def leave(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Leave a lobby. A host who leaves hands the game on; the last one out closes it."""
        async def body(live: Live) -> None:
            seat = live.seat_of(user.id)
            if seat is None:
                raise NotInGame("not_in_game")
            if live.row.status == "active":
                raise NotAllowed("use_resign")
            self._need_lobby(live, "leave")
            self._remove(live, seat, Note("left", {"name": seat.name}))

        return await self._act(where, user, body, expect)

    async def kick(self, where: Where, caller: User, target: str, is_admin: bool = False,
                   expect: int | None = None) -> TurnView:
        """Remove a player: from a lobby, or from a running game as if they resigned."""
        async def body(live: Live) -> None:
            if not self._is_host(live, caller, is_admin):
                raise NotAllowed("only_host_kicks")
            seat = live.seat_of(target)
            if seat is None:
                raise NotInGame("target_not_in_game")
            if live.row.status == "lobby":
                if target == live.row.host_id:
                    raise NotAllowed("host_not_kickable")
                self._remove(live, seat, Note("removed_from_lobby", {"name": seat.name}))
                return
            self._resign(live, seat, Note("removed_from_game", {"name": seat.name}))

        return await self._act(where, caller, body, expect)

    async def start(self, where: Where, caller: User, expect: int | None = None) -> TurnView:
        """Deal the game: seat order drawn from the seed, then the first turn."""
        async def body(live: Live) -> None:
            self._need_lobby(live, "start")
            if live.row.host_id != caller.id:
                raise NotAllowed("only_host_starts")
            count = len(live.seats)
            if count < 2 and not (live.options.allow_solo and count == 1):
                raise NotAllowed("too_few_players")
            check_start(self.limits, await self._usage(where.guild, caller.id))
            assert live.row.seed is not None
            order = seating(live.row.seed, count)
            seats = renumber([live.seats[i] for i in order])
            game = Game(setup_for(live.row, seats))
            self._change(live, {"status": "active", "deadline": self._deadline(live)},
                              seats)
            live.game = game
            self._start_clock(live)
            live.notes.append(Note("game_starts", {"order": [s.name for s in seats]}))

        return await self._act(where, caller, body, expect)

    async def cancel(self, where: Where, caller: User, is_admin: bool = False,
                     expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            if not self._is_host(live, caller, is_admin):
                raise NotAllowed("only_host_cancels")
            outcome = "cancelled" if live.row.status == "active" else LOBBY_CLOSED
            self._change(live, {"status": "cancelled", "outcome": outcome,
                                "pending": None, "deadline": None, "alarm": None})
            if live.pending is not None and live.game is not None:
                live.game.restore()  # the unconfirmed steps go, in memory as on disk
                live.pending = None
            live.notes.append(Note("cancelled"))

        return await self._act(where, caller, body, expect)

    async def resign(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Stop playing a running game; see `_resign` for what happens to the others."""
        async def body(live: Live) -> None:
            if live.row.status == "lobby":
                raise NotAllowed("use_leave")
            if live.options.analysis:
                raise NotAllowed("analysis_no_resign")
            seat = live.seat_of(user.id)
            if seat is None:
                raise NotInGame("not_playing")
            self._resign(live, seat, Note("resigned", {"name": seat.name}))

        return await self._act(where, user, body, expect)

    # -- shared -----------------------------------------------------------------

    @staticmethod
    def _need_lobby(live: Live, action: str) -> None:
        """NotAllowed("already_started") unless the game is in its lobby; `action` is
        join, leave or start."""
        if live.row.status != "lobby":
            raise NotAllowed("already_started", action=action)

    def _remove(self, live: Live, seat: SeatRow, note: Note) -> None:
        """Take a seat out of the lobby. A host who leaves hands the game to the first
        person left (never to an AI); with nobody left, the lobby closes."""
        seats = renumber([s for s in live.seats if s.seat != seat.seat])
        changes: dict[str, object] = {}
        if seat.user_id == live.row.host_id:
            heir = next((s for s in seats if s.user_id is not None), None)
            if heir is not None and heir.user_id is not None:
                changes["host_id"] = heir.user_id
                live.notes.append(Note("new_host", {"name": heir.name}))
            else:
                changes.update(status="cancelled", outcome=LOBBY_CLOSED)
                live.notes.append(Note("lobby_empty"))
        self._change(live, changes, seats)
        live.notes.insert(0, note)

    def _resign(self, live: Live, seat: SeatRow, note: Note) -> None:
        """Resigning keeps the resigner's figures and points on the board, but they score
        nothing more (their score is kept as it was: `SeatRow.exit_score`); they rank last.
        Leaving before MIN_OWN_MOVES moves of one's own makes a rated game an abort: it
        will not be rated, and a note says so (`ratings_ops.left_early_note`).

        The game goes on while at least two players remain (a solo game: while its
        one player does) and one of them is a person, not an AI, and the service plays
        the resigner's turns plainly (first legal square, no figure, wagons home, abbey
        kept): not with the AI, whose figures would only get in the others' way for a
        player who scores nothing more. Otherwise it ends at once, standings as they
        are, without final scoring.
        """
        if live.row.status != "active" or live.game is None:
            raise NotAllowed("game_over")
        if seat.resigned:
            raise NotAllowed("already_resigned", name=seat.name)
        score = live.game.scores[seat.seat]
        seats = [replace(s, resigned=True, exit_score=score) if s.seat == seat.seat else s
                 for s in live.seats]
        changes: dict[str, object] = {}
        remaining = sum(not s.resigned for s in seats)
        people = sum(not s.resigned and s.ai is None for s in seats)
        if remaining < min(2, len(seats)) or not people:
            changes.update(status="finished", outcome="resigned", deadline=None, alarm=None)
        if live.pending is not None and (live.pending.seat == seat.seat or changes):
            changes["pending"] = None
        self._change(live, changes, seats)
        if "pending" in changes:
            live.game.restore()
            live.pending = None
        live.notes.append(note)
        unrated = left_early_note(live, seats[seat.seat])  # fair play: an abort is said
        if unrated is not None:
            live.notes.append(unrated)
