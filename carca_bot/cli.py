"""The `carca-bot` command line: replay records, run the bot, play locally."""

from __future__ import annotations

import argparse
import json
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


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Handler]]:
    parser = argparse.ArgumentParser(prog="carca-bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    handlers: dict[str, Handler] = {}

    replay = commands.add_parser("replay", help="replay a carca-record/1 file and print the result")
    replay.add_argument("file", help="the record, a JSON file")
    handlers["replay"] = _replay
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
