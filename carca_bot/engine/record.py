"""`carca-record/1`: reading, checking, writing and replaying game records.

Shape checks here (wrong types, unknown names and keys) raise `RecordError`;
rule checks belong to the game and raise `IllegalMove`. The split is the
contract's split between exit status 2 and 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from carca_bot.engine.catalogue import EXPANSIONS, tile_ids
from carca_bot.engine.deploying import FIGURES
from carca_bot.engine.errors import IllegalMove, RecordError
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.setup import WAGON_RULES, Setup

RECORD_FORMAT = "carca-record/1"
RESULT_FORMAT = "carca-result/1"
TOP_KEYS = {"format", "players", "expansions", "rules", "seed", "start", "actions",
            "expect", "comment"}
VERB_KEYS = {
    "tile": {"by", "tile", "at", "rot", "deploy", "recall", "token", "token_first"},
    "abbey": {"by", "abbey", "deploy", "recall", "token", "token_first"},
    "discard": {"by", "discard"},
    "wagon": {"by", "wagon"},
    "end": {"end"},
}
# Expansions whose rules the engine implements; a record naming another is refused.
IMPLEMENTED = frozenset(EXPANSIONS)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _square(value: object, what: str, index: int | None) -> list[int]:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise RecordError(f"{what} must be a square [x, y] of two whole numbers", index)
    return value


def _string(value: object, what: str, index: int | None) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{what} must be a string", index)
    return value


def _tile_id(value: object, what: str, index: int | None) -> str:
    name = _string(value, what, index)
    if name not in tile_ids():
        raise RecordError(f"unknown tile id {name!r}", index)
    return name


def _object(value: object, keys: set[str], what: str, index: int | None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be an object", index)
    extra = set(value) - keys
    if extra:
        raise RecordError(f"unknown key {sorted(extra)[0]!r} in {what}", index)
    missing = keys - set(value)
    if missing:
        raise RecordError(f"{what} needs {sorted(missing)[0]!r}", index)
    return value


def check_action(action: object, index: int | None = None) -> dict[str, Any]:
    """Check an action's shape; returns it unchanged or raises RecordError."""
    if not isinstance(action, dict):
        raise RecordError("an action must be an object", index)
    verbs = [v for v in VERB_KEYS if v in action]
    if len(verbs) != 1:
        raise RecordError("an action needs exactly one verb (tile, abbey, discard, wagon or "
                          f"end); this one has {len(verbs)}", index)
    verb = verbs[0]
    extra = set(action) - VERB_KEYS[verb]
    if extra:
        raise RecordError(f"key {sorted(extra)[0]!r} does not belong to a {verb} action", index)
    if verb == "end":
        if action["end"] is not True:
            raise RecordError("end must be true", index)
        return action
    if "by" not in action:
        raise RecordError("the action needs 'by', the player who acts", index)
    _string(action["by"], "by", index)
    if verb == "tile":
        _tile_id(action["tile"], "tile", index)
        for key in ("at", "rot"):
            if key not in action:
                raise RecordError(f"a tile action needs {key!r}", index)
        _square(action["at"], "at", index)
        if not _is_int(action["rot"]) or action["rot"] not in (0, 90, 180, 270):
            raise RecordError("rot must be 0, 90, 180 or 270", index)
    elif verb == "abbey":
        if action["abbey"] != "skip":
            _square(action["abbey"], "abbey", index)
    elif verb == "discard":
        _tile_id(action["discard"], "discard", index)
    elif verb == "wagon":
        target = action["wagon"]
        if target != "return":
            target = _object(target, {"at", "on"}, "wagon", index)
            _square(target["at"], "wagon at", index)
            _string(target["on"], "wagon on", index)
    if "deploy" in action:
        deploy = _object(action["deploy"], {"figure", "on"}, "deploy", index)
        figure = _string(deploy["figure"], "figure", index)
        if figure not in FIGURES:
            raise RecordError(f"unknown figure {figure!r}", index)
        _string(deploy["on"], "deploy on", index)
    for flag in ("recall", "token_first"):
        if flag in action and not isinstance(action[flag], bool):
            raise RecordError(f"{flag} must be true or false", index)
    if "token" in action:
        token = _object(action["token"], {"at", "on", "pair"}, "token", index)
        _square(token["at"], "token at", index)
        _string(token["on"], "token on", index)
        if not _is_int(token["pair"]):
            raise RecordError("token pair must be a whole number", index)
    return action


def _check_rules(rules: object) -> tuple[str, int | None]:
    if not isinstance(rules, dict):
        raise RecordError("rules must be an object")
    extra = set(rules) - {"wagon", "tunnel_pairs"}
    if extra:
        raise RecordError(f"unknown rule {sorted(extra)[0]!r}")
    wagon = rules.get("wagon", "c2")
    if wagon not in WAGON_RULES:
        raise RecordError(f"unknown wagon rule {wagon!r} (use c2 or c1)")
    pairs = rules.get("tunnel_pairs")
    if pairs is not None and (not _is_int(pairs) or pairs < 0):
        raise RecordError("tunnel_pairs must be a whole number, 0 or more")
    return wagon, pairs


@dataclass(frozen=True)
class Record:
    setup: Setup
    actions: list[dict[str, Any]]


def parse_record(data: object) -> Record:
    """Check a decoded record and return its setup and actions, or raise RecordError."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    extra = set(data) - TOP_KEYS
    if extra:
        raise RecordError(f"unknown key {sorted(extra)[0]!r}")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"format must be {RECORD_FORMAT!r}")
    players = data.get("players")
    if not (isinstance(players, list) and 1 <= len(players) <= 6
            and all(isinstance(p, str) and p for p in players)):
        raise RecordError("players must be a list of 1 to 6 names")
    if len(set(players)) != len(players):
        raise RecordError("player names must all differ")
    expansions = data.get("expansions", [])
    if not isinstance(expansions, list) or not all(isinstance(e, str) for e in expansions):
        raise RecordError("expansions must be a list of names")
    for name in expansions:
        if name not in EXPANSIONS:
            raise RecordError(f"unknown expansion {name!r}")
        if name not in IMPLEMENTED:
            raise RecordError(f"the expansion {name!r} is not implemented yet")
    wagon, pairs = _check_rules(data.get("rules", {}))
    seed = data.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError("seed must be a whole number")
    start = None
    if "start" in data:
        raw = _object(data["start"], {"tile", "rot"}, "start", None)
        tile = _tile_id(raw["tile"], "start tile", None)
        if not _is_int(raw["rot"]) or raw["rot"] not in (0, 90, 180, 270):
            raise RecordError("start rot must be 0, 90, 180 or 270")
        if "river" in expansions and tile != "RV-spring":
            raise RecordError("with the river the start tile must be RV-spring")
        start = (tile, raw["rot"] // 90)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    for i, action in enumerate(actions):
        check_action(action, i)
    setup = Setup(tuple(players), frozenset(expansions), wagon, pairs, seed, start)
    return Record(setup, actions)


def write_record(game: Game) -> dict[str, Any]:
    """The game as a `carca-record/1` object."""
    setup = game.setup
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "players": list(setup.players),
        "expansions": [e for e in EXPANSIONS if e in setup.expansions],
    }
    rules: dict[str, Any] = {}
    if setup.wagon_rule != "c2":
        rules["wagon"] = setup.wagon_rule
    if setup.tunnel_pairs is not None:
        rules["tunnel_pairs"] = setup.tunnel_pairs
    if rules:
        record["rules"] = rules
    if setup.seed is not None:
        record["seed"] = setup.seed
    if setup.start is not None:
        record["start"] = {"tile": setup.start[0], "rot": setup.start[1] * 90}
    record["actions"] = [dict(a) for a in game.history]
    return record


def result(game: Game, error: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `carca-result/1` object describing a game's state."""
    names = game.players
    nxt = None
    if game.phase is not Phase.FINISHED:
        who = game.deciding
        assert who is not None
        nxt = {"player": names[who], "expects": game.expects()}
    return {
        "format": RESULT_FORMAT,
        "finished": game.finished,
        "scores": {n: s for n, s in zip(names, game.scores, strict=True)},
        "king": None if game.king is None else names[game.king],
        "robber": None if game.robber is None else names[game.robber],
        "supply": {n: game.in_hand(i) for i, n in enumerate(names)},
        "next": nxt,
        "error": error,
    }


def replay(data: object) -> tuple[int, dict[str, Any]]:
    """Replay a decoded record: the exit status and the result object of the contract."""
    try:
        record = parse_record(data)
        game = Game(record.setup)
    except RecordError as exc:
        return 2, {"format": RESULT_FORMAT, "error": {"index": exc.index, "message": str(exc)}}
    except (IllegalMove, ValueError) as exc:
        return 2, {"format": RESULT_FORMAT, "error": {"index": None, "message": str(exc)}}
    for index, action in enumerate(record.actions):
        try:
            game.apply(action)
        except IllegalMove as exc:
            return 1, result(game, {"index": index, "message": exc.message})
    return 0, result(game)


def replay_text(text: str) -> tuple[int, dict[str, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return 2, {"format": RESULT_FORMAT,
                   "error": {"index": None, "message": f"not valid JSON: {exc}"}}
    return replay(data)
