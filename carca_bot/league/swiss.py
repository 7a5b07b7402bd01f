"""Swiss pairing: players of equal standing meet, nobody twice, first player balanced.

The players come in standings order. Hard rule first, preferences after; each set of
constraints is tried in turn, so a looser one is used only when no pairing meets the
stricter:

1. no rematch, the bye to someone who has not had one, first-player balance kept;
2. no rematch, a new bye;
3. no rematch, any bye;
4. rematches allowed (the search still avoids them where it can).

First-player balance: a player's balance is games as first player minus games as second.
Two players with the same non-zero balance cannot meet without one of them going to
two, so that pairing is avoided in step 1. Within a pairing the player with the lower
balance goes first; equal balance: the one who went second in their last game, then by
board (the higher-ranked player on even boards, the lower-ranked on odd ones).

Within a score group (equal wins) the top half meets the bottom half, as in the Dutch
system; keeping the balance may float a player to the next score group. The search is
depth-first with the failed sets of remaining players remembered, so a round of a few
dozen players is quick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


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
class SwissPairing:
    pairs: tuple[tuple[str, str], ...]  # (first player, second player)
    bye: str | None
    rematches: int


def pair_swiss(players: Sequence[SwissInput]) -> SwissPairing:
    """Pair one round. `players` are those to pair, best first."""
    if not players:
        return SwissPairing((), None, 0)
    info = {p.player: p for p in players}
    order = [p.player for p in players]
    byes: list[str | None] = [None]
    fallback: list[str | None] = [None]
    if len(order) % 2:
        bottom_up = list(reversed(order))
        fallback = [*sorted(bottom_up, key=lambda p: info[p].byes)]
        byes = [p for p in bottom_up if info[p].byes == 0] or fallback
    for colours, options in ((True, byes), (False, byes), (False, fallback)):
        for bye in options:
            pairs = _search([p for p in order if p != bye], info, rematch=False,
                            colours=colours)
            if pairs is not None:
                return SwissPairing(_seat(pairs, info, order), bye, 0)
    bye = (byes or fallback)[0]
    pairs = _search([p for p in order if p != bye], info, rematch=True, colours=False)
    assert pairs is not None  # with rematches allowed any even set pairs
    seated = _seat(pairs, info, order)
    return SwissPairing(seated, bye, sum(b in info[a].opponents for a, b in seated))


def _candidates(p: str, rest: Sequence[str], info: Mapping[str, SwissInput],
                order: Sequence[str]) -> list[str]:
    """Opponents for `p` in the order tried: own score group's other half first."""
    group = [q for q in order if info[q].wins == info[p].wins]
    half = len(group) // 2
    where = {q: i for i, q in enumerate(order)}

    def key(q: str) -> tuple[float, int, bool, int]:
        gap = abs(info[q].wins - info[p].wins)
        if gap == 0 and q in group:
            offset = group.index(q) - group.index(p) - half
            return (0, abs(offset), offset < 0, where[q])
        return (gap, 0, False, where[q])

    return sorted((q for q in rest if q != p), key=key)


def _search(rest: list[str], info: Mapping[str, SwissInput], *, rematch: bool,
            colours: bool) -> list[tuple[str, str]] | None:
    order = list(rest)
    failed: set[frozenset[str]] = set()

    def ok(a: str, b: str) -> bool:
        if not rematch and b in info[a].opponents:
            return False
        ba, bb = info[a].balance, info[b].balance
        return not (colours and ba == bb and ba != 0)

    def go(left: list[str]) -> list[tuple[str, str]] | None:
        if not left:
            return []
        key = frozenset(left)
        if key in failed:
            return None
        p = left[0]
        options = _candidates(p, left, info, order)
        if rematch:  # still prefer a new opponent
            options.sort(key=lambda q: q in info[p].opponents)
        for q in options:
            if not ok(p, q):
                continue
            found = go([x for x in left if x not in (p, q)])
            if found is not None:
                return [(p, q), *found]
        failed.add(key)
        return None

    return go(order)


def _seat(pairs: Sequence[tuple[str, str]], info: Mapping[str, SwissInput],
          order: Sequence[str]) -> tuple[tuple[str, str], ...]:
    return tuple(first_player(a, b, info, order, board)
                 for board, (a, b) in enumerate(pairs))


def first_player(a: str, b: str, info: Mapping[str, SwissInput], order: Sequence[str],
                 board: int = 0) -> tuple[str, str]:
    """The pair as (first, second): lower balance first, then who went second last.

    Still equal (both new, say): the higher-ranked player starts on even boards and the
    lower-ranked on odd ones, so that each score group gets both kinds of player.
    """
    def key(p: str) -> tuple[int, int, int]:
        last = info[p].last_first
        rank = order.index(p)
        return (info[p].balance, 1 if last else 0, -rank if board % 2 else rank)
    return (a, b) if key(a) <= key(b) else (b, a)
