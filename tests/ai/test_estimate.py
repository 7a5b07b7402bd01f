"""The strong evaluation: each open feature read from every player's side (the tiles
that can still close it, who can still win its majority), and a value for every figure
the engine knows."""

from __future__ import annotations

import pytest

from carca_bot.ai import closing, estimate, evaluate
from carca_bot.engine.catalogue import Kind
from carca_bot.engine.figures import BY_NAME
from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, EndTurn, PlaceTile
from carca_bot.engine.phase import Figure
from carca_bot.engine.rules import PIECES
from carca_bot.engine.setup import Setup


def _open_city() -> Game:
    """Base game: A lays an F (a city through the tile, with a pennant) above the start
    tile's city and puts a follower on it; the city is open on one square, above."""
    game = Game(Setup(("A", "B"), frozenset(), seed=1))
    for move in game.legal_moves("F"):
        if not isinstance(move, PlaceTile) or move.pos != (0, -1):
            continue
        game.push(move)
        placed = game.board.tiles[(0, -1)]
        city = [d for d in game.legal_deployments()
                if isinstance(d, Deploy) and d.figure == "follower"
                and game.board.feature(placed.node_named(d.on) or 0).kind is Kind.CITY]
        if city and game.board.feature(game.board.tiles[(0, 0)].nodes[0]).open > 0:
            game.push(city[0])
            game.push(EndTurn())
            return game
        game.pop()
    raise AssertionError("no such placement")


def _city(game: Game) -> tuple[int, closing.Squares]:
    board = game.board
    root = board.find(board.tiles[(0, 0)].nodes[0])
    feat = board.features[root]
    assert feat is not None
    return root, closing.open_squares(board, root, feat)


def _take_out(game: Game, mask: int) -> None:
    """Take every tile of the types in `mask` out of the supply."""
    for tile, bit in closing.fits_of(game).bits:
        if mask & bit:
            game.supply[tile] = 0


def test_an_open_city_is_worth_its_chance_of_completion_to_its_holder() -> None:
    game = _open_city()
    # 2 tiles and a pennant, 0.6 of growth, a 0.75 chance of completion (one open edge,
    # 35 turns each to go): (3 + 0.6) * 1.75; the shared evaluation agrees at 2 players
    reader = estimate._Reader(game, estimate.WEIGHTS)
    root, squares = _city(game)
    feat = game.board.features[root]
    assert feat is not None and len(squares) == 1
    worth, alive = reader.worth(root, feat)
    assert alive and worth == pytest.approx(3.6 * 1.75)
    assert estimate.estimates(game)[0] == pytest.approx(evaluate.values(game)[0])


def test_a_city_no_tile_left_can_complete_is_worth_its_end_value() -> None:
    """Take every tile that fits its open square out of the supply: the city is dead,
    worth its end-of-game value (3) instead of (3 + 0.6) * 1.75."""
    game = _open_city()
    before = estimate.estimates(game)[0]
    _, squares = _city(game)
    ((square, _),) = squares
    _take_out(game, closing.fits_of(game).fitting(game.board.frontier[square]))
    assert closing.dead(game.board, squares, closing.fits_of(game),
                        closing.fits_of(game).left(game.supply))
    assert before - estimate.estimates(game)[0] == pytest.approx(3.6 * 1.75 - 3.0)
    assert evaluate.values(game)[0] == pytest.approx(before)  # the shared one cannot tell


def test_a_city_only_extending_tiles_can_reach_is_less_likely_closed() -> None:
    game = _open_city()
    before = estimate.estimates(game)[0]
    _, squares = _city(game)
    ((square, sides),) = squares
    fits = closing.fits_of(game)
    _take_out(game, fits.closing(game.board.frontier[square], sides))
    assert not closing.closers(game.board, squares, fits, fits.left(game.supply))
    assert not closing.dead(game.board, squares, fits, fits.left(game.supply))
    assert before - estimate.estimates(game)[0] == pytest.approx(3.6 * 0.75 * estimate.WEIGHTS.hard)


@pytest.mark.parametrize(("held", "share"), [
    ({"follower": 1}, estimate.WEIGHTS.chase),
    ({"follower": 0, "large": 1}, estimate.WEIGHTS.chase),
    ({"follower": 0}, 0.0)], ids=["follower", "large follower", "none"])
def test_a_player_one_behind_with_a_follower_left_may_still_win_the_majority(
        held: dict[str, int], share: float) -> None:
    game = _open_city()
    root, _ = _city(game)
    feat = game.board.features[root]
    assert feat is not None
    game.hand[1].update(held)
    reader = estimate._Reader(game, estimate.WEIGHTS)
    worth, alive = reader.worth(root, feat)
    assert alive and worth == pytest.approx(3.6 * 1.75)
    reader.feature(root, feat, {0: 2, 1: 1})
    assert reader.values[1] - game.scores[1] == pytest.approx(share * worth)
    assert reader.values[0] - game.scores[0] == pytest.approx(worth)


def test_a_farmer_beside_an_open_city_has_a_share_of_its_chance() -> None:
    """B's follower farms the start tile's field above the road, beside A's open city
    (one open edge, 35 turns each to go: a 0.75 chance): the strong evaluation counts
    the city for the field at `Weights.farm_share` of that chance, 3 * 0.5 * 0.75 points; the
    shared one, which counts completed cities only, nothing. The field below the road
    touches no city: worth nothing to either."""
    game = _open_city()
    start = game.board.tiles[(0, 0)]
    above, below = start.node_named("EL"), start.node_named("ER")
    assert above is not None and below is not None
    assert game.board.feature(above).cities and not game.board.feature(below).cities
    before = estimate.estimates(game)[1]
    game.figures.append(Figure(1, "follower", (0, 0), above, "EL", BY_NAME["follower"]))
    game.figures.append(Figure(0, "follower", (0, 0), below, "ER", BY_NAME["follower"]))
    values = estimate.estimates(game)
    assert values[1] - before == pytest.approx(3.0 * estimate.WEIGHTS.farm_share * 0.75)
    assert estimate.WEIGHTS.farm_share == 0.5
    assert values[0] == pytest.approx(estimate.estimates(_open_city())[0])
    assert evaluate.values(game)[1] == pytest.approx(evaluate.values(_open_city())[1])


def test_a_monastery_counts_as_it_stands_unless_a_share_of_its_empty_squares_is_tried(
        ) -> None:
    """A's follower on a monastery (B) below the start tile: one square around it is
    filled, so it is worth 2 as it stands; with `cloister=0.5` (what bench/evaluation.py
    measured and found weaker) half of the 7 empty squares count too, 35 turns each to
    go being more than GROWTH_TURNS_CLOISTER."""
    game = Game(Setup(("A", "B"), frozenset(), seed=1))
    game.push(next(m for m in game.legal_moves("B")
                   if isinstance(m, PlaceTile) and m.pos == (0, 1)))
    game.push(Deploy("follower", "C"))
    game.push(EndTurn())
    node = game.board.tiles[(0, 1)].node_named("C")
    assert node is not None
    root = game.board.find(node)
    feat = game.board.features[root]
    assert feat is not None and feat.kind is Kind.BUILDING
    worth, alive = estimate._Reader(game, estimate.WEIGHTS).worth(root, feat)
    assert (worth, alive) == (2.0, False) and estimate.WEIGHTS.cloister == 0.0
    tried = estimate.Weights(cloister=0.5)
    assert estimate._Reader(game, tried).worth(root, feat)[0] == pytest.approx(2.0 + 3.5)


def test_every_figure_and_piece_the_engine_knows_has_a_value() -> None:
    """Every figure (the large follower of Inns & Cathedrals too), and every piece
    dealt into a hand (tunnel tokens are counted apart, never in `Game.hand`)."""
    assert set(estimate.FIGURE_WORTH) == set(BY_NAME) == set(evaluate.HAND_WORTH)
    dealt = {p.name for p in PIECES if p.per_player}
    assert set(estimate.PIECE_WORTH) == dealt == set(evaluate.PIECE_WORTH)


@pytest.mark.parametrize("evaluation", [estimate.estimates, evaluate.values],
                         ids=["strong", "easy and medium"])
def test_a_large_farmer_outweighs_one_follower_in_a_field(evaluation: object) -> None:
    """Inns & Cathedrals: B's E closes the start tile's city; on the field beside it A
    has a large follower, B a follower. The large one farms with strength 2, as the
    engine scores it: A alone has the field's 3 points (a tie would give both 3)."""
    game = Game(Setup(("A", "B"), frozenset({"inns_cathedrals"}), seed=1))
    game.push(next(m for m in game.legal_moves("E")
                   if isinstance(m, PlaceTile) and m.pos == (0, -1)))
    game.push(EndTurn())
    start = game.board.tiles[(0, 0)]
    field = start.node_named("EL")
    assert field is not None and game.board.feature(field).kind is Kind.FIELD
    assert game.board.feature(start.node_named("N") or 0).open == 0
    game.figures.extend([Figure(0, "large", (0, 0), field, "EL", BY_NAME["large"]),
                         Figure(1, "follower", (0, 0), field, "EL", BY_NAME["follower"])])
    values = evaluation(game)  # type: ignore[operator]
    assert values[0] - values[1] == pytest.approx(3.0)


@pytest.mark.parametrize("evaluation", [estimate.estimates, evaluate.values],
                         ids=["strong", "easy and medium"])
def test_an_unknown_figure_in_hand_is_an_error_not_a_zero(evaluation: object) -> None:
    game = _open_city()
    game.hand[1]["giant"] = 1
    with pytest.raises(KeyError, match="giant"):
        evaluation(game)  # type: ignore[operator]


def test_goods_count_for_their_majorities_in_both_evaluations() -> None:
    """Traders & Builders: 10 points per kind to the players holding the most, as the
    final scoring awards them (a tie scores for both), and nothing without goods."""
    from carca_bot.engine.expansions.traders_builders import NAME, Trade
    from carca_bot.engine.state import put

    game = Game(Setup(("A", "B"), frozenset({"traders_builders"}), seed=1))
    before_easy, before_strong = evaluate.values(game), estimate.estimates(game)
    assert evaluate.goods_majorities(game) == [0.0, 0.0]
    put(game, NAME, Trade(((2, 0, 1), (2, 1, 0))))  # wine tied, grain B, cloth A
    assert evaluate.goods_majorities(game) == [20.0, 20.0]
    put(game, NAME, Trade(((3, 0, 1), (2, 1, 0))))  # wine A too
    assert evaluate.goods_majorities(game) == [20.0, 10.0]
    after_easy, after_strong = evaluate.values(game), estimate.estimates(game)
    assert [a - b for a, b in zip(after_easy, before_easy, strict=True)] == [20.0, 10.0]
    assert [a - b for a, b in zip(after_strong, before_strong, strict=True)] == [20.0, 10.0]
    assert evaluate.goods_majorities(Game(Setup(("A", "B"), frozenset(), seed=1))) == [0, 0]
