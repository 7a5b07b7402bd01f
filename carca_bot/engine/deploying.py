"""Where a figure may go on the tile just placed (RULES.md 2.4, 2.7, 2.8): checks in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from carca_bot.engine.catalogue import Kind
from carca_bot.engine.geometry import CORNER_INDEX

if TYPE_CHECKING:
    from carca_bot.engine.game import Game, Turn

FIGURES = ("follower", "abbot", "mayor", "wagon", "barn")
ALLOWED_ON: dict[str, tuple[Kind, ...]] = {
    "follower": (Kind.CITY, Kind.ROAD, Kind.FIELD, Kind.BUILDING),
    "abbot": (Kind.BUILDING, Kind.GARDEN),
    "mayor": (Kind.CITY,),
    "wagon": (Kind.ROAD, Kind.CITY, Kind.BUILDING),
}
KIND_WORDS = {Kind.CITY: "a city", Kind.ROAD: "a road", Kind.FIELD: "a field",
              Kind.BUILDING: "a monastery", Kind.GARDEN: "a garden"}


def deploy_problem(game: Game, turn: Turn, figure: str, on: str) -> tuple[str | None, int]:
    """Why `figure` may not go `on` the tile just placed (None if it may), and its node."""
    player = turn.player
    if figure not in FIGURES:
        return f"there is no figure {figure!r}", -1
    if game.hand[player].get(figure, 0) <= 0:
        return f"{game.players[player]} has no {figure} in hand", -1
    if figure == "barn":
        return barn_problem(game, turn, on)
    node = game.board.tiles[turn.pos].node_named(on)
    if node is None:
        return f"{on!r} names nothing on the tile just placed", -1
    feat = game.board.feature(node)
    if feat.kind is Kind.GARDEN and figure != "abbot":
        return "only an abbot may stand in a garden", -1
    if feat.kind not in ALLOWED_ON[figure]:
        where = KIND_WORDS[feat.kind]
        if feat.kind is Kind.BUILDING:
            where = f"a {feat.building}"
        article = "an" if figure[0] in "aeiou" else "a"
        return f"{article} {figure} cannot stand on {where}", -1
    root = game.board.find(node)
    if any(game.board.find(f.node) == root for f in game.figures):
        return f"that {feat.kind.value} is already occupied", -1
    return None, node

def barn_problem(game: Game, turn: Turn, on: str) -> tuple[str | None, int]:
    corner = CORNER_INDEX.get(on)
    if corner is None:
        return f"a barn goes on a corner (NW, NE, SE or SW), not {on!r}", -1
    node = game.board.corner_field(turn.pos, corner)
    if node is None:
        return (f"a barn needs four tiles meeting at the {on} corner, all of them field "
                "there"), -1
    root = game.board.find(node)
    if any(f.kind == "barn" and game.board.find(f.node) == root for f in game.figures):
        return "that field already has a barn", -1
    return None, node
