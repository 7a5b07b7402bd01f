"""Running a store method again when PostgreSQL could not serialize it, within a deadline.

store.py wraps every public method of `Store` (those of its mixins included) in
`retried`: a method whose transaction lost to a concurrent one, or whose connection
was lost before anything was written (`errors.Retry`), is run again whole, which is
harmless because each public method is one transaction (see schema.py's contract).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from carca_bot.store.errors import Lost, Retry, Unavailable

ATTEMPTS = 5  # runs of a method PostgreSQL could not serialize, before `Unavailable`
log = logging.getLogger("carca_bot.store.store")  # the name it has always logged under


_RETRYING: ContextVar[bool] = ContextVar("store_retrying", default=False)


def retried(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Run the whole method again (after a short random pause) when its transaction lost
    to a concurrent one or its connection (`Retry`: nothing was written); `Unavailable`
    after ATTEMPTS, or once the database's `operation_timeout` has run out, the runs
    again included. A method called by another runs inside its caller's attempt.

    Every `Unavailable` is logged here once, with its real cause (a refused connection,
    a time-out, a lost connection, writers colliding): players only hear "try again"."""
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _RETRYING.get():
            return await method(*args, **kwargs)
        token = _RETRYING.set(True)
        limit = getattr(getattr(args[0], "_db", None), "operation_timeout", None)
        try:
            async with asyncio.timeout(limit):
                return await _attempts(method, args, kwargs)
        except TimeoutError as exc:
            raise _logged(method.__name__, Unavailable(
                f"no answer from the database within {limit:g} s (CARCA_DB_TIMEOUT); the "
                "call was given up and its connection closed")) from exc
        except Unavailable as exc:
            _logged(method.__name__, exc)
            raise
        finally:
            _RETRYING.reset(token)
    return wrapper


async def _attempts(method: Callable[..., Awaitable[Any]], args: tuple[Any, ...],
                    kwargs: dict[str, Any]) -> Any:
    for attempt in range(ATTEMPTS):
        try:
            return await method(*args, **kwargs)
        except Retry as exc:
            last = exc
            await asyncio.sleep(random.uniform(0, 0.005 * 2 ** attempt))
    if isinstance(last, Lost):
        raise Unavailable(f"the connection to the database failed {ATTEMPTS} times: "
                          f"{last}") from last
    raise Unavailable(f"still colliding with other writers after {ATTEMPTS} "
                      f"attempts: {last}") from last


def _logged(name: str, exc: Unavailable) -> Unavailable:
    log.warning("store.%s: the database could not be used: %s", name, exc)
    return exc
