"""Taking back a confirmed move, with the consent of every other player still in.

Only the player who made the move may ask, and only while taking it back reveals
nothing hidden: the next player has not acted (nothing of theirs in the log, no step,
no draw), and only automatic actions followed the move (discards and the turns played
for players who left), each of them shown to everyone when it was made. The pile is
dealt from the seed by draw count, so after the take-back the same tiles come again:
the mover's own tile (it lies on the board for all to see) and the next player's (shown
to all when it was drawn); nothing new is learnt.

The request is a row of its own (`takebacks`), written under the game's lock with a
counter of its writes, so a double click or two processes answering at once cannot
both count. The take-back itself cuts the log back in the same transaction as the
game's version bump: the game, and its exported record, are then exactly as if the
move had never been confirmed. One refusal, a withdrawal, or the next player acting
closes the request.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from carca_bot.engine.game import Game
from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import NotAllowed, NotInGame, NotNow
from carca_bot.service.live import Live, Pending, setup_for
from carca_bot.service.model import Note, TurnView, User, Where
from carca_bot.service.outbox import told_json
from carca_bot.service.timing import ClockState
from carca_bot.store import Conflict, PublicChange, TakebackRow

OPEN = "open"
VOTE_KINDS = ("takeback", "expel")


@dataclass(frozen=True)
class VoteMessage:
    """A message a front end posted for a vote, remembered until the vote is closed."""

    game_id: int
    kind: str  # takeback or expel
    ref: str  # the move's log index, or the target's user id
    channel_id: str
    message_id: str


@dataclass(frozen=True)
class TakebackView:
    """A request to take back a move, and exactly what it would undo.

    `undone` holds the carca-record/1 actions that go: the move, then the automatic
    ones after it. `points` is what each player's score loses (name, points; only
    non-zero), `figures` what goes back into a hand (name, figure, count; negative
    when the move's scoring had returned it). `voters` are the players who must
    accept (user id, name), `accepted` the names of those who did. `state` is open,
    accepted, refused, withdrawn or closed (the game moved on). `view` is the game
    after an accepted take-back.
    """

    game_id: int
    where: Where
    seq: int
    state: str
    proposer_id: str
    proposer: str
    undone: tuple[dict[str, Any], ...]
    points: tuple[tuple[str, int], ...]
    figures: tuple[tuple[str, str, int], ...]
    voters: tuple[tuple[str, str], ...]
    accepted: tuple[str, ...]
    refused_by: str | None = None
    view: TurnView | None = None

    @property
    def decided(self) -> bool:
        return self.state != OPEN


def _last_decision(live: Live) -> int | None:
    """The log index of the last action a player chose (not one made for them)."""
    for index in range(len(live.times) - 1, -1, -1):
        if live.times[index][0] is not None:
            return index
    return None


def _voters(live: Live, proposer: str) -> list[tuple[int, str, str]]:
    """Seat, user id and name of everyone who must accept: the others still in."""
    return [(s.seat, s.user_id, s.name) for s in live.seats
            if s.user_id is not None and s.user_id != proposer and not s.resigned]


def _moved_on(live: Live, row: TakebackRow) -> bool:
    """Whether the game went past the state the request was made in."""
    return (live.row.status != "active" or live.seq != row.upto or live.pending is not None
            or live.game is None)


def _differences(before: Game, after: Game, names: list[str]
                 ) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, str, int], ...]]:
    points = tuple((names[i], after.scores[i] - before.scores[i]) for i in range(len(names))
                   if after.scores[i] != before.scores[i])
    figures = []
    for i, name in enumerate(names):
        had, has = before.in_hand(i), after.in_hand(i)
        for figure in sorted(set(had) | set(has)):
            change = had.get(figure, 0) - has.get(figure, 0)
            if change:
                figures.append((name, figure, change))
    return points, tuple(figures)


class TakebackOps(ServiceCore):
    async def propose_takeback(self, where: Where, user: User) -> TakebackView:
        """Ask to take back the move the user just confirmed.

        Refused with NotNow("nothing_to_take_back") when no player has moved yet,
        NotAllowed("not_your_move", name=...) when the last move was someone else's,
        NotNow("takeback_too_late") once the next player has acted, NotNow("takeback_open")
        while one is being voted on, NotAllowed("takeback_refused") when the others
        already refused it. With nobody else to ask (a solo or analysis game) it is taken
        back at once.
        """
        game_id = await self._live_id(where)
        async with self._locked(game_id, user.id) as live:
            seat = self._playing(live, user)
            index = _last_decision(live)
            if index is None:
                raise NotNow("nothing_to_take_back")
            mover = live.times[index][0]
            if mover != user.id:
                by = next((s.name for s in live.seats if s.user_id == mover), "?")
                raise NotAllowed("not_your_move", name=by)
            if live.pending is not None:
                raise NotNow("takeback_too_late")
            old = await self.store.takeback(live.id)
            if old is not None and old.seq == index and old.state == OPEN:
                raise NotNow("takeback_open")
            if old is not None and old.seq == index and old.state == "refused":
                raise NotAllowed("takeback_refused")
            try:
                await self.store.open_takeback(live.id, index, live.seq, user.id, seat.seat,
                                               self.clock())
            except Conflict:
                raise NotNow("takeback_open") from None
            row = await self.store.takeback(live.id)
            assert row is not None
            if not _voters(live, user.id):
                return await self._apply(live, row, [])
            return await self._shown_takeback(live, row)

    async def answer_takeback(self, where: Where, user: User, accept: bool,
                              expect: int) -> TakebackView:
        """Accept or refuse the request to take back move `expect` (the log index the
        vote's buttons were made for). One refusal closes it; the last acceptance
        takes the move back. If the game moved on meanwhile the request is closed
        instead, and its view says so (state "closed").

        NotNow("no_takeback") if there is no such request, NotNow("takeback_decided")
        once it is decided, NotInGame("not_playing") for anyone not still in the game,
        NotAllowed("own_takeback") for its proposer, NotAllowed("already_answered").
        """
        game_id = await self._live_id(where)
        async with self._locked(game_id, user.id) as live:
            row = await self._request(live, expect)
            seat = live.seat_of(user.id)
            if seat is None or seat.resigned:
                raise NotInGame("not_playing")
            if seat.user_id == row.proposer:
                raise NotAllowed("own_takeback")
            if _moved_on(live, row):
                return await self._close(live, row, "closed")
            if seat.seat in row.accepted:
                raise NotAllowed("already_answered")
            if not accept:
                return await self._close(live, row, "refused", refused_by=seat.name)
            accepted = [*row.accepted, seat.seat]
            needed = {s for s, _, _ in _voters(live, row.proposer)}
            if needed <= set(accepted):
                return await self._apply(live, row, accepted)
            try:
                await self.store.answer_takeback(live.id, row.seq, row.answers, accepted,
                                                 OPEN, self.clock())
            except Conflict:
                raise NotAllowed("already_answered") from None
            return await self._shown_takeback(live, replace(row, accepted=tuple(accepted)))

    async def withdraw_takeback(self, where: Where, user: User, expect: int) -> TakebackView:
        """The proposer withdraws the request about move `expect`; nothing is undone."""
        game_id = await self._live_id(where)
        async with self._locked(game_id, user.id) as live:
            row = await self._request(live, expect)
            if row.proposer != user.id:
                raise NotAllowed("not_your_takeback")
            return await self._close(live, row, "withdrawn")

    async def takeback_of(self, game_id: int, expect: int | None = None
                          ) -> TakebackView | None:
        """The game's newest request (about move `expect`, if given), as it stands; an
        open one the game has moved past is closed first, so it is never shown open."""
        async with self._locked(game_id, None) as live:
            row = await self.store.takeback(live.id)
            if row is None or (expect is not None and row.seq != expect):
                return None
            if row.state == OPEN and _moved_on(live, row):
                return await self._close(live, row, "closed")
            return await self._shown_takeback(live, row)

    # -- the parts ------------------------------------------------------------------

    async def _request(self, live: Live, expect: int) -> TakebackRow:
        row = await self.store.takeback(live.id)
        if row is None or row.seq != expect:
            raise NotNow("no_takeback")
        if row.state != OPEN:
            raise NotNow("takeback_decided", state=row.state)
        return row

    async def _close(self, live: Live, row: TakebackRow, state: str,
                     refused_by: str | None = None) -> TakebackView:
        try:
            await self.store.answer_takeback(live.id, row.seq, row.answers, row.accepted,
                                             state, self.clock())
        except Conflict:
            raise NotNow("takeback_decided", state="changed") from None
        return await self._shown_takeback(live, replace(row, state=state),
                                          refused_by=refused_by)

    async def _shown_takeback(self, live: Live, row: TakebackRow,
                              refused_by: str | None = None,
                              view: TurnView | None = None) -> TakebackView:
        """What the request undoes, worked out on a replay of the log up to the move
        (in a worker thread): the game as it was before it."""
        names = live.names()
        undone: tuple[dict[str, Any], ...] = ()
        points: tuple[tuple[str, int], ...] = ()
        figures: tuple[tuple[str, str, int], ...] = ()
        game = live.game
        if row.state == OPEN and game is not None and not _moved_on(live, row):
            undone = tuple(dict(a) for a in game.history[row.seq:])
            points, figures = _differences(await self._before(live, row), game, names)
        proposer = next((s.name for s in live.seats if s.user_id == row.proposer), "?")
        voters = tuple((u, n) for _, u, n in _voters(live, row.proposer))
        accepted = tuple(live.seats[s].name for s in row.accepted if s < len(live.seats))
        return TakebackView(live.id, Where(live.row.guild_id, live.row.channel_id), row.seq,
                            row.state, row.proposer, proposer, undone, points, figures,
                            voters, accepted, refused_by, view)

    async def _before(self, live: Live, row: TakebackRow) -> Game:
        """The game as it was before the move: its log replayed up to it (off the loop)."""
        game = live.game
        assert game is not None
        setup, history = setup_for(live.row, live.seats), list(game.history[:row.seq])
        return await self._workers.run(lambda: Game.replay(setup, history))

    async def _apply(self, live: Live, row: TakebackRow, accepted: list[int]) -> TakebackView:
        """Cut the log back to before the move, in one transaction with the version bump
        and the request's close; then show the game as rebuilt from the store."""
        game = live.game
        assert game is not None
        shown = await self._shown_takeback(live, row)
        before = await self._before(live, row)
        # A player who chose to draw rather than place their abbey saw the tile: they
        # place it again (the draw cannot be taken back, as in a turn not confirmed).
        drew = "tile" in game.history[row.seq] and before.can_place_abbey(before.current)
        changes: dict[str, Any] = {
            "pending": Pending(row.seat, row.seq, drew=True).to_json() if drew else None,
            "deadline": self._deadline(live),
        }
        state = self._clock_state(live)
        rules = live.options.clock
        if rules is not None and state is not None:
            banks = list(state.banks)
            if row.seat < len(banks):  # about the bank the mover had when confirming
                banks[row.seat] = max(0.0, banks[row.seat] - rules.increment)
            back = ClockState(tuple(banks), row.seat, self.clock(), row.seq, 0, None,
                              state.expelled)
            changes.update(self._clock_columns(live, back))
        note = Note("taken_back", {"name": shown.proposer})
        public = PublicChange(row.seq, (told_json(note),))
        try:
            await self.store.apply_takeback(live.id, live.version, self.clock(), row.seq,
                                            row.answers, accepted, changes, public)
        except Conflict:
            raise NotNow("takeback_decided", state="changed") from None
        self._commits[live.id] += 1
        self._cache.pop(live.id, None)
        fresh = await self._load(live.id)
        await self._read_vacations(fresh)
        view = self._view(fresh, row.proposer, [note])
        names = tuple(fresh.seats[s].name for s in accepted if s < len(fresh.seats))
        return replace(shown, state="accepted", accepted=names, view=view)

    # -- the front end's vote messages ----------------------------------------------

    async def note_vote_message(self, game_id: int, kind: str, ref: str, channel_id: str,
                                message_id: str) -> None:
        """Remember the message a front end posted for an open vote ("takeback" with the
        move's log index, "expel" with the target's user id), to close it later."""
        if kind not in VOTE_KINDS:
            raise ValueError(f"unknown vote kind {kind!r}")
        await self.store.add_vote_message(game_id, kind, ref, channel_id, message_id)

    async def vote_messages(self, game_id: int) -> list[VoteMessage]:
        return [VoteMessage(game_id, *row) for row in await self.store.vote_messages(game_id)]

    async def forget_vote_message(self, message: VoteMessage) -> None:
        """The message was closed (or is gone): stop remembering it."""
        await self.store.forget_vote_message(message.game_id, message.kind, message.ref)
