"""Playing: a turn step by step (stored as it goes) or all at once, wagons, the abbey round.

A step-by-step turn lives in the game's `pending` column until `confirm`, which
commits the whole turn as one carca-record/1 action. If an abbey could be
placed, the tile stays hidden until the player chooses to draw: the view says
`must == "choose"` and carries no tile.
"""

from __future__ import annotations

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game
from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import BadInput, IllegalMoveError, NotNow
from carca_bot.service.live import Live, Pending, Step, apply_step
from carca_bot.service.model import ROTATIONS, Choices, TurnOrder, TurnView, User, Where
from carca_bot.service.views import choices, must_of

NOT_NOW = {
    "choose": "first choose: draw a tile, or place your abbey",
    "place": "first place your tile",
    "finish": "your tile is down: add a figure or a token, then confirm (or undo)",
    "wagon": "first move your wagon or return it",
    "abbey_round": "the tiles are used up: place your abbey or skip it",
}


def _need(live: Live, *allowed: str) -> str:
    must = must_of(live)
    if must not in allowed:
        raise NotNow(NOT_NOW.get(must, "the game is over"))
    return must


def _rot(rot: int) -> int:
    if rot not in ROTATIONS:
        raise BadInput("the rotation must be 0, 90, 180 or 270 (degrees clockwise)")
    return rot


def _engine(live: Live) -> Game:
    assert live.game is not None
    return live.game


class PlayOps(ServiceCore):
    # -- the start of a turn ----------------------------------------------------

    async def begin_turn(self, where: Where, user: User) -> TurnView:
        """The turn as its player sees it: the drawn tile, or the draw-or-abbey choice."""
        async def body(live: Live) -> None:
            self._actor(live, user)

        return await self._act(where, user, body)

    async def draw(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Choose to draw rather than place the abbey; the choice cannot be undone."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            if _need(live, "choose", "place") == "choose":
                self._set_pending(live, Pending(seat, live.seq, drew=True))

        return await self._act(where, user, body, expect, strict=True)

    # -- steps ------------------------------------------------------------------

    def _add_step(self, live: Live, seat: int, step: Step) -> None:
        try:
            apply_step(_engine(live), seat, step)
        except IllegalMove as exc:
            raise IllegalMoveError(exc.message) from None
        old = live.pending
        steps = [*old.steps, step] if old is not None else [step]
        self._set_pending(live, Pending(seat, live.seq, old is not None and old.drew,
                                               steps))

    async def place_tile(self, where: Where, user: User, x: int, y: int, rot: int,
                         expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "place")
            self._add_step(live, seat, {"tile": live.drawn_tile(), "at": [x, y],
                                              "rot": _rot(rot)})

        return await self._act(where, user, body, expect, strict=True)

    async def place_abbey(self, where: Where, user: User, x: int, y: int,
                          expect: int | None = None) -> TurnView:
        """Place the abbey instead of drawing, or in the end-of-game abbey round."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            must = _need(live, "choose", "place", "abbey_round")
            if must == "place" and live.pending is not None and live.pending.drew:
                raise NotNow("you drew a tile this turn: place it")
            self._add_step(live, seat, {"abbey": [x, y]})

        return await self._act(where, user, body, expect, strict=True)

    async def skip_abbey(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            if must_of(live) != "abbey_round":
                raise NotNow("an abbey can be skipped only in the end-of-game abbey round")
            _engine(live).skip_abbey(seat)
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def deploy(self, where: Where, user: User, figure: str, on: str,
                     expect: int | None = None) -> TurnView:
        """Put a figure (follower, abbot, mayor, wagon, barn) on the tile just placed."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            self._add_step(live, seat, {"deploy": {"figure": figure, "on": on}})

        return await self._act(where, user, body, expect, strict=True)

    async def recall(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            self._add_step(live, seat, {"recall": True})

        return await self._act(where, user, body, expect, strict=True)

    async def place_token(self, where: Where, user: User, x: int, y: int, side: str, pair: int,
                          expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            self._add_step(live, seat, {"token": {"at": [x, y], "on": side, "pair": pair}})

        return await self._act(where, user, body, expect, strict=True)

    async def confirm(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Score the turn and commit it to the log as one action."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            _engine(live).end_turn(seat)
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def undo(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Take back the last unconfirmed step (never the choice to draw)."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            pending = live.pending
            if pending is None or not pending.steps:
                raise NotNow("there is nothing to undo: only unconfirmed steps of your own "
                             "turn can be taken back")
            kept = pending.steps[:-1]
            game = _engine(live)
            game.restore()
            for step in kept:
                apply_step(game, seat, step)
            left = Pending(seat, live.seq, pending.drew, kept)
            self._set_pending(live, left if left.drew or left.steps else None)

        return await self._act(where, user, body, expect, strict=True)

    async def play_turn(self, where: Where, user: User, order: TurnOrder,
                        expect: int | None = None) -> TurnView:
        """A whole turn in one command; replaces any unconfirmed steps. All or nothing."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            must = _need(live, "choose", "place", "finish", "abbey_round")
            drew = live.pending is not None and live.pending.drew
            if must == "finish":
                _engine(live).restore()
                must = must_of(live)
            if order.abbey and drew:
                raise NotNow("you drew a tile this turn: place it")
            if not order.abbey and must in ("choose", "abbey_round"):
                raise NotNow(NOT_NOW[must])
            steps = _order_steps(order, live.drawn_tile())
            game = _engine(live)
            try:
                for step in steps:
                    apply_step(game, seat, step)
                game.end_turn(seat)
            except IllegalMove as exc:  # the half-played copy in memory is dropped
                raise IllegalMoveError(exc.message) from None
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    # -- wagons -----------------------------------------------------------------

    async def move_wagon(self, where: Where, user: User, x: int, y: int, on: str,
                         expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "wagon")
            try:
                _engine(live).move_wagon(seat, (x, y), on)
            except IllegalMove as exc:
                raise IllegalMoveError(exc.message) from None
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def return_wagon(self, where: Where, user: User,
                           expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "wagon")
            _engine(live).move_wagon(seat, None)
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    # -- hints ------------------------------------------------------------------

    async def legal_moves(self, where: Where, user: User) -> Choices:
        """Every legal option for the user, who must be the one to act now."""
        result: list[Choices] = []

        async def body(live: Live) -> None:
            self._actor(live, user)
            result.append(choices(live))

        await self._act(where, user, body)
        return result[0]


def _order_steps(order: TurnOrder, tile: str | None) -> list[Step]:
    x, y = order.at
    first: Step = ({"abbey": [x, y]} if order.abbey
                   else {"tile": tile, "at": [x, y], "rot": _rot(order.rot)})
    if order.figure is not None and order.recall:
        raise BadInput("a turn places a figure or recalls the abbot, not both")
    if order.figure is not None and order.on is None:
        raise BadInput(f"say where the {order.figure} goes")
    figure: list[Step] = []
    if order.figure is not None:
        figure = [{"deploy": {"figure": order.figure, "on": order.on}}]
    elif order.recall:
        figure = [{"recall": True}]
    token: list[Step] = []
    if order.token is not None:
        tx, ty, side, pair = order.token
        token = [{"token": {"at": [tx, ty], "on": side, "pair": pair}}]
    return [first, *token, *figure] if order.token_first else [first, *figure, *token]
