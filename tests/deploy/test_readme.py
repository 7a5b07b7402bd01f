"""The README as a newcomer meets it: its commands work as typed after its own
install (`carca-bot` lives in `.venv/bin`), and the files it points to are in the
repository."""

from __future__ import annotations

import re
import shlex

from carca_bot.cli import build_parser
from tests.deploy.context import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
RUN = ("python3 -m venv .venv && .venv/bin/pip install -c constraints.txt . && "
       ".venv/bin/carca-bot run")
TEST = ("python3 -m venv .venv && .venv/bin/pip install -q -c constraints.txt -e '.[test]' "
        "&& .venv/bin/python -m pytest -q -n auto")
# Files other branches add (the lock file, the copy of the record spec); once merged
# they are in the repository like the rest, and this set can go.
ADDED_ELSEWHERE: set[str] = set()


def code_lines() -> list[str]:
    """The README's indented code lines, as a reader would copy them."""
    return [line.strip() for line in README.splitlines() if line.startswith("    ")
            and line.strip() and not line.strip().startswith(("|", "-", "#"))]


def test_the_two_commands() -> None:
    section = README.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in section.splitlines() if line.startswith("    ")]
    assert commands[:2] == [RUN, TEST]


def test_carca_bot_is_always_called_where_the_install_put_it() -> None:
    """Before: `carca-bot local --demo` and `carca-bot replay ...`, which a shell
    without the venv activated does not find."""
    for line in code_lines():
        for command in re.split(r"&&|;|\|", line):
            words = shlex.split(command, comments=True)
            if not words:
                continue
            assert words[0] != "carca-bot", line
            assert words[0] != "python", line  # not on every system; the venv's is
            if words[:3] == ["docker", "exec", "carca"]:
                continue  # inside the image, where carca-bot is on the PATH


def test_every_suggested_carca_bot_command_parses() -> None:
    parser, handlers = build_parser()
    seen = 0
    for line in code_lines():
        for command in re.split(r"&&|;", line):
            words = shlex.split(command, comments=True)
            while words and "=" in words[0]:  # VAR=value before the command
                words = words[1:]
            if not words or words[0] not in (".venv/bin/carca-bot", "carca-bot"):
                continue
            if words[1:] and words[1] == "replay" and words[2] != "FILE.json":
                assert (ROOT / words[2]).is_file(), line
            if words[1:] in (["backup", "PATH"], ["replay", "FILE.json"]):
                args = parser.parse_args([words[1], "x"])
            else:
                args = parser.parse_args(words[1:])
            assert args.command in handlers, line
            seen += 1
    assert seen >= 5


def test_files_it_points_to_are_in_the_repository() -> None:
    """Before: the record format was `../shared/spec/game-record.md`, outside it."""
    assert "../" not in README
    assert "(docs/game-record.md)" in README
    named = set(re.findall(r"`((?:docs|tests|bench|carca_bot|tiles_art)/[\w./-]+\.\w+)`",
                           README))
    named |= set(re.findall(r"\]\(((?:docs)/[\w./-]+)\)", README))
    named |= set(re.findall(r"-c (constraints\.txt)", README))
    named |= set(re.findall(r"python ((?:docs|bench)/[\w./-]+\.py)", README))
    assert {"docs/game-record.md", "constraints.txt", "docs/turn_example.py"} <= named
    for name in named:
        assert (ROOT / name).exists() or name in ADDED_ELSEWHERE, name
