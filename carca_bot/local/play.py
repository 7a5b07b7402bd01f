"""`carca-bot local`: hot-seat play and a demo, on the same service and database as the bot."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TextIO

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.i18n import use_language
from carca_bot.local import chosen_language
from carca_bot.local.saved import Table, choose_table
from carca_bot.local.session import Render, RenderTile, Terminal, demo, hot_seat, player_names
from carca_bot.service import GameOptions, GameService, ServiceError, Where
from carca_bot.words import say


def _expansions(spec: str | None) -> frozenset[str]:
    words = {w.strip() for w in (spec or "").split(",") if w.strip()}
    return frozenset(EXPANSIONS) if words == {"all"} else frozenset(words)


async def run(args: argparse.Namespace, render: Render | None,
              stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
              render_tile: RenderTile | None = None) -> int:
    """Play in the terminal (or watch the demo); returns the exit status.

    Everything it says, and the pictures' words, are in the language `--lang` or the
    environment chose (`chosen_language`).
    """
    use_language(chosen_language(getattr(args, "lang", None)))
    try:
        names = player_names(args.players, default=3 if args.demo else 2)
        options = GameOptions(expansions=_expansions(args.expansions), seed=args.seed,
                              allow_solo=len(names) == 1)
    except (ValueError, ServiceError) as exc:
        stdout.write(f"{say(exc) if isinstance(exc, ServiceError) else exc}\n")
        return 2
    service = await GameService.open(args.db)
    try:
        if args.demo:
            seed = args.seed if args.seed is not None else random.randrange(2**31)
            where = Where("local", f"demo-{random.randrange(2**62):x}")
            term = Terminal(service, where, render, Path(args.out), stdout)
            return await demo(service, names, options, term, seed)
        asked = Table(names if args.players is not None else None,
                      options.expansions if args.expansions is not None else None, args.seed)
        chosen = await choose_table(service, asked, args.new, args.game, str(args.db))
        if isinstance(chosen, str):
            stdout.write(chosen + "\n")
            return 2
        where, note = chosen
        term = Terminal(service, where, render, Path(args.out), stdout, stdin, render_tile)
        if note:
            term.say(note)
        return await hot_seat(service, names, options, term, stdin)
    finally:
        await service.close()


__all__ = ["run"]
