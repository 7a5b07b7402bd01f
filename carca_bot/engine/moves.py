"""One typed move for every decision a player makes, and their `carca-record/1` form.

A move says what is done, never who does it: the game knows who must decide
(`Game.deciding`). Rotations are quarter turns clockwise (records use degrees).
A record action is a whole turn; `action_moves` splits it into the steps the game
plays, and `turn_action` builds the action back from a turn's steps. Both only
translate: whether a move is legal is the game's question.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from carca_bot.engine.geometry import Pos
from carca_bot.engine.pickling import by_constructor


@dataclass(frozen=True, slots=True)
class Draw:
    """Choose to draw rather than place an abbey; the service draws the tile."""


@dataclass(frozen=True, slots=True)
class PlaceTile:
    tile: str
    pos: Pos
    rot: int  # quarter turns


@dataclass(frozen=True, slots=True)
class PlaceAbbey:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Deploy:
    figure: str
    on: str  # a segment name, or a corner for a barn


@dataclass(frozen=True, slots=True)
class Recall:
    """Take the abbot back (it scores as at the game's end)."""


@dataclass(frozen=True, slots=True)
class PlaceToken:
    pos: Pos
    on: str
    pair: int  # 0-based, as in records


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Confirm the turn: it scores and the next decision comes up."""


@dataclass(frozen=True, slots=True)
class Discard:
    tile: str


@dataclass(frozen=True, slots=True)
class MoveWagon:
    pos: Pos
    on: str


@dataclass(frozen=True, slots=True)
class ReturnWagon:
    pass


@dataclass(frozen=True, slots=True)
class SkipAbbey:
    """Pass in the end-of-game abbey round."""


@dataclass(frozen=True, slots=True)
class DeclareEnd:
    """The supply is used up here (the record's `end` action); nobody's decision."""


Move = (Draw | PlaceTile | PlaceAbbey | Deploy | Recall | PlaceToken | EndTurn | Discard
        | MoveWagon | ReturnWagon | SkipAbbey | DeclareEnd)
by_constructor(*get_args(Move))  # moves go to the AI's workers and come back as plans
# Moves that finish an action of the record (the others are steps of a turn).
CLOSING = (EndTurn, Discard, MoveWagon, ReturnWagon, SkipAbbey, DeclareEnd)


_PLACINGS: dict[tuple[str, Pos, int], PlaceTile] = {}


def placing(tile: str, pos: Pos, rot: int) -> PlaceTile:
    """`PlaceTile(tile, pos, rot)`, shared: listing legal moves makes the same ones often."""
    key = (tile, pos, rot)
    move = _PLACINGS.get(key)
    if move is None:
        if len(_PLACINGS) > 200_000:  # a long-running process: keep the cache bounded
            _PLACINGS.clear()
        move = _PLACINGS[key] = PlaceTile(tile, pos, rot)
    return move


_DEPLOYS: dict[tuple[str, str], Deploy] = {}


def deploying(figure: str, on: str) -> Deploy:
    """`Deploy(figure, on)`, shared like `placing` (few figures, few names)."""
    move = _DEPLOYS.get((figure, on))
    if move is None:
        if len(_DEPLOYS) > 10_000:  # names come from the game's tiles, but stay bounded
            _DEPLOYS.clear()
        move = _DEPLOYS[(figure, on)] = Deploy(figure, on)
    return move


def _pos(value: list[int]) -> Pos:
    return (value[0], value[1])


def action_moves(action: dict[str, Any]) -> tuple[str | None, list[Move]]:
    """The player named by a well-formed action (None for `end`) and its steps in order."""
    if "end" in action:
        return None, [DeclareEnd()]
    by: str = action["by"]
    if "discard" in action:
        return by, [Discard(action["discard"])]
    if "wagon" in action:
        target = action["wagon"]
        if target == "return":
            return by, [ReturnWagon()]
        return by, [MoveWagon(_pos(target["at"]), target["on"])]
    if action.get("abbey") == "skip":
        return by, [SkipAbbey()]
    moves: list[Move] = []
    if "abbey" in action:
        moves.append(PlaceAbbey(_pos(action["abbey"])))
    else:
        moves.append(PlaceTile(action["tile"], _pos(action["at"]), action["rot"] // 90))
    raw = action.get("token")
    token = None if raw is None else PlaceToken(_pos(raw["at"]), raw["on"], raw["pair"])
    if token is not None and action.get("token_first"):
        moves.append(token)
    if "deploy" in action:
        moves.append(Deploy(action["deploy"]["figure"], action["deploy"]["on"]))
    if action.get("recall"):
        moves.append(Recall())
    if token is not None and not action.get("token_first"):
        moves.append(token)
    moves.append(EndTurn())
    return by, moves


def turn_action(by: str | None, moves: list[Move]) -> dict[str, Any]:
    """The record action of one whole action's steps (the inverse of `action_moves`).

    Keys come in one fixed order whatever the order of the steps, so a record
    written twice reads the same.
    """
    head: dict[str, Any] = {} if by is None else {"by": by}
    tail: dict[str, Any] = {}
    token_first = False
    for move in moves:
        match move:
            case DeclareEnd():
                return {"end": True}
            case Discard(tile):
                head["discard"] = tile
            case ReturnWagon():
                head["wagon"] = "return"
            case MoveWagon(pos, on):
                head["wagon"] = {"at": list(pos), "on": on}
            case SkipAbbey():
                head["abbey"] = "skip"
            case PlaceAbbey(pos):
                head["abbey"] = list(pos)
            case PlaceTile(tile, pos, rot):
                head.update(tile=tile, at=list(pos), rot=rot * 90)
            case Deploy(figure, on):
                tail["deploy"] = {"figure": figure, "on": on}
                token_first = "token" in tail
            case Recall():
                tail["recall"] = True
            case PlaceToken(pos, on, pair):
                tail["token"] = {"at": list(pos), "on": on, "pair": pair}
            case EndTurn() | Draw():
                pass
    for key in ("deploy", "recall", "token"):
        if key in tail:
            head[key] = tail[key]
    if token_first:
        head["token_first"] = True
    return head
