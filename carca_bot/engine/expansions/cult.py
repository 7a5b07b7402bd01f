"""The Cult (docs/RULES.md 2.10): shrines, the one-pair limit, and challenges.

Hooks: `placement` (a monastery, shrine or abbey may face at most one rival;
`restricts`: only tiles with a building, once one is out) and `turn_scoring` (a
completed, occupied building chases the followers of an uncompleted rival next
to it home with no points).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.board import Board
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.geometry import Pos, around
from carca_bot.engine.msgids import N_
from carca_bot.engine.scoring import figures_on
from carca_bot.engine.shapes import Shape, TileType
from carca_bot.engine.state import Expansion

if TYPE_CHECKING:
    from carca_bot.engine.state import GameState, ScorerState

OTHER_BUILDING = {"monastery": "shrine", "abbey": "shrine", "shrine": "monastery"}


def _kind(building: str) -> str:
    return "monastery" if building == "abbey" else building


def cult_problem(board: Board, pos: Pos, building: str) -> IllegalMove | None:
    """The Cult's limit: one monastery-shrine pair at most around each of them."""
    buildings = board.buildings
    if not buildings:
        return None
    mine = _kind(building)
    other = OTHER_BUILDING[mine]
    facing = [p for p in around(pos) if _kind(buildings.get(p, "")) == other]
    if len(facing) > 1:
        return IllegalMove("cult_crowded", building=mine, other=other)
    if facing:
        partner = facing[0]
        if any(_kind(buildings.get(p, "")) == mine for p in around(partner) if p != pos):
            return IllegalMove("cult_partner_taken", building=mine, other=other,
                               partner=partner)
    return None


def placement(game: GameState, tile: TileType, pos: Pos, shape: Shape) -> IllegalMove | None:
    if shape.building is None:
        return None
    return cult_problem(game.board, pos, shape.segments[shape.building].building)


def restricts(game: GameState, tile: TileType) -> bool:
    """Whether `placement` may refuse a tile its edges fit: one with a building (or the
    abbey), once a building is out."""
    return tile.shapes[0].building is not None and bool(game.board.buildings)


def _opposite_building(building: str) -> tuple[str, ...]:
    return ("shrine",) if building in ("monastery", "abbey") else ("monastery", "abbey")


def challenges(scorer: ScorerState, completed: list[int], winners: list[int]) -> None:
    """A completed, occupied building chases the followers from rival buildings nearby."""
    for root in winners:
        feat = scorer.board.features[root]
        assert feat is not None
        for square in around(feat.pos):
            if scorer.board.buildings.get(square) not in _opposite_building(feat.building):
                continue
            loser = scorer.board.find(scorer.board.building_node(square))
            if loser in completed:
                continue  # both completed by the same tile: both scored
            chased = figures_on(scorer.board, scorer.standing(), loser)
            chased = [f for f in chased if all(f is not g for g, _, _ in scorer.leaving)]
            if not chased:
                continue
            loser_feat = scorer.board.features[loser]
            assert loser_feat is not None
            players = tuple(sorted({f.player for f in chased}))
            scorer.outcome.events.append(Event(
                "challenge", players, feature=loser_feat.building, tiles=(square,),
                reason="challenge", params={"winner": feat.building, "winner_at": feat.pos,
                                            "loser": loser_feat.building,
                                            "loser_at": square}))
            scorer.leaving.extend((f, loser, loser) for f in chased)


EXPANSION = Expansion(
    "cult", N_("Cult"), 5, 30, aliases=("shrines", "shrine"), tile_prefix="CU",
    placement=placement, restricts=restricts, turn_scoring=challenges)
