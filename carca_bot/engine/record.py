"""`carca-record/1`: reading, checking, writing and replaying game records.

Shape checks here (wrong types, unknown names and keys, values past the bounds
of `limits`) raise `RecordError`; rule checks belong to the game and raise
`IllegalMove`. The split is the contract's split between exit status 2 and 1.
A record may come from anyone, so reading one is bounded in size, depth and
time before the engine sees it.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carca_bot.engine.catalogue import EXPANSIONS, tile_ids
from carca_bot.engine.checks import waiting
from carca_bot.engine.deploying import FIGURES
from carca_bot.engine.errors import IllegalMove, RecordError
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.limits import (
    MAX_CONTAINERS,
    MAX_COORD,
    MAX_DEPTH,
    MAX_FLOAT_CHARS,
    MAX_INT_DIGITS,
    MAX_NAME_CHARS,
    MAX_PLAYERS,
    MAX_RECORD_BYTES,
    MAX_SEED,
    MAX_TUNNEL_PAIRS,
    MAX_WORD_CHARS,
    max_actions,
    name_key,
    name_problem,
    text_problem,
)
from carca_bot.engine.moves import Move, action_moves
from carca_bot.engine.setup import WAGON_RULES, Setup

# Says a refusal in words for the result's `error.message`, given the players' names.
# The command line passes one (`carca_bot.cli.refusal_words`); the engine writes none.
Explain = Callable[[IllegalMove, Sequence[str]], str]

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
ROTATIONS = (0, 90, 180, 270)
# Expansions whose rules the engine implements; a record naming another is refused.
IMPLEMENTED = frozenset(EXPANSIONS)


# -- reading the text -------------------------------------------------------------------

_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def _structure_problem(raw: bytes) -> RecordError | None:
    """Why the JSON text `raw` has too many or too deeply nested lists and objects, if so.

    Counted before parsing, in C-speed passes over the bytes: brackets inside strings
    count towards the number (a harmless overestimate) but not the depth. For depth,
    escapes go first, then the strings (between unescaped quotes), then each pass strips
    the innermost pairs, so MAX_DEPTH passes empty any text that is shallow enough.
    """
    if raw.count(b"[") + raw.count(b"{") > MAX_CONTAINERS:
        return RecordError(f"the record has more than {MAX_CONTAINERS:,} lists and objects",
                           code="record_too_many_containers", limit=MAX_CONTAINERS)
    # escaped backslashes, then escaped quotes: the quotes left open and close strings
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    skeleton = unescaped.translate(_ONE_KIND, _NOT_STRUCTURE)
    skeleton = b"".join(skeleton.split(b'"')[::2])
    for _ in range(MAX_DEPTH):
        shorter = skeleton.replace(b"[]", b"")
        if shorter == skeleton:
            break
        skeleton = shorter
    if b"[]" in skeleton or skeleton.count(b"[") > MAX_DEPTH:
        return RecordError(f"the record nests deeper than {MAX_DEPTH} levels",
                           code="record_too_deep", limit=MAX_DEPTH)
    return None


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(f"a number has more than {MAX_INT_DIGITS} digits",
                          code="record_too_many_digits", limit=MAX_INT_DIGITS)
    return int(digits)


def _parse_float(text: str) -> float:
    if len(text) > MAX_FLOAT_CHARS:
        raise RecordError(f"a number is longer than {MAX_FLOAT_CHARS} characters",
                          code="record_number_too_long", limit=MAX_FLOAT_CHARS)
    return float(text)


def _parse_constant(name: str) -> float:
    raise RecordError(f"not valid JSON: {name} is not a JSON value",
                      code="record_not_json_value", value=name)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise RecordError(f"the key {_shown(key)} appears twice in one object",
                              code="record_duplicate_key", key=_shown(key))
        data[key] = value
    return data


def _too_big(size: int) -> RecordError:
    return RecordError(f"the record is larger than {MAX_RECORD_BYTES:,} bytes",
                       code="record_too_big", size=size, limit=MAX_RECORD_BYTES)


def load_record_text(text: str) -> object:
    """Decode a record's JSON text within the bounds of `limits`, or raise RecordError."""
    if len(text) > MAX_RECORD_BYTES:
        raise _too_big(len(text))
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_RECORD_BYTES:
        raise _too_big(len(raw))
    problem = _structure_problem(raw)
    if problem is not None:
        raise problem
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}", code="record_not_json", line=exc.lineno,
                          column=exc.colno) from None
    except RecursionError:  # the depth count above rules this out; a slip there still refuses
        raise RecordError(f"the record nests deeper than {MAX_DEPTH} levels",
                          code="record_too_deep", limit=MAX_DEPTH) from None


def load_record_bytes(raw: bytes) -> object:
    """Decode a record's file contents (an upload, say) as `load_record_text` does."""
    if len(raw) > MAX_RECORD_BYTES:
        raise _too_big(len(raw))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"the record is not UTF-8 text (byte {raw[exc.start]:#04x} at "
                          f"offset {exc.start})", code="record_not_utf8",
                          offset=exc.start) from None
    return load_record_text(text)


# -- checking values --------------------------------------------------------------------


def _shown(value: object) -> str:
    """A value from the record for a message: quoted, escaped and short."""
    if not isinstance(value, str):
        return f"a value of type {type(value).__name__}"
    if len(value) > MAX_NAME_CHARS:
        return repr(value[:MAX_NAME_CHARS]) + "…"
    return repr(value)


def _first(keys: set[Any]) -> str:
    """The first of some unwanted keys, for a message (only text keys come from JSON)."""
    return _shown(min(keys, key=lambda k: (0, k) if isinstance(k, str) else (1, "")))


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
        raise RecordError(f"unknown tile id {_shown(name)}", index)
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
            raise RecordError(f"unknown figure {_shown(figure)}", index)
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
            raise RecordError(f"unknown expansion {_shown(name)}",
                              code="record_unknown_expansion", name=_shown(name))
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
        raise RecordError(f"unknown wagon rule {_shown(wagon)} (use c2 or c1)")
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


def write_record(game: Game, *, public: bool = False) -> dict[str, Any]:
    """The game as a `carca-record/1` object.

    With `public` it is the record anyone may see: while the game runs it leaves out
    the seed, since the order of the tiles still to come follows from it. A finished
    game has nothing left to hide.
    """
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
    if setup.seed is not None and (game.finished or not public):
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


def malformed(exc: RecordError) -> dict[str, Any]:
    """The contract's whole answer for a file that is not a readable record (exit 2)."""
    return {"format": RESULT_FORMAT, "error": {"index": exc.index, "message": str(exc)}}


def code_only(exc: IllegalMove, players: Sequence[str]) -> str:
    """The `Explain` used when the caller gives none: the code and parameters, no words."""
    return str(exc)


# Refusals a step makes before it looks at who plays it: a player who is not the one to
# decide gets these, like anyone, and `not_your_turn` for everything else.
_BEFORE_THE_PLAYER = frozenset({"game_over", "wrong_phase", "skip_not_now"})


def _refused(game: Game, err: IllegalMove) -> IllegalMove:
    err.names = tuple(game.players)
    return err


def _not_theirs(game: Game, move: Move, player: int) -> IllegalMove:
    """The refusal for `move` played by `player`, who is not the one to decide now.

    `Game.push` acts for whoever decides, so the record's `by` is checked here. The
    rules check the game's phase before the player, so a move that would be refused
    for that reason is tried (for the player deciding) and taken back.
    """
    try:
        game.push(move)
    except IllegalMove as exc:
        if exc.code in _BEFORE_THE_PLAYER:
            return exc
    else:
        game.pop()
    return _refused(game, IllegalMove("not_your_turn", who=player, **waiting(game)))


def play_action(game: Game, action: dict[str, Any]) -> None:
    """Play one well-formed record action through `Game.push`, all of it or none.

    The action's `by` must be the player who decides now. Refusals carry the same
    codes as the rules give them one step at a time.
    """
    by, moves = action_moves(action)
    player = None if by is None else game.player_index(by)
    depth = len(game.frames)
    try:
        for i, move in enumerate(moves):
            if i == 1 and "deploy" in action and action.get("recall"):
                raise _refused(game, IllegalMove("deploy_and_recall"))
            if player is not None and player != game.deciding:
                raise _not_theirs(game, move, player)
            game.push(move)
    except IllegalMove:
        while len(game.frames) > depth:
            game.pop()
        raise


def replay(data: object, explain: Explain = code_only) -> tuple[int, dict[str, Any]]:
    """Replay a decoded record: the exit status and the result object of the contract.

    `explain` writes a refusal's `message` (the command line passes English words).
    """
    try:
        record = parse_record(data)
    except RecordError as exc:
        return 2, malformed(exc)
    try:
        game = Game(record.setup)
    except IllegalMove as exc:
        return 2, malformed(RecordError(explain(exc, record.setup.players)))
    except ValueError as exc:
        return 2, malformed(RecordError(str(exc)))
    for index, action in enumerate(record.actions):
        try:
            play_action(game, action)
        except IllegalMove as exc:
            return 1, result(game, {"index": index,
                                    "message": explain(exc, record.setup.players)})
    return 0, result(game)


def replay_text(text: str, explain: Explain = code_only) -> tuple[int, dict[str, Any]]:
    """Replay a record given as JSON text (bounded: see `load_record_text`)."""
    try:
        data = load_record_text(text)
    except RecordError as exc:
        return 2, malformed(exc)
    return replay(data, explain)


def read_record_file(path: str | Path) -> str:
    """A record file's text, reading no more than a record may be; or RecordError."""
    name = str(path)
    try:
        if Path(path).is_dir():
            raise RecordError(f"{name} is a folder, not a record file")
        with open(path, "rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(f"cannot read {name}: there is no such file") from None
    except OSError as exc:
        raise RecordError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES:,} bytes, far more "
                          "than any game's record")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{name} is not UTF-8 text (byte {raw[exc.start]:#04x} at offset "
                          f"{exc.start})", code="record_not_utf8", offset=exc.start) from None


def replay_file(path: str | Path, explain: Explain = code_only) -> tuple[int, dict[str, Any]]:
    """What `carca-bot replay FILE` prints and exits with (given the CLI's `explain`)."""
    try:
        text = read_record_file(path)
    except RecordError as exc:
        return 2, malformed(exc)
    return replay_text(text, explain)
