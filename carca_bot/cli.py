"""The `carca-bot` command line: replay records, run the bot, play locally."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carca_bot.engine.errors import IllegalMove


def refusal_words(exc: IllegalMove, players: Sequence[str]) -> str:
    """A refused action in the replay result's `error.message`: plain English words,
    whatever language the terminal speaks (the result is a machine contract)."""
    from carca_bot.i18n import speaking
    from carca_bot.words import say

    with speaking("en"):
        return say(exc, players)


def _replay(args: argparse.Namespace) -> int:
    from carca_bot.engine.record import replay_file

    status, out = replay_file(args.file, refusal_words)
    _print_json(out)
    return status


def _print_json(out: object) -> None:
    """One JSON object on stdout, readable where the terminal allows; ASCII escapes when
    the text cannot be written as it is (a lone surrogate, a narrow locale)."""
    text = json.dumps(out, ensure_ascii=False)
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:
        text = json.dumps(out)
    print(text)


Handler = Callable[[argparse.Namespace], int]


def _run(args: argparse.Namespace) -> int:
    from carca_bot.bot.config import NO_TOKEN_HELP, ConfigError, Settings

    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"carca-bot: {exc}", file=sys.stderr)
        return 2
    if settings.token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        if sys.stdin.isatty():
            answer = input("Watch a local demo game now? [y/N] ").strip().lower()
            if answer in ("y", "yes"):
                return main(["local", "--demo"])
        return 1
    import asyncio
    import sqlite3

    import aiohttp
    import discord

    from carca_bot.bot.client import Unreachable, serve
    from carca_bot.ops import database_problem
    from carca_bot.store import SchemaTooNew

    problem = asyncio.run(database_problem(settings.database))
    if problem is not None:
        print(f"carca-bot: CARCA_DB: {problem}", file=sys.stderr)
        return 2
    discord.VoiceClient.warn_nacl = False  # the bot never joins voice: no warning about it
    discord.VoiceClient.warn_dave = False
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        asyncio.run(serve(settings))
    except Unreachable as exc:  # one line for the admin, not a traceback
        print(exc, file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("carca-bot: Discord refused the token in DISCORD_TOKEN; check it in the "
              "developer portal (Bot > Reset Token).", file=sys.stderr)
        return 2
    except (aiohttp.ClientError, discord.GatewayNotFound, OSError) as exc:
        print(f"carca-bot: cannot reach Discord ({exc or type(exc).__name__}); check this "
              "machine's network connection and DNS, then start again.", file=sys.stderr)
        return 2
    except (SchemaTooNew, sqlite3.Error) as exc:  # the database changed since the check
        print(f"carca-bot: CARCA_DB: cannot use {settings.database}: {exc}", file=sys.stderr)
        return 2
    return 0


def _local(args: argparse.Namespace) -> int:
    import asyncio

    from carca_bot.local.play import run
    from carca_bot.ops import database_problem
    from carca_bot.render.board import render_board, render_your_tile

    problem = asyncio.run(database_problem(args.db))
    if problem is not None:
        print(f"carca-bot local: --db: {problem}")
        return 2
    return asyncio.run(run(args, render_board, render_tile=render_your_tile))


def _migrate(args: argparse.Namespace) -> int:
    from carca_bot.pgcopy import run

    return run(args)


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Handler]]:
    parser = argparse.ArgumentParser(prog="carca-bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    handlers: dict[str, Handler] = {}

    replay = commands.add_parser("replay", help="replay a carca-record/1 file and print the result")
    replay.add_argument("file", help="the record, a JSON file")
    handlers["replay"] = _replay

    run = commands.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    run.set_defaults()
    handlers["run"] = _run

    from carca_bot import ops
    from carca_bot.local import add_arguments

    backup = commands.add_parser("backup", help="copy the live database consistently to PATH")
    ops.add_backup_arguments(backup)
    handlers["backup"] = ops.run_backup

    check = commands.add_parser("check", help="check the database and replay every game")
    ops.add_check_arguments(check)
    handlers["check"] = ops.run_check

    migrate = commands.add_parser(
        "migrate", help="copy every game from a SQLite file to a new PostgreSQL database")
    ops.add_migrate_arguments(migrate)
    handlers["migrate"] = _migrate

    local = commands.add_parser("local", help="play in this terminal, without Discord")
    add_arguments(local)
    handlers["local"] = _local
    return parser, handlers


def main(argv: Sequence[str] | None = None) -> int:
    parser, handlers = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return handlers[args.command](args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
