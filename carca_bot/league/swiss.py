"""Swiss pairing as one maximum-weight matching: score groups first, nobody twice, first
seats balanced within an absolute limit.

Every possible pair (and, with an odd count, every player's bye) gets a cost in tiers;
a tier counts for more than everything below it put together, so the matching that
minimises the total (`rustworkx.max_weight_matching`, Edmonds' blossom algorithm, over
the complete graph: a full pairing always exists) is the best pairing by these rules,
in this order:

1. no rematch;
2. first-seat limit: nobody ends the round with more than `SEAT_LIMIT` (2) first seats
   more than second seats, or the other way round. Two players both at +2 (or both at
   -2) cannot meet: one of them would go to 3;
3. the bye to a player who has not had one,
4. from the lowest score group that has such a player;
5. as few pairs across score groups as any pairing can have (a score group: players
   on equal points);
6. those crossings as short as possible (the squares of the score groups they span);
7. first-seat preferences: a player who has been first less often (or, when even,
   went second last time) wants to go first; two who want the same seat are avoided;
8. the bye to the lowest-ranked player it can go to;
9. the Dutch order: within a score group the top half meets the bottom half (1st v.
   (n/2+1)th ...); a player paired out of a group is its lowest, meeting the highest
   of the group below.

Tiers 1-4 are the rules; 5 onwards are the preferences, and a rule is broken only when
no pairing keeps it (a round of four players who have all met must have rematches).
Within a pair the player with fewer first seats goes first; equal: the one who went
second last time; still equal (both new): the higher-ranked player on even boards and
the lower-ranked on odd ones, so each score group gets both.

`pair_swiss` also says why each pair was made (`SwissPairing.why`), as data for the
organiser's `/carc-event pairings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import rustworkx as rx

SEAT_LIMIT = 2  # at most this many more first seats than second (or second than first)
BYE = -1  # the bye's node, beside the players' 0..n-1


@dataclass(frozen=True)
class SwissInput:
    """What the pairing needs to know about one player, in standings order."""

    player: str
    wins: float
    opponents: frozenset[str]
    byes: int
    balance: int  # games as first player minus games as second
    last_first: bool | None = None  # first player in their last game; None: no game yet


@dataclass(frozen=True)
class PairWhy:
    """Why two players were paired, and why the first of them goes first.

    `floated`: they come from different score groups (the higher one's group could not
    be paired within itself); `seat`: "fewer_first_seats", "second_last_time" or
    "alternating_boards" (both level: by board); `rematch`: they had met (only when
    no pairing could avoid it); `beyond_limit`: a first-seat count goes past the limit
    (only when nothing else was possible).
    """

    first: str
    second: str
    first_wins: float
    second_wins: float
    floated: bool
    seat: str
    rematch: bool = False
    beyond_limit: bool = False


@dataclass(frozen=True)
class SwissPairing:
    pairs: tuple[tuple[str, str], ...]  # (first player, second player)
    bye: str | None
    rematches: int
    why: tuple[PairWhy, ...] = ()
    bye_again: bool = False  # everyone who could take the bye had had one


@dataclass(frozen=True)
class _Tiers:
    """How much one unit of each cost tier weighs (the lowest tier weighs 1)."""

    rematch: int
    limit: int
    bye_again: int
    bye_group: int
    cross: int
    gap: int
    preference: int
    bye_rank: int
    dutch: int


def _tiers(players: int, levels: int) -> _Tiers:
    """Weights such that a tier outweighs every tier below it over a whole pairing."""
    pairs = players // 2 + 1
    # (tier, the most one pairing can add up in it), lowest tier first.
    maxima = [("dutch", pairs * (players + 1)), ("bye_rank", players),
              ("preference", 2 * pairs), ("gap", pairs * levels * levels),
              ("cross", pairs), ("bye_group", levels), ("bye_again", 1), ("limit", pairs),
              ("rematch", pairs)]
    weight, out = 1, {}
    for name, most in maxima:
        out[name] = weight
        weight *= most + 1
    return _Tiers(**out)


def pair_swiss(players: Sequence[SwissInput]) -> SwissPairing:
    """Pair one round. `players` are those to pair, best first."""
    if not players:
        return SwissPairing((), None, 0)
    order = [p.player for p in players]
    info = {p.player: p for p in players}
    levels = sorted({p.wins for p in players}, reverse=True)
    level = {p.player: levels.index(p.wins) for p in players}
    tiers = _tiers(len(players), len(levels))
    graph: rx.PyGraph[str, int] = rx.PyGraph()
    nodes = graph.add_nodes_from(order)
    place = _places(order, level)
    costs: list[tuple[int, int, int]] = []
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            costs.append((nodes[i], nodes[j],
                          _pair_cost(i, j, order, info, level, place, tiers)))
    bye_node = None
    if len(order) % 2:
        bye_node = graph.add_node("")
        bottom = len(levels) - 1
        for i, p in enumerate(order):
            cost = (tiers.bye_again * (info[p].byes > 0)
                    + tiers.bye_group * (bottom - level[p])
                    + tiers.bye_rank * (len(order) - 1 - i))
            costs.append((nodes[i], bye_node, cost))
    top = max(c for _, _, c in costs) + 1
    for a, b, cost in costs:
        graph.add_edge(a, b, top - cost)  # the matching maximises: the cheapest wins
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    return _result(matched, order, info, level, bye_node)


def _pair_cost(i: int, j: int, order: Sequence[str], info: Mapping[str, SwissInput],
               level: Mapping[str, int], place: Sequence[tuple[int, int, int]],
               tiers: _Tiers) -> int:
    """The cost of pairing the i-th and j-th players (i ranked above j)."""
    a, b = info[order[i]], info[order[j]]
    cost = tiers.rematch * (b.player in a.opponents)
    if (min(a.balance, b.balance) >= SEAT_LIMIT
            or max(a.balance, b.balance) <= -SEAT_LIMIT):
        cost += tiers.limit  # whoever goes first (or second) passes the limit
    la, lb = level[a.player], level[b.player]
    if la != lb:
        cost += tiers.cross + tiers.gap * (lb - la) ** 2
    wa, wb = _wants(a), _wants(b)
    if wa is not None and wa == wb:
        cost += tiers.preference * (2 if a.balance and b.balance else 1)
    return cost + tiers.dutch * _dutch(i, j, place)


def _wants(p: SwissInput) -> bool | None:
    """True: wants to go first; False: second; None: no preference (no game yet)."""
    if p.balance:
        return p.balance < 0
    return None if p.last_first is None else not p.last_first


def _places(order: Sequence[str], level: Mapping[str, int]) -> list[tuple[int, int, int]]:
    """Each player's (score level, place within their score group, the group's size)."""
    sizes: dict[int, int] = {}
    out = []
    for p in order:
        out.append((level[p], sizes.get(level[p], 0)))
        sizes[level[p]] = sizes.get(level[p], 0) + 1
    return [(lv, k, sizes[lv]) for lv, k in out]


def _dutch(i: int, j: int, place: Sequence[tuple[int, int, int]]) -> int:
    """How far the pair is from the Dutch system's pairing of top half against bottom half
    (within a group), or of a group's lowest against the next group's highest (across)."""
    (la, ka, size_a), (lb, kb, _) = place[i], place[j]
    if la == lb:
        return abs(kb - ka - size_a // 2)
    return (size_a - 1 - ka) + kb


def _result(matched: set[tuple[int, int]], order: Sequence[str],
            info: Mapping[str, SwissInput], level: Mapping[str, int],
            bye_node: int | None) -> SwissPairing:
    """The matching as seated pairs (best-ranked pair first) and the reasons."""
    rank = {p: i for i, p in enumerate(order)}
    bye: str | None = None
    pairs: list[tuple[str, str]] = []
    for a, b in matched:
        if bye_node in (a, b):
            bye = order[b if a == bye_node else a]
            continue
        pa, pb = sorted((order[a], order[b]), key=rank.__getitem__)
        pairs.append((pa, pb))
    pairs.sort(key=lambda pair: (min(rank[pair[0]], rank[pair[1]]), rank[pair[1]]))
    seated, why = [], []
    for board, (high, low) in enumerate(pairs):
        first, second, reason = first_player(high, low, info, order, board)
        seated.append((first, second))
        fi, se = info[first], info[second]
        why.append(PairWhy(first, second, fi.wins, se.wins, level[first] != level[second],
                           reason, second in fi.opponents,
                           fi.balance >= SEAT_LIMIT or se.balance <= -SEAT_LIMIT))
    rematches = sum(w.rematch for w in why)
    again = bye is not None and info[bye].byes > 0
    return SwissPairing(tuple(seated), bye, rematches, tuple(why), again)


def first_player(a: str, b: str, info: Mapping[str, SwissInput], order: Sequence[str],
                 board: int = 0) -> tuple[str, str, str]:
    """The pair as (first, second, why): fewer first seats first, then who went second
    last time; still equal, the higher-ranked starts on even boards, the lower on odd."""
    ia, ib = info[a], info[b]
    if ia.balance != ib.balance:
        pair = (a, b) if ia.balance < ib.balance else (b, a)
        return (*pair, "fewer_first_seats")
    if ia.last_first is not None and ib.last_first is not None and \
            ia.last_first != ib.last_first:
        pair = (a, b) if not ia.last_first else (b, a)
        return (*pair, "second_last_time")
    higher, lower = sorted((a, b), key=order.index)
    pair = (lower, higher) if board % 2 else (higher, lower)
    return (*pair, "alternating_boards")
