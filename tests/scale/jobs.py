"""Jobs for the worker pool tests: module-level, so a worker process imports them."""

from __future__ import annotations

import os
import time


def add(a: int, b: int) -> int:
    return a + b


def pid() -> int:
    return os.getpid()


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def refuse(text: str) -> None:
    raise ValueError(text)


def die() -> None:
    os._exit(3)
