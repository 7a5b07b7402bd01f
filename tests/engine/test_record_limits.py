"""The bounds of `limits` as a record meets them: each one a clear refusal (exit 2).

Also: every bound is far above what a real game needs (checked against the
catalogue and against full random games), actions carry only the parts their
decision can have, and a public export of a running game hides the seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carca_bot.engine.catalogue import EXPANSIONS, catalogue
from carca_bot.engine.errors import RecordError
from carca_bot.engine.game import Game
from carca_bot.engine.limits import (
    MAX_CONTAINERS,
    MAX_COORD,
    MAX_DEPTH,
    MAX_NAME_CHARS,
    MAX_RECORD_BYTES,
    MAX_SEED,
    MAX_TUNNEL_PAIRS,
    max_actions,
    name_key,
    name_problem,
    safe_name,
)
from carca_bot.engine.randomplay import random_game
from carca_bot.engine.record import check_action, parse_record, replay, replay_text, write_record
from carca_bot.engine.setup import Setup
from tests.engine.records import record, turn


def malformed(data: Any, index: int | None = None) -> str:
    status, out = replay(data)
    assert status == 2, out
    assert out == {"format": "carca-result/1", "error": {"index": index,
                                                         "message": out["error"]["message"]}}
    return str(out["error"]["message"])


def malformed_text(text: str) -> str:
    status, out = replay_text(text)
    assert status == 2, out
    assert set(out) == {"format", "error"} and out["error"]["index"] is None
    return str(out["error"]["message"])


# -- the bounds leave room for any real game ------------------------------------------------


def full_games() -> list[Game]:
    names = tuple("Ä" * (MAX_NAME_CHARS - 1) + str(i) for i in range(6))
    return [random_game(Setup(names, frozenset(EXPANSIONS), seed=s), random.Random(s))
            for s in range(3)]


def test_a_full_six_player_game_is_far_inside_every_bound() -> None:
    for game in full_games():
        data = write_record(game)
        assert len(json.dumps(data, ensure_ascii=False).encode()) * 40 < MAX_RECORD_BYTES
        bloated = json.dumps(data, indent=8)
        assert len(bloated.encode()) * 10 < MAX_RECORD_BYTES
        assert (bloated.count("[") + bloated.count("{")) * 10 < MAX_CONTAINERS
        assert len(game.history) * 5 < max_actions(6, frozenset(EXPANSIONS))
        squares = [a.get("at") or a.get("abbey") for a in game.history]
        assert all(abs(c) * 5 < MAX_COORD for s in squares if isinstance(s, list) for c in s)
        assert replay_text(json.dumps(data, indent=8))[0] == 0


def test_the_whole_supply_cannot_reach_the_coordinate_bound() -> None:
    every_tile = sum(t.count for t in catalogue(tunnel=True).tiles.values())
    abbeys = 6  # one per player, and they only fill holes anyway
    assert every_tile + abbeys < MAX_COORD


def test_more_tunnel_pairs_than_the_bound_could_never_be_placed() -> None:
    entrances = sum(t.count * sum(1 for s in t.shapes[0].segments if s.tunnel)
                    for t in catalogue(tunnel=True).tiles.values())
    assert entrances // 2 <= MAX_TUNNEL_PAIRS


def test_action_bound_follows_the_supply() -> None:
    assert max_actions(2, frozenset()) == 71 + 1  # 72 base tiles less the start, one end
    assert max_actions(6, frozenset({"abbey_mayor"})) > max_actions(2, frozenset({"abbey_mayor"}))


def test_a_record_at_the_action_bound_fits_the_container_bound() -> None:
    most = max_actions(6, frozenset(EXPANSIONS))
    per_action = 5  # the action, its square, a deploy, a token and the token's square
    assert most * per_action + 100 < MAX_CONTAINERS


# -- the record's setup ------------------------------------------------------------------------


@pytest.mark.parametrize(("change", "words"), [
    ({"rules": {"tunnel_pairs": 10**8}}, "tunnel_pairs must be a whole number from 0 to 10"),
    ({"rules": {"tunnel_pairs": MAX_TUNNEL_PAIRS + 1}}, "tunnel_pairs"),
    ({"rules": {"tunnel_pairs": -1}}, "tunnel_pairs"),
    ({"rules": {"wagon": ["c2"] * 1000}}, "unknown wagon rule a value of type list"),
    ({"seed": -1}, "seed must be a whole number from 0 to 2**63 - 1"),
    ({"seed": MAX_SEED + 1}, "seed"),
    ({"seed": 2.5}, "seed"),
    ({"players": [f"p{i}" for i in range(10**5)]}, "players must be a list of 1 to 6 names"),
    ({"players": ["a" * 10**5, "Ben"]}, "the name of player 1 is longer than 32 characters"),
    ({"players": ["Ana", "e" + "\u0301" * 40]}, "the name of player 2 must have 1 to 32"),
    ({"players": ["\ud800", "Ben"]}, "player 1 contains a lone surrogate"),
    ({"players": ["Ana", "\u202eneB"]}, "player 2 contains the invisible character U+202E"),
    ({"players": ["A\u200bna", "Ben"]}, "invisible character U+200B"),
    ({"players": ["Ana\n", "Ben"]}, "control character U+000A"),
    ({"players": [" Ana", "Ben"]}, "starts or ends with a space"),
    ({"players": ["Ana", "ana"]}, "differ, even in case or Unicode form"),
    ({"players": ["Zoë", "Zoe\u0308"]}, "differ, even in case or Unicode form"),
    ({"expansions": ["river", "river"]}, "an expansion is listed twice"),
    ({"expansions": ["x" * 10**5]}, "unknown expansion 'xxxx"),
    ({"start": {"tile": "D", "rot": 0, "side": 1}}, "unknown key 'side' in start"),
    ({"a" * 10**5: 1}, "unknown key 'aaaa"),
])
def test_setup_out_of_bounds_is_malformed(change: dict[str, Any], words: str) -> None:
    message = malformed({**record([]), **change})
    assert words in message
    assert len(message) < 200


@pytest.mark.parametrize("name", [
    "Ana", "Zoë", "名前", "👩‍🔬 Lab", "👨‍👩‍👧", "a" * MAX_NAME_CHARS, "e" + "\u0301" * 2, "O'Brien",
])
def test_ordinary_names_are_accepted(name: str) -> None:
    assert name_problem(name) is None
    assert replay(record([], players=(name, "Ben")))[0] == 0


def test_joiner_outside_an_emoji_is_refused() -> None:
    assert name_problem("A\u200dB") is not None
    assert name_problem("\u200d👩") is not None


def test_too_many_actions_for_the_supply() -> None:
    limit = max_actions(2, frozenset())
    message = malformed(record([{"end": True}] * (limit + 1)))
    assert f"at most {limit} actions" in message
    assert replay(record([{"end": True}] * 3))[0] == 1  # within the bound: a rule break


# -- the text ------------------------------------------------------------------------------------


def test_record_size_is_bounded_in_bytes() -> None:
    text = json.dumps({**record([]), "comment": "€" * (MAX_RECORD_BYTES // 3 + 10)},
                      ensure_ascii=False)
    assert len(text) < MAX_RECORD_BYTES < len(text.encode())
    assert f"larger than {MAX_RECORD_BYTES:,} bytes" in malformed_text(text)


def test_nesting_is_bounded() -> None:
    ok = {**record([]), "comment": json.loads("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))}
    assert replay_text(json.dumps(ok))[0] == 0
    deep = {**record([]), "comment": json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)}
    assert "nests deeper than 16 levels" in malformed_text(json.dumps(deep))
    # brackets inside strings do not count
    assert replay_text(json.dumps({**record([]), "comment": "[{" * 2_000}))[0] == 0
    assert replay_text(json.dumps({**record([]), "comment": '\\"[' * 100}))[0] == 0


def test_escaped_quotes_and_backslashes_do_not_fool_the_depth_count() -> None:
    tricky = ['\\', '\\"', '"', '\\\\"[[', '[\\"', '\\\\', '"]]]]"']
    for comment in tricky:
        text = json.dumps({**record([]), "comment": [comment, [[comment]], comment]})
        assert replay_text(text)[0] == 0, comment
        assert replay_text(json.dumps({**record([]), "comment": [comment] * 1000}))[0] == 0
    deep = json.loads("[" * MAX_DEPTH + json.dumps(tricky) + "]" * MAX_DEPTH)
    assert "nests deeper" in malformed_text(json.dumps({**record([]), "comment": deep}))


def test_the_number_of_lists_and_objects_is_bounded() -> None:
    text = json.dumps({**record([]), "comment": [[]] * MAX_CONTAINERS})
    assert f"more than {MAX_CONTAINERS:,} lists and objects" in malformed_text(text)


@pytest.mark.parametrize(("text", "words"), [
    ("[" * 100_000, "lists and objects"),
    ("[" * (MAX_DEPTH + 1), "nests deeper"),
    ("[1, " * (MAX_DEPTH + 1), "nests deeper"),
    ('{"a":' * 100_000 + "1" + "}" * 100_000, "lists and objects"),
    ('{"a":' * 50 + "1" + "}" * 50, "nests deeper"),
    ('{"format": "carca-record/1", "seed": ' + "9" * 5000 + "}", "more than 20 digits"),
    ('{"format": "carca-record/1", "seed": -' + "9" * 21 + "}", "more than 20 digits"),
    ('{"format": "carca-record/1", "seed": 1e' + "9" * 50 + "}", "longer than 40"),
    ('{"format": "carca-record/1", "seed": NaN}', "NaN is not a JSON value"),
    ('{"format": "carca-record/1", "format": "carca-record/1"}', "'format' appears twice"),
    ("[1, 2", "not valid JSON"),
])
def test_hostile_text_is_malformed(text: str, words: str) -> None:
    assert words in malformed_text(text)


def test_unbalanced_but_shallow_text_is_plain_bad_json() -> None:
    assert malformed_text("[[[").startswith("not valid JSON")
    assert malformed_text("]]]]]]]]]]]]]]]]]]]]]]]]]]]]").startswith("not valid JSON")


# -- one action ------------------------------------------------------------------------------------


DEPLOY = {"figure": "follower", "on": "C"}
TOKEN = {"at": [1, 0], "on": "W", "pair": 0}


@pytest.mark.parametrize(("action", "words"), [
    ({"by": "Ana", "abbey": "skip", "deploy": DEPLOY}, "a skipped abbey carries nothing else"),
    ({"by": "Ana", "abbey": "skip", "recall": True}, "carries nothing else, but this one has "
                                                     "'recall'"),
    ({"by": "Ana", "abbey": "skip", "recall": False}, "carries nothing else"),
    ({"by": "Ana", "abbey": "skip", "token": TOKEN}, "carries nothing else"),
    ({"by": "Ana", "abbey": "skip", "token_first": False}, "carries nothing else"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, "token_first": "yes"},
     "token_first must be true or false"),
    ({"by": "Ana", "wagon": "return", "deploy": DEPLOY}, "'deploy' does not belong to a wagon"),
    ({"by": "Ana", "wagon": {"at": [0, 0], "on": "N", "figure": "wagon"}},
     "unknown key 'figure' in wagon"),
    ({"by": "Ana", "wagon": "stay"}, "wagon must be an object"),
    ({"end": True, "by": "Ana"}, "key 'by' does not belong to an end action"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "deploy": {"figure": "follower", "on": "E", "colour": "red"}},
     "unknown key 'colour' in deploy"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "token": {"at": [1, 0], "on": "W", "pair": 0, "x": 1}}, "unknown key 'x' in token"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "token": {"at": [1, 0], "on": "W", "pair": 10}}, "token pair must be 0 to 9"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "token": {"at": [1, 0], "on": "W", "pair": -1}}, "token pair must be 0 to 9"),
    ({"by": "Ana", "tile": "U", "at": [MAX_COORD + 1, 0], "rot": 0}, "at is off any board"),
    ({"by": "Ana", "tile": "U", "at": [0, -(10**18)], "rot": 0}, "off any board"),
    ({"by": "Ana", "abbey": [10**6, 0]}, "abbey is off any board"),
    ({"by": "Ana", "wagon": {"at": [0, 10**9], "on": "N"}}, "wagon at is off any board"),
    ({"by": "Ana", "tile": "\ud800", "at": [1, 0], "rot": 0}, "unknown tile id '\\ud800'"),
    ({"by": "Ana", "discard": "U" * 10**5}, "unknown tile id 'UUUU"),
    ({"by": "\ud800", "tile": "U", "at": [1, 0], "rot": 0}, "by contains a lone surrogate"),
    ({"by": "A" * 10**5, "tile": "U", "at": [1, 0], "rot": 0}, "by is longer than 32"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "deploy": {"figure": "follower", "on": "E\u202e"}}, "deploy on contains the invisible"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "deploy": {"figure": "follower", "on": "N" * 9}}, "deploy on is longer than 8"),
    ({"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0,
      "deploy": {"figure": "f" * 10**5, "on": "E"}}, "unknown figure 'ffff"),
])
def test_malformed_action_parts(action: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as caught:
        check_action(action, 3)
    assert caught.value.index == 3
    assert words in str(caught.value)
    assert len(str(caught.value)) < 200
    message = malformed(record([turn("Ana", "U", (1, 0)), action]), index=1)
    assert words in message


@pytest.mark.parametrize("action", [
    {"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, "recall": False, "token_first": False},
    {"by": "Ana", "tile": "U", "at": [1, 0], "rot": 0, "token_first": True,
     "deploy": {"figure": "follower", "on": "E"}, "token": TOKEN},
    {"by": "Ana", "abbey": "skip"},
    {"by": "Ana", "wagon": "return"},
    {"by": "Zed", "tile": "U", "at": [MAX_COORD, -MAX_COORD], "rot": 270},
    {"by": "", "discard": "U"},
    {"end": True},
])
def test_well_formed_actions_pass(action: dict[str, Any]) -> None:
    assert check_action(action) is action


def test_an_unknown_or_empty_by_stays_a_rule_break() -> None:
    for by in ("Zed", "", "Ana "):
        status, out = replay(record([turn(by, "U", (1, 0))]))
        assert status == 1 and out["error"]["index"] == 0


def test_each_stored_action_of_a_full_game_passes_the_strict_check() -> None:
    for game in full_games():
        for action in game.history:
            check_action(json.loads(json.dumps(action)))


# -- hidden information on export -------------------------------------------------------------


def test_public_export_of_a_running_game_has_no_seed() -> None:
    game = Game(Setup(("Ana", "Ben"), seed=1234))
    game.apply(turn("Ana", "U", (1, 0)))
    public = write_record(game, public=True)
    assert "seed" not in public
    assert "1234" not in json.dumps(public)
    assert write_record(game)["seed"] == 1234  # the server's own copy keeps it
    assert replay(public)[1] == replay(write_record(game))[1]  # and replays the same


def test_public_export_of_a_finished_game_keeps_the_seed() -> None:
    game = random_game(Setup(("Ana", "Ben"), seed=77), random.Random(77))
    assert write_record(game, public=True)["seed"] == 77


def test_parse_keeps_every_bound_value() -> None:
    data = {**record([]), "seed": MAX_SEED, "expansions": ["tunnel"],
            "rules": {"tunnel_pairs": MAX_TUNNEL_PAIRS}}
    assert parse_record(data).setup.seed == MAX_SEED
    status, out = replay(data)
    assert status == 0 and out["supply"]["Ana"]["tokens"] == 2 * MAX_TUNNEL_PAIRS


# -- names the bot does not choose ----------------------------------------------------------------


@pytest.mark.parametrize(("wanted", "taken", "name"), [
    ("Ana", [], "Ana"),
    ("  Ana \n  Maria ", [], "Ana Maria"),
    ("\u202eAna\u200b", [], "Ana"),
    ("\u202e\u200b\x00", [], "Player"),
    ("a" * 40, [], "a" * MAX_NAME_CHARS),
    ("Ana", ["ana"], "Ana 2"),
    ("Ana", ["Ana", "Ana 2"], "Ana 3"),
    ("b" * 40, ["b" * MAX_NAME_CHARS], "b" * (MAX_NAME_CHARS - 2) + " 2"),
    ("👨\u200d👩\u200d👧", [], "👨\u200d👩\u200d👧"),
    ("Zoe\u0308", ["Zoë"], "Zoë 2"),
    ("x\ud800y", [], "xy"),
])
def test_safe_name(wanted: str, taken: list[str], name: str) -> None:
    assert safe_name(wanted, taken) == name


ODD = st.text(st.one_of(st.characters(), st.sampled_from(
    ["\ud800", "\udfff", "\u200d", "\u202e", "\u200b", "😀", "👩", "\u0301", "\ufe0f", " ", "\n",
     "A", "a", "\uff21", "\U0001f3fb"])), max_size=60)


@settings(max_examples=500, deadline=None)
@given(ODD, st.lists(ODD, max_size=5))
def test_safe_name_always_gives_a_name_the_record_accepts(wanted: str, taken: list[str]) -> None:
    name = safe_name(wanted, taken)
    assert name_problem(name) is None
    assert name_key(name) not in {name_key(t) for t in taken}


def test_keys_that_are_not_text_are_named_by_type() -> None:
    """Only the Python API can pass such keys; they must not break the message."""
    message = malformed({**record([]), 10**5000: 1, (1, 2): 3})
    assert message in ("unknown key a value of type tuple", "unknown key a value of type int")
