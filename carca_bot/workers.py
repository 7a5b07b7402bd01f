"""CPU work (pictures, replays, the AI) away from a bot process's event loop, with a
bounded queue and a time budget per job.

`Pool(kind="processes")` keeps `size` worker processes (spawned, so safe beside the
loop's threads) and sends each job down a pipe: the function (importable by name) and
its arguments, pickled. A job waits for a free worker, but only `queue` jobs may wait:
one more is refused at once with `Busy`, so under overload players are told "busy, try
again" in milliseconds rather than waiting ever longer. A job not done within its
`budget_seconds` is abandoned (`Overtime`): its worker is killed, and a new one is
started for the next job.
A worker that dies under a job (a crash, out of memory) fails that job alone
(`WorkerLost`) and is replaced; the bot process goes on.

`Pool(kind="threads")` is the same interface on threads, for one small bot: no start-up
cost, no pickling, but the work shares the GIL with the loop, and a job over budget is
only abandoned (a thread cannot be killed; it runs on and holds its thread meanwhile).

Arguments cross to a process pickled, on the caller's side: pass something compact. A
whole `Game` is 135-216 KiB and 35 ms to pickle (on the loop); `Position.of(game)` (the
setup without its seed, the record's actions, the turn's steps) is 2-4 KiB and 0.1 ms,
and the worker rebuilds the game from it in 20-40 ms; a board takes about 250 ms to
draw (2 cores at load 7). The picture jobs (`render_board_job`, `render_card_job`,
`render_tile_job`) take a Position.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import pickle
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar, cast

from carca_bot.ai.pool import Position

__all__ = ["Busy", "Overtime", "Pool", "PoolError", "Position", "WorkerLost",
           "render_board_job", "render_card_job", "render_tile_job", "warm_up_job"]
log = logging.getLogger(__name__)

T = TypeVar("T")
KINDS = ("threads", "processes")
DEFAULT_BUDGET = 20.0  # seconds: a board of a 6-player game with every expansion is ~1 s


class PoolError(RuntimeError):
    """The job was not done; nothing it would have changed was changed."""


class Busy(PoolError):
    """Every worker is busy and the queue is full: refused at once; try again soon."""


class Overtime(PoolError):
    """The job ran past its budget and was abandoned (its worker replaced)."""


class WorkerLost(PoolError):
    """The worker died under the job (and was replaced)."""


@dataclass(frozen=True)
class Stats:
    running: int
    waiting: int
    done: int
    refused: int
    overtime: int
    lost: int


def _name_of(fn: Callable[..., Any]) -> tuple[str, str]:
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if not module or "<" in name or "." in name:
        raise TypeError(f"{fn!r} is not a module-level function a worker can import")
    return module, name


def _serve(conn: Connection) -> None:
    """A worker process: run jobs from the pipe until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot decides when workers stop
    while True:
        try:
            module, name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            result = getattr(importlib.import_module(module), name)(*args)
            reply: tuple[str, Any] = ("ok", result)
        except BaseException as exc:  # the job's error goes back to the caller
            reply = ("error", exc)
        try:
            conn.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(("error", PoolError(f"the result could not be sent back: {exc}")))


class _Worker:
    def __init__(self, context: Any) -> None:
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs,), daemon=True,
                                       name="carca-worker")
        self.process.start()
        theirs.close()

    def stop(self, kill: bool = False) -> None:
        with contextlib.suppress(OSError):
            self.conn.close()
        if kill and self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)


class Pool:
    """`size` workers, at most `queue` jobs waiting for one."""

    def __init__(self, kind: str = "threads", size: int = 2, queue: int = 16) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        if size < 1 or queue < 0:
            raise ValueError("a pool has at least one worker and a queue of 0 or more")
        self.kind, self.size, self.queue = kind, size, queue
        self._slots = asyncio.Semaphore(size)
        self._waiting = 0
        self._running = 0
        self._counts = {"done": 0, "refused": 0, "overtime": 0, "lost": 0}
        self._threads: ThreadPoolExecutor | None = None
        self._idle: list[_Worker] = []
        self._context = multiprocessing.get_context("spawn")
        self._closed = False
        if kind == "threads":
            self._threads = ThreadPoolExecutor(size, thread_name_prefix="carca-work")

    def stats(self) -> Stats:
        return Stats(self._running, self._waiting, **self._counts)

    async def start(self) -> None:
        """Start the worker processes now (about a second each on 2 cores), rather than
        under the first jobs."""
        if self.kind == "processes":
            while len(self._idle) < self.size:
                self._idle.append(await asyncio.to_thread(_Worker, self._context))

    async def submit(self, fn: Callable[..., T], *args: Any,
                     budget_seconds: float = DEFAULT_BUDGET) -> T:
        """`fn(*args)` in a worker: its result, or its exception; `Busy` at once when the
        queue is full, `Overtime` past the budget (counted from when a worker takes it),
        `WorkerLost` if the worker died."""
        if self._closed:
            raise PoolError("the pool is closed")
        module, name = _name_of(fn)
        if self._running >= self.size and self._waiting >= self.queue:
            self._counts["refused"] += 1
            raise Busy(f"{self._running} jobs running and {self._waiting} waiting")
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        self._running += 1
        try:
            if self._threads is not None:
                future = asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)
                try:
                    result = await asyncio.wait_for(future, budget_seconds)
                except TimeoutError:
                    self._counts["overtime"] += 1
                    raise Overtime(f"{name} ran past {budget_seconds} s") from None
            else:
                result = cast(T, await self._in_process(module, name, args, budget_seconds))
            self._counts["done"] += 1
            return result
        finally:
            self._running -= 1
            self._slots.release()

    async def _in_process(self, module: str, name: str, args: tuple[Any, ...],
                          budget: float) -> Any:
        worker = self._idle.pop() if self._idle else await asyncio.to_thread(
            _Worker, self._context)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[str, Any]] = loop.create_future()

        def readable() -> None:
            loop.remove_reader(worker.conn.fileno())
            try:
                answer.set_result(worker.conn.recv())
            except (EOFError, OSError) as exc:
                answer.set_exception(WorkerLost(f"the worker died running {name}: {exc!r}"))
            except BaseException as exc:  # an answer that cannot be unpickled here
                answer.set_exception(PoolError(f"{name}'s answer was unreadable: {exc!r}"))

        healthy = False
        try:
            worker.conn.send((module, name, args))
            loop.add_reader(worker.conn.fileno(), readable)
            try:
                status, value = await asyncio.wait_for(answer, budget)
            except TimeoutError:
                self._counts["overtime"] += 1
                raise Overtime(f"{name} ran past {budget} s; its worker was replaced"
                               ) from None
            except WorkerLost:
                self._counts["lost"] += 1
                raise
            healthy = True
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(worker.conn.fileno())
            if healthy and not self._closed:
                self._idle.append(worker)
            else:  # over budget, dead, or cancelled mid-job: never reuse it
                await asyncio.to_thread(worker.stop, True)
        if status == "error":
            raise value
        return value

    async def close(self) -> None:
        """Stop the workers (a job under way is abandoned)."""
        self._closed = True
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        idle, self._idle = self._idle, []
        for worker in idle:
            await asyncio.to_thread(worker.stop)


# -- jobs: module-level functions, so a worker process can import them by name --------


def render_board_job(position: Position, max_bytes: int | None, language: str) -> bytes:
    """The board picture, drawn in a worker from a compact position."""
    from carca_bot.render.board import render_board

    return render_board(position.game(), max_bytes=max_bytes, language=language)


def render_tile_job(position: Position, tile: str, language: str) -> bytes:
    """The picture of a player's tile, drawn in a worker from a compact position."""
    from carca_bot.render.board import render_your_tile

    return render_your_tile(position.game(), tile, language=language)


def render_card_job(position: Position, tile: str | None, language: str) -> bytes:
    """The picture on a game's card (`render.focus`), drawn in a worker."""
    from carca_bot.render.focus import render_focus

    return render_focus(position.game(), tile, language=language)


def warm_up_job() -> int:
    """Load the renderer's art in a worker (its first board then costs no more than the
    next); returns the worker's process id."""
    from carca_bot.render.board import warm_up

    warm_up()
    return os.getpid()
