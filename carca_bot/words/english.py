"""The engine's sentences: one per refusal code and per event reason, in English source text.

The English here is the `words` catalogue's source; every sentence goes through
`Domain("words")`, so the player reads whatever language is being spoken
(`carca_bot.i18n.speaking`). Sentences are whole, with `{fields}`: where English
would glue a word in ("a {kind}", "that {kind} is occupied") the sentence is
written once per value instead, because Spanish nouns carry a gender that the
rest of the sentence must agree with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.rules import BY_NAME, FIGURE_TABLE, PIECES
from carca_bot.i18n import N_, Domain

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

Params = dict[str, Any]
Names = Sequence[str]
Words = Callable[[Params, Names], str]


def square(pos: tuple[int, int]) -> str:
    """How a square is written in sentences: `x,y`, as the board labels it and commands
    take it (records hold the same numbers)."""
    return f"{pos[0]},{pos[1]}"


def name_of(names: Names, player: int | None) -> str:
    """A seat's name; a seat the list does not know is 'player N' (counting from 1)."""
    if player is None:
        return ""
    if not 0 <= player < len(names):
        return _("player {number}").format(number=player + 1)
    return names[player]


def join(items: Sequence[str]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy' in the language being spoken."""
    if not items:
        return ""
    text = items[-1]
    if len(items) >= 2:
        # TRANSLATORS: the last two names of a list of players.
        text = _("{first} and {last}").format(first=items[-2], last=items[-1])
    for item in reversed(items[:-2]):
        # TRANSLATORS: a name followed by the rest of a list of players.
        text = _("{first}, {rest}").format(first=item, rest=text)
    return text


def _quoted(value: object) -> str:
    """Something a player typed, shown exactly (quoted as Python would)."""
    return repr(value)


# -- names of things, for the few sentences that hold one as a field ------------------

def _figure_words(attribute: str) -> dict[str, Callable[[], str]]:
    """Each figure's name as its record gives it (`noun`, `a_noun` or `title`), translated
    when said (the records' message ids are in this domain's catalogue)."""
    def said(message: str) -> Callable[[], str]:
        return lambda: _(message)
    return {f.name: said(getattr(f, attribute)) for f in FIGURE_TABLE}


FIGURES = _figure_words("noun")  # "follower"
A_FIGURE = _figure_words("a_noun")  # "a follower"
TITLES = _figure_words("title")  # "Follower", as a menu shows it
# TRANSLATORS: where a figure may not stand ("an abbot cannot stand on a field").
ON_A_FEATURE = {
    "road": lambda: pgettext("stand on", "a road"),
    "city": lambda: pgettext("stand on", "a city"),
    "field": lambda: pgettext("stand on", "a field"),
    "monastery": lambda: pgettext("stand on", "a monastery"),
    "shrine": lambda: pgettext("stand on", "a shrine"),
    "abbey": lambda: pgettext("stand on", "an abbey"),
    "garden": lambda: pgettext("stand on", "a garden"),
}
THE_BUILDING = {
    "monastery": lambda: pgettext("the building", "the monastery"),
    "shrine": lambda: pgettext("the building", "the shrine"),
    "abbey": lambda: pgettext("the building", "the abbey"),
}
SIDES = (N_("north"), N_("east"), N_("south"), N_("west"))  # an edge of a tile, clockwise
SIDE_LETTERS = ("N", "E", "S", "W")  # as commands name the edges (data, not words)
EDGES = {
    "city": lambda: pgettext("edge", "city"),
    "road": lambda: pgettext("edge", "road"),
    "field": lambda: pgettext("edge", "field"),
    "river": lambda: pgettext("edge", "river"),
}


def _named(table: dict[str, Callable[[], str]], key: str) -> str:
    """The table's words for `key`; a value it does not know is shown as it is."""
    words = table.get(key)
    return words() if words is not None else str(key)


def figure_name(figure: str) -> str:
    """A figure's name ('follower', 'abbot', ...); a name no figure has stays as typed."""
    return _named(FIGURES, figure)


def a_figure(figure: str) -> str:
    """A figure's name with its article ('a follower'), as its record gives it."""
    return _named(A_FIGURE, figure)


def figure_title(figure: str) -> str:
    """A figure's name as a menu or a button shows it ('Follower')."""
    return _named(TITLES, figure)


_HELD = {**{f.name: f.held for f in FIGURE_TABLE}, **{p.name: p.held for p in PIECES}}


def held(piece: str, n: int) -> str:
    """'5 followers', '1 abbey', '2 tunnel tokens': what a player holds, by its `supply`
    key (a figure or a piece of an expansion's record)."""
    words = _HELD.get(piece)
    if words is None:
        return f"{piece} {n}"
    return ngettext(words[0], words[1], n).format(n=n)


def expansion_title(name: str) -> str:
    """An expansion's name as its record gives it ('Abbey & Mayor'); 'base' for the base
    game; a name no record has stays as it is."""
    record = BY_NAME.get(name)
    return _(record.title) if record is not None else name


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
        side=_(side), edge=_named(EDGES, p["edge"]), other=square(p["other"]),
        shows=_named(EDGES, p["shows"]))


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
        a_figure=_named(A_FIGURE, p["figure"]), a_feature=_named(ON_A_FEATURE, p["where"]))


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
        name=_quoted(p["name"])),
    "start_not_in_supply": _tile(N_("the start tile {tile} is not in this game's supply")),
    "no_tiles_left": _plain(N_("there are no tiles left to draw")),
    "unknown_tile": lambda p, n: _("there is no tile {tile}").format(tile=_quoted(p["tile"])),
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
        figure=_quoted(p["figure"])),
    "figure_not_in_hand": _not_in_hand,
    "deploy_nothing_named": lambda p, n: _("{on} names nothing on the tile just placed")
    .format(on=_quoted(p["on"])),
    "garden_abbot_only": _plain(N_("only an abbot may stand in a garden")),
    "figure_not_allowed": _not_allowed,
    "feature_occupied": _occupied,
    "joins_no_follower": _joins_no_follower,
    "joins_completed": _joins_completed,
    "barn_not_corner": lambda p, n: _("a barn goes on a corner (NW, NE, SE or SW), not {on}")
    .format(on=_quoted(p["on"])),
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
        on=_quoted(p["on"]), square=square(p["square"])),
    "no_tunnel_entrance": lambda p, n: _("the {side} side of the tile at {square} has no "
                                         "tunnel entrance").format(
        side=p["on"], square=square(p["square"])),
    "entrance_taken": _plain(N_("that tunnel entrance already has a token")),
    # wagons
    "wagon_nothing_named": lambda p, n: _("{on} at {square} names nothing on the board")
    .format(on=_quoted(p["on"]), square=square(p["square"])),
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


# -- events -------------------------------------------------------------------------

COMPLETED_BUILDING = {
    "monastery": N_("completed monastery (9)"),
    "shrine": N_("completed shrine (9)"),
    "abbey": N_("completed abbey (9)"),
    "garden": N_("completed garden (9)"),
}
INCOMPLETE_BUILDING: dict[str, Callable[[int], str]] = {
    "monastery": lambda n: ngettext("incomplete monastery with {n} neighbour (1 + {n})",
                                    "incomplete monastery with {n} neighbours (1 + {n})", n),
    "shrine": lambda n: ngettext("incomplete shrine with {n} neighbour (1 + {n})",
                                 "incomplete shrine with {n} neighbours (1 + {n})", n),
    "abbey": lambda n: ngettext("incomplete abbey with {n} neighbour (1 + {n})",
                                "incomplete abbey with {n} neighbours (1 + {n})", n),
    "garden": lambda n: ngettext("incomplete garden with {n} neighbour (1 + {n})",
                                 "incomplete garden with {n} neighbours (1 + {n})", n),
}


def _road(p: Params) -> str:
    n = p["tiles"]
    if p["final"]:
        return ngettext("incomplete road of {n} tile (1 per tile)",
                        "incomplete road of {n} tiles (1 per tile)", n).format(n=n)
    return ngettext("completed road of {n} tile (1 per tile)",
                    "completed road of {n} tiles (1 per tile)", n).format(n=n)


def _city(p: Params) -> str:
    n, pennants, each = p["tiles"], p["pennants"], p["each"]
    if pennants:
        tiles = ngettext("{n} tile", "{n} tiles", n).format(n=n)
        shields = ngettext("{n} pennant", "{n} pennants", pennants).format(n=pennants)
        if p["final"]:
            text = _("incomplete city of {tiles} and {pennants} ({each} per tile and pennant)")
        else:
            text = _("completed city of {tiles} and {pennants} ({each} per tile and pennant)")
        return text.format(tiles=tiles, pennants=shields, each=each)
    if p["final"]:
        text = ngettext("incomplete city of {n} tile ({each} per tile and pennant)",
                        "incomplete city of {n} tiles ({each} per tile and pennant)", n)
    else:
        text = ngettext("completed city of {n} tile ({each} per tile and pennant)",
                        "completed city of {n} tiles ({each} per tile and pennant)", n)
    return text.format(n=n, each=each)


def _inn(p: Params) -> str:
    """A road with an inn (Inns & Cathedrals): 2 per tile completed, nothing at the end."""
    n = p["tiles"]
    if p["final"]:
        return ngettext("incomplete road of {n} tile with an inn (nothing at the end)",
                        "incomplete road of {n} tiles with an inn (nothing at the end)",
                        n).format(n=n)
    return ngettext("completed road of {n} tile with an inn (2 per tile)",
                    "completed road of {n} tiles with an inn (2 per tile)", n).format(n=n)


def _cathedral(p: Params) -> str:
    """A city with a cathedral: 3 per tile and pennant completed, nothing at the end."""
    n, pennants = p["tiles"], p["pennants"]
    if p["final"]:
        return ngettext("incomplete city of {n} tile with a cathedral (nothing at the end)",
                        "incomplete city of {n} tiles with a cathedral (nothing at the end)",
                        n).format(n=n)
    if pennants:
        tiles = ngettext("{n} tile", "{n} tiles", n).format(n=n)
        shields = ngettext("{n} pennant", "{n} pennants", pennants).format(n=pennants)
        return _("completed city of {tiles} and {pennants} with a cathedral (3 per tile and "
                 "pennant)").format(tiles=tiles, pennants=shields)
    return ngettext("completed city of {n} tile with a cathedral (3 per tile and pennant)",
                    "completed city of {n} tiles with a cathedral (3 per tile and pennant)",
                    n).format(n=n)


def _building(p: Params) -> str:
    name = p["name"]
    if not p["final"]:
        message = COMPLETED_BUILDING.get(name)
        return _(message) if message is not None else f"{name} (9)"
    around = p["neighbours"]
    words = INCOMPLETE_BUILDING.get(name)
    return words(around).format(n=around) if words is not None else f"{name} (1 + {around})"


def _counted(reason: str, p: Params) -> str:
    """How a feature's points were counted."""
    if reason == "road":
        return _road(p)
    if reason == "city":
        return _city(p)
    if reason == "inn":
        return _inn(p)
    if reason == "cathedral":
        return _cathedral(p)
    return _building(p)


def _fields(reason: str, p: Params) -> str:
    """Farmers or a barn scoring a field by its completed cities."""
    n = p["cities"]
    if reason == "barn_placed":
        text = ngettext("a barn placed in the field: {n} completed city ({per_city} per city)",
                        "a barn placed in the field: {n} completed cities ({per_city} per "
                        "city)", n)
    elif reason == "barn_joined":
        text = ngettext("farmers joined to a barn field: {n} completed city ({per_city} per "
                        "city)",
                        "farmers joined to a barn field: {n} completed cities ({per_city} per "
                        "city)", n)
    elif reason == "farmers_final":
        text = ngettext("farmers in a field touching {n} completed city ({per_city} per city)",
                        "farmers in a field touching {n} completed cities ({per_city} per "
                        "city)", n)
    else:
        text = ngettext("barn in a field touching {n} completed city ({per_city} per city)",
                        "barn in a field touching {n} completed cities ({per_city} per city)",
                        n)
    return text.format(n=n, per_city=p["per_city"])


def _title(reason: str, p: Params) -> str:
    """The King (largest city) and the Robber (longest road)."""
    king = p["title"] == "king"
    if reason == "title_taken":
        n = p["size"]
        if king:
            text = ngettext("takes the King: completed the largest city so far ({n} tile)",
                            "takes the King: completed the largest city so far ({n} tiles)", n)
        else:
            text = ngettext("takes the Robber: completed the largest road so far ({n} tile)",
                            "takes the Robber: completed the largest road so far ({n} tiles)",
                            n)
        return text.format(n=n)
    n = p["count"]
    if king:
        text = ngettext("the King: {n} completed city on the board (1 each)",
                        "the King: {n} completed cities on the board (1 each)", n)
    else:
        text = ngettext("the Robber: {n} completed road on the board (1 each)",
                        "the Robber: {n} completed roads on the board (1 each)", n)
    return text.format(n=n)


def detail(ev: Event) -> str:
    """What happened, without who: how points were counted, or why it happened."""
    p, reason = ev.params, ev.reason
    if reason in ("road", "city", "building", "inn", "cathedral"):
        return _counted(reason, p)
    if reason == "abbot_recalled":
        return _("recalled abbot: {counted}").format(counted=_counted(p["counted"], p))
    if reason in ("barn_placed", "barn_joined", "farmers_final", "barn_final"):
        return _fields(reason, p)
    if reason in ("title_final", "title_taken"):
        return _title(reason, p)
    if reason == "challenge":
        return _("{the_winner} at {winner_at} was completed first: the followers on "
                 "{the_loser} at {loser_at} go home with no points").format(
            the_winner=_named(THE_BUILDING, p["winner"]), winner_at=square(p["winner_at"]),
            the_loser=_named(THE_BUILDING, p["loser"]), loser_at=square(p["loser_at"]))
    if reason == "discarded":
        return _("{tile} fits nowhere and is removed from the game").format(tile=p["tile"])
    if reason == "wagon_stuck":
        return _("the wagon has nowhere to go and returns")
    if reason == "wagon_returned":
        return _("the wagon returns to hand")
    if reason == "wagon_moved":
        return _("the wagon moves to {on} at {square}").format(on=p["on"],
                                                                square=square(p["square"]))
    return reason.replace("_", " ")


REASONS = ("road", "city", "building", "inn", "cathedral", "abbot_recalled", "barn_placed",
           "barn_joined", "farmers_final", "barn_final", "title_final", "title_taken", "challenge",
           "discarded", "wagon_stuck", "wagon_returned", "wagon_moved")  # what `detail` says


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
