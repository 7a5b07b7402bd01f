"""The terminal front end: play alone against AI players or at one keyboard with friends,
and a demo, on the same service and database as the bot. `carca-bot local` is wired to
`add_arguments` (here, light, so the command line parses without the service's
dependencies) and `play.run`."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.i18n import LANGUAGES, language_of

DEFAULT_DB = "carca-local.sqlite3"
AI_LEVELS = ("random", "greedy", "easy", "medium", "strong")  # the service's (checked there)
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
                        help="how many people play at this keyboard (1-6) or their names, "
                             "comma separated (default: 1 with --ai, else 2)")
    parser.add_argument("--ai", type=_levels, default=(), metavar="LEVEL[,LEVEL...]",
                        help=f"AI players, one per level given: {', '.join(AI_LEVELS)} "
                             "(the levels of the Discord bot's /carc-ai)")
    parser.add_argument("--expansions", default=None, metavar="LIST",
                        help=f"comma separated, or 'all': {','.join(EXPANSIONS)}")
    parser.add_argument("--seed", type=int, help="deal (and, with --demo, play) from this seed")
    parser.add_argument("--lang", metavar="LANG", type=_language,
                        help=f"the language to play in: {', '.join(LANGUAGES)} (default: from "
                             "LC_ALL, LC_MESSAGES or LANG, else en)")
    parser.add_argument("--pictures", "--out", type=Path, metavar="DIR",
                        help="also write pictures: DIR/board.png (the whole board, after "
                             "every move) and DIR/tile.png (your drawn tile), the latest "
                             "only; by default the board is drawn in the terminal alone")
    parser.add_argument("--colour", "--color", choices=("auto", "always", "never"),
                        default="auto",
                        help="colours on the board (default: when writing to a terminal, "
                             "unless NO_COLOR is set)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--new", action="store_true",
                       help="start a new game even if one is unfinished (that one stays saved)")
    start.add_argument("--game", type=int, metavar="ID",
                       help="resume this unfinished game (by default: the latest one)")


def _levels(text: str) -> tuple[str, ...]:
    """`--ai easy,strong`: the levels, each known."""
    levels = tuple(w.strip().lower() for w in text.split(",") if w.strip())
    unknown = [w for w in levels if w not in AI_LEVELS]
    if not levels or unknown:
        raise argparse.ArgumentTypeError(
            f"{', '.join(unknown) or repr(text)}: the AI levels are {', '.join(AI_LEVELS)}")
    return levels


def _language(text: str) -> str:
    """`--lang es`, `--lang es_MX`; a language we do not speak is an error, not English."""
    chosen = language_of(text)
    if chosen not in LANGUAGES or (chosen == "en" and not text.lower().startswith("en")):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a language we speak: {', '.join(LANGUAGES)}")
    return chosen
