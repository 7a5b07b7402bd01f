"""Pictures and other CPU work, off the event loop: render threads (each keeps its own
renderer, whose tile layer survives between moves), or worker processes
(`CARCA_WORKERS=processes`: boards, cards and tile pictures go to `carca_bot.workers`).

A picture's words are drawn in a thread, which does not see the task's language: the
language is passed along explicitly. Its description (alt text: `carca_bot.words.alt`)
is written on the event loop, in the language spoken, from what the service said and
from the few facts of the drawing worked out beside it in a thread (`beyond`, `fits`).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import discord

from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.i18n import Domain, speaking
from carca_bot.observe import WorkerState
from carca_bot.service import Played, TurnView
from carca_bot.words import alt
from carca_bot.workers import (
    Pool,
    Position,
    Thinker,
    render_board_job,
    render_card_job,
    render_tile_job,
    warm_up_job,
)

log = logging.getLogger("carca_bot.bot")
_T = Domain("bot")
_ = _T.gettext
T = TypeVar("T")
MARGIN = 64 * 1024  # bytes kept free of an upload limit for the message itself
BOARD = "board.png"  # the board's file name, on the card and in posts


def file_size(file: discord.File) -> int:
    """Bytes of an attachment made in memory (all of the bot's are)."""
    fp = file.fp
    return len(fp.getbuffer()) if isinstance(fp, io.BytesIO) else 0


def board_alt(view: TurnView, last: Played | None, game: Game) -> str:
    """The description of the board picture of `game` as `view` shows it (`last`: the
    game's newest action, `Shown.last`), in the language spoken."""
    return alt.board_alt(view, last, len(game.board.tiles))


PICTURE_QUEUE = 32  # pictures waiting for a worker; one more is refused (workers.Busy)
PICTURE_SECONDS = 30.0  # a picture not drawn by then is abandoned (workers.Overtime)


class Pictures:
    """Where the bot draws. `board` arguments are the service's copies (`Shown.board`)."""

    def __init__(self, threads: int, workers: str) -> None:
        self._threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="render")
        self.pool = (Pool("processes", threads, queue=PICTURE_QUEUE)
                     if workers == "processes" else None)

    async def warm_up(self) -> None:
        """Prepare the renderers (in the render thread, so boards simply queue behind it)."""
        from carca_bot.render.board import warm_up

        self._threads.submit(warm_up)
        if self.pool is not None:
            await self.pool.start()
            await asyncio.gather(*(self.pool.submit(warm_up_job)
                                   for _ in range(self.pool.size)))

    async def close(self) -> None:
        self._threads.shutdown(wait=True)
        if self.pool is not None:
            await self.pool.close()

    def thinker(self) -> Thinker | None:
        """The AI on the pictures' worker processes, if there are any: one pool, one
        time-out and back-pressure rule for both, and the strong level's spare search
        runs only on a worker no picture needs (`carca_bot.workers`). None with render
        threads: the service then starts the AI's own processes when it first needs them."""
        return Thinker(self.pool) if self.pool is not None else None

    def state(self) -> WorkerState:
        """The health check's view of where the pictures are drawn (`carca_bot.observe`):
        the worker processes' queue (the AI's decisions too, which share them), or the
        render threads' (unbounded)."""
        if self.pool is not None:
            stats = self.pool.stats()
            closed = self._threads._shutdown  # closed together with the pool
            return WorkerState(self.pool.size, 0 if closed else self.pool.size,
                               stats.waiting, self.pool.queue)
        threads = self._threads._max_workers
        return WorkerState(threads, 0 if self._threads._shutdown else threads,
                           self._threads._work_queue.qsize(), 0)

    async def in_threads(self, work: Callable[[], T]) -> T:
        """Any CPU work (a replay, a picture) in the render threads. `work` runs without
        this task's language: pass the language to it explicitly."""
        return await asyncio.get_running_loop().run_in_executor(self._threads, work)

    async def board(self, game: Game, max_bytes: int | None = None,
                    language: str = "en") -> bytes:
        from carca_bot.render.board import render_board

        if self.pool is not None:
            return await self.pool.submit(render_board_job, Position.of(game), max_bytes,
                                          language, budget_seconds=PICTURE_SECONDS)
        return await self.in_threads(lambda: render_board(
            game, max_bytes=max_bytes, language=language))

    async def board_file(self, game: Game, max_bytes: int, language: str, view: TurnView,
                         last: Played | None = None) -> discord.File:
        """The board as an attachment of a post in `language`, with its description (what
        a screen reader says of it: `view`'s change, or the game's newest action `last`,
        and who is to act)."""
        png = await self.board(game, max_bytes, language)
        with speaking(language):
            return discord.File(io.BytesIO(png), filename=BOARD,
                                description=board_alt(view, last, game))

    async def card(self, game: Game, tile: str | None, language: str) -> bytes:
        """The picture on a game's card. `tile`: the tile the player to act drew (shown to
        all), for a picture that marks where it fits."""
        from carca_bot.render.focus import render_focus

        if self.pool is not None:
            return await self.pool.submit(render_card_job, Position.of(game), tile,
                                          language, budget_seconds=PICTURE_SECONDS)
        return await self.in_threads(lambda: render_focus(game, tile, language=language))

    async def beyond(self, game: Game, tile: str | None) -> int:
        """How many squares where `tile` fits lie outside the card's picture (the counts
        its edge markers show), for the picture's alt text."""
        from carca_bot.render.focus import plan

        if tile is None:
            return 0
        return await self.in_threads(lambda: sum(m.count for m in plan(game, tile).markers))

    async def fits(self, game: Game, tile: str
                   ) -> tuple[dict[Pos, tuple[int, ...]], list[Pos]]:
        """Where `tile` fits (each square with its quarter turns) and the squares "my
        tile" shows magnified, for the picture's alt text."""
        from carca_bot.render.yourtile import BEST, best_squares, legal_squares

        def work() -> tuple[dict[Pos, tuple[int, ...]], list[Pos]]:
            squares = legal_squares(game, tile)
            return squares, best_squares(game, squares)[:BEST]  # as `shown_squares`

        return await self.in_threads(work)

    async def your_tile(self, game: Game, tile: str, language: str = "en") -> bytes:
        from carca_bot.render.board import render_your_tile

        if self.pool is not None:
            return await self.pool.submit(render_tile_job, Position.of(game), tile,
                                          language, budget_seconds=PICTURE_SECONDS)
        return await self.in_threads(lambda: render_your_tile(game, tile, language=language))

    async def fitting(self, draw: Callable[[], bytes], limit: int, what: str) -> bytes | None:
        """PNG bytes drawn in the render threads; None (logged) when drawing fails or the
        picture does not fit under `limit`: the caller answers in text then."""
        try:
            png = await self.in_threads(draw)
        except Exception:  # a picture is never worth losing the answer over: a warning
            log.warning("%s: the picture could not be drawn", what, exc_info=True)
            return None
        if len(png) > limit - MARGIN:
            log.info("%s: the picture (%d bytes) does not fit under %d", what, len(png), limit)
            return None
        return png
