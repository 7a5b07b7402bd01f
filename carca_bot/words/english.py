"""The English sentences: one small function per refusal code and per event reason."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event

SIDES = ("north", "east", "south", "west")
SIDE_LETTERS = ("N", "E", "S", "W")
PHASE_WAIT = {
    "tile": "waiting for {name} to place a tile",
    "placed": "{name} has placed a tile and must finish the turn",
    "wagon": "waiting for {name} to move or return their wagon",
    "abbey_round": "waiting for {name} to place or skip their abbey",
    "finished": "the game is over",
}
Params = dict[str, Any]
Names = Sequence[str]


def square(pos: tuple[int, int]) -> str:
    """How a square is written in sentences (records and commands use the same numbers)."""
    return f"[{pos[0]}, {pos[1]}]"


def plural(n: int, word: str) -> str:
    """'1 city', '2 cities', '3 tiles'."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def article(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _name(names: Names, player: int | None) -> str:
    if player is None or not 0 <= player < len(names):
        return "" if player is None else f"player {player + 1}"
    return names[player]


def _waiting(p: Params, names: Names) -> str:
    return PHASE_WAIT[p["waiting"]].format(name=_name(names, p["player"]))


# -- refusals -----------------------------------------------------------------------

REFUSALS: dict[str, Callable[[Params, Names], str]] = {
    "game_over": lambda p, n: "the game is over",
    "wrong_phase": _waiting,
    "not_your_turn": lambda p, n: f"it is not {_name(n, p['who'])}'s turn: {_waiting(p, n)}",
    "not_a_player": lambda p, n: f"{p['name']!r} is not a player in this game",
    "start_not_in_supply": lambda p, n: f"the start tile {p['tile']} is not in this game's "
                                        "supply",
    "no_tiles_left": lambda p, n: "there are no tiles left to draw",
    "unknown_tile": lambda p, n: f"there is no tile {p['tile']!r}",
    "tile_not_in_supply": lambda p, n: f"no {p['tile']} tile is left in the supply",
    "lake_last": lambda p, n: "the lake is placed last, after every other river tile",
    "river_first": lambda p, n: "river tiles come first: draw from the river stack",
    "not_drawable": lambda p, n: f"{p['tile']} cannot be drawn now",
    "discard_fits": lambda p, n: f"{p['tile']} fits on the board, so it cannot be discarded",
    "end_not_now": lambda p, n: f"the game can only end before a turn starts: {_waiting(p, n)}",
    # where a tile may lie (each follows "<tile> cannot go at <square> turned <deg>: ")
    "tile_square_taken": lambda p, n: f"the square {square(p['square'])} is already taken",
    "tile_no_neighbour": lambda p, n: f"the square {square(p['square'])} does not touch any "
                                      "placed tile along an edge",
    "tile_edge_mismatch": lambda p, n: f"its {SIDES[p['side']]} edge is {p['edge']} but the "
                                       f"tile at {square(p['other'])} shows {p['shows']} there",
    "river_closed": lambda p, n: "the river is already closed",
    "river_elsewhere": lambda p, n: "a river tile must continue the river at "
                                    f"{square(p['river_at'])}",
    "river_inlet": lambda p, n: f"its river must meet the river on its {SIDE_LETTERS[p['side']]}"
                                " side",
    "river_u_turn": lambda p, n: f"the river may not turn {p['turn']} twice in a row (a U-turn)",
    "river_three_turns": lambda p, n: f"the river may not turn {p['turn']} three times in a row",
    "cult_crowded": lambda p, n: f"a {p['building']} may not stand next to more than one "
                                 f"{p['other']}",
    "cult_partner_taken": lambda p, n: f"the {p['other']} at {square(p['partner'])} already has "
                                       f"a {p['building']} next to it",
    # the abbey
    "no_abbey": lambda p, n: f"{_name(n, p['who'])} has no abbey to place",
    "abbey_square_taken": lambda p, n: f"the square {square(p['square'])} is already taken",
    "abbey_not_hole": lambda p, n: f"an abbey goes only into a hole: {square(p['square'])} is "
                                   "not surrounded by tiles on all four sides",
    "skip_not_now": lambda p, n: "an abbey can be skipped only in the end-of-game abbey round",
    # figures (each follows "cannot place the <figure> on <on>: ")
    "one_figure": lambda p, n: "only one figure may be placed (or the abbot recalled) per turn",
    "deploy_and_recall": lambda p, n: "a turn may deploy a figure or recall the abbot, not both",
    "unknown_figure": lambda p, n: f"there is no figure {p['figure']!r}",
    "figure_not_in_hand": lambda p, n: f"{_name(n, p['who'])} has no {p['figure']} in hand",
    "deploy_nothing_named": lambda p, n: f"{p['on']!r} names nothing on the tile just placed",
    "garden_abbot_only": lambda p, n: "only an abbot may stand in a garden",
    "figure_not_allowed": lambda p, n: f"{article(p['figure'])} cannot stand on "
                                       f"{article(p['where'])}",
    "feature_occupied": lambda p, n: f"that {p['kind']} is already occupied",
    "barn_not_corner": lambda p, n: f"a barn goes on a corner (NW, NE, SE or SW), not {p['on']!r}",
    "barn_corner_not_field": lambda p, n: f"a barn needs four tiles meeting at the {p['on']} "
                                          "corner, all of them field there",
    "barn_field_taken": lambda p, n: "that field already has a barn",
    "no_abbot_on_board": lambda p, n: f"{_name(n, p['who'])} has no abbot on the board to recall",
    "abbot_completes": lambda p, n: "the abbot's building is completed by this tile and scores "
                                    "anyway",
    # tunnel tokens (each follows "cannot place the token: ")
    "one_token": lambda p, n: "only one tunnel token may be placed per turn",
    "no_tunnels": lambda p, n: "this game has no tunnels",
    "no_such_pair": lambda p, n: "there is no such token pair: each player has "
                                 f"{plural(p['pairs'], 'pair')}",
    "pair_used": lambda p, n: "both tokens of that pair are already on the board",
    "token_no_tile": lambda p, n: f"there is no tile at {square(p['square'])}",
    "token_nothing_named": lambda p, n: f"{p['on']!r} names nothing on the tile at "
                                        f"{square(p['square'])}",
    "no_tunnel_entrance": lambda p, n: f"the {p['on']} side of the tile at "
                                       f"{square(p['square'])} has no tunnel entrance",
    "entrance_taken": lambda p, n: "that tunnel entrance already has a token",
    # wagons
    "wagon_nothing_named": lambda p, n: f"{p['on']!r} at {square(p['square'])} names nothing "
                                        "on the board",
    "wagon_onto": lambda p, n: f"a wagon cannot move onto a {p['kind']}",
    "wagon_complete": lambda p, n: "a wagon can only move to an incomplete feature",
    "wagon_occupied": lambda p, n: "that feature is occupied",
    "wagon_chased_from": lambda p, n: "the wagon cannot go back to the building it was chased "
                                      "from",
    "wagon_c2_range": lambda p, n: "with rule c2 the wagon moves only to its own square "
                                   f"{square(p['wagon_at'])} or one of the 8 around it",
    "wagon_c1_link": lambda p, n: "with rule c1 the wagon moves only to a feature directly "
                                  "connected to the one scored",
}
PLACEMENT = frozenset({"tile_square_taken", "tile_no_neighbour", "tile_edge_mismatch",
                       "river_closed", "river_elsewhere", "river_inlet", "river_u_turn",
                       "river_three_turns", "cult_crowded", "cult_partner_taken"})
FIGURE = frozenset({"unknown_figure", "figure_not_in_hand", "deploy_nothing_named",
                    "garden_abbot_only", "figure_not_allowed", "feature_occupied",
                    "barn_not_corner", "barn_corner_not_field", "barn_field_taken"})
TOKEN = frozenset({"no_tunnels", "no_such_pair", "pair_used", "token_no_tile",
                   "token_nothing_named", "no_tunnel_entrance", "entrance_taken"})


def refusal(err: IllegalMove, names: Names) -> str:
    """Why a move was refused, as one sentence for the player who made it."""
    p = err.params
    words = REFUSALS.get(err.code)
    text = words(p, names) if words is not None else err.code.replace("_", " ")
    if err.code in PLACEMENT:
        if "tile" in p:
            hint = "" if p["fits"] else f" ({p['tile']} fits nowhere: discard it)"
            return (f"{p['tile']} cannot go at {square(p['square'])} turned {p['rot'] * 90}: "
                    f"{text}{hint}")
        if p.get("abbey"):
            return f"the abbey cannot go at {square(p['square'])}: {text}"
    if err.code in FIGURE:
        return f"cannot place the {p['figure']} on {p['on']}: {text}"
    if err.code in TOKEN:
        return f"cannot place the token: {text}"
    return text


# -- events -------------------------------------------------------------------------


def _counted(reason: str, p: Params) -> str:
    """How a feature's points were counted."""
    if reason == "road":
        state = "incomplete" if p["final"] else "completed"
        return f"{state} road of {plural(p['tiles'], 'tile')} (1 per tile)"
    if reason == "city":
        state = "incomplete" if p["final"] else "completed"
        pennants = f" and {plural(p['pennants'], 'pennant')}" if p["pennants"] else ""
        return (f"{state} city of {plural(p['tiles'], 'tile')}{pennants} "
                f"({p['each']} per tile and pennant)")
    if not p["final"]:
        return f"completed {p['name']} (9)"
    around = p["neighbours"]
    return f"incomplete {p['name']} with {plural(around, 'neighbour')} (1 + {around})"


def detail(ev: Event) -> str:
    """What happened, without who: how points were counted, or why it happened."""
    p, reason = ev.params, ev.reason
    if reason in ("road", "city", "building"):
        return _counted(reason, p)
    if reason == "abbot_recalled":
        return f"recalled abbot: {_counted(p['counted'], p)}"
    if reason in ("barn_placed", "barn_joined"):
        why = "a barn placed in the field" if reason == "barn_placed" else \
            "farmers joined to a barn field"
        return f"{why}: {plural(p['cities'], 'completed city')} ({p['per_city']} per city)"
    if reason in ("farmers_final", "barn_final"):
        who = "farmers" if reason == "farmers_final" else "barn"
        return (f"{who} in a field touching {plural(p['cities'], 'completed city')} "
                f"({p['per_city']} per city)")
    if reason == "title_final":
        return (f"the {p['title'].capitalize()}: "
                f"{plural(p['count'], 'completed ' + p['kind'])} on the board (1 each)")
    if reason == "title_taken":
        word = p["title"].capitalize()
        return (f"takes the {word}: completed the largest {p['kind']} so far "
                f"({p['size']} tiles)")
    if reason == "challenge":
        return (f"the {p['winner']} at {square(p['winner_at'])} was completed first: the "
                f"followers on the {p['loser']} at {square(p['loser_at'])} go home with no "
                "points")
    if reason == "discarded":
        return f"{p['tile']} fits nowhere and is removed from the game"
    if reason == "wagon_stuck":
        return "the wagon has nowhere to go and returns"
    if reason == "wagon_returned":
        return "the wagon returns to hand"
    if reason == "wagon_moved":
        return f"the wagon moves to {p['on']} at {square(p['square'])}"
    return reason.replace("_", " ")


def event(ev: Event, names: Names) -> str:
    """One line telling the players what happened."""
    who = join([_name(names, p) for p in ev.players]) or "nobody"
    text = detail(ev)
    if ev.kind == "score":
        if not ev.players:
            return f"{text}: nobody scores"
        return f"{who} +{ev.points} for {text}"
    return f"{who}: {text}" if ev.players else text
