"""A builder's double turn through Discord (docs/rules/RULES-inns-traders.md 4.15): the
second part is the same turn, so the card says so and nobody is pinged again; with the
pile empty it is the abbey or nothing, so nothing offers a draw."""

from __future__ import annotations

from collections import Counter

import pytest

from carca_bot.bot.components.rows import card_actions
from carca_bot.engine import supply
from carca_bot.engine.game import Game
from carca_bot.service import User
from tests.bot.cards import assert_card_reply, deletes, pings
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.fake_discord import Request
from tests.bot.test_card import to_act
from tests.bot.test_lobby import assert_private_refusal, lobby
from tests.bot.test_turns import choices, place_of
from tests.engine.expansion_helpers import record
from tests.engine.test_traders_builders import _west_arm_and_hole
from tests.service.helpers import rig

Player = tuple[int, str]
SECOND = "(The second part of the turn: the builder's road or city grew.)"


async def place(h: BotHarness, player: Player, square: str,
                **figure: str) -> list[Request]:
    return await h.command(player, "place", square=square, rotation=0, confirm=True,
                           **figure)


async def test_a_builders_second_part_is_the_same_turn_on_the_card_and_pings_nobody(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    # The start road runs west-east through 0,0: the first player's follower on it (U at
    # 1,0), then the builder on it (U at 2,0); U at 3,0 extends it: a second part.
    rig(monkeypatch, ["U", "B", "U", "B", "U", "B"])
    h = harness
    await lobby(h, BEN, expansions="traders_builders")
    assert_card_reply(await h.command(ANA, "start"))
    first, view = await to_act(h)
    other = BEN if first == ANA else ANA
    assert_card_reply(await place(h, first, "1,0", figure="follower", on="W"))
    assert_card_reply(await place(h, other, "0,1"))
    assert_card_reply(await place(h, first, "2,0", figure="builder", on="W"))
    assert SECOND not in assert_card_reply(await place(h, other, "-1,1")).card.text
    requests = await place(h, first, "3,0")
    shown = assert_card_reply(requests)
    player, view = await to_act(h)
    assert (player, view.part, view.must) == (first, 2, "place")
    assert pings(requests) == [] and deletes(requests) == []  # the turn's ping stays
    assert f"<@{first[0]}>, your turn" in shown.card.text and SECOND in shown.card.text
    # The second part ends the turn: the other player is pinged, the card is plain again.
    requests = await place(h, first, "1,1")
    shown = assert_card_reply(requests)
    player, view = await to_act(h)
    assert (player, view.part) == (other, 1)
    (ping,) = pings(requests)
    assert f"<@{other[0]}>" in ping.content and SECOND not in shown.card.text


async def test_a_second_part_with_the_pile_empty_offers_the_abbey_and_no_draw(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine's position (tests/engine/test_traders_builders.py) with a supply of just
    # the tiles it plays: the last one extends Ana's builder's road, and none is left.
    actions = _west_arm_and_hole()
    deal = supply.deal

    def cut(game: Game) -> None:
        deal(game)
        game.supply = Counter(str(a["tile"]) for a in actions)
        game.tile_order = tuple(sorted(game.supply))

    monkeypatch.setattr(supply, "deal", cut)
    h = harness
    user = User(str(ANA[0]), ANA[1])
    view = await h.bot.service.import_record(
        place_of(h), user, record(actions, expansions=("traders_builders", "abbey_mayor")))
    assert (view.part, view.must, view.tiles_left) == (2, "choose", 0)
    legal = await choices(h, ANA)
    assert not legal.can_draw and legal.abbey_squares == ((1, 1),)
    assert [action for action, _ in card_actions(view)] == ["abbey", "board", "status"]
    assert_private_refusal(await h.command(ANA, "draw"), "no tile is left to draw")
    await h.command(ANA, "abbey", square="1,1")
    assert_card_reply(await h.command(ANA, "confirm"))
    assert (await h.bot.service.status(place_of(h))).finished
