"""Pairing properties over many random events (hypothesis), and the fixed schedules."""

from __future__ import annotations

from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from carca_bot.league.event import Event
from carca_bot.league.model import EventConfig, Format, Result
from carca_bot.league.schedule import bracket_order, circle_rounds, first_round, table_sizes
from tests.league.helpers import entered


def fewest_crossings(players: frozenset[str], met: frozenset[frozenset[str]],
                     bye_from: frozenset[str], level: dict[str, int],
                     balance: dict[str, int] | None = None) -> int | None:
    """By brute force: the fewest pairs across score levels of any pairing of `players`
    with no rematch, the bye (odd count) to one of `bye_from`, from the lowest level any
    such pairing can give it to, and (given `balance`) nobody's first seats past +-2.
    None when there is no such pairing."""
    def ok(p: str, q: str) -> bool:
        if frozenset({p, q}) in met:
            return False
        return balance is None or not (min(balance[p], balance[q]) >= 2
                                       or max(balance[p], balance[q]) <= -2)

    @cache
    def go(left: frozenset[str]) -> int | None:
        if not left:
            return 0
        p = min(left)
        found = [(c + (level[p] != level[q])) for q in left - {p} if ok(p, q)
                 for c in [go(left - {p, q})] if c is not None]
        return min(found) if found else None

    if len(players) % 2 == 0:
        return go(players)
    options = {b: c for b in bye_from if (c := go(players - {b})) is not None}
    if not options:
        return None
    lowest = max(level[b] for b in options)  # levels count down from the top (0)
    return min(c for b, c in options.items() if level[b] == lowest)


def legal_pairing_exists(players: frozenset[str], met: frozenset[frozenset[str]],
                         bye_from: frozenset[str],
                         balance: dict[str, int] | None = None) -> bool:
    level = dict.fromkeys(players, 0)
    return fewest_crossings(players, met, bye_from, level, balance) is not None


@st.composite
def swiss_events(draw: st.DrawFn) -> tuple[int, int, list[list[int]], list[int]]:
    n = draw(st.integers(2, 12))
    rounds = draw(st.integers(1, min(n - 1, 6)))
    scores = draw(st.lists(st.lists(st.integers(0, 6), min_size=n, max_size=n),
                           min_size=rounds, max_size=rounds))
    quits = draw(st.lists(st.integers(0, n - 1), max_size=2))  # withdrawals, one per round
    return n, rounds, scores, quits


def balances(event: Event) -> Counter[str]:
    """Games as first player minus games as second, per player."""
    balance = Counter[str]()
    for m in event.matches:
        for g in m.games:
            balance[g.players[0]] += 1
            balance[g.players[1]] -= 1
    return balance


@settings(max_examples=300, deadline=None)
@given(swiss_events())
def test_swiss_pairing_properties(case: tuple[int, int, list[list[int]], list[int]]) -> None:
    """The rules in their order, each broken only when no pairing keeps it: no rematch;
    nobody past two more first seats than second (or the other way); the bye to someone
    without one, from the lowest score group possible; then as few pairs across score
    groups as any such pairing has."""
    n, rounds, scores, quits = case
    names = "ABCDEFGHIJKL"[:n]
    event = entered(EventConfig(Format.SWISS, rounds=rounds), names).start(0)
    met: set[frozenset[str]] = set()
    had_bye: list[str] = []
    wins = dict.fromkeys(names, 0.0)  # as they stood when the round was paired
    for r in range(rounds):
        current = event.current
        assert current is not None
        active = {e.player for e in event.entrants if not e.withdrawn}
        seats = [p for m in current.matches for p in m.seats]
        # Everyone active plays exactly once (a bye counts), nobody withdrawn plays.
        assert sorted(seats) == sorted(active)
        games = [frozenset(m.seats) for m in current.matches if not m.bye]
        byes = [m.seats[0] for m in current.matches if m.bye]
        assert len(byes) == len(active) % 2
        everyone, known = frozenset(active), frozenset(met)
        fresh = frozenset(active - set(had_bye)) or everyone
        before = balances(event)
        rematch = any(g in met for g in games)
        if rematch:
            assert not legal_pairing_exists(everyone, known, everyone)
        beyond = any(min(before[a], before[b]) >= 2 or max(before[a], before[b]) <= -2
                     for a, b in map(tuple, games))
        limits = {p: before[p] for p in active}
        if beyond and not rematch:
            assert not legal_pairing_exists(everyone, known, everyone, limits)
        repeat_bye = bool(set(byes) & set(had_bye))
        if repeat_bye and not (rematch or beyond):
            assert not legal_pairing_exists(everyone, known, fresh, limits)
        if not (rematch or beyond or repeat_bye):
            levels = sorted({wins[p] for p in active}, reverse=True)
            level = {p: levels.index(wins[p]) for p in active}
            crossing = sum(len({level[p] for p in g}) > 1 for g in games)
            assert crossing == fewest_crossings(everyone, known, fresh, level, limits)
        had_bye += byes
        met |= set(games)
        for m in current.matches:
            if not m.bye:
                event = event.report(m.id, Result(tuple(
                    (p, scores[r][names.index(p)]) for p in m.seats)))
        if r < rounds - 1:
            if r < len(quits) and len(active) > 3:
                event = event.withdraw(names[quits[r]]) if names[quits[r]] in active else event
            wins = {row.player: row.wins for row in event.standings()}
            event = event.next_round(float(r + 1))
    assert event.finished


def test_a_rematch_only_when_nothing_else_is_possible() -> None:
    """Four players, three rounds: round 4 would have to repeat; it does, once per pair."""
    event = entered(EventConfig(Format.SWISS, rounds=4), "ABCD").start(0)
    met: list[frozenset[str]] = []
    for r in range(4):
        assert event.current is not None
        met += [frozenset(m.seats) for m in event.current.matches]
        for m in event.current.matches:
            a, b = m.seats
            event = event.report(m.id, Result(((a, 10), (b, 5))))
        if r < 3:
            event = event.next_round(r + 1.0)
    assert len(set(met[:6])) == 6  # three rounds: everyone met everyone once
    assert set(met[6:]) <= set(met[:6])


@given(st.integers(2, 16))
def test_round_robin_everyone_meets_everyone_once_first_player_balanced(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = circle_rounds(players)
    pairs = [frozenset(m) for r in rounds for m in r if len(m) == 2]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:
        assert sorted(p for m in r for p in m) == sorted(players)
    firsts = Counter(m[0] for r in rounds for m in r if len(m) == 2)
    seconds = Counter(m[1] for r in rounds for m in r if len(m) == 2)
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)


def test_knockout_seeds_meet_as_late_as_possible() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_round(["s1", "s2", "s3", "s4", "s5"]) == [
        ("s1",), ("s4", "s5"), ("s2",), ("s3",)]


def test_table_sizes() -> None:
    expected = {1: [1], 2: [2], 3: [3], 4: [4], 5: [5], 6: [3, 3], 7: [4, 3], 8: [4, 4],
                9: [3, 3, 3], 10: [4, 3, 3], 11: [4, 4, 3], 12: [4, 4, 4], 13: [4, 3, 3, 3]}
    assert {n: table_sizes(n) for n in expected} == expected
    for n in range(3, 200):
        sizes = table_sizes(n)
        assert sum(sizes) == n and max(sizes) - min(sizes) <= 1 and min(sizes) >= 3


def test_the_event_is_a_value() -> None:
    """Every command returns a new event: the old one is untouched (nothing half-done)."""
    event: Event = entered(EventConfig(Format.SWISS, rounds=2), "ABCD").start(0)
    after = event.withdraw("A")
    assert not event.entrant("A").withdrawn and after.entrant("A").withdrawn
