"""Start-up problems and unreadable records, through the real command line in a
subprocess (`python -m carca_bot ...`): one clear line naming the path or the
variable, a non-zero exit, never a traceback."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from carca_bot.store import SCHEMA_VERSION, Store
from tests.deploy.context import ROOT


def cli(*args: str, env: dict[str, str] | None = None, code: str | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("CARCA_", "DISCORD_"))}
    base.update(PYTHONPATH=str(ROOT), **(env or {}))
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "carca_bot",
                                                             *args]
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=120,
                          env=base, cwd=cwd or ROOT, stdin=subprocess.DEVNULL)


def one_clear_line(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def made_by_a_newer_version(path: Path) -> None:
    async def make() -> None:
        await (await Store.open(path)).close()
    asyncio.run(make())
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()


# -- carca-bot run ---------------------------------------------------------------------


def test_run_with_carca_db_in_a_missing_folder(tmp_path: Path) -> None:
    """Before: sqlite3.OperationalError "unable to open database file", a traceback."""
    path = tmp_path / "no-such-folder" / "carca.sqlite3"
    proc = cli("run", env={"DISCORD_TOKEN": "x", "CARCA_DB": str(path)})
    one_clear_line(proc, "CARCA_DB", f"no folder {path.parent}")
    assert not path.parent.exists()


def test_run_with_carca_db_naming_a_folder(tmp_path: Path) -> None:
    proc = cli("run", env={"DISCORD_TOKEN": "x", "CARCA_DB": str(tmp_path)})
    one_clear_line(proc, "CARCA_DB", f"{tmp_path} is a folder")


def test_run_with_a_database_from_a_newer_version(tmp_path: Path) -> None:
    """Before: SchemaTooNew's traceback."""
    path = tmp_path / "carca.sqlite3"
    made_by_a_newer_version(path)
    proc = cli("run", env={"DISCORD_TOKEN": "x", "CARCA_DB": str(path)})
    one_clear_line(proc, "CARCA_DB", str(path), "newer version of carca-bot")
    db = sqlite3.connect(path)  # and it was left as it was
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    db.close()


def test_run_with_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "carca.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    proc = cli("run", env={"DISCORD_TOKEN": "x", "CARCA_DB": str(path)})
    one_clear_line(proc, "CARCA_DB", str(path), "not a carca-bot database")


@pytest.mark.parametrize(("variable", "value"), [
    ("CARCA_LOG_LEVEL", "LOUD"), ("CARCA_RENDER_THREADS", "two"), ("CARCA_RATE_LIMIT", "0"),
    ("CARCA_DEFAULT_TIMER", "5"), ("CARCA_TEST_GUILD", "my server"),
])
def test_run_with_a_bad_variable(tmp_path: Path, variable: str, value: str) -> None:
    proc = cli("run", env={"DISCORD_TOKEN": "x", "CARCA_DB": str(tmp_path / "c.sqlite3"),
                           variable: value})
    one_clear_line(proc, variable)


def test_run_when_discord_cannot_be_reached(tmp_path: Path) -> None:
    """Before: aiohttp's ClientConnectorError traceback, after a warning about voice."""
    code = ("import sys, discord.http\n"
            "discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'  # nothing listens\n"
            "from carca_bot.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    proc = cli("run", code=code, env={"DISCORD_TOKEN": "x",
                                      "CARCA_DB": str(tmp_path / "carca.sqlite3"),
                                      "CARCA_LOG_LEVEL": "WARNING"})
    line = one_clear_line(proc, "cannot reach Discord", "network")
    assert "voice" not in proc.stderr.lower(), proc.stderr
    assert line.startswith("carca-bot: ")


# -- carca-bot check and local ---------------------------------------------------------


def test_check_names_the_variable_it_read(tmp_path: Path) -> None:
    path = tmp_path / "typo.sqlite3"
    proc = cli("check", env={"CARCA_DB": str(path)})
    one_clear_line(proc, f"no database at {path}", "CARCA_DB")
    proc = cli("check", "--quick", cwd=tmp_path)
    one_clear_line(proc, "no database at carca.sqlite3", "set CARCA_DB or pass --db")
    assert not path.exists() and not (tmp_path / "carca.sqlite3").exists()


def test_local_with_a_database_from_a_newer_version(tmp_path: Path) -> None:
    path = tmp_path / "local.sqlite3"
    made_by_a_newer_version(path)
    proc = cli("local", "--db", str(path), "--out", str(tmp_path / "boards"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.strip() == (f"carca-bot local: --db: {path} was written by a newer "
                                   "version of carca-bot: run that version, or restore a "
                                   "backup this one made")


# -- carca-bot replay FILE ---------------------------------------------------------------


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2 and exactly the spec's object for an unreadable record."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr == "", proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == ["format", "error"] and out["format"] == "carca-result/1", out
    assert list(out["error"]) == ["index", "message"] and out["error"]["index"] is None
    message = str(out["error"]["message"])
    for word in words:
        assert word in message, message
    return message


def test_replay_of_what_is_not_a_readable_file(tmp_path: Path) -> None:
    refused(cli("replay", str(tmp_path / "missing.json")), "cannot read", "no such file")
    refused(cli("replay", str(tmp_path)), "is a folder")
    binary = tmp_path / "picture.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe" + bytes(range(256)))
    refused(cli("replay", str(binary)), "not UTF-8 text", "0x89 at offset 0")


def test_replay_of_a_1_gb_file_reads_only_the_first_mebibytes(tmp_path: Path) -> None:
    """Before: the whole gigabyte was read into memory, then decoded."""
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as handle:  # sparse: takes no room on the disk
        handle.truncate(1024**3)
    refused(cli("replay", str(huge)), "larger than 1,000,000 bytes")


@pytest.mark.parametrize(("name", "text"), [
    ("deep", "[" * 100_000),
    ("long-number", '{"format": "carca-record/1", "players": ["Ana"], "seed": '
     + "9" * 5000 + ', "actions": []}'),
])
def test_replay_of_hostile_json_is_exit_2(tmp_path: Path, name: str, text: str) -> None:
    """Before: RecursionError and ValueError (int digits) tracebacks, with exit 1."""
    path = tmp_path / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    refused(cli("replay", str(path)))


def test_replay_prints_a_lone_surrogate_it_echoes(tmp_path: Path) -> None:
    """Before: UnicodeEncodeError printing the result, a traceback and exit 1. Whether
    the engine takes the name (exit 0) or refuses it (exit 2) is its call; the result
    is always printed as JSON."""
    path = tmp_path / "surrogate.json"
    path.write_text('{"format": "carca-record/1", "players": ["\\ud800", "Ben"], '
                    '"actions": []}', encoding="utf-8")
    proc = cli("replay", str(path))
    assert proc.returncode in (0, 2) and "Traceback" not in proc.stderr, proc.stderr
    out = json.loads(proc.stdout)
    assert out["format"] == "carca-result/1"
