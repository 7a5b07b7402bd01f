"""Playing: a turn step by step (stored as it goes) or all at once, wagons, the abbey round.

A step-by-step turn lives in the game's `pending` column until `confirm`, which
commits the whole turn as one carca-record/1 action. If an abbey could be
placed, the tile stays hidden until the player chooses to draw: the view says
`must == "choose"` and carries no tile.
"""

from __future__ import annotations

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game
from carca_bot.engine.moves import (
    Deploy,
    EndTurn,
    Move,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
)
from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import BadInput, IllegalMoveError, NotNow
from carca_bot.service.labels import FeatureLabel, label
from carca_bot.service.live import Live, Pending
from carca_bot.service.model import ROTATIONS, Choices, TurnOrder, TurnView, User, Where
from carca_bot.service.views import choices, must_of


def _need(live: Live, *allowed: str) -> str:
    must = must_of(live)
    if must not in allowed:
        raise NotNow(f"must_{must}")
    return must


def _rot(rot: int) -> int:
    if rot not in ROTATIONS:
        raise BadInput("bad_rotation", rot=rot)
    return rot


def _engine(live: Live) -> Game:
    assert live.game is not None
    return live.game


def _push(game: Game, move: Move) -> None:
    """Play a move for the player deciding now; the game is unchanged if it is refused."""
    try:
        game.push(move)
    except IllegalMove as exc:
        raise IllegalMoveError.of(exc) from None


def _push_all(game: Game, moves: list[Move]) -> None:
    """All the moves or none: a refusal pops the ones already played."""
    depth = len(game.frames)
    try:
        for move in moves:
            _push(game, move)
    except IllegalMoveError:
        while len(game.frames) > depth:
            game.pop()
        raise


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
                if _engine(live).tiles_left == 0:  # a builder's second part: the abbey only
                    raise NotNow("no_tile_to_draw")
                self._set_pending(live, Pending(seat, live.seq, drew=True))

        return await self._act(where, user, body, expect, strict=True)

    # -- steps ------------------------------------------------------------------

    def _add_step(self, live: Live, seat: int, move: Move) -> None:
        _push(_engine(live), move)
        old = live.pending
        moves = [*old.moves, move] if old is not None else [move]
        self._set_pending(live, Pending(seat, live.seq, old is not None and old.drew, moves))

    async def place_tile(self, where: Where, user: User, x: int, y: int, rot: int,
                         expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "place")
            tile = live.drawn_tile()
            assert tile is not None
            self._add_step(live, seat, PlaceTile(tile, (x, y), _rot(rot) // 90))

        return await self._act(where, user, body, expect, strict=True)

    async def place_abbey(self, where: Where, user: User, x: int, y: int,
                          expect: int | None = None) -> TurnView:
        """Place the abbey instead of drawing, or in the end-of-game abbey round."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            must = _need(live, "choose", "place", "abbey_round")
            if must == "place" and live.pending is not None and live.pending.drew:
                raise NotNow("drew_place_it")
            self._add_step(live, seat, PlaceAbbey((x, y)))

        return await self._act(where, user, body, expect, strict=True)

    async def skip_abbey(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            self._actor(live, user)
            if must_of(live) != "abbey_round":
                raise NotNow("skip_only_abbey_round")
            _push(_engine(live), SkipAbbey())
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def deploy(self, where: Where, user: User, figure: str, on: str,
                     expect: int | None = None) -> TurnView:
        """Put a figure (follower, abbot, mayor, wagon, barn) on the tile just placed."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            self._add_step(live, seat, Deploy(figure, on))

        return await self._act(where, user, body, expect, strict=True)

    async def recall(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            self._add_step(live, seat, Recall())

        return await self._act(where, user, body, expect, strict=True)

    async def place_token(self, where: Where, user: User, x: int, y: int, side: str, pair: int,
                          expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            _need(live, "finish")
            self._add_step(live, seat, PlaceToken((x, y), side, pair))

        return await self._act(where, user, body, expect, strict=True)

    async def confirm(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Score the turn and commit it to the log as one action."""
        async def body(live: Live) -> None:
            self._actor(live, user)
            _need(live, "finish")
            _push(_engine(live), EndTurn())
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def undo(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Take back the last unconfirmed step (never the choice to draw)."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            pending = live.pending
            if pending is None or not pending.moves:
                raise NotNow("nothing_to_undo")
            _engine(live).pop()
            left = Pending(seat, live.seq, pending.drew, pending.moves[:-1])
            self._set_pending(live, left if left.drew or left.moves else None)

        return await self._act(where, user, body, expect, strict=True)

    async def play_turn(self, where: Where, user: User, order: TurnOrder,
                        expect: int | None = None) -> TurnView:
        """A whole turn in one command; replaces any unconfirmed steps. All or nothing."""
        async def body(live: Live) -> None:
            self._actor(live, user)
            must = _need(live, "choose", "place", "finish", "abbey_round")
            drew = live.pending is not None and live.pending.drew
            if must == "finish":
                _engine(live).restore()
                must = must_of(live)
            if order.abbey and drew:
                raise NotNow("drew_place_it")
            if not order.abbey and must in ("choose", "abbey_round"):
                raise NotNow(f"must_{must}")
            moves = _order_moves(order, live.drawn_tile())
            _push_all(_engine(live), [*moves, EndTurn()])
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def rotate(self, where: Where, user: User, expect: int | None = None) -> TurnView:
        """Turn the unconfirmed tile to its next legal rotation on the same square.

        A figure or token already added is taken back with it. Refused with
        `nothing_to_rotate` (no tile placed), `abbey_cannot_rotate`, or `fits_one_way`.
        """
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            pending = live.pending
            first = pending.moves[0] if pending is not None and pending.moves else None
            if isinstance(first, PlaceAbbey):
                raise NotNow("abbey_cannot_rotate")
            if not isinstance(first, PlaceTile) or pending is None:
                raise NotNow("nothing_to_rotate")
            game = _engine(live)
            turns = sorted(m.rot for m in _legal_here(game, first))
            following = [r for r in turns if r > first.rot] or turns
            if not following or following[0] == first.rot:
                raise NotNow("fits_one_way", tile=first.tile, square=first.pos)
            for _ in pending.moves:
                game.pop()
            moved = PlaceTile(first.tile, first.pos, following[0])
            _push(game, moved)
            self._set_pending(live, Pending(seat, live.seq, pending.drew, [moved]))

        return await self._act(where, user, body, expect, strict=True)

    async def place(self, where: Where, user: User, x: int, y: int, rot: int,
                    figure: str | None = None, on: str | None = None, confirm: bool = False,
                    expect: int | None = None) -> TurnView:
        """Place the drawn tile, with a figure if given, and confirm if asked: all or
        nothing. Unconfirmed steps of the turn are replaced."""
        async def body(live: Live) -> None:
            seat = self._actor(live, user)
            if _need(live, "place", "finish") == "finish":
                _engine(live).restore()
                if must_of(live) != "place":  # the unconfirmed step was an abbey
                    raise NotNow("must_finish")
            order = TurnOrder((x, y), rot, figure=figure, on=on)
            moves = _order_moves(order, live.drawn_tile())
            game = _engine(live)
            _push_all(game, [*moves, EndTurn()] if confirm else moves)
            if confirm:
                self._take_actions(live, user.id)
            else:
                drew = live.pending is not None and live.pending.drew
                self._set_pending(live, Pending(seat, live.seq, drew, moves))

        return await self._act(where, user, body, expect, strict=True)

    async def features_if(self, where: Where, user: User, x: int, y: int, rot: int,
                          figure: str = "follower") -> tuple[FeatureLabel, ...]:
        """Where `figure` could stand if the drawn tile lay at (x, y) turned `rot`
        degrees: tried with push and pop on the live game. Empty if it cannot lie there."""
        found: list[FeatureLabel] = []

        async def body(live: Live) -> None:
            self._actor(live, user)
            if must_of(live) != "place" or rot not in ROTATIONS:
                return
            tile = live.drawn_tile()
            assert tile is not None
            game = _engine(live)
            try:
                game.push(PlaceTile(tile, (x, y), rot // 90))
            except IllegalMove:
                return
            try:
                spots = [d.on for d in game.legal_deployments() if d.figure == figure]
                found.extend(filter(None, (label(game.board, (x, y), on) for on in spots)))
            finally:
                game.pop()

        await self._act(where, user, body)
        return tuple(found)

    async def next_public_tile(self, game_id: int) -> str | None:
        """The tile the player to act will place, once everyone may see it: drawn, or
        given because no abbey choice comes first. None before that, and when over."""
        found: list[str | None] = []

        async def body(live: Live) -> None:
            found.append(live.drawn_tile())

        await self._act_on(game_id, None, body)
        return found[0]

    # -- wagons -----------------------------------------------------------------

    async def move_wagon(self, where: Where, user: User, x: int, y: int, on: str,
                         expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            self._actor(live, user)
            _need(live, "wagon")
            _push(_engine(live), MoveWagon((x, y), on))
            self._take_actions(live, user.id)

        return await self._act(where, user, body, expect, strict=True)

    async def return_wagon(self, where: Where, user: User,
                           expect: int | None = None) -> TurnView:
        async def body(live: Live) -> None:
            self._actor(live, user)
            _need(live, "wagon")
            _push(_engine(live), ReturnWagon())
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


def _legal_here(game: Game, placed: PlaceTile) -> list[PlaceTile]:
    """The rotations the tile of `placed` may take on its square, seen before it lay."""
    copy = game.copy()
    copy.restore()
    return [m for m in copy.legal_moves(placed.tile)
            if isinstance(m, PlaceTile) and m.pos == placed.pos]


def _order_moves(order: TurnOrder, tile: str | None) -> list[Move]:
    x, y = order.at
    if order.figure is not None and order.recall:
        raise BadInput("figure_and_recall")
    if order.figure is not None and order.on is None:
        raise BadInput("say_where", figure=order.figure)
    first: Move
    if order.abbey:
        first = PlaceAbbey((x, y))
    else:
        assert tile is not None
        first = PlaceTile(tile, (x, y), _rot(order.rot) // 90)
    figure: list[Move] = []
    if order.figure is not None and order.on is not None:
        figure = [Deploy(order.figure, order.on)]
    elif order.recall:
        figure = [Recall()]
    token: list[Move] = []
    if order.token is not None:
        tx, ty, side, pair = order.token
        token = [PlaceToken((tx, ty), side, pair)]
    return [first, *token, *figure] if order.token_first else [first, *figure, *token]
