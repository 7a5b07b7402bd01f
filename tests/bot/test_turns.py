"""Turns through Discord: tiles, autocomplete, previews, buttons, confirm, refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

from carca_bot.engine.record import replay
from carca_bot.service import Choices, User, Where
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, BotHarness, start_bot
from tests.bot.fake_discord import GUILD_ID, Interactions
from tests.bot.test_lobby import (
    assert_private_refusal,
    callback,
    custom_ids,
    followups,
    lobby,
)

Player = tuple[int, str]


def place_of(h: BotHarness) -> Where:
    return Where(str(GUILD_ID), str(h.make.channel_id))


async def started(h: BotHarness, *expansions: str) -> tuple[Player, Player]:
    """A started 2-player game; returns (player to act, the other)."""
    await lobby(h, BEN, expansions=", ".join(expansions) or "none")
    post = assert_card_reply(await h.command(ANA, "start"))
    first = ANA if f"<@{ANA[0]}>" in post.content else BEN
    return first, (BEN if first == ANA else ANA)


async def choices(h: BotHarness, player: Player) -> Choices:
    result: Choices = await h.bot.service.legal_moves(place_of(h), User(str(player[0]),
                                                                        player[1]))
    return result


async def test_my_tile_button_shows_the_tile_privately(harness: BotHarness) -> None:
    first, _ = await started(harness)
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    requests = await harness.click(first, f"carc:tile:{view.game_id}:{view.version}")
    (post,) = followups(requests)
    assert post.ephemeral and "Your tile is" in post.content
    (image,) = post.files
    assert image.filename == "your-tile.png" and image.data.startswith(b"\x89PNG")


async def test_square_autocomplete_offers_only_legal_squares(harness: BotHarness) -> None:
    first, other = await started(harness)
    legal = await choices(harness, first)
    offered = await harness.autocomplete(first, "place", "square", square="")
    squares = {(x, y) for x, y, _ in legal.placements}
    assert 0 < len(offered) <= 25
    assert {tuple(int(v) for v in c["value"].split(",")) for c in offered} <= squares
    assert len(offered) == min(25, len(squares))
    # With a rotation chosen, only squares where that rotation fits.
    rot = legal.placements[0][2]
    narrowed = await harness.autocomplete(first, "place", "square", square="", rotation=rot)
    fits = {(x, y) for x, y, r in legal.placements if r == rot}
    assert {tuple(int(v) for v in c["value"].split(",")) for c in narrowed} <= fits
    # The other player is offered nothing: it is not their turn.
    assert await harness.autocomplete(other, "place", "square", square="") == []


async def test_place_preview_then_confirm(harness: BotHarness) -> None:
    first, other = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    requests = await harness.command(first, "place", square=f"{x},{y}", rotation=rot)
    assert callback(requests).json == {"type": 5, "data": {"flags": 64}}
    (preview,) = followups(requests)
    assert preview.ephemeral and "This turn so far" in preview.content
    assert [f.filename for f in preview.files] == ["board.png"]
    actions = [i.split(":")[1] for i in custom_ids(preview)]
    assert actions[:3] == ["rotate", "confirm", "undo"]
    post = assert_card_reply(await harness.command(first, "confirm"))
    assert post.card.method == "PATCH"  # the card posted at the start, edited
    assert "Tiles left: 70" in post.card.text and f"<@{other[0]}>" in post.card.text
    assert post.ping is not None and f"<@{other[0]}>" in post.ping.content
    assert post.files[0].filename == "board.png" and post.files[0].data.startswith(b"\x89PNG")


async def test_refusals_are_private_and_explain(harness: BotHarness) -> None:
    first, other = await started(harness)
    assert_private_refusal(await harness.command(other, "place", square="1,0"),
                           "not your turn")
    assert_private_refusal(await harness.command(first, "place", square="9,9"),
                           "does not touch any placed tile")
    assert_private_refusal(await harness.command(first, "place", square="left"),
                           "is not a square")
    assert_private_refusal(await harness.command(first, "confirm"), "")
    assert_private_refusal(await harness.command((5, "Zed"), "place", square="1,0"),
                           "not playing in this game")


async def test_whole_turn_in_one_command(harness: BotHarness) -> None:
    first, _ = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    post = assert_card_reply(await harness.command(first, "place", square=f"{x},{y}",
                                                     rotation=rot, confirm=True))
    assert "Tiles left: 70" in post.content


async def test_follower_autocomplete_and_the_figure_menu(harness: BotHarness) -> None:
    first, _ = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    await harness.command(first, "place", square=f"{x},{y}", rotation=rot)
    legal = await choices(harness, first)
    offered = await harness.autocomplete(first, "follower", "on", on="")
    assert {c["value"].split()[0] for c in offered} == {on for f, on in legal.deployments
                                                      if f == "follower"}
    # Labelled with what the feature is and where: "NL: field, north-west".
    assert all(re.fullmatch(r"\w+: (city|road|field|monastery|shrine|garden)(, .+)?", c["name"])
               for c in offered), offered
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    spot = offered[0]["value"].split()[0]
    requests = await harness.click(first, f"carc:pick:{view.game_id}:{view.version}",
                                   values=[f"follower:{spot}"])
    (post,) = followups(requests)
    assert post.ephemeral and f"follower on {spot}" in post.content


async def test_rotate_and_undo_buttons(harness: BotHarness) -> None:
    first, _ = await started(harness)
    legal = await choices(harness, first)
    x, y, _ = legal.placements[0]
    rots = sorted(r for px, py, r in legal.placements if (px, py) == (x, y))
    await harness.command(first, "place", square=f"{x},{y}", rotation=rots[0])
    spot = next(on for f, on in (await choices(harness, first)).deployments)
    await harness.command(first, "follower", on=spot)  # rotating drops the figure too
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    (post,) = followups(await harness.click(first, f"carc:rotate:{view.game_id}:"
                                                   f"{view.version}"))
    if len(rots) > 1:
        assert f"turned {rots[1]}" in post.content
    else:  # said, not silently re-posted; the figure is still there
        assert post.ephemeral and "only one way" in post.content
        after = await harness.bot.service.status(place_of(harness), str(first[0]))
        assert after.version == view.version and len(after.steps) == 2
    # Undo takes back one step at a time: the figure (kept when the rotate was refused),
    # then the tile.
    for left in range(1 if len(rots) > 1 else 2, 0, -1):
        view = await harness.bot.service.status(place_of(harness), str(first[0]))
        assert len(view.steps) == left
        (post,) = followups(await harness.click(first,
                                                f"carc:undo:{view.game_id}:{view.version}"))
        assert post.ephemeral
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    assert view.must == "place" and not view.steps


async def test_stale_button_cannot_act_twice(harness: BotHarness) -> None:
    first, _ = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    await harness.command(first, "place", square=f"{x},{y}", rotation=rot)
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    confirm = f"carc:confirm:{view.game_id}:{view.version}"
    assert_card_reply(await harness.click(first, confirm))
    assert_private_refusal(await harness.click(first, confirm), "moved on")


async def test_buttons_work_after_a_restart(harness: BotHarness, tmp_path: Path) -> None:
    first, other = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    await harness.command(first, "place", square=f"{x},{y}", rotation=rot)
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    await harness.bot.close()
    harness.bot, harness.errors = await start_bot(harness.fake, harness.db)
    harness.make = Interactions(harness.fake, harness.make.channel_id)
    post = assert_card_reply(await harness.click(
        first, f"carc:confirm:{view.game_id}:{view.version}"))
    assert f"<@{other[0]}>" in post.content


async def test_attachment_size_limit_is_respected(harness: BotHarness) -> None:
    first, _ = await started(harness)
    limit = 60_000
    requests = await harness.command(first, "board", _size_limit=limit)
    (post,) = followups(requests)
    assert post.ephemeral and len(post.files[0].data) <= limit


async def test_status_score_and_export(harness: BotHarness) -> None:
    first, _ = await started(harness)
    x, y, rot = (await choices(harness, first)).placements[0]
    await harness.command(first, "place", square=f"{x},{y}", rotation=rot, confirm=True)
    (status,) = followups(await harness.command(first, "status"))
    assert status.ephemeral and "Ana" in status.content and "Tiles left" in status.content
    (score,) = followups(await harness.command(first, "score"))
    assert score.ephemeral and "Scores:" in score.content
    (export,) = followups(await harness.command(first, "export"))
    record_file, page = export.files  # the record, then the HTML replay
    assert page.filename is not None and page.filename.endswith(".html")
    record = json.loads(record_file.data)
    assert record["format"] == "carca-record/1" and len(record["actions"]) == 1
    assert replay(record)[0] == 0


async def test_rotate_says_when_the_tile_fits_only_one_way(harness: BotHarness) -> None:
    for _ in range(30):  # deals differ; most openings have a square taking one rotation
        first, _ = await started(harness)
        legal = await choices(harness, first)
        by_square: dict[tuple[int, int], list[int]] = {}
        for x, y, r in legal.placements:
            by_square.setdefault((x, y), []).append(r)
        single = [(sq, rs[0]) for sq, rs in by_square.items() if len(rs) == 1]
        if single:
            break
        await harness.command(ANA, "cancel")
    (x, y), rot = single[0]
    await harness.command(first, "place", square=f"{x},{y}", rotation=rot)
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    (post,) = followups(await harness.click(first, f"carc:rotate:{view.game_id}:"
                                                   f"{view.version}"))
    assert post.ephemeral and "only one way" in post.content, post.content
    after = await harness.bot.service.status(place_of(harness), str(first[0]))
    assert after.version == view.version and after.steps == view.steps  # nothing changed


async def test_rotate_with_nothing_placed_says_so(harness: BotHarness) -> None:
    first, _ = await started(harness)
    view = await harness.bot.service.status(place_of(harness), str(first[0]))
    (post,) = followups(await harness.click(first, f"carc:rotate:{view.game_id}:"
                                                   f"{view.version}"))
    assert post.ephemeral and "no placed tile to rotate" in post.content
