"""Alt text: what each picture the bot posts shows, in words, for screen readers and for
anyone hovering over it (Discord's attachment `description`).

One function per picture, each written from the data the front end already holds (the
service's `TurnView`, the record action of the last move, the public history's steps and
the end-of-game `Tally`), in the language being spoken (call inside `speaking`, the
game's language for public posts). Every text says what the picture is, then what
matters on it: the last move and what it scored, the scores, and whose turn it is; the
end-of-game pictures say the ranking. Each fits `ALT_LIMIT`: when the words are too many,
the least important parts (the scorings' details, then the scores) are cut first, so the
last move and the player to act always remain.

| picture | function |
|---|---|
| the game card's picture (`render.focus.render_focus`) | `card_alt` |
| "my tile" (`render.yourtile.render_your_tile`) | `your_tile_alt` |
| the full board (`render.board.render_board`), also the final board | `board_alt` |
| a moment of `/carc-history` (the board after move N) | `history_alt` |
| the end-of-game summary card (`render.summary.render_summary`) | `summary_alt` |
| the score chart (`render.chart.render_score_chart`) | `chart_alt` |
| the animated replay (`render.replay.render_replay`) | `replay_alt` |
| the tiles left in the pile (`render.pile.render_pile`) | `pile_alt` |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from carca_bot.engine.catalogue import Kind, catalogue
from carca_bot.engine.events import Event
from carca_bot.engine.limits import one_line
from carca_bot.i18n import N_, Domain
from carca_bot.words.english import A_FIGURE, join, square
from carca_bot.words.service import KINDS, must_words, say
from carca_bot.words.tiles import tile_name

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext

ALT_LIMIT = 1024  # Discord: an attachment's description holds at most 1,024 characters
NAME_CHARS = 40  # a player's name in alt text: plain, one line, at most this long
CORNERS = frozenset({"NW", "NE", "SE", "SW"})


class Seat(Protocol):
    """A player as `carca_bot.service.SeatView` gives them."""

    @property
    def name(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def resigned(self) -> bool: ...


class View(Protocol):
    """What alt text reads of a `carca_bot.service.TurnView`."""

    @property
    def status(self) -> str: ...
    @property
    def must(self) -> str: ...
    @property
    def deciding(self) -> Seat | None: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def standings(self) -> Sequence[Seat]: ...
    @property
    def events(self) -> Sequence[object]: ...
    @property
    def tiles_left(self) -> int: ...
    @property
    def finished(self) -> bool: ...


CATEGORY_WORDS = {
    "cities": N_("cities"), "roads": N_("roads"), "monasteries": N_("monasteries"),
    "fields": N_("fields"), "barns": N_("barns"), "gardens": N_("gardens"),
    "titles": N_("titles"), "other": N_("other"),
}  # the end-of-game card's categories (`render.summary.CATEGORIES`), as alt text says them


def either(items: Sequence[str]) -> str:
    """'90', '90 or 270', '0, 90 or 180' in the language being spoken."""
    if not items:
        return ""
    text = items[-1]
    if len(items) >= 2:
        # TRANSLATORS: the last two of a list of choices ("90 or 270").
        text = _("{first} or {last}").format(first=items[-2], last=items[-1])
    for item in reversed(items[:-2]):
        text = _("{first}, {rest}").format(first=item, rest=text)
    return text


def name(text: object) -> str:
    """A player's name as alt text shows it: one plain line, at most NAME_CHARS."""
    line = one_line(str(text))
    return line if len(line) <= NAME_CHARS else line[:NAME_CHARS - 1] + "…"


def within(parts: Sequence[tuple[str, int]], limit: int = ALT_LIMIT) -> str:
    """The parts joined by spaces, in order, within `limit` characters. Each part has a
    rank: rank 0 is always kept (cut only if those alone are too long); higher ranks go
    first, each cut with an ellipsis when only part of it fits."""
    texts = [t for t, _rank in parts]
    if len(" ".join(t for t in texts if t)) <= limit:
        return " ".join(t for t in texts if t)
    for rank in sorted({r for _t, r in parts if r}, reverse=True):
        for i, (_text, r) in enumerate(parts):
            if r != rank or not texts[i]:
                continue
            others = len(" ".join(t for j, t in enumerate(texts) if t and j != i))
            room = limit - others - 1
            texts[i] = texts[i] if len(texts[i]) <= room else (
                texts[i][:room - 1].rstrip() + "…" if room > 20 else "")
            if len(" ".join(t for t in texts if t)) <= limit:
                return " ".join(t for t in texts if t)
    joined = " ".join(t for t in texts if t)
    return joined if len(joined) <= limit else joined[:limit - 1] + "…"


# -- what a move did ------------------------------------------------------------------

def _feature(tile: str, rot: int, on: str) -> str:
    """The kind of feature `on` names on the tile as placed: "city", "field", ..."""
    try:
        shape = catalogue().shape(tile, rot % 4)
    except KeyError:
        return on
    index = shape.names.get(on)
    if index is None:
        return on
    seg = shape.segments[index]
    kind = seg.building if seg.kind is Kind.BUILDING and seg.building else seg.kind.value
    return _(KINDS[kind]) if kind in KINDS else kind


def _figure(action: Mapping[str, Any], tile: str | None, rot: int) -> str:
    deploy = action.get("deploy")
    if not isinstance(deploy, Mapping):
        return ""
    figure, on = str(deploy.get("figure", "")), str(deploy.get("on", ""))
    a_figure = A_FIGURE[figure]() if figure in A_FIGURE else figure
    if figure == "barn" or on in CORNERS:
        return _("put {figure} on the tile's {corner} corner").format(figure=a_figure,
                                                                       corner=on)
    if tile is None:  # an abbey
        return _("put {figure} in it").format(figure=a_figure)
    return _("put {figure} on its {feature} ({on})").format(
        figure=a_figure, feature=_feature(tile, rot, on), on=on)


def move_words(action: Mapping[str, Any] | None) -> str:
    """The record action as one sentence: who did what, where, with what figure."""
    if not action:
        return _("No move has been played yet.")
    if action.get("end"):
        return _("The tiles ran out: the final scoring.")
    who = name(action.get("by", "?"))
    if "discard" in action:
        return _("{who} drew a {tile} tile, which fits nowhere, and set it aside.").format(
            who=who, tile=tile_name(str(action["discard"])))
    wagon = action.get("wagon")
    if wagon == "return":
        return _("{who} took their wagon back.").format(who=who)
    if isinstance(wagon, Mapping):
        return _("{who} moved their wagon to {square}.").format(
            who=who, square=square(tuple(wagon.get("at", (0, 0)))))
    abbey = action.get("abbey")
    if abbey == "skip":
        return _("{who} kept their abbey.").format(who=who)
    said: list[str] = []
    tile: str | None = None
    rot = 0
    if abbey is not None:
        said.append(_("{who} placed their abbey at {square}").format(
            who=who, square=square(tuple(abbey))))
    elif "tile" in action:
        tile, rot = str(action["tile"]), int(action.get("rot", 0)) // 90
        said.append(_("{who} placed a tile with {what} at {square}, turned {degrees} "
                      "degrees").format(who=who, what=tile_name(tile),
                                        square=square(tuple(action.get("at", (0, 0)))),
                                        degrees=action.get("rot", 0)))
    else:
        return _("{who} played.").format(who=who)
    if figure := _figure(action, tile, rot):
        said.append(figure)
    if action.get("recall"):
        said.append(_("took their abbot back"))
    token = action.get("token")
    if isinstance(token, Mapping):
        said.append(_("put a tunnel token at {square}").format(
            square=square(tuple(token.get("at", (0, 0))))))
    return _("{said}.").format(said=join(said))


def scored_words(events: Sequence[object], names: Sequence[str]) -> str:
    """What the move's events did (scorings, the King and Robber, challenges), or that
    nobody scored."""
    said = [say(e, names) for e in events if isinstance(e, Event)]
    if not said:
        return _("Nobody scored.")
    text = "; ".join(said) + "."
    return text[:1].upper() + text[1:]


def scores_words(seats: Sequence[Seat]) -> str:
    """'Scores: Ana 12, Ben 9 (resigned).'"""
    items = [(_("{name} {score} (resigned)") if s.resigned else _("{name} {score}")).format(
        name=name(s.name), score=s.score) for s in seats]
    return _("Scores: {scores}.").format(scores=", ".join(items))


def ranking_words(names: Sequence[str], scores: Sequence[int],
                  out: Sequence[bool] = ()) -> str:
    """Who won and the ranking, ties named: 'Ana wins with 120 points. Ranking: 1. Ana
    120; 2. Ben and Cy, 98 each (tied); 4. Dee 50.' Players out of the game (`out`:
    resigned) rank last."""
    left = [bool(out[p]) if p < len(out) else False for p in range(len(names))]
    order = sorted(range(len(names)), key=lambda p: (left[p], -scores[p], p))
    groups: list[list[int]] = []
    for p in order:
        if groups and (left[p], scores[p]) == (left[groups[-1][0]], scores[groups[-1][0]]):
            groups[-1].append(p)
        else:
            groups.append([p])
    if not groups:
        return ""
    first = groups[0]
    best = [name(names[p]) for p in first]
    if len(first) == 1:
        head = ngettext("{name} wins with {n} point.", "{name} wins with {n} points.",
                        scores[first[0]]).format(name=best[0], n=scores[first[0]])
    else:
        head = ngettext("{names} share the win with {n} point each.",
                        "{names} share the win with {n} points each.",
                        scores[first[0]]).format(names=join(best), n=scores[first[0]])
    items: list[str] = []
    place = 1
    for group in groups:
        who = [name(names[p]) for p in group]
        n = scores[group[0]]
        if len(group) == 1:
            item = _("{place}. {name} {score}").format(place=place, name=who[0], score=n)
        else:
            item = _("{place}. {names}, {score} each (tied)").format(
                place=place, names=join(who), score=n)
        if left[group[0]]:
            item = _("{item} (resigned)").format(item=item)
        items.append(item)
        place += len(group)
    return head + " " + _("Ranking: {ranking}.").format(ranking="; ".join(items))


def next_words(view: View, tile: str | None = None) -> str:
    """Whose turn it is and what they must do (with the tile they drew, if shown to
    all), or, once the game is over, the ranking."""
    if view.finished:
        return _("The game is over.") + " " + ranking_words(
            [s.name for s in view.seats], [s.score for s in view.seats],
            [s.resigned for s in view.seats])
    seat = view.deciding
    if seat is None:
        return ""
    if view.must == "place" and tile is not None:
        return _("It is {name}'s turn, with a tile showing {tile}.").format(
            name=name(seat.name), tile=tile_name(tile))
    return _("It is {name}'s turn: {name} must {doing}.").format(
        name=name(seat.name), doing=must_words(view.must))


def _names(view: View) -> list[str]:
    return [name(s.name) for s in view.seats]


# -- the pictures ---------------------------------------------------------------------

def card_alt(view: View, action: Mapping[str, Any] | None, tile: str | None = None,
             beyond: int = 0) -> str:
    """The game card's picture: the board around the last move. `tile`: the tile the
    player to act drew, if the picture marks where it fits; `beyond`: how many of those
    squares lie outside the picture (`render.focus.plan(game, tile).markers`' counts)."""
    what = _("The board around the last move.")
    marks = ""
    if tile is not None and not view.finished:
        marks = (_("The squares where it fits are marked.") if not beyond else ngettext(
            "The squares where it fits are marked; {n} more is beyond the edges, counted "
            "at each edge.", "The squares where it fits are marked; {n} more are beyond "
            "the edges, counted at each edge.", beyond).format(n=beyond))
    return within([(what, 0), (move_words(action), 0),
                   (scored_words(view.events, _names(view)), 3),
                   (scores_words(view.seats), 2), (next_words(view, tile), 0), (marks, 1)])


def your_tile_alt(view: View, action: Mapping[str, Any] | None, tile: str,
                  squares: Mapping[tuple[int, int], Sequence[int]],
                  best: Sequence[tuple[int, int]]) -> str:
    """"My tile", seen by the player to act: the tile and where it fits. `squares`: where
    it fits with the quarter turns that fit there (`render.yourtile.legal_squares`);
    `best`: the squares shown magnified (`render.yourtile.shown_squares(...)[0]`)."""
    seat = view.deciding
    who = name(seat.name) if seat is not None else ""
    head = _("Your tile, {name}: {tile}, shown in its four rotations.").format(
        name=who, tile=tile_name(tile))
    if not squares:
        where = _("It fits nowhere.")
    else:
        shown = [_("{square} turned {degrees}").format(
            square=square(pos), degrees=either([str(90 * r) for r in squares[pos]]))
            for pos in best if pos in squares]
        where = ngettext("It fits on {n} square.", "It fits on {n} squares.",
                         len(squares)).format(n=len(squares))
        if shown:
            where += " " + _("Best fits, shown large: {squares}.").format(
                squares="; ".join(shown))
        rest = len(squares) - len(shown)
        if rest > 0:
            where += " " + ngettext("{n} other square is listed, and all are marked on "
                                    "a small map of the board.",
                                    "{n} other squares are listed, and all are marked "
                                    "on a small map of the board.", rest).format(n=rest)
    turn = _("It is your turn, {name}.").format(name=who) if who else ""
    last = _("Last move: {move}").format(move=move_words(action))
    return within([(head, 0), (where, 1), (turn, 0), (last, 0)])


def board_alt(view: View, action: Mapping[str, Any] | None, tiles: int) -> str:
    """The full board (also the final board at the end of a game): `tiles` placed."""
    what = (_("The final board: {n} tiles.") if view.finished
            else _("The whole board: {n} tiles.")).format(n=tiles)
    return within([(what, 0), (move_words(action), 0),
                   (scored_words(view.events, _names(view)), 3),
                   (scores_words(view.seats) if not view.finished else "", 2),
                   (next_words(view), 0)])


class State(Protocol):
    """A moment of the public history (`carca_bot.service.history.PublicState`)."""

    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def deciding(self) -> int | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def tiles(self) -> Sequence[object]: ...


class Step(Protocol):
    """One action of the public history (`carca_bot.service.history.HistoryStep`)."""

    @property
    def number(self) -> int: ...
    @property
    def action(self) -> Mapping[str, Any]: ...
    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def state(self) -> State: ...


def history_alt(players: Sequence[str], step: Step | None, start: State,
                total: int) -> str:
    """The board after one move of `/carc-history`: `step` None is the start (`start`),
    `total` the moves in the game so far."""
    names = [name(p) for p in players]
    state = start if step is None else step.state
    if step is None:
        what = _("The board at the start of the game, before move 1 of {total}.").format(
            total=total)
        move, scored = _("No move has been played yet."), ""
    else:
        what = _("The board after move {n} of {total}: {tiles} tiles.").format(
            n=step.number, total=total, tiles=len(state.tiles))
        move, scored = move_words(step.action), scored_words(step.events, names)
    scores = _("Scores then: {scores}.").format(scores=", ".join(
        _("{name} {score}").format(name=n, score=s) for n, s in zip(names, state.scores,
                                                                    strict=False)))
    if state.finished:
        after = _("The game was over.") + " " + ranking_words(names, list(state.scores))
    elif state.deciding is not None and 0 <= state.deciding < len(names):
        after = _("Next to play: {name}.").format(name=names[state.deciding])
    else:
        after = ""
    return within([(what, 0), (move, 0), (scored, 3), (scores, 2), (after, 0)])


class Tally(Protocol):
    """The end-of-game numbers (`carca_bot.render.summary.Tally`)."""

    @property
    def names(self) -> Sequence[str]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def categories(self) -> Sequence[Mapping[str, int]]: ...
    @property
    def curves(self) -> Sequence[Sequence[int]]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def moves(self) -> int: ...


def _ranking_or_scores(tally: Tally) -> str:
    if tally.finished:
        return ranking_words(tally.names, tally.scores)
    return _("Scores so far: {scores}.").format(scores=", ".join(
        _("{name} {score}").format(name=name(n), score=s)
        for n, s in zip(tally.names, tally.scores, strict=False)))


def summary_alt(tally: Tally) -> str:
    """The end-of-game summary card: the ranking, each player's points by category,
    then the chart under it."""
    what = (_("The final ranking, points by category and each player's score over the "
              "game.") if tally.finished else
            _("The scores so far, points by category and each player's score over the "
              "game."))
    details = []
    for p, points in enumerate(tally.categories):
        parts = [f"{_(CATEGORY_WORDS[k]) if k in CATEGORY_WORDS else k} {v}"
                 for k, v in points.items() if v]
        if parts and p < len(tally.names):
            details.append(_("{name}: {points}").format(name=name(tally.names[p]),
                                                        points=", ".join(parts)))
    by = _("By category: {details}.").format(details="; ".join(details)) if details else ""
    return within([(what, 0), (_ranking_or_scores(tally), 0), (by, 2)])


def chart_alt(tally: Tally, final: Sequence[int] = ()) -> str:
    """The score chart: each player's score over the moves; `final`: the points each
    player got at the final scoring, drawn as its own bars."""
    what = ngettext("Each player's score after each of {n} move, one line per player in "
                    "their colour.", "Each player's score after each of {n} moves, one "
                    "line per player in their colour.", tally.moves).format(n=tally.moves)
    extra = ""
    if any(final):
        extra = _("The final scoring, drawn as its own bars, added: {points}.").format(
            points=", ".join(_("{name} {score}").format(name=name(n), score=f)
                             for n, f in zip(tally.names, final, strict=False)))
    return within([(what, 0), (_ranking_or_scores(tally), 0), (extra, 1)])


def replay_alt(tally: Tally) -> str:
    """The animated replay of the whole game."""
    what = ngettext("An animation of the whole game, {n} move, tile by tile; each frame "
                    "says what the move did.", "An animation of the whole game, {n} "
                    "moves, tile by tile; each frame says what the move did.",
                    tally.moves).format(n=tally.moves)
    return within([(what, 0), (_ranking_or_scores(tally), 0)])


def pile_alt(pile: Sequence[tuple[str, int]]) -> str:
    """The tiles left in the pile, counted by kind (`service.history.pile`)."""
    total = sum(n for _t, n in pile)
    what = ngettext("{n} tile is left in the pile.", "{n} tiles are left in the pile.",
                    total).format(n=total)
    kinds = sorted(pile, key=lambda item: -item[1])
    listed = "; ".join(_("{count} × {tile}").format(count=n, tile=tile_name(t))
                       for t, n in kinds)
    return within([(what, 0), (_("By kind: {kinds}.").format(kinds=listed) if pile else "",
                               1)])
