"""The `carca-bot` command line: replay records, run the bot, play locally."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carca_bot.engine.errors import IllegalMove
    from carca_bot.service import ErasePlan


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


# -- players' data, for the operator (issue 32) -------------------------------------------


def _service_db(args: argparse.Namespace, command: str) -> str | None:
    """The database the command works on, if it is there and usable (said on stderr if
    not): these commands never create one."""
    import asyncio
    from pathlib import Path

    from carca_bot.ops import database_problem, default_db
    from carca_bot.store.driver import is_postgres_url

    target = str(args.db or default_db())
    if not is_postgres_url(target) and not Path(target).is_file():
        print(f"carca-bot {command}: there is no database {target} (set CARCA_DB or pass "
              "--db PATH)", file=sys.stderr)
        return None
    problem = asyncio.run(database_problem(target))
    if problem is not None:
        print(f"carca-bot {command}: {problem}", file=sys.stderr)
        return None
    return target


def _confirmed(args: argparse.Namespace, expected: str, what: str) -> bool:
    """--yes, or the operator types `expected` again at the terminal."""
    if args.yes:
        return True
    if not sys.stdin.isatty():
        print(f"not confirmed: run it at a terminal, or add --yes to {what}", file=sys.stderr)
        return False
    return input(f"Type {expected} again to {what}: ").strip() == expected


def _export_user(args: argparse.Namespace) -> int:
    import asyncio

    from carca_bot.service import GameService, ServiceError

    target = _service_db(args, "export-user")
    if target is None:
        return 2

    async def export() -> dict[str, Any]:
        service = await GameService.open(target)
        try:
            return await service.privacy_export(args.user_id)
        finally:
            await service.close()

    try:
        data = asyncio.run(export())
    except ServiceError as exc:
        print(f"carca-bot export-user: {exc.code}", file=sys.stderr)
        return 2
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.out:
        from pathlib import Path

        Path(args.out).write_text(text + "\n", encoding="utf-8")
        rows = sum(len(r) for r in data["tables"].values())
        print(f"wrote {rows} rows about {args.user_id} to {args.out}")
    else:
        print(text)
    return 0


def _plan_lines(plan: ErasePlan) -> list[str]:
    doing = {"leave": "leaves the lobby", "cancel": "closes the lobby they opened",
             "resign": "resigns from the running game", "delete": "deletes their imported game"}
    lines = [f"  {doing[g.action]} {g.game_id} (server {g.where.guild}, channel "
             f"{g.where.channel})" for g in plan.games]
    lines += [f"  withdraws from the event {e.event_id} ({e.title!r}, server {e.guild})"
              for e in plan.events]
    return [*lines, f"  deletes or rewrites {plan.rows} stored rows"]


def _erase_user(args: argparse.Namespace) -> int:
    import asyncio

    from carca_bot.service import GameService, ServiceError
    from carca_bot.words.privacy import former_player

    target = _service_db(args, "erase-user")
    if target is None:
        return 2

    async def erase() -> int:
        service = await GameService.open(target)
        try:
            plan = await service.erase_plan(args.user_id)
            print(f"Erasing {args.user_id}:", *_plan_lines(plan), sep="\n")
            if not plan.rows:
                print("nothing is stored about this user")
                return 1
            if not _confirmed(args, args.user_id, "erase them"):
                print("nothing was erased")
                return 1
            done = await service.erase_user(args.user_id, plan.token, former_player)
        finally:
            await service.close()
        print(f"erased: now {former_player(done.number, 'en')} ({done.pseudonym_id}); "
              f"{done.deleted} rows deleted, {done.rewritten} rewritten")
        for message in done.messages:
            print(f"  delete in Discord: message {message.message_id} in channel "
                  f"{message.channel_id}")
        return 0

    try:
        return asyncio.run(erase())
    except ServiceError as exc:
        print(f"carca-bot erase-user: {exc.code}; nothing was erased", file=sys.stderr)
        return 2


def _forget_guild(args: argparse.Namespace) -> int:
    import asyncio

    from carca_bot.service import GameService

    target = _service_db(args, "forget-guild")
    if target is None:
        return 2
    if not _confirmed(args, args.guild_id, "delete every game, event and setting of it"):
        print("nothing was deleted")
        return 1

    async def forget() -> dict[str, int]:
        service = await GameService.open(target)
        try:
            return await service.forget_guild(args.guild_id)
        finally:
            await service.close()

    counts = asyncio.run(forget())
    print(f"server {args.guild_id}: deleted " + (", ".join(
        f"{table} {n}" for table, n in counts.items()) or "nothing (nothing was stored)"))
    return 0


def _add_privacy_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser],
                          handlers: dict[str, Handler]) -> None:
    from carca_bot.ops import add_db_argument

    export = commands.add_parser(
        "export-user", help="print everything stored about a user, as JSON (a data request)")
    export.add_argument("user_id", metavar="ID", help="the user's Discord id")
    export.add_argument("--out", metavar="FILE", help="write it to FILE instead")
    add_db_argument(export)
    handlers["export-user"] = _export_user
    erase = commands.add_parser(
        "erase-user", help="erase a user: their games stay under a pseudonym (an erasure "
        "request)")
    erase.add_argument("user_id", metavar="ID", help="the user's Discord id")
    erase.add_argument("--yes", action="store_true", help="do not ask to confirm")
    add_db_argument(erase)
    handlers["erase-user"] = _erase_user
    forget = commands.add_parser(
        "forget-guild", help="delete a server's games, events, ratings and settings now")
    forget.add_argument("guild_id", metavar="ID", help="the server's Discord id")
    forget.add_argument("--yes", action="store_true", help="do not ask to confirm")
    add_db_argument(forget)
    handlers["forget-guild"] = _forget_guild


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

    _add_privacy_commands(commands, handlers)

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
