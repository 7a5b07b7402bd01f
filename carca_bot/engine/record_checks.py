"""The shape of a `carca-record/1` record: every value, every action and the record's
setup checked strictly before the engine sees them (`RecordError`, the contract's exit
status 2). Whether the moves are legal is the game's question (`IllegalMove`, exit
status 1): see record.py.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from carca_bot.engine.catalogue import EXPANSIONS, tile_ids
from carca_bot.engine.deploying import FIGURES
from carca_bot.engine.errors import RecordError
from carca_bot.engine.limits import (
    MAX_COORD,
    MAX_NAME_CHARS,
    MAX_PLAYERS,
    MAX_SEED,
    MAX_TUNNEL_PAIRS,
    MAX_WORD_CHARS,
    max_actions,
    name_key,
    name_problem,
    text_problem,
)
from carca_bot.engine.setup import WAGON_RULES, Setup

RECORD_FORMAT = "carca-record/1"
TOP_KEYS = {"format", "players", "expansions", "rules", "seed", "start", "actions",
            "expect", "comment"}
VERB_KEYS = {
    "tile": {"by", "tile", "at", "rot", "deploy", "recall", "token", "token_first"},
    "abbey": {"by", "abbey", "deploy", "recall", "token", "token_first"},
    "discard": {"by", "discard"},
    "wagon": {"by", "wagon"},
    "end": {"end"},
}
ROTATIONS = (0, 90, 180, 270)
# Expansions whose rules the engine implements; a record naming another is refused.
IMPLEMENTED = frozenset(EXPANSIONS)


# -- checking values --------------------------------------------------------------------


def shown(value: object) -> str:
    """A value from the record for a message: quoted, escaped and short."""
    if not isinstance(value, str):
        return f"a value of type {type(value).__name__}"
    if len(value) > MAX_NAME_CHARS:
        return repr(value[:MAX_NAME_CHARS]) + "…"
    return repr(value)


def _first(keys: set[Any]) -> str:
    """The first of some unwanted keys, for a message (only text keys come from JSON)."""
    return shown(min(keys, key=lambda k: (0, k) if isinstance(k, str) else (1, "")))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _square(value: object, what: str, index: int | None) -> list[int]:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise RecordError(f"{what} must be a square [x, y] of two whole numbers", index)
    if any(abs(v) > MAX_COORD for v in value):
        raise RecordError(f"{what} is off any board: x and y lie between -{MAX_COORD} and "
                          f"{MAX_COORD}", index)
    return value


def _rotation(value: object, what: str, index: int | None) -> int:
    if not _is_int(value) or value not in ROTATIONS:
        raise RecordError(f"{what} must be 0, 90, 180 or 270", index)
    assert isinstance(value, int)
    return value


def _string(value: object, what: str, index: int | None) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a string", index)
    return value


def _text(value: object, what: str, limit: int, index: int | None) -> str:
    """A string that can be shown: bounded, and nothing hidden or reordering in it."""
    text = _string(value, what, index)
    if len(text) > 4 * limit or len(unicodedata.normalize("NFC", text)) > limit:
        raise RecordError(f"{what} is longer than {limit} characters", index)
    problem = text_problem(text)
    if problem is not None:
        raise RecordError(f"{what} {problem}", index)
    return text


def _tile_id(value: object, what: str, index: int | None) -> str:
    name = _string(value, what, index)
    if name not in tile_ids():
        raise RecordError(f"unknown tile id {shown(name)}", index)
    return name


def _object(value: object, keys: set[str], what: str, index: int | None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be an object", index)
    extra = set(value) - keys
    if extra:
        raise RecordError(f"unknown key {_first(extra)} in {what}", index)
    missing = keys - set(value)
    if missing:
        raise RecordError(f"{what} needs {sorted(missing)[0]!r}", index)
    return value


# -- one action ---------------------------------------------------------------------------


def check_action(action: object, index: int | None = None) -> dict[str, Any]:
    """Check one action's shape strictly; returns it unchanged or raises RecordError.

    The one check for every action from outside the engine: a record's, an import's,
    or one read back from the database. Unknown keys are refused at every level, and so
    is a part the decision cannot have. `index` is the action's position, for messages.
    """
    if not isinstance(action, dict):
        raise RecordError("an action must be an object", index)
    verbs = [v for v in VERB_KEYS if v in action]
    if len(verbs) != 1:
        raise RecordError("an action needs exactly one verb (tile, abbey, discard, wagon or "
                          f"end); this one has {len(verbs)}", index)
    verb = verbs[0]
    extra = set(action) - VERB_KEYS[verb]
    if extra:
        article = "an" if verb[0] in "aeiou" else "a"
        raise RecordError(f"key {_first(extra)} does not belong to {article} {verb} action",
                          index)
    if verb == "end":
        if action["end"] is not True:
            raise RecordError("end must be true", index)
        return action
    if "by" not in action:
        raise RecordError("the action needs 'by', the player who acts", index)
    _text(action["by"], "by", MAX_NAME_CHARS, index)
    if verb == "tile":
        _tile_id(action["tile"], "tile", index)
        for key in ("at", "rot"):
            if key not in action:
                raise RecordError(f"a tile action needs {key!r}", index)
        _square(action["at"], "at", index)
        _rotation(action["rot"], "rot", index)
    elif verb == "abbey":
        if action["abbey"] == "skip":
            parts = set(action) - {"by", "abbey"}
            if parts:
                raise RecordError(f"a skipped abbey carries nothing else, but this one has "
                                  f"{_first(parts)}", index)
            return action
        _square(action["abbey"], "abbey", index)
    elif verb == "discard":
        _tile_id(action["discard"], "discard", index)
    elif verb == "wagon":
        target = action["wagon"]
        if target != "return":
            target = _object(target, {"at", "on"}, "wagon", index)
            _square(target["at"], "wagon at", index)
            _text(target["on"], "wagon on", MAX_WORD_CHARS, index)
        return action
    _check_turn_parts(action, index)
    return action


def _check_turn_parts(action: dict[str, Any], index: int | None) -> None:
    """The optional parts of a tile or abbey turn: figure or recall, token, their order."""
    if "deploy" in action:
        deploy = _object(action["deploy"], {"figure", "on"}, "deploy", index)
        figure = _string(deploy["figure"], "figure", index)
        if figure not in FIGURES:
            raise RecordError(f"unknown figure {shown(figure)}", index)
        _text(deploy["on"], "deploy on", MAX_WORD_CHARS, index)
    for flag in ("recall", "token_first"):
        if flag in action and not isinstance(action[flag], bool):
            raise RecordError(f"{flag} must be true or false", index)
    if "token" in action:
        token = _object(action["token"], {"at", "on", "pair"}, "token", index)
        _square(token["at"], "token at", index)
        _text(token["on"], "token on", MAX_WORD_CHARS, index)
        pair = token["pair"]
        if not _is_int(pair):
            raise RecordError("token pair must be a whole number", index)
        if not 0 <= pair < MAX_TUNNEL_PAIRS:
            raise RecordError(f"token pair must be 0 to {MAX_TUNNEL_PAIRS - 1}", index)
    # `token_first` orders a token and a deploy; on a turn without both it changes nothing
    # and the action is still well-formed (the spec's settled edge: other tools write it).


# -- the record -----------------------------------------------------------------------------


def _check_players(players: object) -> tuple[str, ...]:
    if not (isinstance(players, list) and 1 <= len(players) <= MAX_PLAYERS
            and all(isinstance(p, str) and p for p in players)):
        raise RecordError(f"players must be a list of 1 to {MAX_PLAYERS} names")
    for seat, name in enumerate(players, 1):
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(f"the name of player {seat} {problem}")
    if len(set(players)) != len(players):
        raise RecordError("player names must all differ")
    if len({name_key(p) for p in players}) != len(players):
        raise RecordError("player names must all differ, even in case or Unicode form")
    return tuple(players)


def _check_expansions(expansions: object) -> frozenset[str]:
    if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
        raise RecordError("expansions must be a list of names")
    for name in expansions:
        if name not in EXPANSIONS:
            raise RecordError(f"unknown expansion {shown(name)}",
                              code="record_unknown_expansion", name=shown(name))
        if name not in IMPLEMENTED:
            raise RecordError(f"the expansion {name!r} is not implemented yet",
                              code="record_expansion_not_implemented", name=repr(name))
    if len(set(expansions)) != len(expansions):
        raise RecordError("an expansion is listed twice")
    return frozenset(expansions)


def _check_rules(rules: object) -> tuple[str, int | None]:
    if not isinstance(rules, dict):
        raise RecordError("rules must be an object")
    extra = set(rules) - {"wagon", "tunnel_pairs"}
    if extra:
        raise RecordError(f"unknown rule {_first(extra)}")
    wagon = rules.get("wagon", "c2")
    if not isinstance(wagon, str) or wagon not in WAGON_RULES:
        raise RecordError(f"unknown wagon rule {shown(wagon)} (use c2 or c1)")
    pairs = rules.get("tunnel_pairs")
    if pairs is not None and (not _is_int(pairs) or not 0 <= pairs <= MAX_TUNNEL_PAIRS):
        raise RecordError(f"tunnel_pairs must be a whole number from 0 to {MAX_TUNNEL_PAIRS}")
    return wagon, pairs


def _check_start(start: object, expansions: frozenset[str]) -> tuple[str, int]:
    raw = _object(start, {"tile", "rot"}, "start", None)
    tile = _tile_id(raw["tile"], "start tile", None)
    rot = _rotation(raw["rot"], "start rot", None)
    if "river" in expansions and tile != "RV-spring":
        raise RecordError("with the river the start tile must be RV-spring")
    return tile, rot // 90


@dataclass(frozen=True)
class Record:
    setup: Setup
    actions: list[dict[str, Any]]


def parse_record(data: object) -> Record:
    """Check a decoded record and return its setup and actions, or raise RecordError."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object", code="record_not_object")
    extra = set(data) - TOP_KEYS
    if extra:
        raise RecordError(f"unknown key {_first(extra)}")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"format must be {RECORD_FORMAT!r}", code="record_wrong_format",
                          expected=RECORD_FORMAT)
    players = _check_players(data.get("players"))
    expansions = _check_expansions(data.get("expansions", []))
    wagon, pairs = _check_rules(data.get("rules", {}))
    seed = data.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise RecordError("seed must be a whole number from 0 to 2**63 - 1")
    start = _check_start(data["start"], expansions) if "start" in data else None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    most = max_actions(len(players), expansions)
    if len(actions) > most:
        raise RecordError(f"a game with these players and expansions has at most {most} "
                          f"actions, but the record has {len(actions)}",
                          code="record_too_many_actions", most=most, count=len(actions))
    for i, action in enumerate(actions):
        check_action(action, i)
    setup = Setup(players, expansions, wagon, pairs, seed, start)
    return Record(setup, actions)
