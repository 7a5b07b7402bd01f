"""Jobs for the pool tests: module-level, so a worker process imports them."""

from __future__ import annotations

import time
from collections.abc import Callable


def until_asked(seconds: float, give_way: Callable[[], bool]) -> str:
    """A spare job: works in small steps until asked to give way (or `seconds` pass)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if give_way():
            return "gave way"
        time.sleep(0.005)
    return "ran out"


def echo(text: str) -> str:
    return text
