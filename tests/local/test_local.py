"""The terminal front end, driven through stdin and stdout."""

from __future__ import annotations

import argparse
import io
import json
import re
from pathlib import Path

import pytest

from carca_bot import cli
from carca_bot.engine.game import Game
from carca_bot.engine.record import replay
from carca_bot.local import add_arguments
from carca_bot.local.play import run
from tests.service.helpers import rig


def _args(tmp_path: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--db", str(tmp_path / "local.sqlite3"), *extra])


class Painter:
    """Stands in for the renderer: remembers which boards and drawn tiles it was asked
    for (the real renderer is tested in tests/render)."""

    def __init__(self) -> None:
        self.tiles: list[int] = []
        self.drawn: list[str] = []
        self.languages: set[str] = set()

    def __call__(self, game: Game, max_bytes: int | None = None,
                 language: str = "en") -> bytes:
        self.tiles.append(len(game.board.tiles))
        self.languages.add(language)
        return b"\x89PNG fake"

    def tile(self, game: Game, tile: str, max_bytes: int | None = None,
             language: str = "en") -> bytes:
        self.drawn.append(tile)
        self.languages.add(language)
        return b"\x89PNG tile"


async def _session(tmp_path: Path, script: str, *extra: str,
                   painter: Painter | None = None) -> tuple[int, str]:
    out = io.StringIO()
    status = await run(_args(tmp_path, *extra), painter, io.StringIO(script), out,
                       render_tile=painter.tile if painter is not None else None)
    return status, out.getvalue()


SCRIPT = """\
help
place 5 5 0
place 1 0 0 follower E
undo
status
follower E
confirm
moves
place -1 0 0
confirm
board
score
export {record}
quit
"""


async def test_a_scripted_hot_seat_game(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["U", "U", "V"])
    painter = Painter()
    record = tmp_path / "game.json"
    status, text = await _session(tmp_path, SCRIPT.format(record=record),
                                  "--players", "Ana,Ben", "--seed", "3", painter=painter)
    assert status == 0, text
    assert "new game 1 for" in text and "place X Y ROT [FIGURE ON]" in text
    assert "Seat order (drawn at random; the numbers are on each player's figures): " \
           "1 Ana, 2 Ben" in text
    # Squares as the board labels them, x,y (the words say them so; nothing rewrites them).
    assert "! U cannot go at 5,5 turned 0: the square 5,5 does not touch" in text
    assert "this turn so far: straight road at 1,0 turned 0" in text  # tiles in words
    assert "[" not in "".join(line for line in text.splitlines() if line.startswith("  *"))
    assert "Ben> straight road: place -1 0 0 | place -1 0 180 | place 0 1 0 | " in text
    assert "game 1 · 1 move · 70 tiles left · Ben's turn: place your tile" in text
    assert "Your tile: road curve. Turned each way" in text
    # The board, drawn as text: column numbers, the squares where the tile fits by their
    # coordinates, the road (without colour: this is not a terminal).
    assert "   0 |-1,0--+----1--|2,0|" in text
    assert "\x1b[" not in text
    assert "  Ana (1): follower on E at 1,0" in text  # the board command lists figures
    assert painter.tiles == [] and painter.drawn == []  # no picture unless asked
    assert not (tmp_path / "boards").exists()
    assert "game 1 is saved" in text
    saved = json.loads(record.read_text())
    assert [a["at"] for a in saved["actions"]] == [[1, 0], [-1, 0]]
    assert saved["actions"][0]["deploy"] == {"figure": "follower", "on": "E"}
    assert replay(saved)[0] == 0

    # Starting again resumes the same game, and says so; resigning asks first.
    status, text = await _session(tmp_path, "status\nresign\n\nresign\ny\n",
                                  "--players", "Ana,Ben")
    assert status == 0
    assert "resuming game 1 (Ana, Ben; the base game only)" in text and "2 moves" in text
    assert "to start a new game instead, run with --new" in text
    assert "resign for good? You cannot come back, and the game ends. [y/N]" in text
    assert text.count("not resigned: the game goes on") == 1
    assert "Game over by resignation. Ben wins with 0 points." in text
    assert "Ranking: 1. Ben 0; 2. Ana 0 (resigned)." in text


async def test_pictures_only_when_asked_and_only_the_latest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: a PNG after every move and one for every drawn tile (221 files, about
    100 MB for one game); now none unless asked, and then the latest board and tile."""
    rig(monkeypatch, ["U", "U", "V"])
    painter = Painter()
    folder = tmp_path / "pictures"
    status, text = await _session(tmp_path, "place 1 0 0\nconfirm\nplace -1 0 0\nconfirm\n"
                                  "board\nquit\n", "--players", "Ana,Ben", "--seed", "3",
                                  "--pictures", str(folder), painter=painter)
    assert status == 0, text
    assert sorted(p.name for p in folder.iterdir()) == ["board.png", "tile.png"]
    assert painter.drawn == ["U", "U", "V"] and painter.tiles == [2, 3, 3]
    assert (folder / "board.png").read_bytes() == b"\x89PNG fake"
    assert f"pictures: {folder / 'board.png'} (the whole board" in text


async def test_bad_words_get_usage_and_end_of_input_quits(tmp_path: Path) -> None:
    script = "place one 2 3\nfly away\nwagon 1 2\nabbey 1\ntunnel 1 2 N\n"
    status, text = await _session(tmp_path, script, "--players", "2")
    assert status == 0
    assert "'one' is not a number; usage: place X Y ROT [FIGURE ON]" in text
    assert "unknown command 'fly'; type help" in text
    assert "usage: wagon X Y ON | wagon return | wagon ON" in text
    assert "usage: abbey X Y | abbey skip" in text
    assert "usage: tunnel X Y SIDE PAIR" in text


async def test_the_demo_plays_a_whole_game(tmp_path: Path) -> None:
    status, text = await _session(tmp_path, "", "--demo", "--players", "2", "--seed", "1")
    assert status == 0, text
    lines = text.splitlines()
    assert lines[0].startswith("demo game 1: seats drawn at random:")
    moves = [line for line in lines if line[:4].strip().isdigit() and ". " in line]
    assert len(moves) >= 71  # every land tile, one line per move
    assert re.search(r"Game over\. (Ana|Ben) wins with \d+ points|share the win", text)
    assert not list(tmp_path.rglob("*.png"))


async def test_bad_options(tmp_path: Path) -> None:
    status, text = await _session(tmp_path, "", "--players", "9")
    assert status == 2 and "--players must be 1 to 6" in text
    status, text = await _session(tmp_path, "", "--expansions", "dragons")
    assert status == 2 and "unknown expansion 'dragons'" in text


async def test_a_different_game_is_never_resumed_silently(tmp_path: Path) -> None:
    """Before: `--players 3 --expansions all` resumed the stored 2-player base game."""
    status, text = await _session(tmp_path, "quit\n", "--players", "Ana,Ben", "--seed", "3")
    assert status == 0 and "new game 1 for" in text
    status, text = await _session(tmp_path, "quit\n", "--players", "3", "--expansions", "all")
    assert status == 2, text
    assert "holds an unfinished game 1 (Ana, Ben; the base game only), not the game you " \
           "asked for (players Ana, Ben, Cy; with river" in text
    assert "Run again with --new" in text and "--game 1 resumes it" in text
    assert "new game" not in text and "Ana>" not in text

    # --new starts it; the first game stays saved and --game resumes it.
    status, text = await _session(tmp_path, "quit\n", "--players", "3", "--expansions",
                                  "all", "--new")
    assert status == 0 and "new game 2 for" in text and "Cy" in text
    status, text = await _session(tmp_path, "quit\n")
    assert "resuming game 2 (Ana, Ben, Cy; with river, abbot" in text
    assert "other unfinished games: 1 (--game ID)" in text
    status, text = await _session(tmp_path, "quit\n", "--game", "1")
    assert status == 0 and "resuming game 1 (Ana, Ben; the base game only)" in text
    status, text = await _session(tmp_path, "quit\n", "--game", "7")
    assert status == 2 and "no unfinished local game 7" in text and "games: 2, 1" in text
    # Asking for what the saved game is resumes it.
    status, text = await _session(tmp_path, "quit\n", "--players", "Ben,Ana", "--seed", "3",
                                  "--expansions", "", "--game", "1")
    assert status == 0 and "resuming game 1" in text


async def test_export_to_a_bad_path_is_a_message(tmp_path: Path) -> None:
    """Before: FileNotFoundError ended the session with a traceback."""
    script = f"export {tmp_path / 'no-such-folder' / 'game.json'}\nquit\n"
    status, text = await _session(tmp_path, script, "--players", "2")
    assert status == 0, text
    assert "! cannot write " in text and "No such file or directory" in text


def test_a_database_in_a_missing_folder(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "nowhere" / "local.sqlite3")
    assert cli.main(["local", "--db", db, "--players", "2"]) == 2
    assert capsys.readouterr().out == (f"carca-bot local: --db: there is no folder "
                                       f"{tmp_path}/nowhere for the database {db}: "
                                       "create it first\n")


async def test_a_builders_double_turn_and_the_new_figures_in_a_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inns & Cathedrals and Traders & Builders typed at the terminal: the builder joins
    Ana's road, the next tile on it gives her a second part (the same player's turn
    again), where she puts her large follower; the held pieces list the new ones."""
    rig(monkeypatch, ["U", "B", "U", "B", "U", "B"])
    record = tmp_path / "game.json"
    script = ("place 1 0 0 follower W\nconfirm\nplace 0 1 0\nconfirm\n"
              "place 2 0 0 builder W\nconfirm\nplace -1 1 0\nconfirm\n"
              "place 3 0 0\nconfirm\nplace 1 1 0 large-follower C\nconfirm\nscore\n"
              f"export {record}\nquit\n")
    status, text = await _session(tmp_path, script, "--players", "Ana,Ben", "--seed", "3",
                                  "--expansions", "traders_builders,inns_cathedrals")
    assert status == 0, text
    assert ("* Ana: a double turn: the builder's road or city grew, so one more tile and "
            "figure") in text
    assert "game 1 · 5 moves · 108 tiles left · Ana's turn: place your tile" in text
    assert ("Ana: 0  [in hand: 6 followers, 0 large followers, 0 builders, 1 pig, "
            "0 wine tokens, 0 grain tokens, 0 cloth tokens]") in text
    saved = json.loads(record.read_text())
    assert [a["by"] for a in saved["actions"]] == ["Ana", "Ben", "Ana", "Ben", "Ana", "Ana"]
    assert [a.get("deploy", {}).get("figure") for a in saved["actions"]] == [
        "follower", None, "builder", None, None, "large"]
    status_, out = replay(saved)
    assert status_ == 0 and out["next"]["player"] == "Ben"
