"""The words a terminal player types, in the language being spoken, and back.

Every command has an English word (`place`, `confirm`, ...) that works in every language,
and a word in the language being spoken from the catalogue (`colocar`, `confirmar` in
Spanish). Figures are typed by their records' names (`carca_bot.words.names`), as one
word ('large-follower', 'seguidor-mayor') or by their code ('large'), and each figure's
name is also a command putting that figure on the tile just placed ('abbot C',
'builder N', 'barn NW'): a new expansion's figure is typed with its record.
Features are named by codes: sides N E S W, half-edges NL NR ... for fields,
corners NW NE SE SW for a barn, C for a monastery, G for a garden; Spanish writes the
west side O (oeste), the left and right halves I and D (izquierda, derecha) and the
garden J (jardín), and each form is read in either language (no code of one means
something else in the other). Accents are optional when typing (`tunel`, `abadia`).
"""

from __future__ import annotations

import unicodedata

from carca_bot.engine.figures import FIGURE_TABLE
from carca_bot.i18n import Domain
from carca_bot.words.names import figure_name

_T = Domain("local")
pgettext = _T.pgettext

# The commands, by their English word: what each is in the language being spoken.
COMMANDS = {
    "place": lambda: pgettext("command", "place"),
    "draw": lambda: pgettext("command", "draw"),
    "follower": lambda: pgettext("command", "follower"),
    "deploy": lambda: pgettext("command", "deploy"),
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
# Every figure of the figure table: its name is a command too ("abbot C", "barn NW").
FIGURES = tuple(f.name for f in FIGURE_TABLE)
_NOUNS = {f.name: f.noun for f in FIGURE_TABLE}  # the records' English names
# Feature codes: the engine's letters and the Spanish ones (none means anything else in
# the other language).
_SIDE_ES = {"N": "N", "E": "E", "S": "S", "W": "O"}
_HALF_ES = {"L": "I", "R": "D"}


def _plain(word: str) -> str:
    """Lower case without accents: what a typed word is compared as."""
    decomposed = unicodedata.normalize("NFD", word.strip().lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def command(verb: str) -> str:
    """The word for English command `verb` in the language being spoken (a figure's
    command is the figure's name: 'abad', 'seguidor-mayor')."""
    words = COMMANDS.get(verb)
    if words is not None:
        return words()
    return figure(verb) if verb in _NOUNS else verb


def argument(word: str) -> str:
    words = ARGUMENTS.get(word)
    return words() if words is not None else word


def figure(kind: str) -> str:
    """A figure as typed in a command, in the language being spoken: its record's name
    as one word ('seguidor-mayor'); a name no figure has as it is."""
    return figure_name(kind).replace(" ", "-") if kind in _NOUNS else kind


def _squeezed(word: str) -> str:
    """A figure's name as compared: plain, without spaces, hyphens or underscores."""
    return "".join(c for c in _plain(word) if c not in " -_")


def _figure_typed(typed: str) -> str | None:
    """The figure a typed word names: its code, its English name or its name in the
    language being spoken, with or without a hyphen ('large', 'large-follower',
    'seguidormayor')."""
    wanted = _squeezed(typed)
    for name, noun in _NOUNS.items():
        if wanted in (name, _squeezed(noun), _squeezed(figure_name(name))):
            return name
    return None


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
    """The English command a typed word is (either language), or None; a figure's name
    is the command of that figure ('abad' -> 'abbot', 'constructor' -> 'builder')."""
    return _read(typed, dict(COMMANDS), ALIASES) or _figure_typed(typed)


def verbs() -> tuple[str, ...]:
    """Every command word, in English: the commands and the figures' own."""
    return (*COMMANDS, *(f for f in FIGURES if f not in COMMANDS))


def read_argument(typed: str) -> str | None:
    return _read(typed, dict(ARGUMENTS), {"pasar": "skip", "volver": "return",
                                          "devolver": "return"})


def read_figure(typed: str) -> str:
    """The figure a typed word is (its code); an unknown word as typed (the service says
    what is wrong with it)."""
    return _figure_typed(typed) or typed.strip().lower()


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
