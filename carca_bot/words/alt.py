"""Alt text: what each picture the bot posts shows, in words, for screen readers and for
anyone hovering over it (Discord's attachment `description`).

One function per picture, each written from the data the front end already holds (the
service's `TurnView` and the typed actions it made, `Played`; the game's newest action,
`Shown.last`; a past `Moment`; the end-of-game `Tally`), in the language being spoken
(call inside `speaking`: the game's language for public posts, the reader's for private
ones). Every text says what the picture is, then what matters on it: the last move and
what it scored, the scores, and whose turn it is; the end-of-game pictures say the
ranking. Each fits `ALT_LIMIT`: when the words are too many, the least important parts
(the scorings' details, then the scores, then older moves) are cut first, so the last
move and the player to act always remain.

| picture | function |
|---|---|
| the game card's picture (`render.focus.render_focus`) | `card_alt` |
| "my tile" (`render.yourtile.render_your_tile`) | `your_tile_alt` |
| the full board (`render.board.render_board`), also the final board | `board_alt` |
| a moment of `/carc-history` (the board after move N) | `history_alt` |

The end-of-game pictures (summary card, score chart, animated replay) and the pile are
in `words.alt_end`; the league's (standings, leaderboard, profile) in `words.alt_league`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from carca_bot.engine.catalogue import Kind, catalogue
from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.engine.limits import one_line
from carca_bot.engine.moves import (
    DeclareEnd,
    Deploy,
    Discard,
    Move,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
)
from carca_bot.i18n import Domain
from carca_bot.words.english import A_FIGURE, join, square
from carca_bot.words.service import KINDS, say
from carca_bot.words.tiles import tile_name
from carca_bot.words.turns import must_now, must_words

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext

ALT_LIMIT = 1024  # Discord: an attachment's description holds at most 1,024 characters
NAME_CHARS = 40  # a player's name in alt text: plain, one line, at most this long
CORNERS = frozenset({"NW", "NE", "SE", "SW"})


class Action(Protocol):
    """One committed action, typed: a `carca_bot.service.Played`."""

    @property
    def by(self) -> str | None: ...
    @property
    def moves(self) -> Sequence[Move]: ...


class Seat(Protocol):
    """A player as `carca_bot.service.SeatView` gives them."""

    @property
    def name(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def resigned(self) -> bool: ...


class View(Protocol):
    """What alt text reads of a `carca_bot.service.TurnView`: `done` is what the change
    it shows committed (its actions, typed) and `events` what they did."""

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
    @property
    def done(self) -> Sequence[Action]: ...


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
    first, each cut (at a word's end, with an ellipsis) when only part of it fits."""
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
                cut(texts[i], room) if room > 20 else "")
            if len(" ".join(t for t in texts if t)) <= limit:
                return " ".join(t for t in texts if t)
    joined = " ".join(t for t in texts if t)
    return joined if len(joined) <= limit else cut(joined, limit)


def cut(text: str, room: int) -> str:
    """`text` cut to `room` characters with an ellipsis, after a whole word when the
    last space is not too far back (a screen reader then reads no half word)."""
    kept = text[:room - 1]
    space = kept.rfind(" ")
    if space > room // 2:
        kept = kept[:space]
    return kept.rstrip() + "…"


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


def _figure(figure: str, on: str, tile: str | None, rot: int) -> str:
    """'put a follower on its city (N)': a figure deployed on the tile just placed (`tile`
    None: on the abbey just placed)."""
    a_figure = A_FIGURE[figure]() if figure in A_FIGURE else figure
    if on in CORNERS:  # a corner figure (the barn)
        return _("put {figure} on the tile's {corner} corner").format(figure=a_figure,
                                                                       corner=on)
    if tile is None:  # an abbey
        return _("put {figure} in it").format(figure=a_figure)
    return _("put {figure} on its {feature} ({on})").format(
        figure=a_figure, feature=_feature(tile, rot, on), on=on)


def _whole(who: str, move: Move) -> str | None:
    """The sentence of an action made of this one move (the end of the pile, a discard,
    a wagon, a kept abbey); None for a step of a turn."""
    match move:
        case DeclareEnd():
            return _("The tiles ran out: the final scoring.")
        case Discard(tile):
            return _("{who} drew a {tile} tile, which fits nowhere, and set it aside."
                     ).format(who=who, tile=tile_name(tile))
        case ReturnWagon():
            return _("{who} took their wagon back.").format(who=who)
        case MoveWagon(pos, _on):
            return _("{who} moved their wagon to {square}.").format(who=who,
                                                                     square=square(pos))
        case SkipAbbey():
            return _("{who} kept their abbey.").format(who=who)
    return None


def _steps(who: str, moves: Sequence[Move]) -> list[str]:
    """A turn's steps, each as words: the tile or abbey placed, the figure, the abbot
    recalled, the tunnel token."""
    said: list[str] = []
    tile: str | None = None
    rot = 0
    for move in moves:
        match move:
            case PlaceAbbey(pos):
                said.append(_("{who} placed their abbey at {square}").format(
                    who=who, square=square(pos)))
            case PlaceTile(placed, pos, turns):
                tile, rot = placed, turns
                said.append(_("{who} placed a tile with {what} at {square}, turned "
                              "{degrees} degrees").format(
                    who=who, what=tile_name(placed), square=square(pos),
                    degrees=90 * turns))
            case Deploy(figure, on):
                said.append(_figure(figure, on, tile, rot))
            case Recall():
                said.append(_("took their abbot back"))
            case PlaceToken(pos, _on, _pair):
                said.append(_("put a tunnel token at {square}").format(square=square(pos)))
    return said


def move_words(action: Action | None) -> str:
    """A committed action as one sentence: who did what, where, with what figure."""
    if action is None:
        return _("No move has been played yet.")
    who = name(action.by or "?")
    for move in action.moves:
        whole = _whole(who, move)
        if whole is not None:
            return whole
    said = _steps(who, action.moves)
    if not said:
        return _("{who} played.").format(who=who)
    return _("{said}.").format(said=join(said))


def moves_parts(view: View, last: Action | None) -> list[tuple[str, int]]:
    """The moves a picture follows, as `within` parts: what the change shown did
    (`view.done`: several actions when automatic ones followed a move, the newest kept
    longest), or else the game's newest action `last`; then what they scored, when the
    change shown made them (the events of `view` are theirs)."""
    done = list(view.done)
    if not done:
        return [(move_words(last), 0)]
    parts = [(move_words(a), 0 if i == len(done) - 1 else 1) for i, a in enumerate(done)]
    return [*parts, (scored_words(view.events, _names(view)), 3)]


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
        name=name(seat.name), doing=must_words(must_now(view.must, view.tiles_left)))


def _names(view: View) -> list[str]:
    return [name(s.name) for s in view.seats]


# -- the pictures ---------------------------------------------------------------------

def card_alt(view: View, last: Action | None, tile: str | None = None,
             beyond: int = 0) -> str:
    """The game card's picture: the board around the last move. `last`: the game's newest
    action (`Shown.last`), named when the change shown made none; `tile`: the tile the
    player to act drew, if the picture marks where it fits; `beyond`: how many of those
    squares lie outside the picture (`render.focus.plan(game, tile).markers`' counts)."""
    what = _("The board around the last move.")
    marks = ""
    if tile is not None and not view.finished:
        marks = (_("The squares where it fits are marked.") if not beyond else ngettext(
            "The squares where it fits are marked; {n} more is beyond the edges, counted "
            "at each edge.", "The squares where it fits are marked; {n} more are beyond "
            "the edges, counted at each edge.", beyond).format(n=beyond))
    return within([(what, 0), *moves_parts(view, last), (scores_words(view.seats), 2),
                   (next_words(view, tile), 0), (marks, 1)])


def your_tile_alt(view: View | None, last: Action | None, tile: str,
                  squares: Mapping[tuple[int, int], Sequence[int]],
                  best: Sequence[tuple[int, int]]) -> str:
    """"My tile", seen by the player to act (`view`): the tile and where it fits. `last`:
    the game's newest action (`Shown.last`); `squares`: where it fits with the quarter
    turns that fit there (`render.yourtile.legal_squares`); `best`: the squares shown
    magnified (`render.yourtile.shown_squares(...)[0]`)."""
    seat = view.deciding if view is not None else None
    who = name(seat.name) if seat is not None else ""
    head = (_("Your tile, {name}: {tile}, shown in its four rotations.") if who else
            _("Your tile: {tile}, shown in its four rotations.")).format(
        name=who, tile=tile_name(tile))
    turn = _("It is your turn, {name}.").format(name=who) if who else ""
    newest = view.done[-1] if view is not None and view.done else last
    said = _("Last move: {move}").format(move=move_words(newest))
    return within([(head, 0), (_fits(squares, best), 1), (turn, 0), (said, 0)])


def _fits(squares: Mapping[tuple[int, int], Sequence[int]],
          best: Sequence[tuple[int, int]]) -> str:
    """Where the tile fits: how many squares, the best ones with their rotations."""
    if not squares:
        return _("It fits nowhere.")
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
    return where


def board_alt(view: View, last: Action | None, tiles: int) -> str:
    """The full board (also the final board at the end of a game): `tiles` placed;
    `last`: the game's newest action (`Shown.last`), named when the change shown made
    none."""
    what = (_("The final board: {n} tiles.") if view.finished
            else _("The whole board: {n} tiles.")).format(n=tiles)
    return within([(what, 0), *moves_parts(view, last),
                   (scores_words(view.seats) if not view.finished else "", 2),
                   (next_words(view), 0)])


class Moment(Protocol):
    """A game right after one of its moves (`carca_bot.service.Moment`): `table` is the
    public game then."""

    @property
    def number(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def names(self) -> Sequence[str]: ...
    @property
    def action(self) -> Action | None: ...
    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def table(self) -> Game: ...


def history_alt(moment: Moment) -> str:
    """The board after one move of `/carc-history` (move 0: the start)."""
    names = [name(p) for p in moment.names]
    table = moment.table
    if moment.action is None:
        what = _("The board at the start of the game, before move 1 of {total}.").format(
            total=moment.total)
        move, scored = _("No move has been played yet."), ""
    else:
        what = _("The board after move {n} of {total}: {tiles} tiles.").format(
            n=moment.number, total=moment.total, tiles=len(table.board.tiles))
        move, scored = move_words(moment.action), scored_words(moment.events, names)
    scores = _("Scores then: {scores}.").format(scores=", ".join(
        _("{name} {score}").format(name=n, score=s) for n, s in zip(names, moment.scores,
                                                                    strict=False)))
    deciding = table.deciding
    if table.finished:
        after = _("The game was over.") + " " + ranking_words(names, list(moment.scores))
    elif deciding is not None and 0 <= deciding < len(names):
        after = _("Next to play: {name}.").format(name=names[deciding])
    else:
        after = ""
    return within([(what, 0), (move, 0), (scored, 3), (scores, 2), (after, 0)])
