"""A season's pairings through the service, measured against the best any pairing could do.

    python bench/league.py

Plays, on a throwaway SQLite file with the service's own clock, a seeded 24-player
5-round Swiss (random results entered as organisers' results, a withdrawal after round
2, so a bye in every later round) and a 16-player 4-round event of 4-player tables,
each round paired by the service (`start_event`, `pair_next_round`). For every round it
prints, in these forms (other checks read them):

    round R: X pairs across score groups (minimum M), Y rematches
    table round R: Y repeat opponents (minimum M)
    first-seat imbalance: max K

X counts the Swiss pairs whose players had different points when paired; M is the
fewest any pairing of that round could have, worked out here and not by the pairing
code: a maximum-weight matching over every pair that ignores seats, under the rules
that come before it (no rematch; the bye, with an odd count, to a player who has not
had one, from the lowest score group that has one). Y counts pairs that had met. At
the tables, Y counts pairs of players sharing a table who had shared one before, and M
is the fewest any seating of that round could have (every seating, by a search over
the players left). K is the largest difference, over the Swiss's players, between
games as first player and games as second.

Goal: X = M and Y = 0 every Swiss round, table repeats at their minimum, K <= 2.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from pathlib import Path

import rustworkx as rx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from carca_bot.league import EventConfig, Format
from carca_bot.service import Actor, EventInfo, GameService, User, Where

SEED = 28
GUILD = "bench-guild"
HALL = Where(GUILD, "hall")
ORGANISER = Actor("organiser", "Olga", admin=True)
DAY = 24 * 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_750_000_000.0

    def __call__(self) -> float:
        return self.now


def fewest_crossings(players: Sequence[str], points: dict[str, float],
                     met: set[frozenset[str]], had_bye: set[str]) -> int:
    """The fewest pairs across score groups of any pairing of `players`, seats ignored,
    with as few rematches as possible and the bye (odd count) to a player without one
    from the lowest score group that has one."""
    levels = sorted(set(points[p] for p in players), reverse=True)
    level = {p: levels.index(points[p]) for p in players}
    big = 10 ** 6
    graph: rx.PyGraph[str, int] = rx.PyGraph()
    nodes = graph.add_nodes_from(list(players))
    edges: list[tuple[int, int, int]] = []
    for (i, a), (j, b) in combinations(enumerate(players), 2):
        cost = big ** 3 * (frozenset({a, b}) in met) + (level[a] != level[b])
        edges.append((nodes[i], nodes[j], cost))
    if len(players) % 2:
        bye = graph.add_node("bye")
        for i, p in enumerate(players):
            cost = big ** 2 * (p in had_bye) + big * (len(levels) - 1 - level[p])
            edges.append((nodes[i], bye, cost))
    top = max(c for _, _, c in edges) + 1
    for u, v, c in edges:
        graph.add_edge(u, v, top - c)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    named = [(graph[a], graph[b]) for a, b in matched]
    return sum(level[a] != level[b] for a, b in named if "bye" not in (a, b)
               and a in level and b in level)


def fewest_repeats(players: Sequence[str], sizes: Sequence[int],
                   met: set[frozenset[str]]) -> int:
    """The fewest pairs meeting again of any seating of `players` at tables of `sizes`:
    the first player left joins every possible set of others, remembering each set of
    players left (exact)."""
    index = {p: i for i, p in enumerate(players)}
    clash = {(index[a], index[b]) for a, b in (tuple(sorted(m, key=index.__getitem__))
                                               for m in met if m <= set(index))}

    @cache
    def best(left: frozenset[int], todo: tuple[int, ...]) -> int:
        if not todo:
            return 0
        head, rest = min(left), sorted(left - {min(left)})
        found = None
        for size in set(todo):
            after = list(todo)
            after.remove(size)
            for mates in combinations(rest, size - 1):
                here = sum((a, b) in clash for a, b in combinations((head, *mates), 2))
                total = here + best(left - {head, *mates}, tuple(sorted(after)))
                found = total if found is None else min(found, total)
        assert found is not None
        return found

    return best(frozenset(range(len(players))), tuple(sorted(sizes)))


async def new_event(service: GameService, title: str, config: EventConfig,
                    players: Sequence[User]) -> EventInfo:
    info = await service.create_event(HALL, ORGANISER, title, config)
    for user in players:
        info = await service.sign_up(info.id, user)
    return info


async def play_round(service: GameService, info: EventInfo, rng: random.Random) -> None:
    """Random results for every open match, entered as an organiser's result."""
    for m in info.event.open_matches():
        scores = [(p, rng.randrange(40, 140)) for p in m.seats]
        await service.override_result(info.id, ORGANISER, m.id, [scores])


def pairs_met(info: EventInfo) -> set[frozenset[str]]:
    return {frozenset(pair) for m in info.event.matches if not m.bye
            for pair in combinations(m.seats, 2)}


async def swiss(service: GameService, clock: Clock, rng: random.Random) -> None:
    users = [User(f"s{i:02}", f"Player {i}") for i in range(1, 25)]
    info = await new_event(service, "Swiss", EventConfig(Format.SWISS, rounds=5), users)
    for number in range(1, 6):
        before = info.event
        points = {r.player: r.wins for r in before.standings()}
        met, had_bye = pairs_met(info), {m.seats[0] for m in before.matches if m.bye}
        clock.now += DAY
        if number == 1:
            info, _ = await service.start_event(info.id, ORGANISER)
        else:
            info, _ = await service.pair_next_round(info.id, ORGANISER)
        current = info.event.current
        assert current is not None
        playing = [p for m in current.matches for p in m.seats]
        games = [m.seats for m in current.matches if not m.bye]
        across = sum(points[a] != points[b] for a, b in games)
        again = sum(frozenset(g) in met for g in games)
        least = fewest_crossings(playing, points, met, had_bye)
        print(f"round {number}: {across} pairs across score groups (minimum {least}), "
              f"{again} rematches")
        await play_round(service, info, rng)
        if number == 2:
            await service.withdraw(info.id, ORGANISER, users[rng.randrange(24)].id)
        info = await service.event_info(info.id)
    balance = Counter[str]()
    for m in info.event.matches:
        for g in m.games:
            balance[g.players[0]] += 1
            balance[g.players[1]] -= 1
    print(f"first-seat imbalance: max {max(abs(b) for b in balance.values())}")


async def tables(service: GameService, clock: Clock, rng: random.Random) -> None:
    users = [User(f"t{i:02}", f"Player {i}") for i in range(1, 17)]
    config = EventConfig(Format.TABLES, rounds=4, table_size=4)
    info = await new_event(service, "Tables", config, users)
    for number in range(1, 5):
        met = pairs_met(info)
        clock.now += DAY
        if number == 1:
            info, _ = await service.start_event(info.id, ORGANISER)
        else:
            info, _ = await service.pair_next_round(info.id, ORGANISER)
        current = info.event.current
        assert current is not None
        seated = [m.seats for m in current.matches]
        again = sum(frozenset(pair) in met for t in seated for pair in combinations(t, 2))
        least = fewest_repeats([p for t in seated for p in t], [len(t) for t in seated], met)
        print(f"table round {number}: {again} repeat opponents (minimum {least})")
        await play_round(service, info, rng)
        info = await service.event_info(info.id)


async def main() -> None:
    rng = random.Random(SEED)
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        service = await GameService.open(Path(tmp) / "league.sqlite3", clock=clock)
        try:
            await swiss(service, clock, rng)
            await tables(service, clock, rng)
        finally:
            await service.close()


if __name__ == "__main__":
    asyncio.run(main())
