"""CPU-heavy work kept off the event loop: rebuilding games and replaying imported records.

An imported record is read by the engine's bounded record reader, the same one
`carca-bot replay` uses (`decode`), and its refusals keep the reader's codes, which the
words layer says in the player's language (`refusal`).

Rebuilds run in a small thread pool and are never refused. Imports run in a pool
of their own, one at a time, so hostile records cannot hold up rebuilds, and each
must finish replaying within `Limits.import_seconds`. Threads share the GIL with
the event loop, but Python switches threads every few milliseconds, so the loop
keeps answering while a replay runs.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from carca_bot.engine.errors import IllegalMove, RecordError
from carca_bot.engine.game import Game
from carca_bot.engine.record import (
    Record,
    load_record_bytes,
    load_record_text,
    parse_record,
    play_action,
)
from carca_bot.service.errors import BadInput
from carca_bot.service.model import Limits

T = TypeVar("T")


class Workers:
    """The service's threads; `close` stops them."""

    def __init__(self) -> None:
        self._rebuilds = ThreadPoolExecutor(2, thread_name_prefix="carca-rebuild")
        self._imports = ThreadPoolExecutor(1, thread_name_prefix="carca-import")

    async def run(self, work: Callable[[], T]) -> T:
        """Rebuild-type work: a game from its log, a copy for rendering."""
        return await asyncio.get_running_loop().run_in_executor(self._rebuilds, work)

    async def replay_import(self, data: object, limits: Limits) -> tuple[Record, Game]:
        return await asyncio.get_running_loop().run_in_executor(
            self._imports, replay_import, data, limits)

    def close(self) -> None:
        self._rebuilds.shutdown(wait=False, cancel_futures=True)
        self._imports.shutdown(wait=False, cancel_futures=True)


def _too_big(size: int, limit: int) -> BadInput:
    return BadInput("record_too_big", size=size, limit=limit)


def decode(data: object, limit: int) -> object:
    """The record as JSON values, read by the engine's bounded reader: the one
    `carca-bot replay` uses (`engine.record.load_record_text`), so every door refuses
    the same records for the same reasons (a key twice in one object, a number too
    long, nesting too deep, ...). Refused first if its text is over `limit` bytes (the
    service's bound, below the engine's). RecordError for what the reader refuses.

    Takes the file's bytes, or JSON already parsed: then written out as JSON text and
    read again, so it meets the same bounds as a file.
    """
    if isinstance(data, (bytes, bytearray)):
        if len(data) > limit:
            raise _too_big(len(data), limit)
        return load_record_bytes(bytes(data))
    try:
        text = json.dumps(data, ensure_ascii=False)
    except RecursionError:
        raise BadInput("record_too_deep") from None
    except (TypeError, ValueError):
        raise BadInput("not_json") from None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise _too_big(size, limit)
    return load_record_text(text)


def refusal(exc: RecordError) -> BadInput:
    """What the reader refused, as the service's refusal: the reader's own code and
    params (words in the player's language); the shape checks without a code of their
    own (`record_invalid`) quote the contract's message, with the action's index."""
    if exc.code == "record_invalid":
        return BadInput("record_invalid", detail=str(exc), index=exc.index)
    return BadInput(exc.code, **exc.params)


def replay_import(data: object, limits: Limits) -> tuple[Record, Game]:
    """Parse and replay a whole record (in a worker thread), within the time budget."""
    started = time.monotonic()
    budget = limits.import_seconds

    def in_time() -> None:
        if time.monotonic() - started > budget:
            raise BadInput("import_too_slow", seconds=budget)

    try:
        record = parse_record(decode(data, limits.record_bytes))
    except RecordError as exc:
        raise refusal(exc) from None
    except RecursionError:
        raise BadInput("record_too_deep") from None
    in_time()
    try:
        game = Game(record.setup)
        for index, action in enumerate(record.actions):
            in_time()
            try:
                play_action(game, action)
            except IllegalMove as exc:
                exc.names = record.setup.players
                raise BadInput("record_breaks_rule", index=index, refusal=exc) from None
    except IllegalMove as exc:
        exc.names = record.setup.players
        raise BadInput("record_setup_refused", refusal=exc) from None
    except ValueError:  # the checks above rule it out; no Python text reaches a player
        raise BadInput("record_setup_invalid") from None
    in_time()
    return record, game
