"""What a front end shows of a game, each read in one call under the game's lock.

After a change the front end asks once for the public view (`public_view`): the game as
nobody in particular sees it, the tile the player to act drew once it is public, the
choices everyone may see, every event so far, and a copy of the game to draw. It never
asks for the game itself, never lists moves as if it were the next player, and never
reads the record's dictionaries: the service works those out here.
"""

from __future__ import annotations

from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import NotAllowed
from carca_bot.service.history import pile, public_setup
from carca_bot.service.live import Live, snapshot
from carca_bot.service.model import Moment, Played, Shown, User, Where, played
from carca_bot.service.views import choices


class ShownOps(ServiceCore):
    async def public_view(self, game_id: int) -> Shown:
        """The game as everyone at its table sees it now (see `Shown`)."""
        found: list[Shown] = []

        async def body(live: Live) -> None:
            view = self._view(live, None, [])
            tile = live.drawn_tile() if view.must == "place" else None
            wagon = choices(live) if view.must == "wagon" else None
            board = await self._workers.run(lambda: snapshot(live))
            events = tuple(live.game.events) if live.game is not None else ()
            found.append(Shown(view, board, tile, wagon, events, newest(live)))

        await self._act_on(game_id, None, body)
        return found[0]

    async def own_view(self, where: Where, user: User) -> Shown:
        """The channel's game as `user` sees it: their drawn tile and, when they are to
        act, every legal choice (for the menus of their private turn message)."""
        found: list[Shown] = []

        async def body(live: Live) -> None:
            view = self._view(live, user.id, [])
            mine = choices(live) if view.yours else None
            board = await self._workers.run(lambda: snapshot(live))
            found.append(Shown(view, board, view.tile, mine, last=newest(live)))

        await self._act(where, user, body)
        return found[0]

    async def moment(self, game_id: int, number: int | None = None) -> Moment:
        """The game right after its move `number` (the newest when None; clamped to the
        moves it has), replayed without the seed (CPU work, done off the event loop).
        NotAllowed("not_started") for a game still in its lobby."""
        found: list[Game] = []

        async def body(live: Live) -> None:
            if live.game is None:
                raise NotAllowed("not_started")
            found.append(live.game.copy(stack=False))

        await self._act_on(game_id, None, body)
        game = found[0]
        return await self._workers.run(lambda: moment_of(game_id, game, number))

    async def pile(self, game_id: int) -> tuple[tuple[str, int], ...]:
        """The tiles still to draw, counted by kind (never their order); NotAllowed
        ("not_started") in a lobby."""
        found: list[Game] = []

        async def body(live: Live) -> None:
            if live.game is None:
                raise NotAllowed("not_started")
            found.append(live.game.copy(stack=False))

        await self._act_on(game_id, None, body)
        game = found[0]
        return await self._workers.run(lambda: pile(game))


def newest(live: Live) -> Played | None:
    """The game's newest committed action, typed (None in a lobby or before the first)."""
    if live.game is None or not live.game.history:
        return None
    return played(live.game.history[-1:])[0]


def moment_of(game_id: int, game: Game, number: int | None) -> Moment:
    """`game` (any copy) right after its move `number`, replayed without the seed:
    CPU work, for a worker thread."""
    actions = [dict(a) for a in game.history]
    total = len(actions)
    number = total if number is None else max(0, min(number, total))
    walk = Game.replay(public_setup(game.setup), actions[:max(number - 1, 0)])
    action: Played | None = None
    events: tuple[Event, ...] = ()
    if number:
        action = played(actions[number - 1:number])[0]
        events = tuple(walk.apply(dict(actions[number - 1])))
    return Moment(game_id, number, total, game.finished, tuple(game.players), action,
                  events, tuple(walk.scores), walk)

