"""Events survive JSON: the store keeps them as text."""

from __future__ import annotations

import json

import pytest

from carca_bot.league.codec import event_from_json, event_to_json
from carca_bot.league.model import EventConfig, Format, LeagueError, Result, Tiebreak
from tests.league.helpers import DAY, entered, play_round, strengths


def test_events_of_every_format_round_trip_through_json_text() -> None:
    s = strengths("ABCDEF")
    knockout = entered(EventConfig(Format.KNOCKOUT, best_of=3), "ABCDEF").start(0)
    knockout = knockout.forfeit("r1-4", ["F"])
    knockout = play_round(knockout, s).next_round(DAY)
    knockout = knockout.override("r2-2", [Result.of(("B", 1), ("C", 0))] * 2, note="ruling")
    tables = entered(EventConfig(Format.TABLES, rounds=2, placing_points=(6, 3, 1),
                                 tiebreaks=(Tiebreak.PLACING, Tiebreak.HEAD_TO_HEAD)),
                     "ABCDEF").start(0)
    tables = tables.report("r1-1", Result.of(("A", 3), ("B", 2))).withdraw("E")
    robin = entered(EventConfig(Format.ROUND_ROBIN, groups=2), "ABCDEF").start(0)
    swiss = entered(EventConfig(Format.SWISS, rounds=3), "ABCDE").sign_up("late", "=x")
    for event in (knockout, tables, robin, swiss):
        again = event_from_json(json.loads(json.dumps(event_to_json(event))))
        assert again == event
        assert again.standings() == event.standings()


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(LeagueError) as refused:
        event_from_json({"format": "carca-event/9"})
    assert refused.value.code == "bad_format"
