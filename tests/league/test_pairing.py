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


def legal_pairing_exists(players: frozenset[str], met: frozenset[frozenset[str]],
                         bye_from: frozenset[str],
                         balance: dict[str, int] | None = None) -> bool:
    """By brute force: can `players` be paired with no rematch, the bye (when the count is
    odd) going to one of `bye_from`, and (given `balance`) nobody's balance going to 2?"""
    def ok(p: str, q: str) -> bool:
        if frozenset({p, q}) in met:
            return False
        return balance is None or not (balance[p] == balance[q] != 0)

    @cache
    def go(left: frozenset[str], bye_left: bool) -> bool:
        if not left:
            return not bye_left
        p = min(left)
        if bye_left and p in bye_from and go(left - {p}, False):
            return True
        return any(go(left - {p, q}, bye_left) for q in left - {p} if ok(p, q))
    return go(players, len(players) % 2 == 1)


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
    n, rounds, scores, quits = case
    names = "ABCDEFGHIJKL"[:n]
    event = entered(EventConfig(Format.SWISS, rounds=rounds), names).start(0)
    met: set[frozenset[str]] = set()
    had_bye: list[str] = []
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
        # The rules in their order: no rematch while a legal pairing exists...
        rematch = any(g in met for g in games)
        if rematch:
            assert not legal_pairing_exists(everyone, known, everyone)
        # ... then the bye to someone who has not had one ...
        repeat_bye = bool(set(byes) & set(had_bye))
        if repeat_bye and not rematch:
            assert not legal_pairing_exists(everyone, known, fresh)
        # ... then nobody's first-player balance beyond one.
        before = balances(event)
        had_bye += byes
        met |= set(games)
        for m in current.matches:
            if not m.bye:
                event = event.report(m.id, Result(tuple(
                    (p, scores[r][names.index(p)]) for p in m.seats)))
        after = balances(event)
        kept = all(abs(before[p]) <= 1 for p in active) and not (rematch or repeat_bye)
        if kept and any(abs(b) > 1 for b in after.values()):
            assert not legal_pairing_exists(everyone, known, fresh,
                                            {p: before[p] for p in active})
        if r < rounds - 1:
            if r < len(quits) and len(active) > 3:
                event = event.withdraw(names[quits[r]]) if names[quits[r]] in active else event
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
