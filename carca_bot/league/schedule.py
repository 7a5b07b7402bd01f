"""Fixed schedules: round-robin rounds, knockout brackets, multiplayer table sizes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def circle_rounds(players: Sequence[str]) -> list[list[tuple[str, str] | tuple[str]]]:
    """Every round of a round robin by the circle method: all meet once.

    The first seat stays put while the others turn one place a round; with an odd count
    that seat is an empty one, and whoever faces it has the bye (a 1-tuple). In each
    pair the first player alternates (Berger tables) so that at the end everyone has
    been first player as often as second, or one time more or less.
    """
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.insert(0, None)
    n = len(seats)
    rounds: list[list[tuple[str, str] | tuple[str]]] = []
    for r in range(n - 1):
        row: list[tuple[str, str] | tuple[str]] = []
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if a is None or b is None:
                alone = a if a is not None else b
                assert alone is not None
                row.append((alone,))
                continue
            # Berger tables: the fixed seat alternates by round, the others by position.
            flip = r % 2 == 1 if i == 0 else i % 2 == 1
            row.append((b, a) if flip else (a, b))
        rounds.append(row)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def snake(players: Sequence[T], groups: int) -> list[list[T]]:
    """Players (strongest first) dealt into groups 1, 2, ..., n, n, ..., 2, 1, 1, 2 ..."""
    out: list[list[T]] = [[] for _ in range(groups)]
    for i, p in enumerate(players):
        lap, k = divmod(i, groups)
        out[k if lap % 2 == 0 else groups - 1 - k].append(p)
    return out


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1 = best) in bracket order, so 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def first_round(seeded: Sequence[str]) -> list[tuple[str, str] | tuple[str]]:
    """Knockout round one: seeds by bracket position; missing seeds are byes for the top."""
    size = bracket_size(len(seeded))
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]
    out: list[tuple[str, str] | tuple[str]] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        assert a is not None  # the higher seed of a pair always exists
        out.append((a,) if b is None else (a, b))
    return out


def table_sizes(players: int, size: int = 4) -> list[int]:
    """Tables for `players`: as many as needed, sizes within one of each other.

    With tables of 4: 5 -> [5] (a 2-player table would not be a multiplayer game),
    6 -> [3, 3], 7 -> [4, 3], 9 -> [3, 3, 3], 10 -> [4, 3, 3], 13 -> [4, 3, 3, 3].
    Fewer than 3 players make one table of that many (1 is a bye).
    """
    if players <= 0:
        return []
    tables = -(-players // size)
    small, extra = divmod(players, tables)
    sizes = [small + 1] * extra + [small] * (tables - extra)
    if min(sizes) < 3 and tables > 1:
        return [players] if players <= 6 else table_sizes(players, size + 1)
    return sizes
