"""The terminal game in Spanish, the language it chooses, and no English left unmarked."""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import pytest

from carca_bot.i18n import PSEUDO
from carca_bot.i18n.pseudo import untranslated
from carca_bot.local import add_arguments, chosen_language
from carca_bot.local.play import run
from tests.local.test_local import Painter
from tests.service.helpers import rig


def _args(tmp_path: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(["--db", str(tmp_path / "local.sqlite3"), *extra])


async def _play(args: argparse.Namespace, script: str,
                painter: Painter | None = None) -> str:
    out = io.StringIO()
    status = await run(args, painter, io.StringIO(script), out,
                       render_tile=painter.tile if painter is not None else None)
    assert status == 0, out.getvalue()
    return out.getvalue()


SCRIPT = """\
ayuda
colocar 5 5 0
colocar 1 0 0 seguidor E
estado
confirmar
jugadas
place 2 0 0
deshacer
colocar one 2 3
volar
tablero
puntos
exportar {record}
abandonar
n
salir
"""


async def test_a_game_in_spanish_takes_spanish_commands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the Spanish terminal game still took only English command words."""
    rig(monkeypatch, ["U", "U", "V"])
    painter = Painter()
    text = await _play(_args(tmp_path, "--players", "Ana,Ben", "--seed", "3", "--lang", "es"),
                       SCRIPT.format(record=tmp_path / "game.json"), painter)
    assert "partida nueva 1 para Ana y Ben (escribe ayuda para ver las órdenes)" in text
    assert "Orden de juego (sorteado; los números están en las figuras de cada jugador): " \
           "1 Ana, 2 Ben" in text
    assert "  colocar X Y GIRO [FIGURA SOBRE]   coloca tu loseta, si quieres con una " \
           "figura encima" in text
    assert "N E S O" in text and "NI ND EI ED SI SD OI OD" in text
    # The engine's refusal, in Spanish, squares as the board labels them.
    assert ("! la loseta U no puede ir en 5,5 girada 0: la casilla 5,5 no toca por ningún "
            "borde una loseta colocada") in text
    assert "partida 1 · 0 jugadas · quedan 70 losetas · turno de Ana: " in text
    assert "en este turno, hasta ahora: camino recto en 1,0 girada 0; seguidor en E" in text
    # `confirmar` ended Ana's turn: Ben plays, and `jugadas` lists his moves in Spanish.
    assert "turno de Ben: coloca tu loseta" in text
    assert "Ben> camino recto: colocar -1 0 0 | colocar -1 0 180 | " in text
    # English words still work: Ben's `place 2 0 0`, taken back with `deshacer`.
    assert "en este turno, hasta ahora: camino recto en 2,0 girada 0" in text
    assert text.count("turno de Ben: coloca tu loseta") == 2
    assert "! 'one' no es un número; se escribe: colocar X Y GIRO [FIGURA SOBRE]" in text
    assert "! orden desconocida 'volar'; escribe ayuda" in text
    assert "  Ana (1): seguidor en E en 1,0" in text
    assert "  Ana: 0  [en reserva: 6 seguidores]" in text
    assert "1 acción guardada en " in text
    assert ("Ben, ¿abandonas definitivamente? No podrás volver, y la partida termina. "
            "[s/N] ") in text
    assert "no has abandonado: la partida sigue" in text
    assert "la partida 1 está guardada; vuelve a ejecutarlo para seguir" in text
    assert painter.tiles == []  # no pictures unless asked


async def test_spanish_sides_and_figures_are_read(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`O` is west, `NI` the north edge's left (west) half, in Spanish and English games."""
    rig(monkeypatch, ["U", "U", "V"])
    script = "colocar 1 0 0 seguidor O\nconfirmar\nplace -1 0 0 follower NI\nconfirm\nsalir\n"
    text = await _play(_args(tmp_path, "--players", "Ana,Ben", "--seed", "3", "--lang", "es"),
                       script)
    game_text = text.split("salir")[0]
    assert "!" not in game_text, game_text
    record = tmp_path / "game.json"
    await _play(_args(tmp_path, "--players", "Ana,Ben"), f"export {record}\nquit\n")
    import json
    saved = json.loads(record.read_text())
    assert [a.get("deploy") for a in saved["actions"]] == [
        {"figure": "follower", "on": "W"}, {"figure": "follower", "on": "NL"}]


@pytest.mark.parametrize(("flag", "environ", "language"), [
    ("es", {"LANG": "en_US.UTF-8"}, "es"),
    ("en", {"LC_ALL": "es_ES.UTF-8"}, "en"),
    (None, {"LC_ALL": "es_MX.UTF-8", "LANG": "en_GB.UTF-8"}, "es"),
    (None, {"LC_ALL": "", "LC_MESSAGES": "es_AR", "LANG": "en_GB.UTF-8"}, "es"),
    (None, {"LANG": "es_CO.UTF-8"}, "es"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {"LANG": "fr_FR.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_the_language_comes_from_lang_then_the_locale(flag: str | None,
                                                      environ: dict[str, str],
                                                      language: str) -> None:
    assert chosen_language(flag, environ) == language


def test_an_unknown_lang_is_refused(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _args(tmp_path, "--lang", "fr")
    assert "'fr' is not a language we speak: en, es" in capsys.readouterr().err


async def test_the_locale_speaks_when_no_lang_is_given(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    text = await _play(_args(tmp_path, "--players", "2"), "quit\n")
    assert re.search(r"partida nueva 1 para (Ana y Ben|Ben y Ana) \(escribe ayuda", text)


ENGLISH = """\
help
place 5 5 0
place 1 0 0 follower E
status
confirm
place one 2 3
fly
board
score
export {record}
moves
export
resign
n
quit
quit
"""

# The service's prompt and a turn's steps are the service's words (`carca_bot.words.say`
# and `prompt` say them once the service hands data to the front ends): not this
# front end's paths, so they are left out of the check below.
_SERVICE = re.compile(r"(?<=⟧): [^\n]*|(?<=so far: )[^⟧\n]*")


async def test_no_english_outside_the_catalogue(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-language over the terminal's own message paths."""
    rig(monkeypatch, ["U", "U", "V"])
    args = _args(tmp_path, "--players", "Ana,Ben", "--seed", "3")
    args.lang = PSEUDO
    script = ENGLISH.format(record=tmp_path / "game.json")
    text = await _play(args, script, Painter())
    data = {"Ana", "Ben", "U", "V", "D", "place", "CRF"}  # names, tile ids, commands
    left = untranslated(_SERVICE.sub(" ", text), frozenset(data))
    assert left == []
    assert "⟦" in text and len(text.splitlines()) > 40
    bad = _args(tmp_path, "--players", "9")
    bad.lang = PSEUDO
    status = await run(bad, None, io.StringIO(""), out := io.StringIO())
    assert status == 2 and untranslated(out.getvalue()) == []
