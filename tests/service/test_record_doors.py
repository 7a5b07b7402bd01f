"""Issue 26: one record reader for every door. `carca-bot replay` and the service's
import (`/carc import`) read a record with the same bounded reader, refuse the same
records for the same reasons, and the import says why in the player's language, never
in Python's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carca_bot.cli import main
from carca_bot.engine.errors import RecordError
from carca_bot.engine.record import load_record_bytes, parse_record
from carca_bot.i18n import speaking
from carca_bot.service import BadInput, GameService, NoGameHere
from carca_bot.words import say
from tests.service.helpers import ANA, HERE

DUPLICATE = (b'{"format": "carca-record/1", "players": ["A", "B"], '
             b'"actions": [{"by": "B", "by": "A", "tile": "U", "at": [1, 0], "rot": 0}]}')
# What each door must refuse, and the reader's code for it.
BROKEN: list[tuple[bytes, str]] = [
    (DUPLICATE, "record_duplicate_key"),
    (b'{"format": "carca-record/1", "players": ["A", "B"], "actions": []} x', "record_not_json"),
    (b'{"format": "carca-record/1", "players": ["A", "B"], "seed": NaN, "actions": []}',
     "record_not_json_value"),
    (b'{"format": "carca-record/1", "players": ["A", "B"], "seed": 1' + b"0" * 40
     + b', "actions": []}', "record_too_many_digits"),
    (b'{"format": "carca-record/1", "players": ["\xff"], "actions": []}', "record_not_utf8"),
    (b"[" * 40 + b"]" * 40, "record_too_deep"),
    (b"[1, 2]", "record_not_object"),
    (b'{"format": "carca-record/9", "players": ["A"], "actions": []}', "record_wrong_format"),
    (b'{"format": "carca-record/1", "players": ["A"], "expansions": ["dragons"], '
     b'"actions": []}', "record_unknown_expansion"),
]


def replay_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`carca-bot replay FILE`: its exit status and its error message."""
    status = main(["replay", str(path)])
    out = json.loads(capsys.readouterr().out)
    return status, str(out["error"]["message"])


def reader_refusal(raw: bytes) -> RecordError:
    with pytest.raises(RecordError) as refused:
        parse_record(load_record_bytes(raw))
    return refused.value


async def test_a_duplicate_key_is_refused_by_replay_and_by_import_alike(
        service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The done-when check: the bot used to accept this record (plain json.loads keeps
    the last `by`) while `replay` refused it."""
    path = tmp_path / "twice.json"
    path.write_bytes(DUPLICATE)
    status, message = replay_cli(path, capsys)
    assert (status, message) == (2, "the key 'by' appears twice in one object")
    with pytest.raises(BadInput) as refused:
        await service.import_record(HERE, ANA, DUPLICATE)
    assert refused.value.code == reader_refusal(DUPLICATE).code == "record_duplicate_key"
    with speaking("en"):
        assert say(refused.value) == "that record has the key 'by' twice in one object"
    with speaking("es"):
        spanish = say(refused.value)
    assert "'by'" in spanish and "twice" not in spanish
    with pytest.raises(NoGameHere):  # nothing was stored
        await service.status(HERE)


@pytest.mark.parametrize(("raw", "code"), BROKEN, ids=[c for _r, c in BROKEN])
async def test_every_door_refuses_the_same_records_for_the_same_reasons(
        service: GameService, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        raw: bytes, code: str) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(raw)
    status, message = replay_cli(path, capsys)
    refused_here = reader_refusal(raw)
    assert status == 2
    if code != "record_not_utf8":  # the command line names the file it could not read
        assert message == str(refused_here)
    with pytest.raises(BadInput) as refused:
        await service.import_record(HERE, ANA, raw)
    assert refused.value.code == code == refused_here.code
    for language in ("en", "es"):
        with speaking(language):
            words = say(refused.value)
        # The player's words, not Python's (json's "Expecting ..." and the like).
        assert not any(python in words for python in (
            "Expecting", "Extra data", "codec", "invalid start byte", "Traceback")), words
