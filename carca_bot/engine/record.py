"""`carca-record/1`: reading, checking, writing and replaying game records.

Shape checks (wrong types, unknown names and keys, values past the bounds of
`limits`) raise `RecordError`: record_checks.py, and record_text.py for the text
itself. Rule checks belong to the game and raise `IllegalMove`. The split is the
contract's split between exit status 2 and 1. A record may come from anyone, so reading
one is bounded in size, depth and time before the engine sees it. This module writes
records and results and replays records; the names of the other two that callers use
are importable from here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.checks import waiting
from carca_bot.engine.errors import IllegalMove, RecordError
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Move, action_moves
from carca_bot.engine.record_checks import RECORD_FORMAT as RECORD_FORMAT
from carca_bot.engine.record_checks import Record as Record
from carca_bot.engine.record_checks import check_action as check_action
from carca_bot.engine.record_checks import parse_record as parse_record
from carca_bot.engine.record_text import load_record_bytes as load_record_bytes
from carca_bot.engine.record_text import load_record_text as load_record_text
from carca_bot.engine.record_text import read_record_file as read_record_file

# Says a refusal in words for the result's `error.message`, given the players' names.
# The command line passes one (`carca_bot.cli.refusal_words`); the engine writes none.
Explain = Callable[[IllegalMove, Sequence[str]], str]

RESULT_FORMAT = "carca-result/1"


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



def replay_file(path: str | Path, explain: Explain = code_only) -> tuple[int, dict[str, Any]]:
    """What `carca-bot replay FILE` prints and exits with (given the CLI's `explain`)."""
    try:
        text = read_record_file(path)
    except RecordError as exc:
        return 2, malformed(exc)
    return replay_text(text, explain)
