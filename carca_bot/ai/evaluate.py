"""What a position is worth to each player, in points: the leaf evaluation of the search.

A finished game is worth its scores. Otherwise each player's value is their score,
plus what the features they hold would bring (a city or a monastery counted between
its value now and its value once complete, by how likely it is to be completed with
the tiles left), their fields, barns and titles, and the figures still in their hand
(worth more early, when there are turns left to use them). A figure stuck on a
feature that will not be completed is worth only that feature's value at the end and
is missing from the hand: that is its cost.

`light=True` is the simpler view of the easy level: the score plus what the board
would score if the game ended now, without chances or the hand.
"""

from __future__ import annotations

from carca_bot.engine.board import Board, Feature
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.expansions.traders_builders import GOODS, trade_of
from carca_bot.engine.expansions.traders_builders import NAME as GOODS_SLOT
from carca_bot.engine.figures import CORNER_FIGURES, FARMERS, require_figures, strength
from carca_bot.engine.game import Game

# What a figure in hand is worth, per figure name, for the value of unplayed figures,
# and a piece held in hand that is no figure (the abbey tile: nothing here). A name
# missing from both is an error (`_hand_worth`), never a silent 0; a figure of the
# engine's table missing here stops the import (`require_figures`). The large follower
# (Inns & Cathedrals) counts two in a majority but is one piece: worth a follower and
# most of a second one's say in a contested feature, 1.6 (its record's `worth` too).
# Traders & Builders: a builder earns second parts on the roads and cities it grows
# (1.2); a pig only adds to a field its owner already farms (0.6).
HAND_WORTH = {"follower": 1.0, "abbot": 1.0, "mayor": 0.9, "wagon": 1.1, "barn": 0.8,
              "large": 1.6, "builder": 1.2, "pig": 0.6}
PIECE_WORTH = {"abbey": 0.0}
require_figures(HAND_WORTH, "carca_bot/ai/evaluate.py HAND_WORTH")
_PER_FIGURE = 0.8  # points a figure in hand is worth with many turns to go
_ROAD_GROWTH = 0.8  # points an open road end is expected to add while tiles are left
_SQUARES_AROUND = 8


def values(game: Game, light: bool = False) -> list[float]:
    """Each player's worth in points (see the module's docstring)."""
    scores = [float(s) for s in game.scores]
    if game.finished:
        return scores
    board = game.board
    left = game.tiles_left
    turns_each = left / len(game.players)  # turns each player still has, roughly
    features = board.features
    held = held_by_feature(board, game)  # one pass over the figures
    for root, (most, farmers, barns) in held.items():
        feat = features[root]
        assert feat is not None
        if feat.kind is Kind.FIELD:
            if farmers or barns:
                cities = _field_cities(board, feat)
                if cities:
                    for p in majority(farmers):
                        scores[p] += 3.0 * cities
                    for p in majority(barns):
                        scores[p] += 4.0 * cities
            continue
        owners = majority(most)
        if owners:
            worth = _feature_worth(board, feat, left, light)
            for p in owners:
                scores[p] += worth
    for p, points in enumerate(goods_majorities(game)):
        scores[p] += points
    if game.king is not None:
        scores[game.king] += game.completed[Kind.CITY]
    if game.robber is not None:
        scores[game.robber] += game.completed[Kind.ROAD]
    if not light:
        for p, worth in enumerate(in_hand(game, turns_each)):
            scores[p] += worth
    return scores


def in_hand(game: Game, turns_each: float) -> list[float]:
    """Each player's figures in hand, in points: worth more while turns are left to use
    them (both evaluations count them so)."""
    use = min(1.0, turns_each / 12.0)
    out = []
    for hand in game.hand:
        figures = sum(hand_worth(k) * min(n, turns_each) for k, n in hand.items())
        out.append(_PER_FIGURE * use * figures)
    return out


def held_by_feature(board: Board, game: Game,
                    ) -> dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]]:
    """Per feature (its root): each player's strength in its majority, among its farmers
    and among its barns, as `scoring.majority` counts them."""
    find, features = board.find, board.features
    out: dict[int, tuple[dict[int, int], dict[int, int], dict[int, int]]] = {}
    for fig in game.figures:
        root = find(fig.node)
        entry = out.get(root)
        if entry is None:
            entry = out[root] = ({}, {}, {})
        kind = fig.kind
        if kind in CORNER_FIGURES:
            entry[2][fig.player] = entry[2].get(fig.player, 0) + 1
            continue
        feat = features[root]
        assert feat is not None
        power = strength(kind, feat.pennants)
        if kind in FARMERS:  # a large follower farms with its strength (2), as it scores
            entry[1][fig.player] = entry[1].get(fig.player, 0) + power
        entry[0][fig.player] = entry[0].get(fig.player, 0) + power
    return out


def goods_majorities(game: Game) -> list[float]:
    """Traders & Builders' goods as if the game ended now: 10 points per kind to each
    player holding the most (at least one), as the final scoring awards them."""
    points = [0.0] * len(game.players)
    if GOODS_SLOT not in game.slots:
        return points
    goods = trade_of(game).goods
    for kind in range(len(GOODS)):
        most = max(held[kind] for held in goods)
        if most > 0:
            for p, held in enumerate(goods):
                if held[kind] == most:
                    points[p] += 10.0
    return points


def hand_worth(kind: str) -> float:
    worth = HAND_WORTH.get(kind)
    if worth is None:
        worth = PIECE_WORTH.get(kind)
        if worth is None:
            raise KeyError(f"the AI has no value for the figure {kind!r}: add it to "
                           "carca_bot/ai/evaluate.py HAND_WORTH")
    return worth


def majority(strengths: dict[int, int]) -> list[int]:
    """The players with the greatest strength (> 0): the majority."""
    if not strengths:
        return []
    best = max(strengths.values())
    if best <= 0:
        return []
    return [p for p, s in strengths.items() if s == best]


def _completion(feat: Feature, left: int) -> float:
    """A rough chance that a city or a road is completed with `left` tiles to come."""
    if feat.open <= 0:
        return 1.0
    if left <= 0:
        return 0.0
    ends = feat.open
    base = 0.82 ** (ends - 1) * (0.75 if ends == 1 else 0.9)
    return base * min(1.0, left / (6.0 * ends))


def _feature_worth(board: Board, feat: Feature, left: int, light: bool) -> float:
    kind = feat.kind
    if kind is Kind.ROAD:
        now = float(len(feat.tiles))
        if light or feat.open <= 0:
            return now
        return now + _ROAD_GROWTH * feat.open * min(1.0, left / 20.0)
    if kind is Kind.CITY:
        now = float(len(feat.tiles) + feat.pennants)
        if light:
            return now
        chance = _completion(feat, left)
        growth = 0.0 if feat.open <= 0 else min(2.0, feat.open * 0.6) * min(1.0, left / 20.0)
        return (now + growth) * (1.0 + chance)
    # a monastery, shrine, abbey or garden: counted as it stands (a chance of being
    # surrounded, measured against the plain count, made the AI weaker)
    around = board.neighbours(feat.pos)
    return 9.0 if around >= _SQUARES_AROUND else 1.0 + around


def _field_cities(board: Board, feat: Feature) -> int:
    """The completed cities a field's farmers would score (likely ones are not counted:
    counting them, measured, made the AI put farmers down too early)."""
    find, features = board.find, board.features
    cities = 0
    for c in {find(c) for c in feat.cities}:
        city = features[c]
        assert city is not None
        if city.open == 0:
            cities += 1
    return cities


def rewards(vals: list[float]) -> list[float]:
    """Each player's lead over the best of the others: what a max-n search maximises."""
    if len(vals) == 1:
        return list(vals)
    best = sorted(vals, reverse=True)
    top, second = best[0], best[1]
    return [v - (second if v == top else top) for v in vals]
