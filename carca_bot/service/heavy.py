"""CPU-heavy work kept off the event loop: rebuilding games and replaying imported records.

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
from carca_bot.engine.record import Record, parse_record, play_action
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
    """The record as JSON values, refused before parsing if its text is over `limit` bytes.

    Takes the file's bytes, or JSON already parsed (then measured as JSON text).
    """
    if isinstance(data, (bytes, bytearray)):
        if len(data) > limit:
            raise _too_big(len(data), limit)
        try:
            return json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise BadInput("not_json", detail=str(exc)[:100]) from None
    try:
        size = len(json.dumps(data))
    except (TypeError, ValueError, RecursionError):
        raise BadInput("not_json") from None
    if size > limit:
        raise _too_big(size, limit)
    return data


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
        # `detail`: the record check's own words (the carca-record/1 contract's message).
        raise BadInput("record_invalid", detail=str(exc), index=exc.index) from None
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
    except ValueError as exc:
        raise BadInput("record_setup_invalid", detail=str(exc)) from None
    in_time()
    return record, game
