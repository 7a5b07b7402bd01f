"""The scoring step of a turn and the final scoring, in the order of RULES.md 2.2/2.12.

Turn: completed features, Cult challenges, barn scorings, figures home, King and
Robber, then wagons wait for their owners. End: incomplete features, farmers,
barns, King and Robber.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.events import Event
from carca_bot.engine.figures import CORNER_FIGURES, FARMERS
from carca_bot.engine.geometry import around
from carca_bot.engine.scoring import (
    Figure,
    completed_cities,
    feature_name,
    feature_points,
    figures_on,
    majority,
)
from carca_bot.engine.wagons import PendingWagon

if TYPE_CHECKING:
    from carca_bot.engine.game import Game
    from carca_bot.engine.phase import Turn

FOLLOWER = FARMERS
BARN = CORNER_FIGURES


def _opposite_building(building: str) -> tuple[str, ...]:
    return ("shrine",) if building in ("monastery", "abbey") else ("monastery", "abbey")


def _building_node(board: Board, pos: tuple[int, int]) -> int:
    placed = board.tiles[pos]
    if placed.shape is None:
        return placed.nodes[0]
    assert placed.shape.building is not None
    return placed.nodes[placed.shape.building]


def award(game: Game, players: tuple[int, ...], points: int, feature: str, reason: str,
          params: dict[str, Any], tiles: tuple[tuple[int, int], ...], *, pennants: int = 0,
          complete: bool = False, final: bool = False) -> None:
    """Give the majority owners their points and record why (nobody scores: still told)."""
    for p in players:
        game.scores[p] += points
    game.events.append(Event("score", players, points if players else 0, feature, tiles,
                             reason, params, pennants, complete=complete, final=final))


class TurnScorer:
    """Scores one turn of a game, appending to its events and scores."""

    def __init__(self, game: Game, turn: Turn) -> None:
        self.game = game
        self.board = game.board
        self.turn = turn
        self.leaving: list[tuple[Figure, int, int | None]] = []  # figure, feature, chased from

    def score_recall(self, abbot: Figure, root: int) -> None:
        feat = self.board.features[root]
        assert feat is not None
        points, reason, params = feature_points(self.board, feat, final=True)
        award(self.game, (abbot.player,), points, feature_name(feat), "abbot_recalled",
              {"counted": reason, **params}, (feat.pos,))
        self.game.figures.remove(abbot)
        self.game.hand[abbot.player]["abbot"] += 1

    def _completed(self) -> list[int]:
        board, turn = self.board, self.turn
        roots: list[int] = []
        for node in turn.touched:
            root = board.find(node)
            feat = board.features[root]
            assert feat is not None
            if root not in roots and feat.kind in (Kind.CITY, Kind.ROAD) and feat.open == 0:
                roots.append(root)
        buildings, gardens = board.buildings, board.gardens
        for square in [turn.pos, *around(turn.pos)]:
            if square not in buildings and square not in gardens:
                continue
            placed = board.tiles.get(square)
            if placed is None or board.neighbours(square) < 8:
                continue
            if square in buildings:
                roots.append(board.find(_building_node(board, square)))
            if square in board.gardens and placed.shape is not None:
                assert placed.shape.garden is not None
                roots.append(board.find(placed.nodes[placed.shape.garden]))
        return roots

    def score_turn(self) -> None:
        completed = self._completed()
        occupied_buildings: list[int] = []
        for root in completed:
            feat = self.board.features[root]
            assert feat is not None
            here = figures_on(self.board, self.game.figures, root)
            points, reason, params = feature_points(self.board, feat, final=False)
            award(self.game, majority(self.board, self.game.figures, root), points,
                  feature_name(feat), reason, params, tuple(sorted(feat.tiles)),
                  pennants=feat.pennants, complete=True)
            self.leaving.extend((f, root, None) for f in here)
            if here and feat.kind is Kind.BUILDING:
                occupied_buildings.append(root)
            if feat.kind in (Kind.CITY, Kind.ROAD):
                self.game.completed[feat.kind] += 1
        self._challenges(occupied_buildings, completed)
        self._barns()
        self._send_home()
        self._titles(completed)

    def _challenges(self, winners: list[int], completed: list[int]) -> None:
        """A completed, occupied building chases the followers from rival buildings nearby."""
        for root in winners:
            feat = self.board.features[root]
            assert feat is not None
            for square in around(feat.pos):
                if self.board.buildings.get(square) not in _opposite_building(feat.building):
                    continue
                loser = self.board.find(_building_node(self.board, square))
                if loser in completed:
                    continue  # both completed by the same tile: both scored
                chased = figures_on(self.board, self.game.figures, loser)
                chased = [f for f in chased if all(f is not g for g, _, _ in self.leaving)]
                if not chased:
                    continue
                loser_feat = self.board.features[loser]
                assert loser_feat is not None
                players = tuple(sorted({f.player for f in chased}))
                self.game.events.append(Event(
                    "challenge", players, feature=loser_feat.building, tiles=(square,),
                    reason="challenge", params={"winner": feat.building, "winner_at": feat.pos,
                                                "loser": loser_feat.building,
                                                "loser_at": square}))
                self.leaving.extend((f, loser, loser) for f in chased)

    def _barns(self) -> None:
        board, game = self.board, self.game
        barn_root = None if self.turn.barn_node is None else board.find(self.turn.barn_node)
        fields: list[tuple[int, int, str]] = []
        if barn_root is not None:
            fields.append((barn_root, 3, "barn_placed"))
        placed = board.tiles[self.turn.pos]
        if placed.shape is not None:
            for node, seg in zip(placed.nodes, placed.shape.segments, strict=True):
                root = board.find(node)
                if (seg.kind is Kind.FIELD and root != barn_root
                        and all(root != r for r, _, _ in fields)
                        and figures_on(board, [f for f in game.figures if f.kind == "barn"], root)):
                    fields.append((root, 1, "barn_joined"))
        for root, per_city, why in fields:
            farmers = [f for f in figures_on(board, game.figures, root) if f.kind == "follower"]
            if not farmers:
                continue
            cities = completed_cities(board, root)
            feat = board.features[root]
            assert feat is not None
            award(game, majority(board, game.figures, root, FOLLOWER), per_city * cities,
                  "field", why, {"cities": cities, "per_city": per_city},
                  tuple(sorted(feat.tiles)))
            for farmer in farmers:
                game.figures.remove(farmer)
                game.hand[farmer.player]["follower"] += 1

    def _send_home(self) -> None:
        game = self.game
        wagons: list[PendingWagon] = []
        for fig, root, chased_from in self.leaving:
            if fig not in game.figures:
                continue
            game.figures.remove(fig)
            if fig.kind == "wagon":
                wagons.append(PendingWagon(fig.player, fig.pos, root, chased_from))
            else:
                game.hand[fig.player][fig.kind] += 1
        count = len(game.players)
        wagons.sort(key=lambda w: (w.player - self.turn.player) % count)
        game.wagons = wagons

    def _titles(self, completed: list[int]) -> None:
        game = self.game
        for kind, title in ((Kind.CITY, "king"), (Kind.ROAD, "robber")):
            sizes = [len(f.tiles) for r in completed
                     if (f := self.board.features[r]) is not None and f.kind is kind]
            best = game.best_city if kind is Kind.CITY else game.best_road
            if not sizes or max(sizes) <= best:
                continue
            if kind is Kind.CITY:
                game.best_city = max(sizes)
            else:
                game.best_road = max(sizes)
            if not game.setup.has("king_robber"):
                continue
            setattr(game, title, self.turn.player)
            game.events.append(Event(title, (self.turn.player,), feature=title,
                                     reason="title_taken",
                                     params={"title": title, "kind": kind.value,
                                             "size": max(sizes)}))


def final_scoring(game: Game) -> None:
    """Score what is left on the board at the end; no figure goes home."""
    board = game.board
    roots: list[int] = []
    for fig in game.figures:
        root = board.find(fig.node)
        if root not in roots:
            roots.append(root)
    order = {Kind.ROAD: 0, Kind.CITY: 1, Kind.BUILDING: 2, Kind.GARDEN: 3, Kind.FIELD: 4}

    def kind_of(root: int) -> Kind:
        feat = board.features[root]
        assert feat is not None
        return feat.kind

    roots.sort(key=lambda r: order[kind_of(r)])

    for root in roots:
        feat = board.features[root]
        assert feat is not None
        tiles = tuple(sorted(feat.tiles))
        if feat.kind is not Kind.FIELD:
            points, reason, params = feature_points(board, feat, final=True)
            award(game, majority(board, game.figures, root), points, feature_name(feat), reason,
                  params, tiles, pennants=feat.pennants, final=True)
    for kinds, per_city, word in ((FOLLOWER, 3, "field"), (BARN, 4, "barn")):
        for root in roots:
            feat = board.features[root]
            assert feat is not None
            if feat.kind is not Kind.FIELD:
                continue
            players = majority(board, game.figures, root, kinds)
            cities = completed_cities(board, root)
            if not players or not cities:
                continue  # a field touching no completed city gives nothing to tell
            reason = "farmers_final" if word == "field" else "barn_final"
            award(game, players, per_city * cities, word, reason,
                  {"cities": cities, "per_city": per_city}, tuple(sorted(feat.tiles)),
                  final=True)
    for title, kind in (("king", Kind.CITY), ("robber", Kind.ROAD)):
        holder = game.king if title == "king" else game.robber
        if holder is not None:
            count = game.completed[kind]
            award(game, (holder,), count, title, "title_final",
                  {"title": title, "kind": kind.value, "count": count}, (), final=True)
