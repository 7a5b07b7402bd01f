"""Players, places and positions shared by the service tests."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest

from carca_bot.engine.game import Game
from carca_bot.i18n import speaking
from carca_bot.service import (
    CatchUp,
    GameOptions,
    GameService,
    ServiceError,
    TurnView,
    User,
    Where,
)
from carca_bot.words import say, situation

ANA = User("100000000000000001", "Ana")
BEN = User("100000000000000002", "Ben")
CY = User("100000000000000003", "Cy")
DEE = User("100000000000000004", "Dee")
PEOPLE = {u.id: u for u in (ANA, BEN, CY, DEE)}
HERE = Where("guild-1", "channel-1")
THERE = Where("guild-1", "channel-2")
AM = frozenset({"abbey_mayor"})

# Ten tiles around the hole (1, 1), each fitting when placed in this order from
# the start tile D at (0, 0): then an abbey may go into the hole.
RING: tuple[tuple[str, tuple[int, int], int], ...] = (
    ("V", (1, 0), 0), ("W", (-1, 0), 180), ("B", (0, 1), 0), ("E", (2, 0), 0),
    ("E", (2, 1), 270), ("E", (-1, 1), 270), ("U", (-1, 2), 0), ("U", (0, 2), 0),
    ("U", (2, 2), 0), ("W", (1, 2), 180),
)
HOLE = (1, 1)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def rig(monkeypatch: pytest.MonkeyPatch, tiles: Sequence[str]) -> None:
    """Stack the deck: the first draws give `tiles` in order, then the seeded deal goes on."""
    deal = Game.draw

    def draw(game: Game) -> str:
        return tiles[game.drawn] if game.drawn < len(tiles) else deal(game)

    monkeypatch.setattr(Game, "draw", draw)


def who(view: TurnView) -> User:
    """The user who must act in `view`."""
    assert view.deciding is not None and view.deciding.user_id is not None
    return PEOPLE[view.deciding.user_id]


def other(view: TurnView) -> User:
    """A seated user who must not act now."""
    acting = who(view)
    return next(PEOPLE[s.user_id] for s in view.seats
                if s.user_id is not None and s.user_id != acting.id)


async def started(service: GameService, users: Sequence[User] = (ANA, BEN),
                  options: GameOptions | None = None, where: Where = HERE) -> TurnView:
    """A game dealt for `users`, hosted by the first."""
    await service.create(where, users[0], options or GameOptions(seed=7))
    for user in users[1:]:
        await service.join(where, user)
    return await service.start(where, users[0])


async def play_ring(service: GameService, view: TurnView, where: Where = HERE) -> TurnView:
    """Place the RING tiles (the deck must be rigged with them), no figures."""
    for tile, (x, y), rot in RING:
        user = who(view)
        view = await service.begin_turn(where, user)
        assert view.tile == tile, (view.tile, prompt(view))
        view = await turn(service, user, x, y, rot, where)
    return view


async def turn(service: GameService, user: User, x: int, y: int, rot: int,
               where: Where = HERE) -> TurnView:
    """Place the drawn tile and confirm, step by step."""
    await service.place_tile(where, user, x, y, rot)
    return await service.confirm(where, user)


# -- what players would read: the service's data said in English ----------------------


def said(view: TurnView) -> list[str]:
    """The view's events and notes in English words."""
    names = [s.name for s in view.seats]
    with speaking("en"):
        return [say(e, names) for e in view.events]


def lines(catch: CatchUp) -> list[str]:
    """A catch-up's told items in English words."""
    names = [s.name for s in catch.view.seats]
    with speaking("en"):
        return [say(t, names) for t in catch.lines]


def steps(view: TurnView) -> tuple[str, ...]:
    """The unconfirmed steps of the turn in English words."""
    with speaking("en"):
        return tuple(say(m) for m in view.steps)


def prompt(view: TurnView) -> str:
    """What happens next, in English, as the viewer of `view` reads it."""
    with speaking("en"):
        return situation(view)


def words(err: BaseException) -> str:
    """A refusal in English."""
    assert isinstance(err, ServiceError), repr(err)
    with speaking("en"):
        return say(err)


@contextmanager
def raises_saying(kind: type[ServiceError], pattern: str) -> Iterator[None]:
    """`pytest.raises(kind, match=pattern)`, matched on the refusal's English words."""
    with pytest.raises(kind) as caught:
        yield
    text = words(caught.value)
    assert re.search(pattern, text), text
