"""`carca-bot local`: play in the terminal, alone against AI players or at one keyboard,
and the demo, on the same service and database as the bot."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
from collections.abc import Mapping
from typing import TextIO

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.rules import expansion_named
from carca_bot.i18n import Domain, use_language
from carca_bot.local import chosen_language
from carca_bot.local.saved import Table, choose_table
from carca_bot.local.session import (
    Pictures,
    Render,
    RenderTile,
    Terminal,
    ai_names,
    demo,
    hot_seat,
    player_names,
)
from carca_bot.service import GameOptions, GameService, ServiceError, Where
from carca_bot.service.model import MAX_PLAYERS
from carca_bot.words import say

_T = Domain("local")
_ = _T.gettext

DEFAULT_WIDTH = 100  # characters, when the output is not a terminal that says its width


def _expansions(spec: str | None) -> frozenset[str]:
    """`--expansions`: codes or the records' aliases ('inns, tb'), or 'all'; a word no
    record knows stays as typed, for the service to refuse in words."""
    words = {w.strip() for w in (spec or "").split(",") if w.strip()}
    if words == {"all"}:
        return frozenset(EXPANSIONS)
    return frozenset(expansion_named(w) or w for w in words)


def wants_colour(choice: str, stdout: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """`--colour`: always, never, or (auto) when writing to a terminal that is not
    "dumb", unless NO_COLOR is set (no-color.org)."""
    env = os.environ if environ is None else environ
    if choice != "auto":
        return choice == "always"
    isatty = getattr(stdout, "isatty", None)
    return (bool(isatty and isatty()) and "NO_COLOR" not in env
            and env.get("TERM", "") != "dumb")


def width_of(stdout: TextIO) -> int:
    """The terminal's width in characters, when `stdout` is the terminal."""
    if stdout is sys.stdout or stdout is sys.__stdout__:
        return shutil.get_terminal_size((DEFAULT_WIDTH, 40)).columns
    return DEFAULT_WIDTH


def _seats(args: argparse.Namespace) -> tuple[list[str], tuple[str, ...]]:
    """The people's names and the AI levels; ValueError if they do not make a table."""
    ai: tuple[str, ...] = tuple(getattr(args, "ai", ()) or ())
    names = player_names(args.players, default=3 if args.demo else (1 if ai else 2))
    if len(names) + len(ai) > MAX_PLAYERS:
        raise ValueError(_("--players and --ai make {n} seats; a game has at most "
                           "{most}").format(n=len(names) + len(ai), most=MAX_PLAYERS))
    return names, ai


async def run(args: argparse.Namespace, render: Render | None,
              stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
              render_tile: RenderTile | None = None) -> int:
    """Play in the terminal (or watch the demo); returns the exit status.

    Everything it says, and the pictures' words, are in the language `--lang` or the
    environment chose (`chosen_language`). `render` and `render_tile` draw the pictures
    `--pictures` asks for.
    """
    use_language(chosen_language(getattr(args, "lang", None)))
    try:
        names, ai = _seats(args)
        options = GameOptions(expansions=_expansions(args.expansions), seed=args.seed,
                              allow_solo=len(names) + len(ai) == 1)
    except (ValueError, ServiceError) as exc:
        stdout.write(f"{say(exc) if isinstance(exc, ServiceError) else exc}\n")
        return 2
    folder = getattr(args, "pictures", None)
    pictures = (Pictures(folder, render, render_tile)
                if folder is not None and render is not None else None)
    colour, width = wants_colour(getattr(args, "colour", "auto"), stdout), width_of(stdout)
    service = await GameService.open(args.db)
    try:
        if args.demo:
            seed = args.seed if args.seed is not None else random.randrange(2**31)
            where = Where("local", f"demo-{random.randrange(2**62):x}")
            return await demo(service, names, options, Terminal(
                service, where, stdout, colour=colour, width=width, pictures=pictures), seed)
        asked = Table([*names, *ai_names(ai)]
                      if args.players is not None or ai else None,
                      options.expansions if args.expansions is not None else None, args.seed)
        chosen = await choose_table(service, asked, args.new, args.game, str(args.db))
        if isinstance(chosen, str):
            stdout.write(chosen + "\n")
            return 2
        where, note = chosen
        term = Terminal(service, where, stdout, stdin, colour=colour, width=width,
                        pictures=pictures)
        if note:
            term.say(note)
        if pictures is not None:
            term.say(_("pictures: {board} (the whole board, after every move) and {tile} "
                       "(your tile), the latest only").format(
                board=pictures.folder / "board.png", tile=pictures.folder / "tile.png"))
        return await hot_seat(service, names, options, term, ai)
    finally:
        await service.close()


__all__ = ["run", "wants_colour"]
