"""The `carca-record/1` contract: exit statuses, error index and message, output keys."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from carca_bot.cli import refusal_words
from carca_bot.engine.game import Game
from carca_bot.engine.record import parse_record, replay, replay_text, write_record
from carca_bot.engine.setup import Setup
from tests.engine.records import record, turn

ROOT = Path(__file__).resolve().parents[2]


def malformed(data: Any) -> dict[str, Any]:
    status, out = replay(data)
    assert status == 2, out
    assert set(out) == {"format", "error"}
    assert out["format"] == "carca-result/1"
    return dict(out["error"])


@pytest.mark.parametrize(("change", "words"), [
    ({"format": "carca-record/2"}, "format"),
    ({"players": []}, "players"),
    ({"players": ["Ana", "Ana"]}, "differ"),
    ({"players": list("ABCDEFG")}, "1 to 6"),
    ({"expansions": ["seafarers"]}, "unknown expansion 'seafarers'"),
    ({"rules": {"wagon": "c3"}}, "unknown wagon rule"),
    ({"rules": {"farmers": "c1"}}, "unknown rule 'farmers'"),
    ({"rules": {"tunnel_pairs": "two"}}, "tunnel_pairs"),
    ({"seed": "seven"}, "seed"),
    ({"start": {"tile": "ZZ", "rot": 0}}, "unknown tile id 'ZZ'"),
    ({"start": {"tile": "D", "rot": 45}}, "rot"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"rules": {"tunnel_pairs": 10**8}}, "tunnel_pairs"),
    ({"seed": -7}, "seed"),
    ({"players": ["Ana", "\u202eBen"]}, "invisible character"),
])
def test_malformed_records(change: dict[str, Any], words: str) -> None:
    error = malformed({**record([]), **change})
    assert error["index"] is None
    assert words in error["message"]


@pytest.mark.parametrize(("action", "words"), [
    ({"by": "Ana", "tile": "ZZ", "at": [1, 0], "rot": 0}, "unknown tile id 'ZZ'"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 45}, "rot must be 0, 90, 180 or 270"),
    ({"by": "Ana", "tile": "U", "at": [1], "rot": 0}, "square"),
    ({"by": "Ana", "tile": "U", "at": [1, 0]}, "'rot'"),
    ({"by": "Ana"}, "exactly one verb"),
    ({"by": "Ana", "tile": "U", "discard": "U", "at": [1, 0], "rot": 0}, "exactly one verb"),
    ({"by": "Ana", "discard": "U", "deploy": {"figure": "follower", "on": "E"}},
     "does not belong to a discard action"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "deploy": {"figure": "knight", "on": "E"}}, "unknown figure 'knight'"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, "deploy": {"figure": "follower"}},
     "'on'"),
    ({"by": 7, "tile": "U", "at": [1, 0], "rot": 0}, "by must be a string"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, "recall": "yes"}, "recall"),
    ({"end": False}, "end must be true"),
    ({"by": "Ana", "wagon": {"at": [0, 0]}}, "'on'"),
    ({"by": "Ana", "tile": "U", "at": [True, 0], "rot": 0}, "square"),
    ("tile", "must be an object"),
    ({"by": "Ana", "abbey": "skip", "deploy": {"figure": "follower", "on": "C"}},
     "a skipped abbey carries nothing else"),
    ({"end": True, "by": "Ana"}, "does not belong to an end action"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, "token_first": 1}, "token_first"),
])
def test_malformed_actions_name_their_index(action: Any, words: str) -> None:
    error = malformed(record([turn("Ana", "U", (1, 0)), action]))
    assert error["index"] == 1
    assert words in error["message"]


def test_rule_break_reports_the_state_before_it() -> None:
    status, out = replay(record([
        turn("Ana", "E", (0, -1), 180, figure="follower", on="S"),  # Ana +4
        turn("Ben", "U", (5, 5)),
    ]), refusal_words)
    assert status == 1
    assert out["error"]["index"] == 1
    assert "does not touch" in out["error"]["message"]
    assert out["scores"] == {"Ana": 4, "Ben": 0}
    assert out["next"] == {"player": "Ben", "expects": ["tile", "discard"]}
    assert set(out) == {"format", "finished", "scores", "king", "robber", "supply", "next", "error"}


def test_on_naming_nothing_and_unknown_by_are_rule_breaks() -> None:
    status, out = replay(record([turn("Ana", "U", (1, 0), figure="follower", on="Q")]),
                         refusal_words)
    assert status == 1 and "'Q' names nothing" in out["error"]["message"]
    status, out = replay(record([turn("Zed", "U", (1, 0))]))
    assert status == 1 and out["error"]["index"] == 0


def test_actions_after_the_end_are_refused() -> None:
    status, out = replay(record([{"end": True}, turn("Ana", "U", (1, 0))]), refusal_words)
    assert status == 1 and out["error"]["message"] == "the game is over"
    assert out["finished"] is True and out["next"] is None


def test_expect_and_comment_are_ignored() -> None:
    status, _ = replay({**record([]), "expect": {"x": 1}, "comment": "hello"})
    assert status == 0


def test_bad_json_text() -> None:
    status, out = replay_text("{not json")
    assert status == 2 and out["error"]["index"] is None
    assert out["error"]["message"].startswith("not valid JSON")


def test_write_then_parse_gives_the_same_game() -> None:
    setup = Setup(("Ana", "Ben"), frozenset({"abbot", "tunnel"}), "c1", 2, 42, None)
    game = Game(setup)
    game.apply(turn("Ana", "U", (1, 0), figure="follower", on="E"))
    data = write_record(game)
    assert data["rules"] == {"wagon": "c1", "tunnel_pairs": 2}
    assert data["expansions"] == ["abbot", "tunnel"] and data["seed"] == 42
    again = parse_record(json.loads(json.dumps(data)))
    assert again.setup == setup and again.actions == game.history


def run_cli(*args: str) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run([sys.executable, "-m", "carca_bot", *args], capture_output=True,
                          text=True, cwd=ROOT, check=False, timeout=60)
    return proc.returncode, json.loads(proc.stdout)


def test_cli_exit_statuses(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record([turn("Ana", "U", (1, 0))])))
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(record([turn("Ana", "U", (0, -1))])))
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2")
    assert run_cli("replay", str(good))[0] == 0
    status, out = run_cli("replay", str(illegal))
    assert status == 1 and out["error"]["index"] == 0
    assert run_cli("replay", str(broken)) == (2, {"format": "carca-result/1", "error": {
        "index": None, "message": out_message(broken)}})
    status, out = run_cli("replay", str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in out["error"]["message"]


def out_message(path: Path) -> str:
    message: str = replay_text(path.read_text())[1]["error"]["message"]
    return message


def test_records_are_played_through_push_and_by_must_be_the_player_to_decide() -> None:
    """`play_action` plays a record's action with `Game.push` (which acts for whoever
    decides): a `by` who is not that player gets the refusal the rules give, at the
    same index: `not_your_turn`, or the phase's refusal first, as one step at a time."""
    from carca_bot.engine.errors import IllegalMove
    from carca_bot.engine.record import play_action

    game = Game(Setup(("Ana", "Ben")))
    before = len(game.history)
    for action, code in (
            (turn("Ben", "U", (1, 0)), "not_your_turn"),  # the phase fits, the player not
            ({"by": "Ben", "wagon": "return"}, "wrong_phase"),  # the phase is checked first
            ({"by": "Ben", "abbey": "skip"}, "skip_not_now"),
            (turn("Zed", "U", (1, 0)), "not_a_player"),
            (turn("Ana", "U", (1, 0), figure="follower", on="E", recall=True),
             "deploy_and_recall")):
        try:
            play_action(game, action)
        except IllegalMove as exc:
            assert exc.code == code, (action, exc)
        else:
            raise AssertionError(f"{action} was accepted")
        assert len(game.history) == before and not game.frames  # all or nothing
    status, out = replay(record([turn("Ana", "U", (1, 0)), turn("Ana", "V", (2, 0))]),
                         refusal_words)
    assert status == 1 and out["error"] == {
        "index": 1, "message": "it is not Ana's turn: waiting for Ben to place a tile"}


def test_the_replay_message_is_english_whatever_language_is_spoken() -> None:
    """`error.message` is a machine contract: the CLI's words are English even when the
    terminal speaks Spanish (guards the merge with the translated refusals)."""
    from carca_bot.i18n import speaking

    data = record([turn("Ben", "U", (1, 0))])
    with speaking("es"):
        _, out = replay(data, refusal_words)
    assert out["error"]["message"] == "it is not Ben's turn: waiting for Ana to place a tile"
