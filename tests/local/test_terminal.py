"""A whole game in a real terminal: `carca-bot local` in a pseudo-terminal, one person at
the keyboard against two AI players, typing what a player types until the game ends."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPT = re.compile(r"(?m)^(\S[^\n>]*)> $")
GAME_SECONDS = 600  # the whole game, at most (the AI's worker processes start first)


class Screen:
    """`carca-bot local` in a pseudo-terminal 100 columns wide: what it printed so far,
    and keys to type."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "en_US.UTF-8"}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "carca_bot", "local", *args],
                                     stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                     env=env, close_fds=True)
        os.close(slave)
        self.raw = b""
        self.seen = 0  # how much of the text the driver has read

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace")).replace("\r\n", "\n")

    def pump(self, until: float) -> bool:
        """Read what is there (waiting until `until`); False once the program ended."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, until - time.monotonic()))
        if not ready:
            return self.proc.poll() is None
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the other side closed: the program ended
            return False
        self.raw += chunk
        return bool(chunk)

    def next_prompt(self, deadline: float) -> str | None:
        """The text up to the next prompt ("Ana> "), or None when the program ends."""
        while time.monotonic() < deadline:
            found = PROMPT.search(self.text(), self.seen)
            if found:
                self.seen = found.end()
                return found.group(1)
            if not self.pump(min(deadline, time.monotonic() + 5)):
                return None
        raise AssertionError("no prompt in time:\n" + self.text()[-3000:])

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def answer(self, line: str, deadline: float) -> tuple[str, str | None]:
        """Type a command; the text it printed up to the next prompt, and whose prompt
        that is (None: the program ended)."""
        start = len(self.text())
        self.type(line)
        who = self.next_prompt(deadline)
        return self.text()[start:], who


def choose(options: str) -> list[str]:
    """What to type for the options `moves` listed: the first placement then confirm,
    else draw, skip the abbey, return the wagon or confirm."""
    line = options.strip().splitlines()[-2] if options.strip() else ""
    moves = [m.strip() for m in line.split(":", 1)[-1].split("|")]
    for word in ("place", "draw", "wagon return", "abbey skip", "confirm"):
        for move in moves:
            if move.startswith(word):
                return [move, "confirm"] if word == "place" else [move]
    return ["confirm"]


@pytest.mark.parametrize(("levels", "expansions"), [("easy,random", ""),
                                                     ("greedy,easy", "all")])
def test_a_whole_game_against_two_ais_in_a_terminal(tmp_path: Path, levels: str,
                                                    expansions: str) -> None:
    screen = Screen(["--db", str(tmp_path / "game.sqlite3"), "--players", "Ana", "--ai",
                     levels, "--seed", "4", "--expansions", expansions], tmp_path)
    deadline = time.monotonic() + GAME_SECONDS
    try:
        turns = 0
        who = screen.next_prompt(deadline)
        while who is not None:
            assert who == "Ana"
            options, who = screen.answer("moves", deadline)
            for line in choose(options):
                _said, who = screen.answer(line, deadline)
                if who is None:
                    break
            turns += 1
        assert screen.proc.wait(30) == 0
    finally:
        if screen.proc.poll() is None:
            screen.proc.kill()
        os.close(screen.master)
    text = screen.text()
    assert turns >= 20
    assert re.search(r"Seat order \(drawn at random.*\): 1 .+, 2 .+, 3 .+", text)
    assert all(f"AI ({level})" in text for level in levels.split(","))
    assert "is thinking…" in text
    assert "Ana's turn: place your tile" in text  # whose turn, in the status line
    assert re.search(r"(?m)^\s+-?\d+(\s+-?\d+){2,}$", text)  # the board's column numbers
    assert "─" in text or "│" in text  # roads, drawn with box-drawing characters
    assert "\x1b[48;5;71m" in screen.raw.decode()  # fields in colour, in a terminal
    assert re.search(r"Game over\. .+ (wins with \d+ points?|share the win)", text)
    assert "Ranking: 1. " in text
    assert not list(tmp_path.rglob("*.png")), "no picture unless asked for"
    assert re.search(r"\b(AM|RV-|CU|KR|TU)\d", text) is None  # tiles by what is on them
