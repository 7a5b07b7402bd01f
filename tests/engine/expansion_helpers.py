"""Builders shared by the expansion tests (Abbey & Mayor, King & Robber, Cult, Tunnel).

Every test builds its position as a `carca-record/1` record: the start tile D
at (0, 0) rot 0 (city north, road west-east), then named tiles at named
squares. Coordinates: x grows east, y grows south. `rot` is clockwise degrees.
"""

from __future__ import annotations

from typing import Any

from carca_bot.cli import refusal_words
from carca_bot.engine.game import Game
from carca_bot.engine.record import parse_record, replay

AM = "abbey_mayor"
KR = "king_robber"
CULT = "cult"
TUNNEL = "tunnel"
ALL = ("river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel")

END: dict[str, Any] = {"end": True}


def t(by: str, tile: str, at: tuple[int, int], rot: int = 0, *,
      fig: str | None = None, on: str | None = None,
      token: tuple[tuple[int, int], str, int] | None = None,
      token_first: bool = False, recall: bool = False) -> dict[str, Any]:
    """A tile turn: `fig`/`on` deploy a figure; `token` is (square, entrance, pair)."""
    action: dict[str, Any] = {"by": by, "tile": tile, "at": list(at), "rot": rot}
    _extras(action, fig, on, token, token_first, recall)
    return action


def abbey(by: str, at: tuple[int, int], *, fig: str | None = None, on: str = "C",
          token: tuple[tuple[int, int], str, int] | None = None) -> dict[str, Any]:
    """Place the player's abbey into the hole `at` (optionally with a figure on it)."""
    action: dict[str, Any] = {"by": by, "abbey": list(at)}
    _extras(action, fig, on if fig else None, token, False, False)
    return action


def skip(by: str) -> dict[str, Any]:
    return {"by": by, "abbey": "skip"}


def wagon(by: str, at: tuple[int, int] | None = None, on: str = "") -> dict[str, Any]:
    """A wagon decision: move to (at, on), or return it when `at` is None."""
    if at is None:
        return {"by": by, "wagon": "return"}
    return {"by": by, "wagon": {"at": list(at), "on": on}}


def _extras(action: dict[str, Any], fig: str | None, on: str | None,
            token: tuple[tuple[int, int], str, int] | None, token_first: bool,
            recall: bool) -> None:
    if fig is not None:
        action["deploy"] = {"figure": fig, "on": on}
    if token is not None:
        square, entrance, pair = token
        action["token"] = {"at": list(square), "on": entrance, "pair": pair}
    if token_first:
        action["token_first"] = True
    if recall:
        action["recall"] = True


def record(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
           expansions: tuple[str, ...] = (), rules: dict[str, Any] | None = None,
           ) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "carca-record/1", "players": list(players),
                           "expansions": list(expansions), "actions": actions}
    if rules is not None:
        rec["rules"] = rules
    return rec


def play(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
         expansions: tuple[str, ...] = (), rules: dict[str, Any] | None = None,
         ) -> dict[str, Any]:
    """Replay a record that must be legal throughout; returns the result object."""
    status, out = replay(record(actions, players, expansions, rules))
    assert status == 0, out.get("error")
    return out


def refused(actions: list[dict[str, Any]], *words: str,
            players: tuple[str, ...] = ("Ana", "Ben"), expansions: tuple[str, ...] = (),
            rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Replay a record whose LAST action must be refused (exit 1) with all `words`."""
    status, out = replay(record(actions, players, expansions, rules), refusal_words)
    assert status == 1, out
    error = out["error"]
    assert error["index"] == len(actions) - 1, error
    for word in words:
        assert word in error["message"], (word, error["message"])
    return out


def game_of(actions: list[dict[str, Any]], players: tuple[str, ...] = ("Ana", "Ben"),
            expansions: tuple[str, ...] = (), rules: dict[str, Any] | None = None) -> Game:
    """The Game after replaying `actions` (for the Game API: events, legal moves)."""
    rec = parse_record(record(actions, players, expansions, rules))
    return Game.replay(rec.setup, rec.actions)


def scored(game: Game, feature: str | None = None) -> list[tuple[tuple[str, ...], int]]:
    """(players, points) of the score events that paid someone, optionally of one kind."""
    return [(tuple(game.players[p] for p in e.players), e.points) for e in game.events
            if e.kind == "score" and e.players and (feature is None or e.feature == feature)]


# A ring of ten tiles around the hole (1, 1), built from the start tile D(0,0):
#
#   y\x   -1            0              1               2
#   0   W rot180      D (start)      V rot0          E rot0
#       (junction:    city N, road   (road W->S,     (city N)
#        arms N,E,W)  W-E            into the hole)
#   1   E rot270      B              [hole]          E rot270
#       (city W)      (monastery)                    (city W, into the hole)
#   2   U rot0        U rot0         W rot180        U rot0
#                                    (junction, arm N into the hole)
#
# The hole's four sides: V's road (north), B's field (west), E's city (east),
# W's road arm (south). All 8 squares around the hole hold tiles, so an abbey
# there is complete at once; B(0,1) has 7 neighbours and the abbey is its 8th.
# The road W(-1,0)E-arm + D + V ends in the hole (3 land tiles).
RING: tuple[tuple[str, tuple[int, int], int], ...] = (
    ("V", (1, 0), 0), ("W", (-1, 0), 180), ("B", (0, 1), 0), ("E", (2, 0), 0),
    ("E", (2, 1), 270), ("E", (-1, 1), 270), ("U", (-1, 2), 0), ("U", (0, 2), 0),
    ("U", (2, 2), 0), ("W", (1, 2), 180),
)
HOLE = (1, 1)
SE_OF_HOLE = 8  # index of U(2,2) in RING: leave it out for a hole with 7 neighbours


def ring(players: tuple[str, ...] = ("Ana", "Ben"),
         deploys: dict[int, tuple[str, str]] | None = None,
         leave_out: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """The RING tiles in order, players taking turns from players[0]; `deploys` maps a
    RING index to (figure, feature) deployed on that tile."""
    deploys = deploys or {}
    kept = [j for j in range(len(RING)) if j not in leave_out]
    actions = []
    for i, j in enumerate(kept):
        tile, at, rot = RING[j]
        fig, on = deploys.get(j, (None, None))
        actions.append(t(players[i % len(players)], tile, at, rot, fig=fig, on=on))
    return actions


def next_turn(out: dict[str, Any]) -> tuple[str, str]:
    """(player, first verb expected) of a result; a tile turn may also list abbey/discard."""
    nxt = out["next"]
    assert nxt is not None, "the game is finished"
    return nxt["player"], nxt["expects"][0]
