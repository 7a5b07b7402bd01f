"""The `carca-bot` command line: replay records, run the bot, play locally."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def _replay(args: argparse.Namespace) -> int:
    from carca_bot.engine.record import RESULT_FORMAT, replay_text

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        status, out = 2, {"format": RESULT_FORMAT,
                          "error": {"index": None, "message": f"cannot read {args.file}: {exc}"}}
    else:
        status, out = replay_text(text)
    print(json.dumps(out, ensure_ascii=False))
    return status


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

    import discord

    from carca_bot.bot.client import serve

    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        print("carca-bot: Discord refused the token in DISCORD_TOKEN; check it in the "
              "developer portal (Bot > Reset Token).", file=sys.stderr)
        return 2
    return 0


def _local(args: argparse.Namespace) -> int:
    import asyncio

    from carca_bot.local import run
    from carca_bot.render.board import render_board

    return asyncio.run(run(args, render_board))


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
