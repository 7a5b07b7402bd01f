"""The terminal front end: hot-seat play and a demo, on the same service and database
as the bot. `carca-bot local` is wired to `add_arguments` (here, light, so the command
line parses without the service's dependencies) and `play.run`."""

from __future__ import annotations

import argparse

from carca_bot.engine.catalogue import EXPANSIONS

DEFAULT_DB = "carca-local.sqlite3"


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
    parser.add_argument("--out", default="carca-boards", metavar="DIR",
                        help="where board and tile pictures go (default carca-boards)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--new", action="store_true",
                       help="start a new game even if one is unfinished (that one stays saved)")
    start.add_argument("--game", type=int, metavar="ID",
                       help="resume this unfinished game (by default: the latest one)")
