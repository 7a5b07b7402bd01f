"""The terminal front end: hot-seat play and a demo, on the same service and database
as the bot. `carca-bot local` is wired to `add_arguments` (here, light, so the command
line parses without the service's dependencies) and `play.run`."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.i18n import LANGUAGES, language_of

DEFAULT_DB = "carca-local.sqlite3"
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # the order POSIX reads them in


def chosen_language(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """`--lang` if given, else the first locale variable set (LC_ALL, LC_MESSAGES, LANG),
    else English; a locale we have no words for reads English."""
    if flag:
        return language_of(flag)
    env = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        if env.get(variable):
            return language_of(env[variable])
    return language_of(None)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=DEFAULT_DB, metavar="PATH",
                        help=f"the game database (default {DEFAULT_DB})")
    parser.add_argument("--demo", action="store_true",
                        help="watch a whole game of random legal moves")
    parser.add_argument("--players", metavar="N|NAMES",
                        help="how many players (1-6) or their names, comma separated")
    parser.add_argument("--expansions", default=None, metavar="LIST",
                        help=f"comma separated, or 'all': {','.join(EXPANSIONS)}")
    parser.add_argument("--seed", type=int, help="deal (and, with --demo, play) from this seed")
    parser.add_argument("--lang", metavar="LANG", type=_language,
                        help=f"the language to play in: {', '.join(LANGUAGES)} (default: from "
                             "LC_ALL, LC_MESSAGES or LANG, else en)")
    parser.add_argument("--out", default="carca-boards", metavar="DIR",
                        help="where board and tile pictures go (default carca-boards)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--new", action="store_true",
                       help="start a new game even if one is unfinished (that one stays saved)")
    start.add_argument("--game", type=int, metavar="ID",
                       help="resume this unfinished game (by default: the latest one)")


def _language(text: str) -> str:
    """`--lang es`, `--lang es_MX`; a language we do not speak is an error, not English."""
    chosen = language_of(text)
    if chosen not in LANGUAGES or (chosen == "en" and not text.lower().startswith("en")):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a language we speak: {', '.join(LANGUAGES)}")
    return chosen
