"""The words a terminal player types, in the language being spoken, and back.

Every command has an English word (`place`, `confirm`, ...) that works in every language,
and a word in the language being spoken from the catalogue (`colocar`, `confirmar` in
Spanish). Features are named by codes: sides N E S W, half-edges NL NR ... for fields,
corners NW NE SE SW for a barn, C for a monastery, G for a garden; Spanish writes the
west side O (oeste), the left and right halves I and D (izquierda, derecha) and the
garden J (jardín), and each form is read in either language (no code of one means
something else in the other). Accents are optional when typing (`tunel`, `abadia`).
"""

from __future__ import annotations

import unicodedata

from carca_bot.i18n import Domain

_T = Domain("local")
pgettext = _T.pgettext

# The commands, by their English word: what each is in the language being spoken.
COMMANDS = {
    "place": lambda: pgettext("command", "place"),
    "draw": lambda: pgettext("command", "draw"),
    "follower": lambda: pgettext("command", "follower"),
    "deploy": lambda: pgettext("command", "deploy"),
    "abbot": lambda: pgettext("command", "abbot"),
    "mayor": lambda: pgettext("command", "mayor"),
    "barn": lambda: pgettext("command", "barn"),
    "wagon": lambda: pgettext("command", "wagon"),
    "recall": lambda: pgettext("command", "recall"),
    "tunnel": lambda: pgettext("command", "tunnel"),
    "abbey": lambda: pgettext("command", "abbey"),
    "confirm": lambda: pgettext("command", "confirm"),
    "undo": lambda: pgettext("command", "undo"),
    "moves": lambda: pgettext("command", "moves"),
    "board": lambda: pgettext("command", "board"),
    "status": lambda: pgettext("command", "status"),
    "score": lambda: pgettext("command", "score"),
    "resign": lambda: pgettext("command", "resign"),
    "export": lambda: pgettext("command", "export"),
    "help": lambda: pgettext("command", "help"),
    "quit": lambda: pgettext("command", "quit"),
}
ALIASES = {"scores": "score", "exit": "quit"}  # English words also taken
# Words after a command: "abbey skip", "wagon return".
ARGUMENTS = {
    "skip": lambda: pgettext("command argument", "skip"),
    "return": lambda: pgettext("command argument", "return"),
}
FIGURES = {
    "follower": lambda: pgettext("figure typed", "follower"),
    "abbot": lambda: pgettext("figure typed", "abbot"),
    "mayor": lambda: pgettext("figure typed", "mayor"),
    "wagon": lambda: pgettext("figure typed", "wagon"),
    "barn": lambda: pgettext("figure typed", "barn"),
}
# Feature codes: the engine's letters and the Spanish ones (none means anything else in
# the other language).
_SIDE_ES = {"N": "N", "E": "E", "S": "S", "W": "O"}
_HALF_ES = {"L": "I", "R": "D"}


def _plain(word: str) -> str:
    """Lower case without accents: what a typed word is compared as."""
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def command(verb: str) -> str:
    """The word for English command `verb` in the language being spoken."""
    words = COMMANDS.get(verb)
    return words() if words is not None else verb


def argument(word: str) -> str:
    words = ARGUMENTS.get(word)
    return words() if words is not None else word


def figure(kind: str) -> str:
    """A figure as typed in a command, in the language being spoken."""
    words = FIGURES.get(kind)
    return words() if words is not None else kind


def _read(typed: str, table: dict[str, object], aliases: dict[str, str]) -> str | None:
    plain = _plain(typed)
    if plain in table:
        return plain
    if plain in aliases:
        return aliases[plain]
    for english, words in table.items():
        if callable(words) and _plain(str(words())) == plain:
            return english
    return None


def read_command(typed: str) -> str | None:
    """The English command a typed word is (either language), or None."""
    return _read(typed, dict(COMMANDS), ALIASES)


def read_argument(typed: str) -> str | None:
    return _read(typed, dict(ARGUMENTS), {"pasar": "skip", "volver": "return",
                                          "devolver": "return"})


def read_figure(typed: str) -> str:
    """The English figure a typed word is; an unknown word as typed (the service says
    what is wrong with it)."""
    return _read(typed, dict(FIGURES), {}) or typed.strip().lower()


def read_code(typed: str) -> str:
    """A feature code in the engine's letters: 'O' -> 'W', 'NI' -> 'NL', 'OD' -> 'WR',
    'NO' -> 'NW', 'J' -> 'G'; the engine's own codes as they are (upper case)."""
    code = _plain(typed).upper()
    if code == "O":
        return "W"
    if code == "J":
        return "G"
    if len(code) == 2 and code[0] in "NESO" and code[1] in "ID":
        side = "W" if code[0] == "O" else code[0]
        return side + ("L" if code[1] == "I" else "R")
    if code in ("NO", "SO"):
        return code[0] + "W"
    if len(code) == 2 and code[0] == "O" and code[1] in "LR":
        return "W" + code[1]
    return code


def code(engine_code: str, language: str) -> str:
    """An engine feature code as `language` writes it ('WL' -> 'OI' in Spanish)."""
    if language != "es":
        return engine_code
    if engine_code == "G":
        return "J"
    if engine_code in _SIDE_ES:
        return _SIDE_ES[engine_code]
    if len(engine_code) == 2 and engine_code[0] in _SIDE_ES and engine_code[1] in _HALF_ES:
        return _SIDE_ES[engine_code[0]] + _HALF_ES[engine_code[1]]
    if engine_code in ("NW", "SW"):
        return engine_code[0] + "O"
    return engine_code
