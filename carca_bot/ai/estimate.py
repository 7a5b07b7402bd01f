"""The strong level's evaluation: what a position is worth to each player, per player.

It starts from the evaluation easy and medium share (`evaluate.values`: the score, the
features each player holds counted between their value now and once complete, fields,
titles, figures in hand) and reads each open feature from every player's side:
- the tiles that can still close it (`closing.py`): a city or road that no tile left
  can complete is worth its end-of-game value only (no growth, no chance of
  completion), a monastery that cannot be surrounded its count as it stands; a city
  open on one square that only tiles extending it can reach is less likely closed;
- who can complete it: the chance a city is completed grows with the turns its holder
  still has (tiles left / players), not with the tiles left at the whole table, so an
  open city is worth less at four players than at two (the same at two players as the
  shared evaluation);
- who can still win the majority: a player one strength behind its holders, with a
  follower in hand to catch up, has a share (`Weights.chase`) of its value (a tie scores in
  full for both, so the holders lose nothing by it);
- fields: a farmer counts the open cities beside its field too, each by a share of
  its chance of completion (`Weights.farm_share`), not only the completed ones, so it can be
  put down before the field is plain to everyone;
- followers left: figures in hand are worth more while turns are left to use them
  (`FIGURE_WORTH`, one row per figure name: a figure the table does not know is an
  error, never a silent 0).

A finished game is worth its scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from carca_bot.ai.closing import Fits, closers, dead, fits_of, open_squares
from carca_bot.ai.evaluate import (
    HAND_WORTH,
    goods_majorities,
    held_by_feature,
    in_hand,
    majority,
    rewards,
)
from carca_bot.ai.evaluate import (
    PIECE_WORTH as PIECE_WORTH,  # its one table, named here too
)
from carca_bot.engine.board import Feature
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.game import Game

# The figures in hand are valued as by the shared evaluation (`evaluate.in_hand`, its
# tables `HAND_WORTH` and `PIECE_WORTH`: one row per figure name, a figure the table
# does not know an error, never a silent 0).
FIGURE_WORTH = HAND_WORTH


@dataclass(frozen=True)
class Weights:
    """The evaluation's judgements, in one place so `bench/evaluation.py` can measure
    another set one decision ahead (where a game takes two seconds, not a minute)."""

    chase: float = 0.3  # share of a feature's worth to a player one strength behind
    hard: float = 0.5  # a one-square city only extending tiles can reach: its chance, times
    road_growth: float = 0.8  # points an open road end adds while turns are left
    growth_turns: float = 10.0  # turns each over which growth comes in full
    # An open city beside a field counts for its farmers by this share of its chance of
    # completion (each completed one counts 1). Counted at 0 (as the shared evaluation
    # does), the AI put a farmer down only once the cities around were complete, when
    # the easy and medium players see the field too; counted at its full chance, too
    # early. Measured one decision ahead at four players against three easy (`python
    # bench/evaluation.py --games 420 --reward mix --try farm_share=0 as-is`): the win
    # share rose from 28.4% at 0 to 33.9% at 0.5 (margin to the best other -8.4 to -6.7
    # points); on games 200-419, 0.3 did as well (35.9%), 0.7 no better than 0 (30.8%
    # against 30.2%).
    farm_share: float = 0.5
    hand: float = 1.0  # times the figures in hand as the shared evaluation values them
    complete: float = 1.0  # times an open city's chance: what completing it doubles
    # of the squares still empty around a monastery, the share expected to fill while
    # its holder has turns left (0: counted as it stands)
    cloister: float = 0.0  # measured at 0.5: weaker (bench/evaluation.py, BENCHMARKS.md)

    def words(self) -> str:
        """The weights in words (`bench/ai.py` keeps them with every saved game)."""
        return "/".join(f"{f.name}={getattr(self, f.name):g}" for f in fields(self))


WEIGHTS = Weights()
_SQUARES_AROUND = 8
GROWTH_TURNS_CLOISTER = 12.0  # turns each over which a monastery's share comes in full


class _Reader:
    """One position, read once (see the module's docstring)."""

    def __init__(self, game: Game, weights: Weights) -> None:
        self.game = game
        self.w = weights
        self.board = game.board
        self.fits: Fits = fits_of(game)
        self.left = self.fits.left(game.supply)
        self.turns = game.tiles_left / len(game.players)
        # followers left to join a feature with (a large follower is one too)
        self.followers = [hand.get("follower", 0) + hand.get("large", 0)
                          for hand in game.hand]
        self.values = [float(s) for s in game.scores]

    def feature(self, root: int, feat: Feature, most: dict[int, int]) -> None:
        owners = majority(most)
        if not owners:
            return
        worth, open_alive = self.worth(root, feat)
        for p in owners:
            self.values[p] += worth
        if open_alive:
            best = max(most.values())
            for q, s in most.items():
                if best - s == 1 and self.followers[q] > 0:
                    self.values[q] += self.w.chase * worth

    def worth(self, root: int, feat: Feature) -> tuple[float, bool]:
        """A feature's expected worth to its holders, and whether it is open and alive."""
        board, kind = self.board, feat.kind
        if kind is Kind.CITY or kind is Kind.ROAD:
            city = kind is Kind.CITY
            now = float(len(feat.tiles) + feat.pennants) if city else float(len(feat.tiles))
            if feat.open <= 0:
                return (2.0 * now if city else now), False
            squares = open_squares(board, root, feat)
            if dead(board, squares, self.fits, self.left):
                return now, False
            grow = min(1.0, self.turns / self.w.growth_turns)
            if not city:
                return now + self.w.road_growth * feat.open * grow, True
            chance = _completion(feat.open, self.turns)
            if not closers(board, squares, self.fits, self.left):
                chance *= self.w.hard
            growth = min(2.0, feat.open * 0.6) * grow
            return (now + growth) * (1.0 + self.w.complete * chance), True
        # a monastery, shrine, abbey or garden: as it stands, and a share of the rest
        around = board.neighbours(feat.pos)
        if around >= _SQUARES_AROUND:
            return 9.0, False
        empty = _SQUARES_AROUND - around
        filled = self.w.cloister * empty * min(1.0, self.turns / GROWTH_TURNS_CLOISTER)
        return 1.0 + around + filled, False

    def field(self, feat: Feature, farmers: dict[int, int], barns: dict[int, int]) -> None:
        """A field's farmers and barns: each completed city it touches in full, each
        open one by `Weights.farm_share` of its chance of completion."""
        if not farmers and not barns:
            return
        find, features = self.board.find, self.board.features
        cities = 0.0
        for c in {find(c) for c in feat.cities}:
            city = features[c]
            assert city is not None
            if city.open == 0:
                cities += 1.0
            else:
                cities += self.w.farm_share * _completion(city.open, self.turns)
        if cities:
            for p in majority(farmers):
                self.values[p] += 3.0 * cities
            for p in majority(barns):
                self.values[p] += 4.0 * cities

    def rest(self) -> None:
        game = self.game
        if game.king is not None:
            self.values[game.king] += game.completed[Kind.CITY]
        if game.robber is not None:
            self.values[game.robber] += game.completed[Kind.ROAD]
        for p, points in enumerate(goods_majorities(game)):
            self.values[p] += points
        for p, worth in enumerate(in_hand(game, self.turns)):
            self.values[p] += self.w.hand * worth


def _completion(ends: int, turns: float) -> float:
    """A rough chance that a city with `ends` open edges is completed while its holder
    has `turns` turns left (the shared evaluation's, with tiles left / 2 read as turns)."""
    if turns <= 0:
        return 0.0
    base = 0.82 ** (ends - 1) * (0.75 if ends == 1 else 0.9)
    return base * min(1.0, turns / (3.0 * ends))


def estimates(game: Game, weights: Weights = WEIGHTS) -> list[float]:
    """Each player's worth in points (see the module's docstring)."""
    if game.finished:
        return [float(s) for s in game.scores]
    reader = _Reader(game, weights)
    features = game.board.features
    for root, (most, farmers, barns) in held_by_feature(game.board, game).items():
        feat = features[root]
        assert feat is not None
        if feat.kind is Kind.FIELD:
            reader.field(feat, farmers, barns)
        else:
            reader.feature(root, feat, most)
    reader.rest()
    return reader.values


def leaf(game: Game) -> list[float]:
    """The strong search's reward per player: its worth's lead over the best of the others."""
    return rewards(estimates(game))


WIN_SCALE_MIN = 8.0  # points: the scale of `win_leaf` near the end
WIN_SCALE_PER_TILE = 0.6  # ... and per tile left before that


def win_leaf(game: Game) -> list[float]:
    """`leaf`, bent toward winning: a lead counts less the larger it is (scale * tanh(lead
    / scale)), more so as the end nears, so a few points that turn second place into
    first outweigh as many added to a lead that already wins (or a loss already sure)."""
    scale = max(WIN_SCALE_MIN, WIN_SCALE_PER_TILE * game.tiles_left)
    return [scale * math.tanh(lead / scale) for lead in leaf(game)]
