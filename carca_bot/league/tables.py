"""Seating a round of multiplayer tables: as few players meeting again as possible, then
tables of players close in the standings.

The cost of a table is, first, its repeats (pairs of its players who have shared a
table before) and then its spread (the standings distance between each two of its
players, added up); a round's cost is its tables' added up, repeats first. Up to
`EXACT_UP_TO` players every seating is considered (a search over which players join
the best-placed player still unseated, remembering each set of players left: exact);
beyond that the tables start in standings order and players are swapped between tables
while a swap removes a repeat (at the least added spread), then a few seeded random
shakes are tried from the best seating found. (Choosing tables with no repeat is the
"social golfer" problem; no library solves it.)

Within a table the player with the fewest first seats so far goes first, and so on
round the table; ties keep the standings order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

EXACT_UP_TO = 16
Seating = tuple[tuple[int, ...], ...]
SHAKES = 12  # random restarts of the local search for a large round


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]  # first player first
    repeats: int  # pairs at this table who have met before


def seat_tables(players: Sequence[str], met: Mapping[str, frozenset[str]],
                firsts: Mapping[str, int], sizes: Sequence[int]) -> list[Table]:
    """Tables of `sizes` for `players` (standings order), avoiding pairs in `met`."""
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player")
    rank = {p: i for i, p in enumerate(players)}
    if len(players) <= EXACT_UP_TO:
        groups = _exact(tuple(players), met, tuple(sorted(sizes, reverse=True)))
    else:
        groups = _search(list(players), met, list(sizes))
    groups.sort(key=lambda g: min(rank[p] for p in g))
    out = []
    for group in groups:
        seats = tuple(sorted(group, key=lambda p: (firsts.get(p, 0), rank[p])))
        out.append(Table(seats, repeats(seats, met)))
    return out


def repeats(group: Sequence[str], met: Mapping[str, frozenset[str]]) -> int:
    return sum(b in met.get(a, frozenset()) for a, b in combinations(group, 2))


def _spread(group: Sequence[int]) -> int:
    return sum(abs(a - b) for a, b in combinations(group, 2))


def _weight(players: int) -> int:
    """One repeat outweighs the largest spread a whole round can have."""
    return players ** 3 + 1


def _exact(players: tuple[str, ...], met: Mapping[str, frozenset[str]],
           sizes: tuple[int, ...]) -> list[list[str]]:
    """The cheapest seating of every one there is (memoised over the players left)."""
    n = len(players)
    heavy = _weight(n)
    clash = [[players[j] in met.get(players[i], frozenset()) for j in range(n)]
             for i in range(n)]

    def cost(group: tuple[int, ...]) -> int:
        return heavy * sum(clash[a][b] for a, b in combinations(group, 2)) + _spread(group)

    @cache
    def best(left: frozenset[int], todo: tuple[int, ...]) -> tuple[int, Seating]:
        if not todo:
            return 0, ()
        head = min(left)
        rest = sorted(left - {head})
        found: tuple[int, Seating] | None = None
        for size in sorted(set(todo)):
            after = list(todo)
            after.remove(size)
            for mates in combinations(rest, size - 1):
                group = (head, *mates)
                below, tables = best(left - set(group), tuple(after))
                total = cost(group) + below
                if found is None or total < found[0]:
                    found = (total, (group, *tables))
        assert found is not None
        return found

    _, tables = best(frozenset(range(n)), sizes)
    return [[players[i] for i in group] for group in tables]


def _search(players: list[str], met: Mapping[str, frozenset[str]],
            sizes: list[int]) -> list[list[str]]:
    """Standings-order tables improved by swaps, then by seeded shakes (large rounds)."""
    rank = {p: i for i, p in enumerate(players)}
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(players[start:start + size])
        start += size
    heavy = _weight(len(players))

    def total(ts: list[list[str]]) -> int:
        return sum(heavy * repeats(t, met) + _spread([rank[p] for p in t]) for t in ts)

    best = _descend([list(t) for t in tables], met, rank, heavy)
    best_cost = total(best)
    shaker = random.Random(len(players) * 7919 + sum(sizes))
    for _ in range(SHAKES):
        if best_cost < heavy:  # no repeat left: the standings order is all that is left
            break
        trial = [list(t) for t in best]
        for _ in range(max(2, len(trial) // 4)):
            a, b = shaker.sample(range(len(trial)), 2)
            i, j = shaker.randrange(len(trial[a])), shaker.randrange(len(trial[b]))
            trial[a][i], trial[b][j] = trial[b][j], trial[a][i]
        trial = _descend(trial, met, rank, heavy)
        cost = total(trial)
        if cost < best_cost:
            best, best_cost = trial, cost
    return best


def _descend(tables: list[list[str]], met: Mapping[str, frozenset[str]],
             rank: Mapping[str, int], heavy: int) -> list[list[str]]:
    """Swap a player who meets someone again for the one elsewhere whose swap lowers the
    cost most, while any swap lowers it."""
    def cost(t: Sequence[str]) -> int:
        return heavy * repeats(t, met) + _spread([rank[p] for p in t])

    costs = [cost(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for a, table in enumerate(tables):
            clashing = [p for p in table
                        if any(q in met.get(p, frozenset()) for q in table if q != p)]
            for p in clashing:
                if p not in table:
                    continue
                i = table.index(p)
                move = _best_swap(tables, costs, a, i, cost)
                if move is not None:
                    b, j, ca, cb = move
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    costs[a], costs[b] = ca, cb
                    improved = True
    return tables


def _best_swap(tables: list[list[str]], costs: list[int], a: int, i: int,
               cost: Callable[[Sequence[str]], int]) -> tuple[int, int, int, int] | None:
    """The swap of tables[a][i] with a player at another table that lowers the cost most."""
    best: tuple[int, int, int, int] | None = None
    gain = 0
    for b, other in enumerate(tables):
        if b == a:
            continue
        for j in range(len(other)):
            ta, tb = list(tables[a]), list(other)
            ta[i], tb[j] = tb[j], ta[i]
            ca, cb = cost(ta), cost(tb)
            delta = costs[a] + costs[b] - ca - cb
            if delta > gain:
                best, gain = (b, j, ca, cb), delta
    return best
