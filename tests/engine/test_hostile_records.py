"""Hostile records are refused fast, through the Python API and the real command line.

And a fuzz: whatever a record is mutated into, `replay_text` answers with exit
status 0, 1 or 2 and a well-formed result object, within a time bound, and the
answer can always be printed as UTF-8.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carca_bot.cli import refusal_words
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.errors import RecordError
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.record import (
    load_record_bytes,
    replay,
    replay_file,
    replay_text,
    write_record,
)
from carca_bot.engine.setup import Setup

ROOT = Path(__file__).resolve().parents[2]
FAST = 0.5  # seconds: "well under a second", with room for a slow CI machine
RESULT_KEYS = {"format", "finished", "scores", "king", "robber", "supply", "next", "error"}
BASE: dict[str, Any] = {"format": "carca-record/1", "players": ["Ana", "Ben"],
                        "expansions": ["tunnel"], "actions": []}


def with_(**change: Any) -> dict[str, Any]:
    return {**BASE, **change}


def tile_turn(**change: Any) -> dict[str, Any]:
    return {"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, **change}


# Each builds its record lazily: building a 50 MB text is not what is timed.
HOSTILE: dict[str, Callable[[], str]] = {
    "tunnel pairs 10**8": lambda: json.dumps(with_(rules={"tunnel_pairs": 10**8})),
    "a 50 MB string": lambda: json.dumps(with_(comment="x" * 50_000_000)),
    "depth 100000 of lists": lambda: "[" * 100_000 + "]" * 100_000,
    "depth 100000 of objects": lambda: '{"a":' * 100_000 + "0" + "}" * 100_000,
    "a 10**6-digit integer": lambda: json.dumps(with_(seed=0)).replace('"seed": 0',
                                                                       '"seed": ' + "7" * 10**6),
    "a million actions": lambda: json.dumps(with_(actions=[{"end": True}] * 10**6)),
    "10**5 players": lambda: json.dumps(with_(players=[f"p{i}" for i in range(10**5)])),
    "a name of 10**5 characters": lambda: json.dumps(with_(players=["n" * 10**5, "Ben"])),
    "a lone surrogate in a name": lambda: json.dumps(with_(players=["Ana\ud800", "Ben"])),
    "a lone surrogate in a tile id": lambda: json.dumps(with_(actions=[tile_turn(tile="\udfff")])),
    "a lone surrogate in a by": lambda: json.dumps(with_(actions=[tile_turn(by="\ud800")])),
    "a huge square": lambda: json.dumps(with_(actions=[tile_turn(at=[10**18, -(10**18)])])),
    "a huge token pair": lambda: json.dumps(with_(actions=[tile_turn(
        token={"at": [1, 0], "on": "W", "pair": 10**15})])),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_record_is_refused_fast(name: str) -> None:
    text = HOSTILE[name]()
    started = time.perf_counter()
    status, out = replay_text(text)
    took = time.perf_counter() - started
    assert status == 2, out
    assert set(out) == {"format", "error"} and out["format"] == "carca-result/1"
    assert isinstance(out["error"]["message"], str) and len(out["error"]["message"]) < 200
    json.dumps(out, ensure_ascii=False).encode("utf-8")  # printable
    assert took < FAST, f"{name}: {took:.3f} s"


@pytest.mark.parametrize("name", ["tunnel pairs 10**8", "a million actions", "10**5 players",
                                  "a name of 10**5 characters", "a huge square"])
def test_hostile_decoded_record_is_refused_fast(name: str) -> None:
    data = json.loads(HOSTILE[name]())
    started = time.perf_counter()
    status, out = replay(data)
    assert status == 2 and set(out) == {"format", "error"}
    assert time.perf_counter() - started < FAST


def run_cli(path: Path) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run([sys.executable, "-m", "carca_bot", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return proc.returncode, json.loads(proc.stdout), proc.stderr


@pytest.mark.parametrize("name", ["tunnel pairs 10**8", "depth 100000 of lists",
                                  "a 10**6-digit integer", "a lone surrogate in a name",
                                  "a lone surrogate in a tile id", "a 50 MB string"])
def test_cli_refuses_hostile_records_with_exit_2(name: str, tmp_path: Path) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(HOSTILE[name](), encoding="utf-8")
    status, out, stderr = run_cli(path)
    assert (status, stderr) == (2, "")
    assert set(out) == {"format", "error"}
    assert out["error"]["index"] == (0 if "tile id" in name else None)


def test_cli_refuses_a_bad_action_naming_its_index(tmp_path: Path) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(with_(actions=[tile_turn(), {"by": "Ben", "abbey": "skip",
                                                            "recall": True}])))
    status, out, _ = run_cli(path)
    assert status == 2 and out["error"]["index"] == 1
    assert "a skipped abbey carries nothing else" in out["error"]["message"]


def test_replay_file_answers_as_the_cli_does(tmp_path: Path) -> None:
    """`replay_file` (with the CLI's English words) is what the CLI calls: same answers,
    bounded reading."""
    files = {"good": json.dumps(with_(actions=[tile_turn()])),
             "illegal": json.dumps(with_(actions=[tile_turn(at=[5, 5])])),
             "deep": HOSTILE["depth 100000 of lists"](), "broken": "[1, 2"}
    for name, text in files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        status, out, _ = run_cli(path)
        assert replay_file(path, refusal_words) == (status, out), name
    (tmp_path / "latin1.json").write_bytes(b'{"players": ["Jos\xe9"]}')
    for name, words in (("latin1.json", "is not UTF-8 text (byte 0xe9 at offset 17)"),
                        ("missing.json", "cannot read")):
        status, out = replay_file(tmp_path / name)
        assert status == 2 and words in out["error"]["message"]
        assert (status, out) == run_cli(tmp_path / name)[:2]


def test_replay_file_does_not_read_a_huge_file(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as file:
        file.truncate(20 * 10**9)  # sparse: costs no disk, but reading it all would not end
    started = time.perf_counter()
    status, out = replay_file(huge)
    assert status == 2 and "larger than" in out["error"]["message"]
    assert time.perf_counter() - started < FAST


# -- the fuzz ------------------------------------------------------------------------------------


def _sample_records() -> list[dict[str, Any]]:
    """A few real records, mid-game, with every expansion, to mutate."""
    samples = []
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(Setup(("Ana", "Ben", "Cy"), frozenset(EXPANSIONS), seed=seed))
        for _ in range(25 + 10 * seed):
            if game.finished:
                break
            play_random_turn(game, rng)
        samples.append(write_record(game))
    return samples


SAMPLES = _sample_records()

ODD_TEXT = st.sampled_from(["\ud800", "\udfff", "\u202e", "\u200b", "\x00", "\n", "‮Ana",
                            "Ana", "ana", "A" * 40, "RV-spring", "D", "U", "C", "NW", "I1",
                            "follower", "abbot", "barn", "wagon", "return", "skip", "😀", ""])
LEAF = st.one_of(st.none(), st.booleans(),
                 st.integers(min_value=-(2**70), max_value=2**70),
                 st.sampled_from([0, 1, 90, 270, -1, 2**63, 2**63 - 1, 10**20]),
                 st.floats(allow_nan=False), ODD_TEXT, st.text(max_size=12))

def _nested(depth: int) -> Any:
    value: Any = 0
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


DEEP = st.integers(1, 40).map(_nested)  # around the depth bound, on either side
JSON = st.recursive(st.one_of(LEAF, DEEP), lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(ODD_TEXT, st.sampled_from(
        ["by", "tile", "at", "rot", "deploy", "recall", "token", "token_first", "abbey",
         "discard", "wagon", "end", "figure", "on", "pair", "players", "rules", "seed"])),
        inner, max_size=4)), max_leaves=12)


PLAUSIBLE = st.one_of(st.sampled_from([[0, 1], [1, 0], [-1, 0], [0, -1], [1, 1], [2, 0]]),
                      st.sampled_from([0, 90, 180, 270, True, False, "skip", "return"]),
                      st.sampled_from(["N", "E", "S", "W", "C", "G", "NL", "SR", "NE", "I1"]),
                      st.sampled_from(["Ana", "Ben", "Cy", "D", "U", "V", "E", "AM5", "TU1"]),
                      st.builds(dict, figure=st.sampled_from(["follower", "abbot", "mayor",
                                                              "wagon", "barn"]),
                                on=st.sampled_from(["N", "E", "C", "G", "NW", "SL"])))


def _mutate(data: Any, draw: Callable[..., Any]) -> Any:
    """Replace, drop, add or repeat one thing somewhere inside `data`."""
    if isinstance(data, dict) and data:
        key = ("actions" if "actions" in data and draw(st.integers(0, 3))
               else draw(st.sampled_from(sorted(data))))
        how = draw(st.sampled_from(["into", "into", "into", "plausible", "replace", "drop",
                                    "add"]))
        copy = dict(data)
        if how == "into":
            copy[key] = _mutate(copy[key], draw)
        elif how in ("plausible", "replace"):
            copy[key] = draw(PLAUSIBLE if how == "plausible" else JSON)
        elif how == "drop":
            del copy[key]
        else:
            copy[draw(st.one_of(ODD_TEXT, st.text(max_size=8)))] = draw(JSON)
        return copy
    if isinstance(data, list) and data:
        i = draw(st.integers(0, len(data) - 1))
        items = list(data)
        how = draw(st.sampled_from(["into", "into", "into", "plausible", "replace", "drop",
                                    "insert", "repeat", "cut"]))
        if how == "into":
            items[i] = _mutate(items[i], draw)
        elif how in ("plausible", "replace"):
            items[i] = draw(PLAUSIBLE if how == "plausible" else JSON)
        elif how == "drop":
            del items[i]
        elif how == "insert":
            items.insert(i, draw(JSON))
        elif how == "repeat":
            items[i:i] = [items[i]] * draw(st.integers(1, 3000))
        else:
            del items[i:]
        return items
    return draw(st.one_of(PLAUSIBLE, JSON))


SNIPPETS = ["[" * 5000, "{\"a\":" * 5000, "9" * 5000, "-" + "1" * 30, "1e99999", "NaN",
            "\"\\ud800\"", "\"\\u202e\"", "\"", "\\", ",", "]", "}", "\"x\": 1,", "\ud800"]


def _check(text: str) -> None:
    started = time.perf_counter()
    status, out = replay_text(text)
    took = time.perf_counter() - started
    assert status in (0, 1, 2)
    assert out["format"] == "carca-result/1"
    if status == 2:
        assert set(out) == {"format", "error"}
    else:
        assert set(out) == RESULT_KEYS
        assert (out["error"] is None) == (status == 0)
    if out["error"] is not None:
        index = out["error"]["index"]
        assert index is None or (isinstance(index, int) and index >= 0)
        assert isinstance(out["error"]["message"], str)
    json.dumps(out, ensure_ascii=False).encode("utf-8")  # what the CLI prints
    assert took < 2.0, f"replay took {took:.2f} s"


FUZZ = settings(max_examples=int(os.environ.get("CARCA_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.data())
def test_mutated_records_always_get_a_well_formed_answer(data: st.DataObject) -> None:
    record = data.draw(st.sampled_from(SAMPLES))
    for _ in range(data.draw(st.integers(1, 4))):
        record = _mutate(record, data.draw)
    _check(json.dumps(record, ensure_ascii=data.draw(st.booleans())))


@FUZZ
@given(st.data())
def test_spliced_text_always_gets_a_well_formed_answer(data: st.DataObject) -> None:
    text = json.dumps(data.draw(st.sampled_from(SAMPLES)))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 20))
        text = text[:at] + data.draw(st.sampled_from(SNIPPETS)) + text[at + cut:]
    _check(text)


PARTS: dict[str, st.SearchStrategy[Any]] = {
    "at": st.tuples(st.integers(-3, 3), st.integers(-3, 3)).map(list),
    "rot": st.sampled_from([0, 90, 180, 270]),
    "tile": st.sampled_from(["D", "U", "V", "B", "E", "RV-lake", "AM5", "KR3", "CU2", "TU1",
                             "TU4", "X"]),
    "deploy": st.builds(dict, figure=st.sampled_from(["follower", "abbot", "mayor", "wagon",
                                                      "barn"]),
                        on=st.sampled_from(["N", "E", "S", "W", "C", "G", "NL", "ER", "NW",
                                            "SE", "I1", "I2", "Q"])),
    "recall": st.booleans(),
    "token": st.builds(dict, at=st.tuples(st.integers(-2, 2), st.integers(-2, 2)).map(list),
                       on=st.sampled_from(["N", "E", "S", "W"]), pair=st.integers(0, 9)),
    "by": st.sampled_from(["Ana", "Ben", "Cy", "Zed"]),
    "abbey": st.one_of(st.just("skip"),
                       st.tuples(st.integers(-3, 3), st.integers(-3, 3)).map(list)),
    "wagon": st.one_of(st.just("return"), st.builds(
        dict, at=st.tuples(st.integers(-2, 2), st.integers(-2, 2)).map(list),
        on=st.sampled_from(["N", "E", "C", "NL"]))),
}


@FUZZ
@given(st.data())
def test_plausible_edits_get_a_well_formed_answer(data: st.DataObject) -> None:
    """Well-formed but unlikely actions: they reach deep into the rules (mostly exit 1)."""
    record = data.draw(st.sampled_from(SAMPLES))
    actions = [dict(a) for a in record["actions"]]
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(actions) - 1))
        key = data.draw(st.sampled_from(sorted(PARTS)))
        actions[i][key] = data.draw(PARTS[key])
    del actions[data.draw(st.integers(1, len(actions))):]
    _check(json.dumps({**record, "actions": actions}))


def test_uploaded_bytes_are_read_within_the_bounds() -> None:
    """What the bot's import needs: plain json.loads raises RecursionError on deep text."""
    for name in ("depth 100000 of lists", "depth 100000 of objects", "a 10**6-digit integer",
                 "a 50 MB string"):
        with pytest.raises(RecordError):
            load_record_bytes(HOSTILE[name]().encode())
    with pytest.raises(RecordError, match="not UTF-8 text"):
        load_record_bytes(b'{"players": ["Jos\xe9"]}')
    assert load_record_bytes(json.dumps(BASE).encode()) == BASE
