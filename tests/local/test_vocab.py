"""The words a terminal player types: commands and feature codes in Spanish and English,
and the options that seat AI players."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.i18n import speaking
from carca_bot.local import AI_LEVELS, add_arguments
from carca_bot.local.commands import MOVE_VERBS, usage
from carca_bot.local.play import run, wants_colour
from carca_bot.local.text import help_text
from carca_bot.local.vocab import code, command, read_code, read_command, read_figure, verbs
from carca_bot.local.vocab import figure as vocab_figure
from carca_bot.service import AI_LEVELS as SERVICE_LEVELS


@pytest.mark.parametrize(("typed", "verb"), [
    ("colocar", "place"), ("Colocar", "place"), ("confirmar", "confirm"), ("robar", "draw"),
    ("túnel", "tunnel"), ("tunel", "tunnel"), ("abadía", "abbey"), ("abadia", "abbey"),
    ("place", "place"), ("confirm", "confirm"), ("scores", "score"), ("exit", "quit"),
    ("volar", None),
])
def test_spanish_and_english_command_words(typed: str, verb: str | None) -> None:
    with speaking("es"):
        assert read_command(typed) == verb
    if verb is not None and typed.isascii() and typed.lower() == verb:
        with speaking("en"):
            assert read_command(typed) == verb


def test_every_command_the_spanish_help_names_is_taken() -> None:
    with speaking("es"):
        listed = [line.split()[0] for line in help_text().splitlines()
                  if line.startswith("  ") and not line.startswith("   ")]
        assert len(listed) >= 15 and all(read_command(w) is not None for w in listed), listed
        assert {command(v) for v in verbs()} >= set(listed)


@pytest.mark.parametrize(("typed", "figure"), [
    ("seguidor-mayor", "large"), ("Seguidor_Mayor", "large"), ("large", "large"),
    ("large-follower", "large"), ("largefollower", "large"), ("alcalde", "mayor"),
    ("mayor", "mayor"), ("establo", "barn"), ("barn", "barn"), ("seguidor", "follower"),
])
def test_figures_are_typed_by_their_records_names(typed: str, figure: str) -> None:
    """Every figure of the figure table, by its code or its record's name in either
    language (one word: spaces as hyphens); its name is a command of its own."""
    with speaking("es"):
        assert read_figure(typed) == figure
        assert read_command(typed) == figure
        assert read_figure(vocab_figure(figure)) == figure
    with speaking("en"):
        assert read_figure(vocab_figure(figure)) == figure
    assert read_figure("dragon") == "dragon"  # the service refuses it in words


def test_every_figure_has_a_command_and_its_usage() -> None:
    with speaking("es"):
        assert usage("large") == "seguidor-mayor SOBRE" and usage("barn") == "establo ESQUINA"
        assert {f.name for f in FIGURE_TABLE} - {"follower", "wagon"} <= MOVE_VERBS
        assert all(read_command(command(f.name)) == f.name for f in FIGURE_TABLE)


@pytest.mark.parametrize(("typed", "engine"), [
    ("O", "W"), ("N", "N"), ("E", "E"), ("W", "W"), ("NI", "NL"), ("nd", "NR"),
    ("OI", "WL"), ("OD", "WR"), ("SI", "SL"), ("NO", "NW"), ("SO", "SW"), ("NE", "NE"),
    ("SE", "SE"), ("J", "G"), ("C", "C"), ("NL", "NL"), ("WR", "WR"), ("I1", "I1"),
])
def test_feature_codes_are_read_in_either_language(typed: str, engine: str) -> None:
    assert read_code(typed) == engine


def test_codes_are_shown_in_spanish_and_read_back() -> None:
    for engine in ("N", "E", "S", "W", "NL", "NR", "WL", "WR", "SL", "NW", "SW", "G", "C"):
        assert read_code(code(engine, "es")) == engine
        assert code(engine, "en") == engine
    assert code("W", "es") == "O" and code("WL", "es") == "OI" and code("G", "es") == "J"


def test_the_ai_levels_are_the_services() -> None:
    assert AI_LEVELS == SERVICE_LEVELS


def _args(tmp_path: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--db", str(tmp_path / "local.sqlite3"), *extra])


def test_bad_ai_options_are_refused(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _args(tmp_path, "--ai", "easy,genius")
    assert "genius: the AI levels are random, greedy, easy, medium, strong" in \
        capsys.readouterr().err
    assert _args(tmp_path, "--ai", "Easy, strong").ai == ("easy", "strong")


async def test_too_many_seats_are_refused(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await run(_args(tmp_path, "--players", "4", "--ai", "easy,easy,easy"), None,
                       io.StringIO(""), out)
    assert status == 2
    assert out.getvalue() == "--players and --ai make 7 seats; a game has at most 6\n"
    assert not (tmp_path / "local.sqlite3").exists()


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_in_a_terminal_that_has_it() -> None:
    assert wants_colour("auto", Tty(), {"TERM": "xterm-256color"})
    assert not wants_colour("auto", Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not wants_colour("auto", Tty(), {"TERM": "dumb"})
    assert not wants_colour("auto", io.StringIO(), {"TERM": "xterm"})
    assert wants_colour("always", io.StringIO(), {}) and not wants_colour("never", Tty(), {})
