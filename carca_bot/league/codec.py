"""Events to JSON and back, so the store can keep one as a text column.

The format is versioned (`carca-event/1`); reading refuses anything else rather than
guess. Only plain JSON types come out: lists, objects, strings, numbers, booleans, null.
Keys added since (the settings for brackets, deadlines and time-outs, each round's
`why`) are optional when read: an event stored before them reads with their defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carca_bot.league.event import Event
from carca_bot.league.model import (
    Entrant,
    EventConfig,
    Format,
    LeagueError,
    Match,
    Result,
    Round,
    Ruling,
    Source,
    Tiebreak,
    Why,
)

FORMAT = "carca-event/1"


def event_to_json(event: Event) -> dict[str, Any]:
    c = event.config
    return {
        "format": FORMAT,
        "config": {"format": c.format.value, "rounds": c.rounds, "best_of": c.best_of,
                   "groups": c.groups, "table_size": c.table_size,
                   "placing_points": list(c.placing_points),
                   "tiebreaks": [t.value for t in c.tiebreaks],
                   "round_seconds": c.round_seconds, "late_entries": c.late_entries,
                   "third_place": c.third_place, "bracket_reset": c.bracket_reset,
                   "forfeit_at_deadline": c.forfeit_at_deadline,
                   "timeout_rule": c.timeout_rule, "timeout_limit": c.timeout_limit},
        "entrants": [{"player": e.player, "name": e.name, "seed": e.seed, "joined": e.joined,
                      "withdrew_after": e.withdrew_after} for e in event.entrants],
        "groups": [list(g) for g in event.groups],
        "rounds": [{"number": r.number, "opened_at": r.opened_at, "deadline": r.deadline,
                    "matches": [_match(m) for m in r.matches],
                    "why": [_why(w) for w in r.why]} for r in event.rounds],
    }


def _why(w: Why) -> dict[str, Any]:
    return {"match": w.match_id, "code": w.code, "seat": w.seat, "points": list(w.points),
            "met": w.met, "beyond_limit": w.beyond_limit}


def _why_from(d: Mapping[str, Any]) -> Why:
    return Why(str(d["match"]), str(d["code"]), str(d["seat"]),
               tuple(float(x) for x in d["points"]), int(d["met"]), bool(d["beyond_limit"]))


def _result(r: Result) -> dict[str, Any]:
    return {"scores": [[p, s] for p, s in r.scores], "absent": sorted(r.absent),
            "source": r.source.value}


def _match(m: Match) -> dict[str, Any]:
    return {"id": m.id, "round": m.round, "seats": list(m.seats), "group": m.group,
            "best_of": m.best_of, "knockout": m.knockout,
            "reported": [_result(g) for g in m.reported],
            "rulings": [{"games": [_result(g) for g in r.games], "note": r.note}
                        for r in m.rulings]}


def event_from_json(data: Mapping[str, Any]) -> Event:
    if data.get("format") != FORMAT:
        raise LeagueError("bad_format", f"not a {FORMAT} event")
    c = data["config"]
    config = EventConfig(Format(c["format"]), int(c["rounds"]), int(c["best_of"]),
                         int(c["groups"]), int(c["table_size"]),
                         tuple(float(x) for x in c["placing_points"]),
                         tuple(Tiebreak(t) for t in c["tiebreaks"]),
                         float(c["round_seconds"]), bool(c["late_entries"]),
                         bool(c.get("third_place", False)), bool(c.get("bracket_reset", True)),
                         bool(c.get("forfeit_at_deadline", False)),
                         str(c.get("timeout_rule", "none")), int(c.get("timeout_limit", 3)))
    entrants = tuple(Entrant(str(e["player"]), str(e["name"]), float(e["seed"]),
                             int(e["joined"]),
                             None if e["withdrew_after"] is None else int(e["withdrew_after"]))
                     for e in data["entrants"])
    rounds = tuple(Round(int(r["number"]), tuple(_match_from(m) for m in r["matches"]),
                         float(r["opened_at"]), float(r["deadline"]),
                         tuple(_why_from(w) for w in r.get("why", ())))
                   for r in data["rounds"])
    groups = tuple(tuple(str(p) for p in g) for g in data["groups"])
    return Event(config, entrants, rounds, groups)


def _result_from(d: Mapping[str, Any]) -> Result:
    return Result(tuple((str(p), int(s)) for p, s in d["scores"]),
                  frozenset(str(p) for p in d["absent"]), Source(d["source"]))


def _match_from(d: Mapping[str, Any]) -> Match:
    return Match(str(d["id"]), int(d["round"]), tuple(str(p) for p in d["seats"]),
                 str(d["group"]), int(d["best_of"]), bool(d["knockout"]),
                 tuple(_result_from(g) for g in d["reported"]),
                 tuple(Ruling(tuple(_result_from(g) for g in r["games"]), str(r["note"]))
                       for r in d["rulings"]))
