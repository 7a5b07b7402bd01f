"""AI players: seats the AI plays, its turns played as they come up, and hints.

An AI seat is a seat with no user and an AI level (`SeatRow.ai`); its name is the
player's name in the record, given by the front end in the game's language. Once a
command leaves an AI seat to play (`ServiceCore._wake_ai`), a task of its own plays
the game's AI turns one decision at a time, chained while AI seats follow each other:

1. look at the game under its lock: who decides, the game copied, the tile they hold
   (only once drawn or given: never one still in the pile), the version on disk;
2. think in the AI's worker processes, the lock released, so players can still look;
3. apply the plan under the lock with `expect=` that version, as a player's move is
   applied: if anything changed meanwhile (a resignation, a second trigger), the write
   is refused (GameMovedOn) and the task looks again, so a decision is played once;
4. tell the front end (`on_public_change`) so it posts the move at once; the move is
   in the public-post outbox anyway, like every move.

One task per game at a time. A task lost to a restart is started again by
`resume_ai_turns` (which `check_timers` calls): nothing is stored before the write
of step 3, so a restart in the middle loses nothing and plays nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, fields
from typing import Any

from carca_bot import store
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Move
from carca_bot.service import errors
from carca_bot.service.ai_play import (
    AI_LEVELS,
    HINT_LEVEL,
    HINT_SECONDS,
    Plan,
    Thinks,
    ai_seed,
    plan_within,
    seat_seconds,
)
from carca_bot.service.core import Body, log, nothing
from carca_bot.service.errors import BadInput, NotAllowed, NotInGame, NotNow
from carca_bot.service.live import Live
from carca_bot.service.lobby import LobbyOps, unique_name
from carca_bot.service.model import MAX_PLAYERS, GameMovedOn, Note, TurnView, User, Where
from carca_bot.service.play_auto import auto_move
from carca_bot.service.views import must_of
from carca_bot.store import SeatRow
from carca_bot.workers import Thinker

MOVED_ON_TRIES = 20  # looks again after this many refused writes in a row, then gives up
ai_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hint:
    """The AI's suggestion for the player to act, and how many hints they asked for."""

    game_id: int
    version: int  # the game's version the hint was worked out for
    must: str  # what the player had to do (`TurnView.must`)
    tile: str | None  # the tile they held (None before drawing)
    steps: tuple[Move, ...]  # the suggested steps, in order (`words.say` says each)
    used: int  # hints this player has asked for in this game, this one included


@dataclass(frozen=True)
class _Turn:
    """One decision of an AI seat, as read under the lock."""

    version: int
    seat: int
    level: str
    game: Game  # a copy: the live game goes on changing
    tile: str | None
    seed: int
    seconds: float


def step_json(move: Move) -> dict[str, Any]:
    """A suggested step as stored with its hint: its kind and fields."""
    out: dict[str, Any] = {"move": type(move).__name__}
    for f in fields(move):
        value = getattr(move, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def _steps_of(live: Live) -> int:
    pending = live.pending
    return 0 if pending is None else len(pending.moves) + pending.drew


class AiOps(LobbyOps):
    # -- seats --------------------------------------------------------------------

    async def add_ai(self, where: Where, caller: User, level: str, name: str,
                     is_admin: bool = False, expect: int | None = None) -> TurnView:
        """Seat an AI of `level` (`AI_LEVELS`) in the lobby; host (or admin) only.

        `name` is its player name (the front end's words, e.g. "AI (strong)" in the
        game's language); made unique among the seats as a person's is.
        """
        if level not in AI_LEVELS:
            raise BadInput("unknown_ai_level", name=str(level)[:20], choices=AI_LEVELS)

        async def body(live: Live) -> None:
            if not self._is_host(live, caller, is_admin):
                raise NotAllowed("only_host_adds_ai")
            self._need_lobby(live, "join")
            limit = min(live.options.max_players, MAX_PLAYERS)
            if len(live.seats) >= limit:
                raise NotAllowed("game_full", limit=limit)
            colours = {s.colour for s in live.seats}
            colour = min(c for c in range(MAX_PLAYERS) if c not in colours)
            seat_name = unique_name(name, {s.name for s in live.seats})
            seats = [*live.seats, SeatRow(len(live.seats), None, seat_name, colour, ai=level)]
            self._change(live, {}, seats)
            live.notes.append(Note("joined", {"name": seat_name}))

        return await self._act(where, caller, body, expect)

    async def remove_ai(self, where: Where, caller: User, name: str, is_admin: bool = False,
                        expect: int | None = None) -> TurnView:
        """Take the AI seat called `name` away: from a lobby, or from a running game as if
        it resigned (its figures stay, it scores nothing more). Host (or admin) only."""
        async def body(live: Live) -> None:
            if not self._is_host(live, caller, is_admin):
                raise NotAllowed("only_host_removes_ai")
            wanted = name.strip().casefold()
            seat = next((s for s in live.seats
                         if s.ai is not None and s.name.casefold() == wanted), None)
            if seat is None:
                raise NotInGame("no_such_ai", name=name[:40])
            if live.row.status == "lobby":
                self._remove(live, seat, Note("removed_from_lobby", {"name": seat.name}))
                return
            self._resign(live, seat, Note("removed_from_game", {"name": seat.name}))

        return await self._act(where, caller, body, expect)

    # -- hints --------------------------------------------------------------------

    async def hint(self, where: Where, user: User) -> Hint:
        """The AI's move (medium level) for the user, who must be the one to act, in a
        game created with hints on; kept in the game's hints (`hints_of`). The
        suggestion is worked out for the game as it is now: if it changes meanwhile,
        GameMovedOn, and nothing is kept."""
        found: list[tuple[_Turn, int, str]] = []

        async def look(live: Live) -> None:
            seat = self._actor(live, user)
            if not live.options.hints:
                raise NotAllowed("hints_off")
            assert live.game is not None
            found.append((_Turn(live.version, seat, HINT_LEVEL, live.game.copy(),
                                live.drawn_tile(),
                                ai_seed(live.row.seed, live.seq, _steps_of(live), "hint"),
                                HINT_SECONDS), live.seq, must_of(live)))

        await self._act(where, user, look)
        turn, seq, must = found[0]
        plan = await plan_within(self._ai_thinker(), turn.game, turn.level, turn.tile,
                                 turn.seed, turn.seconds)
        if plan is None:
            raise NotNow("hint_failed")
        used: list[int] = []

        async def keep(live: Live) -> None:
            await self.store.add_hint(live.id, seq, turn.seat, user.id, self.clock(),
                                      [step_json(m) for m in plan])
            count = sum(h.seat == turn.seat for h in await self.store.hints(live.id))
            live.hints[turn.seat] = count
            used.append(count)

        view = await self._act(where, user, keep, expect=turn.version)
        return Hint(view.game_id, turn.version, must, turn.tile, plan, used[0])

    async def hints_of(self, where: Where, game_id: int | None = None
                       ) -> list[store.HintRow]:
        """Every hint asked for in the channel's game (or `game_id`), oldest first."""
        found = await self._game_of(where, game_id)
        return await self.store.hints(found)

    async def _game_of(self, where: Where, game_id: int | None) -> int:
        if game_id is not None:
            return game_id
        found = (await self.store.live_game(where.guild, where.channel)
                 or await self.store.latest_game(where.guild, where.channel))
        if found is None:
            raise errors.NoGameHere("no_game_yet")
        return found

    # -- the AI's turns -----------------------------------------------------------

    def _ai_thinker(self) -> Thinks:
        """The AI; started here (a pool of two worker processes) if no front end gave
        one (a front end that has a `workers.Pool` for pictures gives a `Thinker` on it,
        so pictures and the AI share one pool)."""
        if self.thinker is None:
            self.thinker = Thinker(processes=2)
            self._owns_thinker = True
        return self.thinker

    async def start_ai(self) -> None:
        """Start the AI's workers now (a long-running front end at start-up), so the
        first AI seat, hint or late player's turn does not wait for them, and a player
        out of time gets the AI's move rather than the plainest one."""
        thinker = self._ai_thinker()
        if isinstance(thinker, Thinker):
            await thinker.warm_up()

    def _wake_ai(self, game_id: int) -> None:
        task = self._ai_tasks.get(game_id)
        if task is not None and not task.done():
            return  # it looks again after its write: it will see this change
        live = self._cache.get(game_id)
        if (live is None or live.row.status != "active" or live.game is None
                or live.ai_level(live.game.deciding) is None):
            return
        self._ai_tasks[game_id] = asyncio.create_task(self._ai_turns(game_id),
                                                      name=f"ai-turns-{game_id}")

    async def _ai_turns(self, game_id: int) -> None:
        """Play the game's AI decisions while an AI seat is to decide (see the module)."""
        refused = 0
        try:
            while refused < MOVED_ON_TRIES:
                turn = await self._ai_turn(game_id)
                if turn is None:
                    return
                plan = await plan_within(self._ai_thinker(), turn.game, turn.level,
                                         turn.tile, turn.seed, turn.seconds)
                try:
                    view = await self._act_on(game_id, None, self._ai_move(turn, plan),
                                              expect=turn.version)
                except GameMovedOn:
                    refused += 1
                    continue
                refused = 0
                if (view.played or view.finished) and self.on_public_change is not None:
                    try:
                        await self.on_public_change(game_id, turn.version)
                    except Exception:  # the outbox still holds it: the timers post it
                        ai_log.exception("game %s: posting the AI's move failed", game_id)
            ai_log.warning("game %s: the AI's moves kept being overtaken; left for later",
                           game_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; `resume_ai_turns` tries again later
            ai_log.exception("game %s: the AI's turn failed", game_id)
        finally:
            if self._ai_tasks.get(game_id) is asyncio.current_task():
                del self._ai_tasks[game_id]

    async def _ai_turn(self, game_id: int) -> _Turn | None:
        """The decision an AI seat must make now, or None if no AI is to decide."""
        found: list[_Turn] = []

        async def look(live: Live) -> None:
            game = live.game
            if live.row.status != "active" or game is None or game.finished:
                return
            seat = game.deciding
            level = live.ai_level(seat)
            if seat is None or level is None:
                return
            found.append(_Turn(live.version, seat, level, game.copy(), live.drawn_tile(),
                               ai_seed(live.row.seed, live.seq, _steps_of(live), "seat"),
                               seat_seconds(level, live.options.ai_seconds)))

        await self._act_on(game_id, None, look)
        return found[0] if found else None

    def _ai_move(self, turn: _Turn, plan: Plan | None) -> Body:
        async def body(live: Live) -> None:
            game = live.game
            if (live.row.status != "active" or game is None or game.deciding != turn.seat
                    or live.ai_level(turn.seat) is None):
                return
            if plan is None or self._play_ai_plan(live, turn.seat, plan) is None:
                ai_log.warning("game %s: the AI had no move; the plainest one is played",
                               live.id)
                auto_move(game, turn.seat)
                self._take_actions(live, None)

        return body

    async def resume_ai_turns(self) -> int:
        """Start the turns of AI seats no task is playing (after a restart, or a task that
        failed), in this process's servers (`shards`); returns how many games were looked
        at."""
        looked = 0
        for game_id in await self._ours(await self.store.ai_games()):
            task = self._ai_tasks.get(game_id)
            if task is not None and not task.done():
                continue
            looked += 1
            try:
                await self._act_on(game_id, None, nothing)  # wakes the AI if it must play
            except (errors.ServiceError, store.StoreError) as exc:
                log.warning("game %s: cannot resume its AI now: %s", game_id, exc)
        return looked

    async def _resume_ai(self) -> None:
        await self.resume_ai_turns()

    async def wait_for_ai(self) -> None:
        """Until no AI turn is under way (tests, a clean shutdown)."""
        while tasks := [t for t in self._ai_tasks.values() if not t.done()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _stop_ai(self) -> None:
        tasks = list(self._ai_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._owns_thinker and isinstance(self.thinker, Thinker):
            await self.thinker.close()
