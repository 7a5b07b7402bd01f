"""A clock game's commands: a vote to expel a player out of time, and vacations."""

from __future__ import annotations

from dataclasses import dataclass, replace

from carca_bot.service.clocks import DAY, ClockRules, vacation_problem
from carca_bot.service.errors import BadInput, NotAllowed, NotInGame, NotNow
from carca_bot.service.live import Live
from carca_bot.service.lobby import LobbyOps
from carca_bot.service.model import GameOptions, Note, TurnView, User, Where
from carca_bot.service.timing import game_vacations

MAX_VACATION_DAYS = 31


@dataclass(frozen=True)
class Vacation:
    """A vacation taken or ended: when it runs, the clock games it concerns, and for each
    of them when its clock runs again (`start` where the game allows no vacation; each
    game counts the vacation by its own rules: `timing.game_vacations`)."""

    start: float
    end: float
    games: tuple[int, ...]
    paused: tuple[tuple[int, float], ...] = ()  # (game id, the pause's end there)


class ClockOps(LobbyOps):
    async def vote_expel(self, where: Where, user: User, target: str,
                         expect: int | None = None) -> TurnView:
        """Vote to expel `target` (a user id), whose time ran out in a game whose clock
        says `vote`. Once more than half of the other players still in have voted, the
        target is out as if they resigned (`expelled` note): their figures stay on the
        board and score nothing more, they rank last, and their turns are played plainly.
        A move of theirs before then closes the vote.
        """
        async def body(live: Live) -> None:
            state = self._clock_state(live)
            if live.row.status != "active" or live.game is None:
                raise NotAllowed("game_over")
            seat = live.seat_of(target)
            if seat is None:
                raise NotInGame("target_not_in_game")
            if state is None or state.vote is None or state.seat != seat.seat:
                raise NotNow("no_expel_vote", name=seat.name)
            voter = live.seat_of(user.id)
            if voter is None or voter.resigned:
                raise NotInGame("not_playing")
            if voter.seat == seat.seat:
                raise NotAllowed("no_self_expel")
            if voter.seat in state.vote:
                raise NotAllowed("already_voted")
            votes = (*state.vote, voter.seat)
            others = sum(not s.resigned and s.seat != seat.seat for s in live.seats)
            live.notes.append(Note("expel_vote", {"name": voter.name, "target": seat.name,
                                                  "votes": len(votes), "needed": others // 2 + 1}))
            if 2 * len(votes) <= others:
                self._change(live, self._clock_columns(live, replace(state, vote=votes)))
                return
            expelled = replace(state, vote=None, vote_at=None,
                               expelled=(*state.expelled, seat.seat))
            self._change(live, {"clock": expelled.to_json()})
            self._resign(live, seat, Note("expelled", {"name": seat.name}))

        return await self._act(where, user, body, expect)

    async def take_vacation(self, user_id: str, days: float,
                            now: float | None = None) -> Vacation:
        """Pause the user's clock in their clock games for `days` days from `now`.

        Each game counts the vacation by its own rules (`timing.game_vacations`): not at
        all where they allow no vacation, up to their days per vacation and per calendar
        month where they allow some (`Vacation.paused` says how long, per game). It is
        refused only when no game would accept it whole (`vacation_problem`: BadInput
        with the code of the most generous game), and NotAllowed("no_clock_games") when
        the user plays no clock game. The deadlines of the games where it is their turn
        move on at once.
        """
        now = self.clock() if now is None else now
        if not 0 < days <= MAX_VACATION_DAYS:
            raise BadInput("vacation_too_long", days=MAX_VACATION_DAYS)
        games = await self.store.clock_games_of(user_id)
        if not games:
            raise NotAllowed("no_clock_games")
        taken = (await self.store.vacations([user_id]))[user_id]
        rules = await self._clock_rules_of(games)
        problems = [(r.vacation_days, vacation_problem(r, taken, now, days))
                    for r in rules.values()]
        refusals = [(most, code) for most, code in problems if code is not None]
        if refusals and len(refusals) == len(problems):
            most, code = max(refusals, key=lambda found: found[0])
            raise BadInput(code, days=most)
        end = now + days * DAY
        await self.store.add_vacation(user_id, now, end)
        await self._retime(games, user_id)
        mine = [*taken, (now, end)]
        return Vacation(now, end, tuple(games), tuple(
            (game_id, next((e for s, e in game_vacations(r, mine) if s == now), now))
            for game_id, r in rules.items()))

    async def _clock_rules_of(self, games: list[int]) -> dict[int, ClockRules]:
        """Each of these games' clock rules (games without a clock left out)."""
        found: dict[int, ClockRules] = {}
        for game_id in games:
            row = await self.store.game(game_id)
            rules = None if row is None else GameOptions.from_json(row.options).clock
            if rules is not None:
                found[game_id] = rules
        return found

    async def end_vacation(self, user_id: str, now: float | None = None) -> Vacation:
        """End the user's vacation now (and drop the ones planned); their clocks run again.
        NotNow("not_on_vacation") if there was none."""
        now = self.clock() if now is None else now
        if not await self.store.end_vacations(user_id, now):
            raise NotNow("not_on_vacation")
        games = await self.store.clock_games_of(user_id)
        await self._retime(games, user_id)
        return Vacation(now, now, tuple(games))

    async def vacations_of(self, user_id: str, now: float | None = None
                           ) -> list[tuple[float, float]]:
        """The user's vacations under way or planned (start, end), soonest first."""
        now = self.clock() if now is None else now
        taken = (await self.store.vacations([user_id]))[user_id]
        return [(s, e) for s, e in taken if e > now]

    async def _retime(self, games: list[int], user_id: str) -> None:
        """Work the deadlines out again where it is the user's turn (vacations changed)."""
        for game_id in games:
            async def body(live: Live) -> None:
                state = self._clock_state(live)
                if (state is None or state.seat is None or live.row.status != "active"
                        or live.seats[state.seat].user_id != user_id):
                    return
                columns = self._clock_columns(live, state)
                if (columns["deadline"], columns["alarm"]) != (live.row.deadline,
                                                               live.row.alarm):
                    self._change(live, columns)

            await self._act_on(game_id, None, body)

