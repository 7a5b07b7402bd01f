"""English for what the service reports as data: the steps of a turn and feature labels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.moves import Deploy, Move, PlaceAbbey, PlaceTile, PlaceToken, Recall
from carca_bot.words import english
from carca_bot.words.english import Names, Params, square


class Refusal(Protocol):
    """A service refusal as data (`carca_bot.service.errors.ServiceError`)."""

    code: str
    params: dict[str, Any]
    engine: bool  # the code is the engine's (`IllegalMove`), not the service's

HALVES = {"N": "north", "E": "east", "S": "south", "W": "west",
          "NE": "north-east", "NW": "north-west", "SE": "south-east", "SW": "south-west",
          "C": "middle"}


def move_words(move: Move) -> str:
    """One unconfirmed step of a turn: 'U at [1, 0] turned 90', 'follower on E', ..."""
    match move:
        case PlaceTile(tile, pos, rot):
            return f"{tile} at {square(pos)} turned {rot * 90}"
        case PlaceAbbey(pos):
            return f"abbey at {square(pos)}"
        case Deploy(figure, on):
            return f"{figure} on {on}"
        case Recall():
            return "abbot recalled"
        case PlaceToken(pos, on, pair):
            return f"tunnel token (pair {pair + 1}) on {on} at {square(pos)}"
    return type(move).__name__.lower()


def feature_label(kind: str, where: str) -> str:
    """A feature of one tile as data (`FeatureLabel`'s kind and where) in words:
    ('field', 'SW') -> 'field, south-west half'; ('city', 'N') -> 'city, north';
    ('barn', 'NW') -> 'barn, north-west corner'."""
    side = HALVES.get(where, where)
    if kind == "barn":
        return f"barn, {side} corner"
    if kind == "field" and where not in ("N", "E", "S", "W", "C"):
        return f"field, {side} half" if len(where) == 2 else f"field, {side}"
    if where == "C":
        return kind
    return f"{kind}, {side}"


# -- the service's refusals ---------------------------------------------------------

NOT_NOW = {
    "must_choose": "first choose: draw a tile, or place your abbey",
    "must_place": "first place your tile",
    "must_finish": "your tile is down: add a figure or a token, then confirm (or undo)",
    "must_wagon": "first move your wagon or return it",
    "must_abbey_round": "the tiles are used up: place your abbey or skip it",
    "must_over": "the game is over",
    "must_join": "the game has not started yet",
}
SERVICE_REFUSALS: dict[str, Callable[[Params], str]] = {
    "said": lambda p: str(p["text"]),
    "refused": lambda p: "refused",
    "drew_place_it": lambda p: "you drew a tile this turn: place it",
    "skip_only_abbey_round": lambda p: "an abbey can be skipped only in the end-of-game abbey "
                                       "round",
    "nothing_to_undo": lambda p: "there is nothing to undo: only unconfirmed steps of your own "
                                 "turn can be taken back",
    "bad_rotation": lambda p: "the rotation must be 0, 90, 180 or 270 (degrees clockwise)",
    "figure_and_recall": lambda p: "a turn places a figure or recalls the abbot, not both",
    "say_where": lambda p: f"say where the {p['figure']} goes",
    "nothing_to_rotate": lambda p: "there is no placed tile to rotate",
    "abbey_cannot_rotate": lambda p: "an abbey looks the same every way round: there is "
                                     "nothing to rotate",
    "fits_one_way": lambda p: f"{p['tile']} fits the square {square(p['square'])} only one "
                              "way",
    "game_moved_on": lambda p: "the game moved on while your command was waiting; here is the "
                               "current state",
    "saved_not_shown": lambda p: "your command was saved, but the game could not be shown "
                                 "just now: look at it again in a moment (do not repeat the "
                                 "command)",
    "no_game_here": lambda p: "there is no game in this channel: create one first",
    "no_such_game": lambda p: f"there is no game {p['game']}",
    "not_started": lambda p: "the game has not started yet",
    "game_over": lambda p: "the game is over",
    "not_playing": lambda p: "you are not playing in this game",
    "you_resigned": lambda p: "you resigned from this game",
    "not_your_turn": lambda p: f"not your turn: {p['waiting']}",
}


def refusal(err: Refusal, names: Names) -> str:
    """Why the service refused a command, as one sentence for the user who sent it."""
    if err.engine:
        return english.refusal(IllegalMove(err.code, **err.params), names)
    if err.code in NOT_NOW:
        return NOT_NOW[err.code]
    words = SERVICE_REFUSALS.get(err.code)
    return words(err.params) if words is not None else err.code.replace("_", " ")
