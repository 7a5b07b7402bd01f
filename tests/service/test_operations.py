"""The operations the front ends used to build themselves: rotate, place in one step,
the next public tile, feature labels; and refusals as codes."""

from __future__ import annotations

import pytest

from carca_bot.engine.board import Board
from carca_bot.engine.catalogue import catalogue
from carca_bot.service import FeatureLabel, GameService, IllegalMoveError, NotNow
from carca_bot.service.labels import label
from carca_bot.service.model import TurnView
from carca_bot.words.service import feature_label, refusal
from tests.service.helpers import HERE, rig, started, steps, who, words


def _turns(placements: tuple[tuple[int, int, int], ...]) -> dict[tuple[int, int], list[int]]:
    turns: dict[tuple[int, int], list[int]] = {}
    for x, y, rot in placements:
        turns.setdefault((x, y), []).append(rot)
    return turns


async def test_rotate_turns_the_tile_on_its_square_and_takes_the_figure_back(
        service: GameService) -> None:
    view = await started(service)
    player = who(view)
    with pytest.raises(NotNow) as nothing:
        await service.rotate(HERE, player)
    assert nothing.value.code == "nothing_to_rotate"
    turns = _turns((await service.legal_moves(HERE, player)).placements)
    square, rots = next((s, r) for s, r in turns.items() if len(r) > 1)
    await service.place_tile(HERE, player, square[0], square[1], rots[0])
    figure, on = (await service.legal_moves(HERE, player)).deployments[0]
    await service.deploy(HERE, player, figure, on)
    view = await service.rotate(HERE, player)
    assert view.must == "finish" and len(steps(view)) == 1
    assert steps(view)[0].endswith(f"turned {sorted(rots)[1]}")
    game = await service.game(HERE)
    assert game is not None and game.turn is not None and game.turn.deploy is None
    for _ in rots[1:]:
        view = await service.rotate(HERE, player)
    assert steps(view)[0].endswith(f"turned {sorted(rots)[0]}")  # round again


async def test_rotate_refuses_a_tile_that_fits_one_way(service: GameService,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, ["E"])  # a city edge: it fits south of the start only one way
    view = await started(service)
    player = who(view)
    turns = _turns((await service.legal_moves(HERE, player)).placements)
    square, rots = next((s, r) for s, r in turns.items() if len(r) == 1)
    before = await service.place_tile(HERE, player, square[0], square[1], rots[0])
    with pytest.raises(NotNow) as one:
        await service.rotate(HERE, player)
    assert one.value.code == "fits_one_way" and one.value.params["square"] == square
    assert "only one way" in words(one.value)
    assert (await service.status(HERE, player.id)).steps == before.steps


async def test_place_with_a_figure_is_all_or_nothing(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    with pytest.raises(IllegalMoveError) as bad:
        await service.place(HERE, player, x, y, rot, figure="follower", on="nowhere",
                            confirm=True)
    assert bad.value.code == "deploy_nothing_named" and "nowhere" in words(bad.value)
    after = await service.status(HERE, player.id)
    assert after.moves == 0 and after.steps == () and after.must == "place"
    spots = await service.features_if(HERE, player, x, y, rot)
    assert spots and all(isinstance(s, FeatureLabel) and (s.x, s.y) == (x, y) for s in spots)
    assert (await service.status(HERE, player.id)).steps == ()  # the try changed nothing
    done = await service.place(HERE, player, x, y, rot, figure="follower", on=spots[0].on,
                               confirm=True)
    assert done.moves == 1 and done.played[0]["deploy"] == {"figure": "follower",
                                                            "on": spots[0].on}


async def test_place_without_confirm_leaves_the_turn_open(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    view = await service.place(HERE, player, x, y, rot)
    assert view.must == "finish" and len(steps(view)) == 1 and view.moves == 0
    view = await service.place(HERE, player, x, y, rot)  # again: replaces, not adds
    assert len(steps(view)) == 1


async def test_the_next_public_tile_is_the_one_shown_to_its_player(
        service: GameService) -> None:
    view: TurnView = await started(service)
    player = who(view)
    tile = await service.next_public_tile(view.game_id)
    assert tile is not None and tile == (await service.begin_turn(HERE, player)).tile
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place_tile(HERE, player, x, y, rot)
    assert await service.next_public_tile(view.game_id) is None  # not before the turn ends
    view = await service.confirm(HERE, player)
    assert await service.next_public_tile(view.game_id) == (
        await service.begin_turn(HERE, who(view))).tile


async def test_choices_carry_feature_labels(service: GameService) -> None:
    view = await started(service)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place_tile(HERE, player, x, y, rot)
    choices = await service.legal_moves(HERE, player)
    assert {lab.on for lab in choices.labels} == {on for _, on in choices.deployments}
    assert all((lab.x, lab.y) == (x, y) for lab in choices.labels)


def test_labels_say_kind_and_where() -> None:
    board = Board()
    board.place((0, 0), catalogue().shape("D", 0))
    assert label(board, (0, 0), "N") == FeatureLabel(0, 0, "N", "city", "N")
    assert label(board, (0, 0), "EL") == FeatureLabel(0, 0, "EL", "field", "N")
    assert label(board, (0, 0), "SL") == FeatureLabel(0, 0, "SL", "field", "S")
    assert label(board, (0, 0), "NW") == FeatureLabel(0, 0, "NW", "corner", "NW")
    assert label(board, (0, 0), "Q") is None
    assert feature_label("field", "SW") == "field, south-west half"
    assert feature_label("city", "N") == "city, north"
    assert feature_label("corner", "NW") == "north-west corner"
    assert feature_label("monastery", "C") == "monastery"


def test_service_refusals_are_codes_with_words() -> None:
    err = NotNow("must_place")
    assert err.code == "must_place" and err.params == {}
    assert refusal(err, []) == words(err) == "first place your tile"
    assert str(err) == "must_place"  # for logs: the code, no words
    assert str(NotNow("fits_one_way", tile="U")) == "fits_one_way (tile='U')"
    legacy = NotNow("a sentence from a front end")
    assert legacy.code == "said" and words(legacy) == "a sentence from a front end"
