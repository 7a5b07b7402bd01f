"""Knockouts: a third-place match, and double elimination with its losers' bracket and a
grand final played again when the losers' side wins it."""

from __future__ import annotations

from collections import Counter

from carca_bot.league.brackets import loser
from carca_bot.league.event import Event
from carca_bot.league.model import EventConfig, Format
from tests.league.helpers import DAY, entered, play_round, strengths


def run(event: Event, scores: dict[str, int]) -> Event:
    """Play every round with fixed strengths until the event is over."""
    while True:
        event = play_round(event, scores)
        if event.finished:
            return event
        event = event.next_round(len(event.rounds) * DAY)


def test_a_third_place_match_between_the_semi_finals_losers() -> None:
    s = strengths("ABCDEFGH")
    event = entered(EventConfig(Format.KNOCKOUT, third_place=True), "ABCDEFGH").start(0)
    event = run(event, s)
    final = event.rounds[-1]
    assert [m.id for m in final.matches] == ["r3-1", "r3-3rd"]
    assert final.matches[1].seats == ("C", "D")  # the semi-finals' losers, by seed
    assert [w.code for w in final.why] == ["bracket", "third_place"]
    places = {r.player: r.place for r in event.standings()}
    assert [places[p] for p in "ABCD"] == [1, 2, 3, 4]
    assert {places[p] for p in "EFGH"} == {5}
    # Without the option the semi-finals' losers share third place.
    plain = run(entered(EventConfig(Format.KNOCKOUT), "ABCDEFGH").start(0), s)
    assert {r.player: r.place for r in plain.standings()}["D"] == 3


def test_double_elimination_of_8_everyone_out_after_two_losses() -> None:
    s = strengths("ABCDEFGH")
    event = entered(EventConfig(Format.DOUBLE_ELIMINATION), "ABCDEFGH").start(0)
    assert event.total_rounds == 6  # W1-W3 in rounds 1-3, L1-L4 in rounds 2-5, the final
    event = run(event, s)
    assert len(event.rounds) == 6  # the winners' champion won the final: no replay
    losses = Counter(loser(m) for m in event.matches if loser(m) is not None)
    assert losses["A"] == 0 and all(losses[p] == 2 for p in "BCDEFGH")
    # Each player's last match: nobody plays on after a second loss.
    for p in "BCDEFGH":
        last = max((m for m in event.matches if p in m.seats), key=lambda m: m.round)
        assert loser(last) == p
    keys = [m.id.split("-", 1)[1] for m in event.matches]
    assert keys.count("GF") == 1 and "GF2" not in keys
    assert sum(k.startswith("W") for k in keys) == 7 and sum(k.startswith("L") for k in keys) == 6
    places = {r.player: r.place for r in event.standings()}
    assert (places["A"], places["B"], places["C"]) == (1, 2, 3)  # C lost the losers' final
    assert places["D"] == 4 and places["H"] == places["G"] == 7  # out in L1


def test_the_grand_final_is_played_again_when_the_losers_side_wins_it() -> None:
    s = strengths("ABCD")
    event = entered(EventConfig(Format.DOUBLE_ELIMINATION), "ABCD").start(0)
    # A wins the winners' bracket; B comes through the losers' side and beats A twice.
    while not event.finished:
        for m in event.open_matches():
            twist = dict(s)
            if m.id.endswith("-GF") or m.id.endswith("-GF2"):
                twist["B"] = 200
            event = play_round(event, twist, skip=frozenset(
                x.id for x in event.open_matches() if x.id != m.id))
        if not event.finished:
            event = event.next_round(len(event.rounds) * DAY)
    keys = [m.id.split("-", 1)[1] for m in event.matches]
    assert keys[-2:] == ["GF", "GF2"] and event.total_rounds == 5
    assert [r.player for r in event.standings()][:2] == ["B", "A"]
    # With no replay the final decides alone.
    once = entered(EventConfig(Format.DOUBLE_ELIMINATION, bracket_reset=False), "ABCD")
    assert once.start(0).total_rounds == 4


def test_double_elimination_with_byes_and_a_withdrawal() -> None:
    s = strengths("ABCDE")
    event = entered(EventConfig(Format.DOUBLE_ELIMINATION), "ABCDE").start(0)
    assert [m.seats for m in event.rounds[0].matches] == [("A",), ("D", "E"), ("B",), ("C",)]
    # E loses to D and withdraws before playing in the losers' bracket.
    event = play_round(event, s).withdraw("E").next_round(DAY)
    event = run(event, s)
    assert all("E" not in m.seats for m in event.matches if m.round > 1)
    assert event.standings()[0].player == "A"
