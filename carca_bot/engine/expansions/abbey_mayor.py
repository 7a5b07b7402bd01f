"""Abbey & Mayor (docs/RULES.md 2.8): the abbey, the mayor, the wagon and the barn.

The mayor, the wagon and the barn are rows of the figure table (the mayor's
strength is the city's pennants; the wagon is lifted after scoring; the barn
stands on a corner, `deploy` says where). Hooks: `turn_scoring` (a barn placed,
or farmers joined to a barn's field, score now), `turn_end` (wagons lifted off
a scored feature wait for their owners), `final` (barns score 4 per completed
city). Its slot is `Pending`: the wagons waiting for their owners' decisions and
the players still to decide in the end-of-game abbey round. Also here: where a
wagon may move after its feature is scored (rules c2 and c1), and those steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from carca_bot.engine.board import Board
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.figure_types import FigureType, Piece, corner, farms
from carca_bot.engine.geometry import CORNER_INDEX, Pos, around, neighbour, opposite
from carca_bot.engine.msgids import N_, N_plural
from carca_bot.engine.phase import Figure, PendingWagon, Phase
from carca_bot.engine.scoring import figures_on, score_field, score_fields
from carca_bot.engine.shapes import Kind
from carca_bot.engine.state import Expansion, HasSlots, put

if TYPE_CHECKING:
    from carca_bot.engine.outcome import Outcome
    from carca_bot.engine.phase import Turn
    from carca_bot.engine.state import GameState, ScorerState, SetupView

NAME = "abbey_mayor"


@dataclass(frozen=True, slots=True)
class Pending:
    """Who still has a decision to make; replaced, never changed."""

    wagons: tuple[PendingWagon, ...] = ()  # lifted wagons, in the order their owners decide
    queue: tuple[int, ...] = ()  # the end-of-game abbey round: players still to be asked


NOTHING_PENDING = Pending()


def pending_of(game: HasSlots) -> Pending:
    state = game.slots.get(NAME, NOTHING_PENDING)
    assert isinstance(state, Pending)
    return state


def barn_problem(game: GameState, turn: Turn, figure: FigureType,
                 on: str) -> tuple[IllegalMove | None, int]:
    """Where a barn may stand: a corner where four fields meet, in a field with no barn."""
    corner_index = CORNER_INDEX.get(on)
    if corner_index is None:
        return IllegalMove("barn_not_corner"), -1
    node = game.board.corner_field(turn.pos, corner_index)
    if node is None:
        return IllegalMove("barn_corner_not_field"), -1
    root = game.board.find(node)
    if any(f.type.corner and game.board.find(f.node) == root for f in game.figures):
        return IllegalMove("barn_field_taken"), -1
    return None, node


def barns(scorer: ScorerState, completed: list[int], winners: list[int]) -> None:
    """A barn placed, or farmers joined to a barn's field, score that field now: the
    farmers 3 (placed) or 1 (joined) per completed city, and they go home with every
    other figure of theirs there (pigs), barns staying."""
    board, outcome, game = scorer.board, scorer.outcome, scorer.game
    barn_root = None if scorer.turn.barn_node is None else board.find(scorer.turn.barn_node)
    barns_now = [f for f in scorer.standing() if f.type.corner]
    fields: list[tuple[int, int, str]] = []
    if barn_root is not None:
        fields.append((barn_root, 3, "barn_placed"))
    placed = board.tiles[scorer.turn.pos]
    if placed.shape is not None:
        for node, seg in zip(placed.nodes, placed.shape.segments, strict=True):
            root = board.find(node)
            if (seg.kind is Kind.FIELD and root != barn_root
                    and all(root != r for r, _, _ in fields)
                    and figures_on(board, barns_now, root)):
                fields.append((root, 1, "barn_joined"))
    for root, per_city, why in fields:
        standing = scorer.standing()
        here = figures_on(board, standing, root)
        if not any(f.type.farms for f in here):
            continue
        score_field(game, outcome, standing, root, farms, per_city, "field", why, False)
        outcome.home.extend(f for f in here if not f.type.corner)


def lifted(scorer: ScorerState, completed: list[int]) -> None:
    """The wagons lifted off the features scored this turn wait for their owners."""
    outcome = scorer.outcome
    if outcome.lifted is not None:
        state = pending_of(scorer.game)
        outcome.slots[NAME] = Pending(tuple(w for _, w in outcome.lifted), state.queue)


def final(game: GameState, roots: list[int], outcome: Outcome) -> None:
    """Each field's barn owners score 4 per completed city it touches."""
    score_fields(game, outcome, roots, corner, 4, "barn", "barn_final")


# -- wagons waiting for their owners -----------------------------------------------------


def ask_wagons(game: GameState) -> bool:
    """Move to the next wagon owner who has somewhere to go; True while one must decide."""
    state = pending_of(game)
    wagons = state.wagons
    while wagons:
        wagon = wagons[0]
        if wagon_targets(game.board, game.figures, wagon, game.setup.wagon_rule):
            game.phase = Phase.WAGON
            break
        wagons = wagons[1:]
        game.hand[wagon.player]["wagon"] += 1
        game.events.append(Event("wagon_returned", (wagon.player,), reason="wagon_stuck"))
    if wagons != state.wagons:
        put(game, NAME, Pending(wagons, state.queue))
    return bool(wagons)


def wagon_decided(game: GameState) -> PendingWagon:
    """The wagon whose owner just decided leaves the queue; returns it."""
    state = pending_of(game)
    put(game, NAME, Pending(state.wagons[1:], state.queue))
    return state.wagons[0]


def in_hand(game: GameState, player: int, held: dict[str, int]) -> None:
    """A wagon waiting for its owner's decision counts as in hand."""
    waiting = sum(1 for w in pending_of(game).wagons if w.player == player)
    if waiting:
        held["wagon"] += waiting


# -- the end-of-game abbey round -----------------------------------------------------------


def abbey_round(game: GameState, first: int) -> None:
    """Every player, from `first` on, may place their abbey once more at the end."""
    count = len(game.players)
    state = pending_of(game)
    put(game, NAME, Pending(state.wagons, tuple((first + i) % count for i in range(count))))


def next_abbey(game: GameState) -> int | None:
    """The next player of the abbey round who may place their abbey (None: round over)."""
    state = pending_of(game)
    queue = state.queue
    found = None
    while queue:
        player, queue = queue[0], queue[1:]
        if game.can_place_abbey(player):
            found = player
            break
    if queue != state.queue:
        put(game, NAME, Pending(state.wagons, queue))
    return found


WAGON_KINDS = (Kind.ROAD, Kind.CITY, Kind.BUILDING)


def _segments(board: Board, pos: Pos) -> list[tuple[int, str, Kind]]:
    placed = board.tiles[pos]
    if placed.shape is None:
        return [(placed.nodes[0], "C", Kind.BUILDING)]
    return [(node, seg.name, seg.kind)
            for node, seg in zip(placed.nodes, placed.shape.segments, strict=True)]


def _c1_roots(board: Board, wagon: PendingWagon) -> set[int]:
    """Features directly connected to the scored one: gates, junctions, cloister roads."""
    scored = wagon.scored
    feat = board.features[scored]
    assert feat is not None
    found: set[int] = set()
    for square in feat.tiles:
        placed = board.tiles[square]
        if placed.shape is None:  # the scored abbey: the roads its walls close
            for side in range(4):
                other = board.tiles.get(neighbour(square, side))
                if other is None or other.shape is None:
                    continue
                index = other.shape.side_segment[opposite(side)]
                if index is not None and other.shape.segments[index].kind is Kind.ROAD:
                    found.add(board.find(other.nodes[index]))
            continue
        for group in placed.shape.links:
            if any(board.find(placed.nodes[i]) == scored for i in group):
                found.update(board.find(placed.nodes[i]) for i in group)
        if feat.kind is Kind.ROAD:  # a road closed by an abbey wall leads into the abbey
            for side in range(4):
                index = placed.shape.side_segment[side]
                abbey = board.tiles.get(neighbour(square, side))
                if (index is not None and abbey is not None and abbey.shape is None
                        and board.find(placed.nodes[index]) == scored):
                    found.add(board.find(abbey.nodes[0]))
    found.discard(scored)
    return found


def wagon_targets(board: Board, figures: list[Figure], wagon: PendingWagon,
                  rule: str) -> list[tuple[Pos, str]]:
    """Every (square, feature name) the wagon may move to, nearest squares first."""
    occupied = {board.find(f.node) for f in figures}

    def free(root: int, kind: Kind) -> bool:
        return (kind in WAGON_KINDS and root not in occupied and root != wagon.excluded
                and not board.is_complete(root))

    targets: list[tuple[Pos, str]] = []
    if rule == "c2":
        for square in [wagon.pos, *around(wagon.pos)]:
            if square in board.tiles:
                targets.extend((square, name) for node, name, kind in _segments(board, square)
                               if free(board.find(node), kind))
        return targets
    for root in sorted(_c1_roots(board, wagon)):
        feat = board.features[root]
        assert feat is not None
        if not free(root, feat.kind):
            continue
        for square in sorted(feat.tiles):
            targets.extend((square, name) for node, name, _ in _segments(board, square)
                           if board.find(node) == root)
    return targets


def wagon_refusal(board: Board, figures: list[Figure], wagon: PendingWagon, pos: Pos, on: str,
                  rule: str) -> IllegalMove:
    """Why the wagon may not move to (pos, on)."""
    placed = board.tiles.get(pos)
    node = placed.node_named(on) if placed else None
    if node is None:
        return IllegalMove("wagon_nothing_named", on=on, square=pos)
    root = board.find(node)
    feat = board.feature(node)
    if feat.kind in (Kind.FIELD, Kind.GARDEN):
        return IllegalMove("wagon_onto", kind=feat.kind.value)
    if board.is_complete(root):
        return IllegalMove("wagon_complete")
    if any(board.find(f.node) == root for f in figures):
        return IllegalMove("wagon_occupied")
    if root == wagon.excluded:
        return IllegalMove("wagon_chased_from")
    if rule == "c2":
        return IllegalMove("wagon_c2_range", wagon_at=wagon.pos)
    return IllegalMove("wagon_c1_link")


def _start(setup: SetupView) -> Pending:
    return NOTHING_PENDING


EXPANSION = Expansion(
    NAME, N_("Abbey & Mayor"), 3, 40, aliases=("abbey", "mayor", "abbey_and_mayor"),
    tile_prefix="AM",
    figures=(
        FigureType("mayor", NAME, 1, (Kind.CITY,), 1, N_("mayor"), N_("a mayor"), N_("Mayor"),
                   N_plural("{n} mayor", "{n} mayors"), 0.9, pennant_strength=True),
        FigureType("wagon", NAME, 1, (Kind.ROAD, Kind.CITY, Kind.BUILDING), 1, N_("wagon"),
                   N_("a wagon"), N_("Wagon"), N_plural("{n} wagon", "{n} wagons"), 1.1,
                   lifted=True),
        FigureType("barn", NAME, 1, (), 1, N_("barn"), N_("a barn"), N_("Barn"),
                   N_plural("{n} barn", "{n} barns"), 0.8, in_majority=False, corner=True,
                   follower=False),
    ),
    pieces=(Piece("abbey", N_("abbey"), N_plural("{n} abbey", "{n} abbeys"), 1),),
    slot=_start, deploy=barn_problem, turn_scoring=barns, turn_end=lifted, final=final,
    in_hand=in_hand)
