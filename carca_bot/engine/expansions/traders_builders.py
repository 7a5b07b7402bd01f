"""Traders & Builders (docs/rules/RULES-inns-traders.md 2.17, 2.18, section 4 items 13-20).

Goods: its tiles (`TB1` ... `TB24`) carry goods symbols (`goods` in the tile data),
merged into cities as modifiers; whoever places the tile (or abbey) that completes
a city takes its goods, followers or not (`turn_scoring`); at the end each kind's
majority, ties included, scores 10 (`final`).

The builder joins a road or city, not completed, that holds a follower of its
player. A land tile placed in the first part of a turn that extends the feature
its builder stood on before that tile (`tile_placed`), or a tunnel token that
joins that road with tiles it did not have (`linked`, 4.15), owes the player a
second part (`again`): a whole turn again, never a third; an abbey never
triggers; with the pile empty, the second part can only be the abbey.

The pig joins a field holding its player's farmer; whenever the field is scored
for farmers (at the end, or a barn placed or joined), a majority owner with a pig
there scores 1 more per completed city (`field_bonus`); never in the barn's own
final scoring. Builders and pigs count in no majority and go home with the
followers of their feature.

Its slot is `Trade`: the goods each player took, and whether a second part is owed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.events import Event
from carca_bot.engine.figure_types import FigureType, Piece
from carca_bot.engine.msgids import N_, N_plural
from carca_bot.engine.phase import Figure
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion, HasSlots, put

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.phase import Turn
    from carca_bot.engine.state import GameState, ScorerState, SetupView

NAME = "traders_builders"
GOODS = ("wine", "grain", "cloth")
FIELD_SCORINGS = ("farmers_final", "barn_placed", "barn_joined")  # the pig's bonus applies


@dataclass(frozen=True, slots=True)
class Trade:
    """Replaced, never changed: so a game's copies and undo frames share it."""

    goods: tuple[tuple[int, ...], ...]  # per player: wine, grain, cloth taken
    owed: bool = False  # this part extended the feature of the player's builder


def trade_of(game: HasSlots) -> Trade:
    state = game.slots.get(NAME)
    assert isinstance(state, Trade)
    return state


def _builder(game: GameState, player: int) -> Figure | None:
    """The player's builder on the board, unless it was placed in this very part."""
    turn = game.turn
    for fig in game.figures:
        if fig.kind == "builder" and fig.player == player:
            placed_now = turn is not None and turn.deploy is not None \
                and turn.deploy.figure == "builder"
            return None if placed_now else fig
    return None


def _owe(game: GameState) -> None:
    trade = trade_of(game)
    if not trade.owed:
        put(game, NAME, Trade(trade.goods, True))


def tile_placed(game: GameState, turn: Turn) -> None:
    """A land tile that joins the feature of its player's builder owes a second part."""
    if game.part != 1:
        return  # no chain reaction
    builder = _builder(game, turn.player)
    if builder is None:
        return
    find = game.board.find
    root = find(builder.node)
    if any(find(node) == root for node in turn.touched):
        _owe(game)


def linked(game: GameState, player: int, a: int, b: int) -> None:
    """A tunnel link that adds tiles to the road of its player's builder owes one too."""
    if game.part != 1:
        return
    builder = _builder(game, player)
    if builder is None:
        return
    board = game.board
    root, ra, rb = board.find(builder.node), board.find(a), board.find(b)
    if ra == rb or root not in (ra, rb):
        return
    mine, other = board.features[root], board.features[rb if root == ra else ra]
    assert mine is not None and other is not None
    if other.tiles - mine.tiles:
        _owe(game)


def again(game: GameState) -> bool:
    """After the first part: the second, when owed and a tile or the abbey can be played."""
    trade = trade_of(game)
    if not trade.owed:
        return False
    put(game, NAME, Trade(trade.goods))
    if game.part != 1 or not (game.tiles_left or game.can_place_abbey(game.current)):
        return False
    game.events.append(Event("builder", (game.current,), feature="builder",
                             reason="builder_second_part"))
    return True


def turn_over(game: GameState) -> None:
    trade = trade_of(game)
    if trade.owed:
        put(game, NAME, Trade(trade.goods))


def take_goods(scorer: ScorerState, completed: list[int], winners: list[int]) -> None:
    """The player who completed a city takes its goods, whoever holds the city."""
    player, board, outcome = scorer.turn.player, scorer.board, scorer.outcome
    state = outcome.slots.get(NAME) or trade_of(scorer.game)
    assert isinstance(state, Trade)
    goods = list(state.goods)
    for root in completed:
        feat = board.features[root]
        assert feat is not None
        taken = [feat.mod(kind) for kind in GOODS]
        if feat.kind is not Kind.CITY or not any(taken):
            continue
        goods[player] = tuple(have + new for have, new in zip(goods[player], taken,
                                                             strict=True))
        outcome.events.append(Event(
            "goods", (player,), feature="city", tiles=tuple(sorted(feat.tiles)),
            reason="goods_taken", params=dict(zip(GOODS, taken, strict=True))))
    if goods != list(state.goods):
        outcome.slots[NAME] = Trade(tuple(goods), state.owed)


def pig_bonus(game: GameState, outcome: Outcome, figures: list[Figure], root: int,
              players: tuple[int, ...], cities: int, reason: str) -> None:
    """Majority owners with a pig in the field: 1 more per completed city."""
    if reason not in FIELD_SCORINGS or not cities:
        return
    find = game.board.find
    pigs = sorted({f.player for f in figures if f.kind == "pig" and find(f.node) == root}
                  & set(players))
    if pigs:
        feat = game.board.features[root]
        assert feat is not None
        outcome.award(tuple(pigs), cities, "field", "pig_bonus", {"cities": cities},
                      tuple(sorted(feat.tiles)), final=reason == "farmers_final")


def final(game: GameState, roots: list[int], outcome: Outcome) -> None:
    """For each kind of goods, the players holding the most (at least 1) score 10."""
    goods = trade_of(game).goods
    for index, kind in enumerate(GOODS):
        most = max(held[index] for held in goods)
        if most >= 1:
            players = tuple(p for p, held in enumerate(goods) if held[index] == most)
            outcome.award(players, 10, "goods", "goods_final", {"goods": kind, "count": most},
                          (), final=True)


def in_hand(game: GameState, player: int, held: dict[str, int]) -> None:
    """The goods the player has taken."""
    held.update(zip(GOODS, trade_of(game).goods[player], strict=True))


def _start(setup: SetupView) -> Trade:
    return Trade(tuple((0, 0, 0) for _ in setup.players))


BUILDER = FigureType(
    "builder", NAME, 1, (Kind.ROAD, Kind.CITY), 0, N_("builder"), N_("a builder"),
    N_("Builder"), N_plural("{n} builder", "{n} builders"), 0.8, in_majority=False,
    follower=False, joins=True)
PIG = FigureType(
    "pig", NAME, 1, (Kind.FIELD,), 0, N_("pig"), N_("a pig"), N_("Pig"),
    N_plural("{n} pig", "{n} pigs"), 0.5, in_majority=False, follower=False, joins=True)

EXPANSION = Expansion(
    NAME, N_("Traders & Builders"), 8, 80,
    aliases=("traders", "builders", "traders_and_builders", "goods", "tb"),
    tile_prefix="TB", tile_data="tiles-inns-traders.jsonl", modifiers=(("goods", "value"),),
    figures=(BUILDER, PIG),
    pieces=(Piece("wine", N_("wine"), N_plural("{n} wine token", "{n} wine tokens"), art=True),
            Piece("grain", N_("grain"), N_plural("{n} grain token", "{n} grain tokens"),
                  art=True),
            Piece("cloth", N_("cloth"), N_plural("{n} cloth token", "{n} cloth tokens"),
                  art=True)),
    slot=_start, tile_placed=tile_placed, linked=linked, field_bonus=pig_bonus,
    turn_scoring=take_goods, again=again, turn_over=turn_over, final=final, in_hand=in_hand)
