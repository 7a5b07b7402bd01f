"""Looking at games, records in and out, and turn timers."""

from __future__ import annotations

from typing import Any

from carca_bot.engine.errors import IllegalMove, RecordError
from carca_bot.engine.game import Game
from carca_bot.engine.record import parse_record, write_record
from carca_bot.service import errors
from carca_bot.service.core import Body, ServiceCore, nothing
from carca_bot.service.errors import BadInput, NoGameHere, NotAllowed
from carca_bot.service.live import Live, snapshot
from carca_bot.service.model import (
    MAX_PLAYERS,
    GameOptions,
    GameSummary,
    TimerReport,
    TurnView,
    User,
    Where,
)
from carca_bot.service.views import deciding_seat, seed_is_public
from carca_bot.store import ChannelBusy, SeatRow


class InfoOps(ServiceCore):
    async def _game_id(self, where: Where, game_id: int | None) -> int:
        """The named game, else the channel's running game, else its latest one."""
        if game_id is not None:
            return game_id
        found = (await self.store.live_game(where.guild, where.channel)
                 or await self.store.latest_game(where.guild, where.channel))
        if found is None:
            raise NoGameHere("there has been no game in this channel yet")
        return found

    async def status(self, where: Where, viewer: str | None = None,
                     game_id: int | None = None) -> TurnView:
        """The channel's game (running, else the last one) as `viewer` may see it."""
        return await self._act_on(await self._game_id(where, game_id), viewer, nothing)

    async def game(self, where: Where, game_id: int | None = None) -> Game | None:
        """A private copy of the game for the renderer (None while in the lobby)."""
        found: list[Game | None] = []

        async def body(live: Live) -> None:
            found.append(snapshot(live))

        await self._act_on(await self._game_id(where, game_id), None, body)
        return found[0]

    async def my_games(self, user_id: str, live_only: bool = False,
                       limit: int = 25) -> list[GameSummary]:
        """The games the user is seated in, across channels, latest first."""
        summaries = []
        for row in await self.store.games_of(user_id, live_only, limit):
            async with self._locked(row.id, user_id) as live:
                game = live.game
                who = deciding_seat(live)
                summaries.append(GameSummary(
                    game_id=live.id, where=Where(live.row.guild_id, live.row.channel_id),
                    status=live.row.status, players=tuple(live.names()),
                    scores=tuple(game.scores) if game is not None else (0,) * len(live.seats),
                    waiting_for=None if who is None else live.seats[who].name,
                    your_turn=who is not None and live.seats[who].user_id == user_id,
                    updated_at=live.row.updated_at,
                    deadline=live.row.deadline if live.row.status == "active" else None))
        return summaries

    async def export(self, where: Where, game_id: int | None = None) -> dict[str, Any]:
        """The game as a carca-record/1 object: confirmed actions only.

        A game still being played is exported without its seed: the seed fixes every
        draw to come. An analysis game keeps the seed its importer gave.
        """
        record: list[dict[str, Any]] = []

        async def body(live: Live) -> None:
            if live.game is None:
                raise NotAllowed("the game has not started: there is nothing to export yet")
            written = write_record(live.game)
            if not seed_is_public(live):
                written.pop("seed", None)
            record.append(written)

        await self._act_on(await self._game_id(where, game_id), None, body)
        return record[0]

    async def import_record(self, where: Where, user: User, data: object) -> TurnView:
        """Load a record into a new game for analysis; the importer plays every seat.

        The record is parsed and replayed in full before anything is stored.
        """
        try:
            record = parse_record(data)
        except RecordError as exc:
            at = "" if exc.index is None else f" (action {exc.index})"
            raise BadInput(f"that is not a valid carca-record/1 record: {exc}{at}") from None
        try:
            game = Game(record.setup)
            for index, action in enumerate(record.actions):
                try:
                    game.apply(action)
                except IllegalMove as exc:
                    raise BadInput(f"action {index} of the record breaks a rule: "
                                   f"{exc.message}") from None
        except (IllegalMove, ValueError) as exc:
            raise BadInput(f"that record cannot be set up: {exc}") from None
        setup = record.setup
        options = GameOptions(expansions=setup.expansions, wagon_rule=setup.wagon_rule,
                              max_players=len(setup.players), tunnel_pairs=setup.tunnel_pairs,
                              start=setup.start, seed=setup.seed, analysis=True,
                              allow_solo=True)
        seats = [SeatRow(i, None, name, i % MAX_PLAYERS) for i, name in enumerate(setup.players)]
        try:
            game_id = await self.store.import_game(
                where.guild, where.channel, user.id,
                "finished" if game.finished else "active", options.to_json(), setup.seed,
                seats, game.history, self.clock())
        except ChannelBusy:
            raise errors.ChannelBusy("this channel already has a game: import the record "
                                     "elsewhere, or cancel that game first") from None
        return await self._shown(game_id, user.id)

    async def check_timers(self, now: float | None = None) -> list[TimerReport]:
        """Games whose player to act is past their deadline.

        With the game's `auto_play` option the service plays that move for them
        (see `auto_move`); otherwise the deadline is pushed one timer period on,
        so the front end reminds the player once per period.
        """
        now = self.clock() if now is None else now
        reports: list[TimerReport] = []
        for game_id in await self.store.overdue(now):
            late: list[SeatRow] = []
            try:
                view = await self._act_on(game_id, None, self._timer_body(now, late))
            except errors.GameMovedOn:
                continue  # someone moved in the meantime; their new deadline applies
            if late:
                reports.append(TimerReport(game_id, view.where, late[0].user_id, late[0].name,
                                           view.options.auto_play, view))
        return reports

    def _timer_body(self, now: float, late: list[SeatRow]) -> Body:
        async def body(live: Live) -> None:
            deadline, timer = live.row.deadline, live.options.turn_timer
            if (live.row.status != "active" or live.game is None or deadline is None
                    or timer is None or deadline > now):
                return
            who = live.game.deciding
            assert who is not None
            late.append(live.seats[who])
            if live.options.auto_play:
                self._auto(live, who, "ran out of time")
            else:
                self._change(live, {"deadline": now + timer})
                live.notes.append(f"{live.seats[who].name}, your time for this turn is up")

        return body
