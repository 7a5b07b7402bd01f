"""The engine's sentences: one per refusal code, and each event with who, in English source.

The English here is the `words` catalogue's source; every sentence goes through
`Domain("words")`, so the player reads whatever language is being spoken
(`carca_bot.i18n.speaking`). Sentences are whole, with `{fields}`: where English
would glue a word in ("a {kind}", "that {kind} is occupied") the sentence is
written once per value instead, because Spanish nouns carry a gender that the
rest of the sentence must agree with. Names of things live in `names.py`, the
sentence of each event reason in `happened.py`.
"""

from __future__ import annotations

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.i18n import N_, Domain
from carca_bot.words.happened import REASONS, detail
from carca_bot.words.names import (
    A_FIGURE,
    EDGES,
    FIGURES,
    ON_A_FEATURE,
    SIDE_LETTERS,
    SIDES,
    TITLES,
    Names,
    Params,
    Words,
    a_figure,
    expansion_title,
    figure_name,
    figure_title,
    held,
    join,
    name_of,
    named,
    quoted,
    square,
)

__all__ = ["A_FIGURE", "FIGURES", "REASONS", "REFUSALS", "TITLES", "a_figure", "detail",
           "event", "expansion_title", "figure_name", "figure_title", "held", "join",
           "name_of", "refusal", "square"]

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext


# -- refusals -----------------------------------------------------------------------

PHASE_WAIT = {
    "tile": N_("waiting for {name} to place a tile"),
    "placed": N_("{name} has placed a tile and must finish the turn"),
    "wagon": N_("waiting for {name} to move or return their wagon"),
    "abbey_round": N_("waiting for {name} to place or skip their abbey"),
    "finished": N_("the game is over"),
}


def _waiting(p: Params, names: Names) -> str:
    phase = PHASE_WAIT[p["waiting"]]
    return _(phase).format(name=name_of(names, p["player"]))


def _not_your_turn(p: Params, n: Names) -> str:
    return _("it is not {name}'s turn: {waiting}").format(name=name_of(n, p["who"]),
                                                          waiting=_waiting(p, n))


def _edge_mismatch(p: Params, n: Names) -> str:
    side = SIDES[p["side"]]
    return _("its {side} edge is {edge} but the tile at {other} shows {shows} there").format(
        side=_(side), edge=named(EDGES, p["edge"]), other=square(p["other"]),
        shows=named(EDGES, p["shows"]))


def _river_turn(p: Params, n: Names, times: int) -> str:
    if times == 2:
        if p["turn"] == "left":
            return _("the river may not turn left twice in a row (a U-turn)")
        return _("the river may not turn right twice in a row (a U-turn)")
    if p["turn"] == "left":
        return _("the river may not turn left three times in a row")
    return _("the river may not turn right three times in a row")


def _cult_crowded(p: Params, n: Names) -> str:
    if p["building"] == "shrine":
        return _("a shrine may not stand next to more than one monastery")
    return _("a monastery may not stand next to more than one shrine")


def _cult_partner_taken(p: Params, n: Names) -> str:
    if p["other"] == "shrine":
        text = _("the shrine at {square} already has a monastery next to it")
    else:
        text = _("the monastery at {square} already has a shrine next to it")
    return text.format(square=square(p["partner"]))


def _not_in_hand(p: Params, n: Names) -> str:
    return _("{name} has no {figure} in hand").format(name=name_of(n, p["who"]),
                                                     figure=figure_name(p["figure"]))


def _not_allowed(p: Params, n: Names) -> str:
    return _("{a_figure} cannot stand on {a_feature}").format(
        a_figure=named(A_FIGURE, p["figure"]), a_feature=named(ON_A_FEATURE, p["where"]))


def _occupied(p: Params, n: Names) -> str:
    kind = p["kind"]
    if kind == "road":
        return _("that road is already occupied")
    if kind == "city":
        return _("that city is already occupied")
    if kind == "field":
        return _("that field is already occupied")
    if kind == "garden":
        return _("that garden is already occupied")
    return _("that building is already occupied")


def _joins_no_follower(p: Params, n: Names) -> str:
    kind = p["kind"]
    if kind == "field":
        return _("none of your farmers is in that field")
    if kind == "city":
        return _("none of your followers is in that city")
    return _("none of your followers is on that road")


def _joins_completed(p: Params, n: Names) -> str:
    if p["kind"] == "city":
        return _("this tile completes that city")
    return _("this tile completes that road")


def _wagon_onto(p: Params, n: Names) -> str:
    if p["kind"] == "garden":
        return _("a wagon cannot move onto a garden")
    return _("a wagon cannot move onto a field")


def _pairs(p: Params, n: Names) -> str:
    return ngettext("there is no such token pair: each player has {n} pair",
                    "there is no such token pair: each player has {n} pairs",
                    p["pairs"]).format(n=p["pairs"])


def _sq(message: str, key: str = "square") -> Words:
    """A sentence whose only field is one square."""
    return lambda p, n: _(message).format(square=square(p[key]))


def _tile(message: str) -> Words:
    """A sentence whose only field is a tile id."""
    return lambda p, n: _(message).format(tile=p["tile"])


def _who(message: str) -> Words:
    """A sentence whose only field is a player's name."""
    return lambda p, n: _(message).format(name=name_of(n, p["who"]))


def _plain(message: str) -> Words:
    return lambda p, n: _(message)


REFUSALS: dict[str, Words] = {
    "game_over": _plain(N_("the game is over")),
    "wrong_phase": _waiting,
    "not_your_turn": _not_your_turn,
    "not_a_player": lambda p, n: _("{name} is not a player in this game").format(
        name=quoted(p["name"])),
    "start_not_in_supply": _tile(N_("the start tile {tile} is not in this game's supply")),
    "no_tiles_left": _plain(N_("there are no tiles left to draw")),
    "unknown_tile": lambda p, n: _("there is no tile {tile}").format(tile=quoted(p["tile"])),
    "tile_not_in_supply": _tile(N_("no {tile} tile is left in the supply")),
    "lake_last": _plain(N_("the lake is placed last, after every other river tile")),
    "river_first": _plain(N_("river tiles come first: draw from the river stack")),
    "not_drawable": _tile(N_("{tile} cannot be drawn now")),
    "discard_fits": _tile(N_("{tile} fits on the board, so it cannot be discarded")),
    "end_not_now": lambda p, n: _("the game can only end before a turn starts: {waiting}")
    .format(waiting=_waiting(p, n)),
    # where a tile may lie (each follows "<tile> cannot go at <square> turned <deg>: ")
    "tile_square_taken": _sq(N_("the square {square} is already taken")),
    "tile_no_neighbour": _sq(N_("the square {square} does not touch any placed tile along "
                                "an edge")),
    "tile_edge_mismatch": _edge_mismatch,
    "river_closed": _plain(N_("the river is already closed")),
    "river_elsewhere": _sq(N_("a river tile must continue the river at {square}"), "river_at"),
    "river_inlet": lambda p, n: _("its river must meet the river on its {side} side").format(
        side=SIDE_LETTERS[p["side"]]),
    "river_u_turn": lambda p, n: _river_turn(p, n, 2),
    "river_three_turns": lambda p, n: _river_turn(p, n, 3),
    "cult_crowded": _cult_crowded,
    "cult_partner_taken": _cult_partner_taken,
    # the abbey
    "no_abbey": _who(N_("{name} has no abbey to place")),
    "abbey_square_taken": _sq(N_("the square {square} is already taken")),
    "abbey_not_hole": _sq(N_("an abbey goes only into a hole: {square} is not surrounded by "
                             "tiles on all four sides")),
    "skip_not_now": _plain(N_("an abbey can be skipped only in the end-of-game abbey round")),
    # figures (each follows "cannot place the <figure> on <on>: ")
    "one_figure": _plain(N_("only one figure may be placed (or the abbot recalled) per turn")),
    "deploy_and_recall": _plain(N_("a turn may deploy a figure or recall the abbot, not "
                                   "both")),
    "unknown_figure": lambda p, n: _("there is no figure {figure}").format(
        figure=quoted(p["figure"])),
    "figure_not_in_hand": _not_in_hand,
    "deploy_nothing_named": lambda p, n: _("{on} names nothing on the tile just placed")
    .format(on=quoted(p["on"])),
    "garden_abbot_only": _plain(N_("only an abbot may stand in a garden")),
    "figure_not_allowed": _not_allowed,
    "feature_occupied": _occupied,
    "joins_no_follower": _joins_no_follower,
    "joins_completed": _joins_completed,
    "barn_not_corner": lambda p, n: _("a barn goes on a corner (NW, NE, SE or SW), not {on}")
    .format(on=quoted(p["on"])),
    "barn_corner_not_field": lambda p, n: _("a barn needs four tiles meeting at the {corner} "
                                            "corner, all of them field there").format(
        corner=p["on"]),
    "barn_field_taken": _plain(N_("that field already has a barn")),
    "no_abbot_on_board": _who(N_("{name} has no abbot on the board to recall")),
    "abbot_completes": _plain(N_("the abbot's building is completed by this tile and scores "
                                 "anyway")),
    # tunnel tokens (each follows "cannot place the token: ")
    "one_token": _plain(N_("only one tunnel token may be placed per turn")),
    "no_tunnels": _plain(N_("this game has no tunnels")),
    "no_such_pair": _pairs,
    "pair_used": _plain(N_("both tokens of that pair are already on the board")),
    "token_no_tile": _sq(N_("there is no tile at {square}")),
    "token_nothing_named": lambda p, n: _("{on} names nothing on the tile at {square}").format(
        on=quoted(p["on"]), square=square(p["square"])),
    "no_tunnel_entrance": lambda p, n: _("the {side} side of the tile at {square} has no "
                                         "tunnel entrance").format(
        side=p["on"], square=square(p["square"])),
    "entrance_taken": _plain(N_("that tunnel entrance already has a token")),
    # wagons
    "wagon_nothing_named": lambda p, n: _("{on} at {square} names nothing on the board")
    .format(on=quoted(p["on"]), square=square(p["square"])),
    "wagon_onto": _wagon_onto,
    "wagon_complete": _plain(N_("a wagon can only move to an incomplete feature")),
    "wagon_occupied": _plain(N_("that feature is occupied")),
    "wagon_chased_from": _plain(N_("the wagon cannot go back to the building it was chased "
                                   "from")),
    "wagon_c2_range": _sq(N_("with rule c2 the wagon moves only to its own square {square} or "
                             "one of the 8 around it"), "wagon_at"),
    "wagon_c1_link": _plain(N_("with rule c1 the wagon moves only to a feature directly "
                               "connected to the one scored")),
}
PLACEMENT = frozenset({"tile_square_taken", "tile_no_neighbour", "tile_edge_mismatch",
                       "river_closed", "river_elsewhere", "river_inlet", "river_u_turn",
                       "river_three_turns", "cult_crowded", "cult_partner_taken"})
FIGURE = frozenset({"unknown_figure", "figure_not_in_hand", "deploy_nothing_named",
                    "garden_abbot_only", "figure_not_allowed", "feature_occupied",
                    "joins_no_follower", "joins_completed", "barn_not_corner",
                    "barn_corner_not_field", "barn_field_taken"})
TOKEN = frozenset({"no_tunnels", "no_such_pair", "pair_used", "token_no_tile",
                   "token_nothing_named", "no_tunnel_entrance", "entrance_taken"})


def refusal(err: IllegalMove, names: Names) -> str:
    """Why a move was refused, as one sentence for the player who made it."""
    p = err.params
    words = REFUSALS.get(err.code)
    text = words(p, names) if words is not None else err.code.replace("_", " ")
    if err.code in PLACEMENT:
        if "tile" in p:
            fields = {"tile": p["tile"], "square": square(p["square"]),
                      "degrees": p["rot"] * 90, "reason": text}
            if p["fits"]:
                return _("{tile} cannot go at {square} turned {degrees}: {reason}").format(
                    **fields)
            return _("{tile} cannot go at {square} turned {degrees}: {reason} ({tile} fits "
                     "nowhere: discard it)").format(**fields)
        if p.get("abbey"):
            return _("the abbey cannot go at {square}: {reason}").format(
                square=square(p["square"]), reason=text)
    if err.code in FIGURE:
        return _("cannot place the {figure} on {on}: {reason}").format(
            figure=figure_name(p["figure"]), on=p["on"], reason=text)
    if err.code in TOKEN:
        return _("cannot place the token: {reason}").format(reason=text)
    return text


def event(ev: Event, names: Names) -> str:
    """One line telling the players what happened."""
    text = detail(ev)
    if ev.kind == "score":
        if not ev.players:
            return _("{detail}: nobody scores").format(detail=text)
        who = join([name_of(names, p) for p in ev.players])
        return _("{who} +{points} for {detail}").format(who=who, points=ev.points, detail=text)
    if not ev.players:
        return text
    who = join([name_of(names, p) for p in ev.players])
    # TRANSLATORS: who did something, then what ("Ana: the wagon returns to hand").
    return _("{who}: {detail}").format(who=who, detail=text)
