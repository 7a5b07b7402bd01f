"""The operator's commands for data requests made outside Discord: `carca-bot
export-user`, `erase-user` and `forget-guild`."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest

from carca_bot.cli import _plan_lines, main
from carca_bot.service import ErasePlan, GameService, GameStep, Where
from carca_bot.service.privacy import STEP_ACTIONS
from tests.privacy.world import G2, ZOE, finished_world, occurrences, snapshot
from tests.service.helpers import Clock


def made(path: Path) -> None:
    async def build() -> None:
        clock = Clock()
        service = await GameService.open(path, clock=clock)
        try:
            await finished_world(service, clock)
        finally:
            await service.close()

    asyncio.run(build())


def looked(path: Path, *needles: str) -> list[str]:
    async def look() -> list[str]:
        service = await GameService.open(path)
        try:
            return await occurrences(service, *needles)
        finally:
            await service.close()

    return asyncio.run(look())


def exported(path: Path) -> dict[str, object]:
    async def export() -> dict[str, object]:
        service = await GameService.open(path)
        try:
            return await service.privacy_export(ZOE.id)
        finally:
            await service.close()

    return asyncio.run(export())


def test_export_then_erase_a_user(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "carca.sqlite3"
    made(db)
    out = tmp_path / "zoe.json"
    assert main(["export-user", ZOE.id, "--db", str(db), "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    expected = exported(db)
    assert {k: v for k, v in data.items() if k != "made_at"} == {
        k: v for k, v in expected.items() if k != "made_at"}
    assert "rows about 100000000000000071" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # not a terminal: --yes needed
    assert main(["erase-user", ZOE.id, "--db", str(db)]) == 1
    said = capsys.readouterr()
    assert "deletes their imported game" in said.out and "nothing was erased" in said.out
    assert looked(db, ZOE.id)
    assert main(["erase-user", ZOE.id, "--db", str(db), "--yes"]) == 0
    said = capsys.readouterr()
    assert "erased: now Former player 1 (former:1)" in said.out
    assert "delete in Discord: message 778 in channel dm-zoe-777" in said.out
    assert looked(db, ZOE.id, ZOE.name) == []
    assert main(["erase-user", ZOE.id, "--db", str(db), "--yes"]) == 1
    assert "nothing is stored about this user" in capsys.readouterr().out


def test_forget_a_server_now(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "carca.sqlite3"
    made(db)
    assert main(["forget-guild", G2, "--db", str(db), "--yes"]) == 0
    assert capsys.readouterr().out.startswith(f"server {G2}: deleted ")

    async def games() -> list[str]:
        service = await GameService.open(db)
        try:
            return [r["guild_id"] for r in (await snapshot(service))["games"].values()]
        finally:
            await service.close()

    assert G2 not in asyncio.run(games())
    assert main(["forget-guild", G2, "--db", str(db), "--yes"]) == 0
    assert "nothing (nothing was stored)" in capsys.readouterr().out


def test_no_database_no_new_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    for command in (["export-user", ZOE.id], ["erase-user", ZOE.id, "--yes"],
                    ["forget-guild", G2, "--yes"]):
        assert main([*command, "--db", str(missing)]) == 2
        assert "there is no database" in capsys.readouterr().err
    assert not missing.exists()


def test_a_bad_user_id_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "carca.sqlite3"
    made(db)
    assert main(["erase-user", "former:1", "--db", str(db), "--yes"]) == 2
    assert "bad_user_id" in capsys.readouterr().err


def test_the_operators_plan_words_every_kind_of_step() -> None:
    """`carca-bot erase-user` prints the plan before asking: each kind of step has a line
    (a lobby the user opened without a seat is "cancel")."""
    steps = tuple(GameStep(n, Where("1", "2"), action) for n, action in enumerate(STEP_ACTIONS))
    lines = _plan_lines(ErasePlan(ZOE.id, steps, (), 9, "token"))
    assert [line.split(" ")[-5] for line in lines[:-1]] == [str(n) for n in range(len(steps))]
    assert "closes the lobby they opened 1" in lines[1]
    assert lines[-1] == "  deletes or rewrites 9 stored rows"
