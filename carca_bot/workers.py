"""CPU work (pictures, replays, the AI) away from a bot process's event loop: one pool,
one time-out rule, one back-pressure rule.

`Pool(kind="processes")` keeps `size` worker processes (spawned, so safe beside the
loop's threads) and sends each job down a pipe: the function (importable by name) and
its arguments, pickled. The rules, the same for a picture and an AI decision:
- back-pressure: a job waits for a free worker, but only `queue` jobs may wait: one
  more is refused at once with `Busy`, so under overload players are told "busy, try
  again" in milliseconds rather than waiting ever longer;
- time-out: a job not done within its `budget_seconds`, counted from when a worker
  takes it, is abandoned (`Overtime`): its worker is killed, and a new one is started
  for the next job. A caller that stops waiting (a cancelled `submit`) abandons its job
  the same way, or simply leaves the queue if no worker had taken it yet;
- a worker that dies under a job (a crash, out of memory) fails that job alone
  (`WorkerLost`) and is replaced; the bot process goes on.

A *spare* job (`submit_spare`) uses a worker nobody needs: it starts only when a worker
is idle and no job waits, and gives way as soon as one does. The job is told through
its `give_way` argument, a function that turns true when another job wants the worker,
and it is expected to stop then and return what it has (the AI's second search, root
parallelism on the second core: `Thinker`). So a spare job delays a player's command by
at most one step of its loop.

`Pool(kind="threads")` is the same interface on threads, for one small bot: no start-up
cost, no pickling, but the work shares the GIL with the loop, a job over budget is only
abandoned (a thread cannot be killed; it runs on and holds its thread meanwhile), and
there are no spare jobs.

Arguments cross to a process pickled, on the caller's side: pass something compact. A
whole `Game` is 135-216 KiB and 35 ms to pickle (on the loop); `Position.of(game)` (the
setup without its seed, the record's actions, the turn's steps) is 2-4 KiB and 0.1 ms,
and the worker rebuilds the game from it in 20-40 ms; a board takes about 250 ms to
draw (2 cores at load 7). The picture jobs (`render_board_job`, `render_card_job`,
`render_tile_job`) take a Position; the AI's jobs are in `carca_bot.ai.pool`, and
`Thinker` puts them on this pool.
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
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar, cast

from carca_bot.ai import pool as ai_pool
from carca_bot.ai.players import DEFAULT_BUDGET as AI_BUDGET
from carca_bot.ai.players import Budget, check_level
from carca_bot.ai.pool import Position, Thought
from carca_bot.ai.turns import Plan
from carca_bot.engine.game import Game

__all__ = ["Busy", "Overtime", "Pool", "PoolError", "Position", "Stats", "Thinker",
           "WorkerLost", "render_board_job", "render_card_job", "render_tile_job",
           "warm_up_job"]
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
    spare: int = 0  # spare jobs started (`submit_spare`)
    gave_way: int = 0  # ... of which were asked to stop early for another job


def _name_of(fn: Callable[..., Any]) -> tuple[str, str]:
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if not module or "<" in name or "." in name:
        raise TypeError(f"{fn!r} is not a module-level function a worker can import")
    return module, name


def _serve(conn: Connection, flag: Any) -> None:
    """A worker process: run jobs from the pipe until it closes. A spare job gets the
    worker's give-way flag as its `give_way` argument (see the module's docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot decides when workers stop

    def give_way() -> bool:
        return bool(flag.value)

    while True:
        try:
            module, name, args, spare = conn.recv()
        except (EOFError, OSError):
            return
        try:
            fn = getattr(importlib.import_module(module), name)
            result = fn(*args, give_way=give_way) if spare else fn(*args)
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
        self.flag = context.Value("b", 0, lock=False)  # set: a spare job must give way
        self.process = context.Process(target=_serve, args=(theirs, self.flag), daemon=True,
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
    """`size` workers, at most `queue` jobs waiting for one (see the module's docstring)."""

    def __init__(self, kind: str = "processes", size: int = 2, queue: int = 16) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        if size < 1 or queue < 0:
            raise ValueError("a pool has at least one worker and a queue of 0 or more")
        self.kind, self.size, self.queue = kind, size, queue
        self._free = size  # slots no job holds
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._running = 0
        self._counts = {"done": 0, "refused": 0, "overtime": 0, "lost": 0, "spare": 0,
                        "gave_way": 0}
        self._threads: ThreadPoolExecutor | None = None
        self._idle: list[_Worker] = []
        self._spares: list[_Worker] = []  # workers running a spare job now
        self._context = multiprocessing.get_context("spawn")
        self._closed = False
        if kind == "threads":
            self._threads = ThreadPoolExecutor(size, thread_name_prefix="carca-work")

    def stats(self) -> Stats:
        return Stats(self._running, len(self._waiters), **self._counts)

    async def start(self) -> None:
        """Start the worker processes now (about a second each on 2 cores), rather than
        under the first jobs."""
        if self.kind == "processes":
            while len(self._idle) < self.size:
                self._idle.append(await asyncio.to_thread(_Worker, self._context))

    # -- slots: `size` of them, handed to waiting jobs first come, first served ----------

    async def _acquire(self) -> None:
        if self._free > 0 and not self._waiters:
            self._free -= 1
            return
        for worker in self._spares:  # a job waits: spare jobs give way
            if not worker.flag.value:
                worker.flag.value = 1
                self._counts["gave_way"] += 1
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # the slot came as the caller gave up: pass it on
            else:
                self._waiters.remove(waiter)
            raise

    def _release(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1

    # -- jobs ----------------------------------------------------------------------------

    async def submit(self, fn: Callable[..., T], *args: Any,
                     budget_seconds: float = DEFAULT_BUDGET) -> T:
        """`fn(*args)` in a worker: its result, or its exception; `Busy` at once when the
        queue is full, `Overtime` past the budget (counted from when a worker takes it),
        `WorkerLost` if the worker died."""
        if self._closed:
            raise PoolError("the pool is closed")
        module, name = _name_of(fn)
        # A slot a spare job holds is as good as free: that job gives way at once.
        if self._free + len(self._spares) <= 0 and len(self._waiters) >= self.queue:
            self._counts["refused"] += 1
            raise Busy(f"{self._running} jobs running and {len(self._waiters)} waiting")
        await self._acquire()
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
                worker = self._idle.pop() if self._idle else await asyncio.to_thread(
                    _Worker, self._context)
                result = cast(T, await self._in_process(worker, module, name, args,
                                                        budget_seconds, False))
            self._counts["done"] += 1
            return result
        finally:
            self._running -= 1
            self._release()

    def submit_spare(self, fn: Callable[..., T], *args: Any,
                     budget_seconds: float = DEFAULT_BUDGET) -> asyncio.Task[T] | None:
        """`fn(*args, give_way=...)` on a worker nobody needs, or None (and nothing done)
        when no started worker is idle or a job waits; see the module's docstring. The
        task's outcome is `submit`'s."""
        if (self._closed or self._threads is not None or not self._idle or self._free <= 0
                or self._waiters):
            return None
        module, name = _name_of(fn)
        self._free -= 1  # taken here, synchronously: no other job can slip in between
        self._running += 1
        worker = self._idle.pop()
        worker.flag.value = 0
        self._spares.append(worker)
        self._counts["spare"] += 1

        async def run() -> T:
            try:
                result = cast(T, await self._in_process(worker, module, name, args,
                                                        budget_seconds, True))
                self._counts["done"] += 1
                return result
            finally:
                self._spares.remove(worker)
                self._running -= 1
                self._release()

        return asyncio.create_task(run(), name=f"spare-{name}")

    async def _in_process(self, worker: _Worker, module: str, name: str,
                          args: tuple[Any, ...], budget: float, spare: bool) -> Any:
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
            worker.conn.send((module, name, args, spare))
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


class Thinker:
    """The AI on the pool: AI seats, hints and stand-ins (`service.ai_play.Thinks`).

    A strong decision also starts a spare search of the same position when a worker is
    idle (root parallelism: both cores when the bot has nothing else to do), and adds
    its visits to the main search's; a job that needs the worker meanwhile makes the
    spare search stop at once. An answer not back within the budget and
    `ai.pool.GRACE`, a refused job or a lost worker gives a random legal plan instead,
    made in a thread: the caller always gets a legal answer in bounded time.
    """

    SPARE_WAIT = 0.25  # seconds the main answer waits for the spare search's, at most

    def __init__(self, pool: Pool | None = None, processes: int = 2,
                 parallel: bool = True) -> None:
        self.pool = pool if pool is not None else Pool("processes", processes, queue=16)
        self._owns_pool = pool is None
        self.parallel = parallel
        # the last strong decision's iterations: the main search's, the spare one's
        self.searched = (0, 0)

    async def think(self, game: Game, level: str, tile: str | None, seed: int,
                    budget: Budget = AI_BUDGET) -> Plan:
        """The plan `level` makes for whoever decides in `game` (`ai.players.plan_turn`).

        Reads `game` now, on the caller's side; returns within the budget plus
        `ai.pool.GRACE` seconds (plus a worker's start, the first time). A budget of
        iterations only is held to `ai.pool.CEILING` seconds.
        """
        check_level(level)
        position = Position.of(game)
        asked = time.time()
        limit = (ai_pool.CEILING if budget.seconds is None else budget.seconds) + \
            ai_pool.GRACE
        main_job = asyncio.ensure_future(self.pool.submit(
            ai_pool.think_job, position, level, tile, seed, budget, asked,
            budget_seconds=limit))
        await asyncio.sleep(0)  # the main search takes its worker first
        spare = None
        if self.parallel and level == "strong" and budget.seconds is not None:
            spare = self.pool.submit_spare(ai_pool.spare_job, position, tile, seed, budget,
                                           asked, budget_seconds=limit)
        try:
            main: Thought = await asyncio.wait_for(main_job, limit)
        except (PoolError, TimeoutError) as exc:
            log.warning("the AI (%s) gave no answer (%s): a random legal plan", level,
                        type(exc).__name__)
            return await asyncio.to_thread(ai_pool.fallback, position, tile, seed)
        helper = await self._spare(spare)
        self.searched = (main.iterations, 0 if helper is None else helper.iterations)
        return ai_pool.decide(main, helper)

    async def _spare(self, spare: asyncio.Task[Thought | None] | None) -> Thought | None:
        """The spare search's answer if it comes now (it stops at the same deadline as the
        main one); one that is late is left to finish alone, never killed."""
        if spare is None:
            return None
        done, _ = await asyncio.wait({spare}, timeout=self.SPARE_WAIT)
        if not done:
            spare.add_done_callback(_quiet)
            return None
        return None if spare.exception() is not None else spare.result()

    async def warm_up(self) -> None:
        """Start the workers now, and load the AI in each, rather than on the first move."""
        await self.pool.start()
        await asyncio.gather(*(self.pool.submit(ai_pool.warm_job)
                               for _ in range(self.pool.size)))

    async def close(self) -> None:
        """Stop the pool if this thinker started it."""
        if self._owns_pool:
            await self.pool.close()


def _quiet(task: asyncio.Task[Any]) -> None:
    """Read a late spare search's outcome so asyncio does not log it as never read."""
    if not task.cancelled():
        task.exception()


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
