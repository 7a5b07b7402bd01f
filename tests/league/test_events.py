"""Events from sign-up to final standings, with a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from carca_bot.league.divisions import final_order, next_season, season_events
from carca_bot.league.event import Event
from carca_bot.league.model import EventConfig, Format, LeagueError, Result, Source, Tiebreak
from carca_bot.league.standings import to_csv
from tests.league.helpers import DAY, entered, game, play_round, strengths


def pairs(event: Event) -> list[tuple[str, ...]]:
    assert event.current is not None
    return [m.seats for m in event.current.matches]


def test_an_8_player_3_round_swiss_with_a_no_show_an_override_and_a_withdrawal() -> None:
    s = strengths("ABCDEFGH")
    event = entered(EventConfig(Format.SWISS, rounds=3), "ABCDEFGH").start(0)
    # Round one: top half against bottom half, the first player alternating by board.
    assert pairs(event) == [("A", "E"), ("F", "B"), ("C", "G"), ("H", "D")]
    assert event.current is not None and event.current.deadline == 7 * DAY
    event = play_round(event, s, skip=frozenset({"r1-4"}))  # H does not show up

    # The clock: a reminder before the deadline, the digest after it.
    assert [g.match_id for g in event.due_soon(6.5 * DAY, DAY)] == ["r1-4"]
    assert event.late_games(6.5 * DAY) == ()
    late = event.late_games(8 * DAY)
    assert [(g.match_id, g.players, g.overdue) for g in late] == [("r1-4", ("H", "D"), DAY)]
    with pytest.raises(LeagueError, match="r1-4"):
        event.next_round(8 * DAY)

    event = event.forfeit("r1-4", ["H"], note="no-show")
    forfeited = event.match("r1-4").games[0]
    assert forfeited.source is Source.FORFEIT and forfeited.wins() == {"H": 0.0, "D": 1.0}

    # An organiser's override, then the appeal that reverts it.
    before = event.standings()
    event = event.override("r1-1", [Result.of(("A", 80), ("E", 90))], note="miscount")
    rows = {r.player: r for r in event.standings()}
    assert (rows["A"].wins, rows["E"].wins, rows["E"].difference) == (0, 1, 10)
    event = event.appeal("r1-1")
    assert event.standings() == before
    with pytest.raises(LeagueError) as refused:
        event.appeal("r1-1")
    assert refused.value.code == "nothing_to_appeal"

    event = event.next_round(8 * DAY)
    assert pairs(event) == [("D", "A"), ("B", "C"), ("G", "H"), ("E", "F")]
    event = play_round(event, s)
    event = event.withdraw("G")
    event = event.next_round(16 * DAY)
    # G gets no more pairings; seven players leave a bye. D and H met in round one.
    assert pairs(event) == [("A", "B"), ("C", "E"), ("F", "D"), ("H",)]
    assert all("G" not in m for m in pairs(event))
    event = play_round(event, s)
    assert event.finished

    table = [(r.place, r.player, r.wins, r.buchholz, r.difference, r.withdrawn)
             for r in event.standings()]
    assert table == [
        (1, "A", 3, 5, 56, False),
        (2, "B", 2, 5, 28, False),
        (3, "C", 2, 4, 35, False),  # C and D: equal wins and Buchholz, C's difference
        (4, "D", 2, 4, -7, False),
        (5, "E", 1, 5, -35, False),
        (6, "H", 1, 3, -7, False),  # the bye is a win
        (7, "G", 1, 3, -21, True),  # withdrawn: the two games played stand
        (8, "F", 0, 5, -49, False),
    ]
    csv = to_csv(event.standings(), event.config.chain).splitlines()
    # The event's tie-breaks after the wins, in the order they apply.
    assert csv[0] == "place,name,player,group,played,wins,byes,buchholz,difference,withdrawn"
    assert csv[1] == "1,Player A,A,,3,3,0,5,56,"
    assert csv[7] == "7,Player G,G,,2,1,0,3,-21,yes"


def test_a_5_player_round_robin() -> None:
    s = strengths("ABCDE")
    event = entered(EventConfig(Format.ROUND_ROBIN), "ABCDE").start(0)
    assert event.total_rounds == 5
    met: list[frozenset[str]] = []
    for r in range(5):
        assert event.current is not None and len(event.current.matches) == 3
        byes = [m for m in event.current.matches if m.bye]
        assert len(byes) == 1  # one bye a round, everyone's once
        met += [frozenset(m.seats) for m in event.current.matches if not m.bye]
        event = play_round(event, s)
        ce = [m for m in event.rounds[-1].matches if set(m.seats) == {"C", "E"}]
        if ce:  # C beat E, but an organiser overrides it: E beat C after all
            event = event.override(ce[0].id, [Result.of(("C", 70), ("E", 75))])
        if r < 4:
            event = event.next_round((r + 1) * 7 * DAY)
    assert sorted(map(sorted, met)) == sorted(
        sorted(p) for p in [("A", "B"), ("A", "C"), ("A", "D"), ("A", "E"), ("B", "C"),
                            ("B", "D"), ("B", "E"), ("C", "D"), ("C", "E"), ("D", "E")])
    assert event.finished
    with pytest.raises(LeagueError, match="last round"):
        event.next_round(99 * DAY)
    rows = [(r.place, r.player, r.wins, r.buchholz, r.difference) for r in event.standings()]
    # C, D and E won one game each (E's by the override) and met the same opponents:
    # point difference decides (C: +7 -7 -5 -14; D: -7 -21 -14 +7; E: -21 -28 +5 -7).
    assert rows == [(1, "A", 4, 6, 70), (2, "B", 3, 7, 35), (3, "C", 1, 9, -19),
                    (4, "D", 1, 9, -35), (5, "E", 1, 9, -51)]


def test_a_round_robin_withdrawal_turns_the_rest_of_their_games_into_byes() -> None:
    s = strengths("ABCDE")
    event = entered(EventConfig(Format.ROUND_ROBIN), "ABCDE").start(0)
    event = play_round(event, s).next_round(7 * DAY)
    event = play_round(event, s).withdraw("E")
    e_games = [m.seats for m in event.matches if "E" in m.seats]
    event = event.next_round(14 * DAY)
    for _ in range(3):
        assert all("E" not in m.seats for m in event.current.matches)  # type: ignore[union-attr]
        event = play_round(event, s)
        if not event.finished:
            event = event.next_round(21 * DAY)
    assert event.finished
    row = {r.player: r for r in event.standings()}["E"]
    assert row.withdrawn and row.played == len([g for g in e_games if len(g) == 2])


def test_late_entries_only_where_the_schedule_allows() -> None:
    swiss = entered(EventConfig(Format.SWISS, rounds=3), "ABCD").start(0)
    swiss = swiss.sign_up("E", "Late Eve")
    assert swiss.entrant("E").joined == 2
    swiss = play_round(swiss, strengths("ABCDE")).next_round(DAY)
    assert any("E" in m.seats for m in swiss.current.matches)  # type: ignore[union-attr]
    robin = entered(EventConfig(Format.ROUND_ROBIN), "ABCD").start(0)
    with pytest.raises(LeagueError) as refused:
        robin.sign_up("E", "Eve")
    assert refused.value.code == "no_late_entries"
    with pytest.raises(LeagueError) as twice:
        robin.sign_up("A", "Ann")
    assert twice.value.code == "already_entered"


def test_a_knockout_of_best_of_3_series() -> None:
    s = strengths("ABCDEF")
    event = entered(EventConfig(Format.KNOCKOUT, best_of=3), "ABCDEF").start(0)
    assert event.total_rounds == 3
    # Eight slots for six: the two top seeds have byes.
    assert pairs(event) == [("A",), ("D", "E"), ("B",), ("C", "F")]

    # D-E: D wins game 1, E game 2 (the first seat moves each game), then a tie is replayed.
    m = event.match("r1-2")
    event = event.report(m.id, game(m, {"D": 80, "E": 70}))
    m = event.match("r1-2")
    assert m.seats_for_game(1) == ("E", "D") and not m.decided
    event = event.report(m.id, game(m, {"D": 60, "E": 70}))
    m = event.match("r1-2")
    event = event.report(m.id, game(m, {"D": 65, "E": 65}))
    assert not event.match("r1-2").decided
    m = event.match("r1-2")
    event = event.report(m.id, game(m, {"D": 90, "E": 65}))
    assert event.match("r1-2").winner == "D" and len(event.match("r1-2").games) == 4
    with pytest.raises(LeagueError) as decided:
        event.report("r1-2", Result.of(("D", 1), ("E", 0)))
    assert decided.value.code == "already_decided"

    # C-F: F does not show: the series is forfeited to C.
    event = event.forfeit("r1-4", ["F"])
    assert event.match("r1-4").winner == "C"
    assert [g.source for g in event.match("r1-4").games] == [Source.FORFEIT] * 2

    event = event.next_round(7 * DAY)
    assert pairs(event) == [("A", "D"), ("B", "C")]
    with pytest.raises(LeagueError) as advanced:
        event.override("r1-2", [Result.of(("D", 0), ("E", 1))] * 2)
    assert advanced.value.code == "already_advanced"

    # B-C: C wins, but an organiser overrides the series for B (C used a wrong rule).
    event = play_round(event, {**s, "C": 200})
    assert event.match("r2-2").winner == "C"
    event = event.override("r2-2", [Result.of(("B", 1), ("C", 0))] * 2, note="rule breach")
    assert event.match("r2-2").winner == "B"
    event = play_round(event, s).next_round(14 * DAY)
    assert pairs(event) == [("A", "B")]
    event = play_round(event, s)
    assert event.finished
    places = [(r.place, r.player) for r in event.standings()]
    assert places == [(1, "A"), (2, "B"), (3, "C"), (3, "D"), (5, "E"), (5, "F")]


def test_a_knockout_withdrawal_gives_the_opponent_a_walkover() -> None:
    event = entered(EventConfig(Format.KNOCKOUT), "ABCD").start(0)
    event = event.withdraw("D")  # D was to play A in round one
    assert event.match("r1-1").winner == "A"
    event = play_round(event, strengths("ABCD")).next_round(DAY)
    assert pairs(event) == [("A", "B")]


def test_a_season_of_two_divisions_with_promotion_and_relegation() -> None:
    config = EventConfig(Format.ROUND_ROBIN)
    names = {p: f"Player {p}" for p in "ABCDEFGH"}
    first = [[(p, names[p]) for p in "ABCD"], [(p, names[p]) for p in "EFGH"]]
    upper, lower = season_events(first, config)
    upper, lower = upper.start(0), lower.start(0)
    # This season E is the strongest of all and D the weakest; C withdraws after round 1.
    s = {"E": 120, "A": 100, "B": 95, "C": 90, "F": 80, "G": 75, "H": 70, "D": 10}
    for _ in range(3):
        upper, lower = play_round(upper, s), play_round(lower, s)
        if len(upper.rounds) == 1:
            upper = upper.withdraw("C")
        if not upper.finished:
            upper, lower = upper.next_round(7 * DAY), lower.next_round(7 * DAY)
    assert upper.finished and lower.finished
    assert final_order(upper) == ("A", "B", "D", "C")  # withdrawn last
    assert final_order(lower) == ("E", "F", "G", "H")
    season2 = next_season([final_order(upper), final_order(lower)], moves=1,
                          leaving={"H"}, joining=["I"])
    assert season2 == (("A", "B", "D", "E"), ("C", "F", "G", "I"))
    season2 = next_season([final_order(upper), final_order(lower)], moves=2)
    assert season2 == (("A", "B", "E", "F"), ("D", "C", "G", "H"))
    with pytest.raises(LeagueError):
        next_season([("A", "B"), ("B", "C")], moves=1)


def test_a_league_of_4_player_tables_scored_5_3_2_1() -> None:
    players = "ABCDEFGH"
    s = strengths(players)
    event = entered(EventConfig(Format.TABLES, rounds=3), players).start(0)
    assert pairs(event) == [("A", "B", "C", "D"), ("E", "F", "G", "H")]
    # Round 1: H does not show at the second table; the other three play on.
    event = play_round(event, s, skip=frozenset({"r1-2"}))
    event = event.report("r1-2", Result.of(("E", 50), ("F", 60), ("G", 40)))
    r1 = event.match("r1-2").games[0]
    assert r1.absent == {"H"} and r1.placing((5, 3, 2, 1)) == {"F": 5, "E": 3, "G": 2, "H": 0}
    event = event.next_round(7 * DAY)
    # By placing points (then wins, then points scored): A, F (5), B, E (3), C, G (2),
    # D (1), H (0); those who have not yet sat first do so now.
    assert pairs(event) == [("F", "B", "A", "E"), ("C", "G", "D", "H")]
    # A tie for first at the top table shares 5 + 3.
    top = event.match("r2-1")
    event = event.report("r2-1", game(top, {"F": 90, "B": 90, "E": 50, "A": 70}))
    event = play_round(event, s)
    # An override at the second table: H actually won.
    event = event.override("r2-2", [Result.of(("G", 1), ("D", 2), ("H", 9), ("C", 3))])
    event = event.withdraw("D")
    event = event.next_round(14 * DAY)
    # Round 3: F 9; A, B 7 (A won a game); H, C 5 (H won one); E 4; G 3 (D withdrawn):
    # tables of 4 and 3. In standings order (F A B H, C E G) six pairs would meet again;
    # these tables have three, the fewest any seating has (then the closest standings).
    assert pairs(event) == [("C", "F", "E"), ("B", "H", "A", "G")]
    assert [w.met for w in event.rounds[-1].why] == [1, 2]
    event = play_round(event, s)
    assert event.finished
    rows = [(r.place, r.player, r.placing, r.wins, r.withdrawn) for r in event.standings()]
    assert rows == [
        (1, "A", 5 + 2 + 5, 2, False),
        (2, "F", 5 + 4 + 2, 1.5, False),  # 4: sharing first place's 5 + 3
        (3, "C", 2 + 3 + 5, 1, False),  # C and B on 10: C won a game, B half of one
        (4, "B", 3 + 4 + 3, 0.5, False),
        (5, "E", 3 + 1 + 3, 0, False),
        (6, "H", 0 + 5 + 1, 1, False),  # absent in round 1: nothing
        (7, "G", 2 + 1 + 2, 0, False),
        (8, "D", 1 + 2, 0, True),
    ]


def test_tie_breaks_are_a_configurable_chain() -> None:
    base = entered(EventConfig(Format.SWISS, rounds=1,
                               tiebreaks=(Tiebreak.SCORED, Tiebreak.WINS)), "ABCD").start(0)
    assert pairs(base) == [("A", "C"), ("D", "B")]
    event = play_round(base, {"A": 50, "C": 40, "B": 98, "D": 97})  # D lost, scored 97
    assert [r.player for r in event.standings()] == ["B", "D", "A", "C"]
    h2h = entered(EventConfig(Format.ROUND_ROBIN,
                              tiebreaks=(Tiebreak.WINS, Tiebreak.HEAD_TO_HEAD)), "ABC").start(0)
    # A beats B, B beats C, C beats A: all equal on wins and head-to-head, a shared place.
    for r in range(3):
        for m in h2h.open_matches():
            beats = {("A", "B"), ("B", "C"), ("C", "A")}
            a, b = m.seats
            h2h = h2h.report(m.id, Result.of((a, 1 if (a, b) in beats else 0),
                                             (b, 1 if (b, a) in beats else 0)))
        if r < 2:
            h2h = h2h.next_round(DAY)
    assert [r.place for r in h2h.standings()] == [1, 1, 1]


def test_bad_input_is_refused_and_changes_nothing() -> None:
    event = entered(EventConfig(Format.SWISS, rounds=2), "ABCD").start(0)
    attempts: list[tuple[Callable[[Event], Event], str]] = [
        (lambda e: e.report("r1-1", Result.of(("A", 1), ("Z", 2))), "wrong_players"),
        (lambda e: e.report("r9-9", Result.of(("A", 1))), "no_match"),
        (lambda e: e.report("r1-1", Result.of(("A", -1), ("C", 2))), "bad_score"),
        (lambda e: e.forfeit("r1-1", ["Z"]), "not_in_match"),
        (lambda e: e.next_round(DAY), "round_open"),
        (lambda e: e.start(0), "already_started"),
        (lambda e: e.withdraw("Z"), "not_entered"),
        (lambda e: e.override("r1-1", []), "no_games"),
    ]
    for bad, code in attempts:
        with pytest.raises(LeagueError) as refused:
            bad(event)
        assert refused.value.code == code
    with pytest.raises(LeagueError):
        EventConfig(Format.KNOCKOUT, best_of=2)
    with pytest.raises(LeagueError):
        EventConfig(Format.SWISS)
    with pytest.raises(LeagueError) as few:
        entered(EventConfig(Format.SWISS, rounds=2), "A").start(0)
    assert few.value.code == "too_few_players"


def test_names_are_bounded_and_csv_escapes_formulas() -> None:
    event = Event(EventConfig(Format.SWISS, rounds=1))
    event = event.sign_up("u1", "=HYPERLINK(\"http://x\")").sign_up("u2", "  +1 \n  ")
    event = event.sign_up("u3", "@me").sign_up("u4", "x" * 500).start(0)
    assert event.entrant("u2").name == "+1" and len(event.entrant("u4").name) == 64
    lines = to_csv(event.standings()).splitlines()
    assert any(line.startswith("1,\"'=HYPERLINK(\"\"http://x\"\")\"") for line in lines)
    assert any(",'+1," in line for line in lines) and any(",'@me," in line for line in lines)
