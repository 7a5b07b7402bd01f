"""A game's public history: the state anyone may see after each committed action.

Everything here starts from `public_game`, a fresh game replayed from the setup
WITHOUT its seed and from the committed actions only. The seed fixes the order
of the pile, and the unconfirmed turn may hold a drawn tile nobody else has
seen; neither is in the replayed game, so nothing built from it (history, the
pile's counts, pictures, the HTML replay) can show them, whatever it prints.

The result is plain data: front ends turn `Event`s into words with
`carca_bot.words`, and renderers draw `PublicState`s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.engine.geometry import Pos
from carca_bot.engine.setup import Setup
from carca_bot.render.pieces import figure_spots, token_spots
from carca_bot.render.summary import CATEGORIES, Tally

# Points by category (CATEGORIES, in the order the card shows them). An `Event.feature`
# missing from CATEGORY_OF lands in "other", so the categories always add up to the score.
# "goods": the goods majorities at the end (a pig's bonus is a field's, an inn's a road's).
CATEGORY_OF: Mapping[str, str] = {
    "city": "cities", "road": "roads", "monastery": "monasteries", "shrine": "monasteries",
    "abbey": "monasteries", "field": "fields", "barn": "barns", "garden": "gardens",
    "king": "titles", "robber": "titles", "goods": "goods",
}


@dataclass(frozen=True, slots=True)
class FigureView:
    """A figure as drawn: art kind (a follower in a field is a "farmer"), owner, square,
    and the point inside the square in tile units (0..1, y down)."""

    kind: str
    player: int
    pos: Pos
    at: tuple[float, float]


@dataclass(frozen=True, slots=True)
class TokenView:
    """A tunnel token: owner, pair (0-based), square and point at the tunnel mouth."""

    player: int
    pair: int
    pos: Pos
    at: tuple[float, float]


@dataclass(frozen=True, slots=True)
class PublicState:
    """What the table shows between two actions."""

    tiles: tuple[tuple[Pos, str, int], ...]  # square, tile id (or "ABBEY"), quarter turns
    figures: tuple[FigureView, ...]
    tokens: tuple[TokenView, ...]
    scores: tuple[int, ...]
    held: tuple[tuple[tuple[str, int], ...], ...]  # per seat: figures etc. in hand
    king: int | None
    robber: int | None
    tiles_left: int
    deciding: int | None  # who acts next; None once the game is over
    last_placed: tuple[Pos, int] | None  # the newest tile and who laid it
    finished: bool


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """One committed action and what it did. `number` counts from 1."""

    number: int
    player: int | None  # None for the record's `end` action (nobody's decision)
    action: Mapping[str, Any]  # the carca-record/1 action: public once played
    events: tuple[Event, ...]
    gained: tuple[int, ...]  # points each seat scored in this action
    state: PublicState  # after the action


@dataclass(frozen=True, slots=True)
class History:
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    start: PublicState  # before the first action
    steps: tuple[HistoryStep, ...]

    @property
    def finished(self) -> bool:
        return self.final.finished

    @property
    def final(self) -> PublicState:
        return self.steps[-1].state if self.steps else self.start

    def state(self, number: int) -> PublicState:
        """The state after action `number` (0: the start), clamped to the game."""
        number = max(0, min(number, len(self.steps)))
        return self.start if number == 0 else self.steps[number - 1].state

    def curves(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's score after every action, starting at 0 before the first."""
        rows = [self.start.scores, *(s.state.scores for s in self.steps)]
        return tuple(tuple(row[p] for row in rows) for p in range(len(self.players)))

    def categories(self) -> tuple[dict[str, int], ...]:
        """Each seat's points by category (CATEGORIES), from the scoring events."""
        return points_by_category(len(self.players),
                                  [e for s in self.steps for e in s.events])

    def ranking(self) -> tuple[tuple[int, ...], ...]:
        """Seats grouped by final score, best first (ties share a place)."""
        scores = self.final.scores
        return tuple(tuple(p for p in range(len(scores)) if scores[p] == value)
                     for value in sorted(set(scores), reverse=True))


def points_by_category(players: int, events: Sequence[Event]) -> tuple[dict[str, int], ...]:
    table = tuple({c: 0 for c in CATEGORIES} for _ in range(players))
    for ev in events:
        if ev.kind != "score" or not ev.points:
            continue
        category = CATEGORY_OF.get(ev.feature, "other")
        for p in ev.players:
            table[p][category] += ev.points
    return table


def public_setup(setup: Setup) -> Setup:
    """The setup without its seed: nothing after it can know the order of the pile."""
    return dataclasses.replace(setup, seed=None)


def public_game(game: Game) -> Game:
    """A fresh game from the committed actions only, dealt without the seed.

    The unconfirmed steps of the turn being played (and the tile drawn for it) are
    not in `game.history`, so they are not here either.
    """
    return Game.replay(public_setup(game.setup), [dict(a) for a in game.history])


def public_state(game: Game) -> PublicState:
    """What anyone at the table sees of `game` now (a public game: see `public_game`)."""
    held: list[tuple[tuple[str, int], ...]] = []
    for p in range(len(game.players)):
        held.append(tuple(sorted(game.in_hand(p).items())))
    tiles = tuple(sorted((pos, placed.tile, placed.rot)
                         for pos, placed in game.board.tiles.items()))
    figures = tuple(FigureView(kind, player, pos, at)
                    for kind, player, pos, at in figure_spots(game))
    tokens = tuple(TokenView(player, pair, pos, at)
                   for player, pair, pos, at in token_spots(game))
    return PublicState(tiles, figures, tokens, tuple(game.scores), tuple(held), game.king,
                       game.robber, game.tiles_left, game.deciding, game.last_placed,
                       game.finished)


def public_history(game: Game) -> History:
    """The history of `game`'s committed actions; CPU work (a replay), so call it from a
    worker thread. `game` may be any copy of a running or finished game."""
    setup = public_setup(game.setup)
    walk = Game(setup)
    start = public_state(walk)
    steps: list[HistoryStep] = []
    for number, action in enumerate(game.history, start=1):
        before = list(walk.scores)
        events = walk.apply(dict(action))
        by = action.get("by")
        player = None if by is None else walk.players.index(by)
        gained = tuple(a - b for a, b in zip(walk.scores, before, strict=True))
        steps.append(HistoryStep(number, player, dict(action), tuple(events), gained,
                                 public_state(walk)))
    return History(tuple(setup.players), tuple(sorted(setup.expansions)), start, tuple(steps))


def pile(game: Game) -> tuple[tuple[str, int], ...]:
    """The tiles still to draw, as (tile id, count) in catalogue order; only counts.

    Built from the public game, so the tile drawn for an unconfirmed turn still
    counts as in the pile (nobody else has seen it).
    """
    public = public_game(game)
    return tuple((tile, public.supply[tile]) for tile in public.catalogue.tiles
                 if public.supply[tile] > 0)


def shown_categories(expansions: Sequence[str], table: Sequence[Mapping[str, int]]
                     ) -> tuple[str, ...]:
    """The categories a game can score in (its expansions), plus any that scored (goods
    show when someone held the most of a kind)."""
    possible = {"cities", "roads", "monasteries", "fields"}
    if "abbey_mayor" in expansions:
        possible.add("barns")
    if "abbot" in expansions:
        possible.add("gardens")
    if "king_robber" in expansions:
        possible.add("titles")
    return tuple(c for c in CATEGORIES
                 if c in possible or any(row.get(c, 0) for row in table))


def tally(history: History) -> Tally:
    """The numbers of the end-of-game card (`carca_bot.render.summary.render_summary`)."""
    table = history.categories()
    final = [0] * len(history.players)
    for ev in (e for s in history.steps for e in s.events):
        if ev.kind == "score" and ev.final:
            for p in ev.players:
                final[p] += ev.points
    return Tally(history.players, history.final.scores, table,
                 shown_categories(history.expansions, table), history.curves(),
                 history.finished, len(history.steps), tuple(final))
