"""Every turn subcommand's success and refusal, from exact positions.

Positions are set up by importing a record into the channel (the importer, Ana,
then plays every seat), and the command under test goes through Discord.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from carca_bot.bot.words.safe import escape
from carca_bot.service import TurnView, User
from carca_bot.words import square
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, CY, BotHarness
from tests.bot.test_lobby import (
    assert_private_refusal,
    custom_ids,
    followups,
)
from tests.bot.test_turns import choices, place_of
from tests.engine.records import record, turn

Action = dict[str, Any]


async def position(h: BotHarness, actions: list[Action], *expansions: str,
                   seed: int = 1, **extra: Any) -> TurnView:
    data = record(actions, expansions=expansions, seed=seed, **extra)
    view: TurnView = await h.bot.service.import_record(place_of(h), User(str(ANA[0]), "Ana"),
                                                       data)
    return view


async def place_anywhere(h: BotHarness) -> tuple[int, int]:
    x, y, rot = (await choices(h, ANA)).placements[0]
    (post,) = followups(await h.command(ANA, "place", square=f"{x},{y}", rotation=rot))
    assert post.ephemeral
    return x, y


def private(requests: list[Any]) -> str:
    (post,) = followups(requests)
    assert post.ephemeral
    return str(post.content)


async def test_follower(harness: BotHarness) -> None:
    await position(harness, [])
    assert_private_refusal(await harness.command(ANA, "follower", on="N"), "place")
    await place_anywhere(harness)
    spot = next(on for f, on in (await choices(harness, ANA)).deployments if f == "follower")
    assert f"follower on {spot}" in private(await harness.command(ANA, "follower", on=spot))
    text = private(await harness.command(ANA, "undo"))  # one step back: the tile stays
    assert "follower" not in text and "This turn so far" in text
    assert_private_refusal(await harness.command(ANA, "follower", on="ZZ"), "names nothing")


async def test_undo(harness: BotHarness) -> None:
    await position(harness, [])
    assert_private_refusal(await harness.command(ANA, "undo"), "")
    await place_anywhere(harness)
    text = private(await harness.command(ANA, "undo"))
    assert "This turn so far" not in text
    view = await harness.bot.service.status(place_of(harness), str(ANA[0]))
    assert view.must == "place" and not view.steps


async def test_recall(harness: BotHarness) -> None:
    # Ana's abbot in the garden of U-g(1,0); Ben's U(2,0). Ana's turn again.
    await position(harness, [turn("Ana", "U-g", (1, 0), figure="abbot", on="G"),
                             turn("Ben", "U", (2, 0))], "abbot")
    assert_private_refusal(await harness.command(ANA, "recall"), "place")
    await place_anywhere(harness)
    text = private(await harness.command(ANA, "recall"))
    assert "recalled abbot" in text
    assert_private_refusal(await harness.command(ANA, "recall"), "only one figure")


async def test_tunnel(harness: BotHarness) -> None:
    await position(harness, [turn("Ana", "TU1", (1, 0))], "tunnel")
    await place_anywhere(harness)  # Ben's turn, played by the importer
    offered = await harness.autocomplete(ANA, "tunnel", "entrance", entrance="")
    assert {"1,0 W", "1,0 E", "1,0 S"} <= {c["value"] for c in offered}
    assert_private_refusal(await harness.command(ANA, "tunnel", entrance="0,0 E", pair=1),
                           "no tunnel entrance")
    text = private(await harness.command(ANA, "tunnel", entrance="1,0 W", pair=1))
    # A square is x,y, as `carca_bot.words.square` writes it (escaped as user text is).
    assert f"tunnel token (pair 1) on W at {escape(square((1, 0)))}" in text


async def test_wagon_move_and_refusal(harness: BotHarness) -> None:
    # Ana's wagon on L(1,0)'s west road; Ben's X(-1,0) closes it (3 tiles): the wagon may
    # go to L's other roads, on its own square.
    await position(harness, [turn("Ana", "L", (1, 0), figure="wagon", on="W"),
                             turn("Ben", "X", (-1, 0))], "abbey_mayor")
    offered = await harness.autocomplete(ANA, "wagon", "target", target="")
    assert {"return", "1,0 E", "1,0 S"} <= {c["value"] for c in offered}
    assert_private_refusal(await harness.command(ANA, "wagon", target="5,5 C"),
                           "names nothing")
    post = assert_card_reply(await harness.command(ANA, "wagon", target="1,0 E"))
    assert "moved their wagon to E (east edge) at 1,0" in post.content


@pytest.mark.parametrize("typed", ["return", "Recuperar "])
async def test_wagon_return(harness: BotHarness, typed: str) -> None:
    """Typed in English or in Spanish (what the Spanish description shows)."""
    await position(harness, [turn("Ana", "L", (1, 0), figure="wagon", on="W"),
                             turn("Ben", "X", (-1, 0))], "abbey_mayor")
    post = assert_card_reply(await harness.command(ANA, "wagon", target=typed))
    assert "took their wagon back" in post.content


HOLE = [turn("Ana", "U", (1, 0)), turn("Ben", "U", (-1, 0)), turn("Ana", "B", (1, 1)),
        turn("Ben", "B", (-1, 1)), turn("Ana", "B", (-1, 2)), turn("Ben", "B", (0, 2))]


async def test_draw_instead_of_the_abbey(harness: BotHarness) -> None:
    # A hole at (0,1): Ana may place her abbey, so the tile stays hidden until she draws.
    view = await position(harness, HOLE, "abbey_mayor")
    assert view.must == "choose"
    assert_private_refusal(await harness.command(BEN, "draw"), "not playing")
    (post,) = followups(await harness.command(ANA, "draw"))
    assert post.ephemeral and "Your tile is" in post.content and post.files


async def test_abbey_in_a_turn(harness: BotHarness) -> None:
    await position(harness, HOLE, "abbey_mayor")
    offered = await harness.autocomplete(ANA, "abbey", "square", square="")
    assert [c["value"] for c in offered] == ["0,1"]
    assert_private_refusal(await harness.command(ANA, "abbey", square="5,5"), "hole")
    assert "abbey at" in private(await harness.command(ANA, "abbey", square="0,1"))
    post = assert_card_reply(await harness.command(ANA, "confirm"))
    assert "placed their abbey at 0,1" in post.content


async def test_abbey_round_place_and_skip(harness: BotHarness) -> None:
    await position(harness, [*HOLE, {"end": True}], "abbey_mayor")
    offered = await harness.autocomplete(ANA, "abbey", "square", square="")
    assert [c["value"] for c in offered] == ["skip", "0,1"]
    post = assert_card_reply(await harness.command(ANA, "abbey", square="saltar"))
    assert "kept their abbey" in post.content  # the Spanish keyword works in any game
    # Ben is next in the round and places it; then the game ends with final scoring.
    await harness.command(ANA, "abbey", square="0,1")
    post = assert_card_reply(await harness.command(ANA, "confirm"))
    assert "wins with" in post.content or "Shared victory" in post.content


async def test_barn(harness: BotHarness) -> None:
    # U(1,0) and B(0,1) beside the start tile: a tile at (1,1) closes a four-field corner
    # at its NW. Try seeds until the drawn tile fits there with a field corner.
    assert_private_refusal(await harness.command(ANA, "barn", corner="NW"), "no game")
    for seed in range(40):
        await position(harness, [turn("Ana", "U", (1, 0)), turn("Ben", "B", (0, 1))],
                       "abbey_mayor", seed=seed)
        legal = await choices(harness, ANA)
        for x, y, rot in legal.placements:
            if (x, y) != (1, 1):
                continue
            await harness.command(ANA, "place", square="1,1", rotation=rot)
            if ("barn", "NW") in (await choices(harness, ANA)).deployments:
                assert_private_refusal(await harness.command(ANA, "barn", corner="SE"),
                                       "four tiles")
                assert "barn on NW" in private(await harness.command(ANA, "barn",
                                                                     corner="NW"))
                return
            await harness.command(ANA, "undo")
        await harness.command(ANA, "cancel")
    raise AssertionError("no seed gave a tile that closes the corner")


async def test_resign(harness: BotHarness) -> None:
    from tests.bot.test_lobby import lobby

    await lobby(harness, BEN)
    await harness.command(ANA, "start")
    assert_private_refusal(await harness.command(CY, "resign"), "not playing")
    (ask,) = followups(await harness.command(BEN, "resign"))  # first a private question
    assert ask.ephemeral and "Really resign" in ask.content
    keep, really = sorted(custom_ids(ask), key=lambda i: i.split(":")[1])
    assert keep.startswith("carc:keep:") and really.startswith("carc:resign:")
    (kept,) = followups(await harness.click(BEN, keep))
    assert kept.ephemeral and "still in the game" in kept.content
    view = await harness.bot.service.status(place_of(harness))
    assert view.status == "active" and not any(s.resigned for s in view.seats)
    post = assert_card_reply(await harness.click(BEN, really))
    assert "Ben** resigned" in post.content and "wins with" in post.content


async def test_import_a_record_and_play_on(harness: BotHarness) -> None:
    data = record([turn("Ana", "U", (1, 0), figure="follower", on="E")], seed=4)
    upload = harness.fake.upload("game.json", json.dumps(data).encode())
    post = assert_card_reply(await harness.command(ANA, "import", record=upload))
    assert "imported game #" in post.content and post.files[0].data.startswith(b"\x89PNG")
    await place_anywhere(harness)  # the importer plays Ben's seat too
    view = await harness.bot.service.status(place_of(harness), str(ANA[0]))
    assert view.moves == 1 and view.steps


async def test_import_refusals(harness: BotHarness) -> None:
    junk = harness.fake.upload("notes.txt", b"hello")
    assert_private_refusal(await harness.command(ANA, "import", record=junk),
                           "not a JSON game record")
    broken = record([turn("Ana", "U", (5, 5))])
    upload = harness.fake.upload("bad.json", json.dumps(broken).encode())
    assert_private_refusal(await harness.command(ANA, "import", record=upload),
                           "action 0 of the record breaks a rule")
    huge = harness.fake.upload("huge.json", b" " * (300 * 1024))
    assert_private_refusal(await harness.command(ANA, "import", record=huge), "at most")
    assert_private_refusal(await harness.command(ANA, "status"), "no game")
