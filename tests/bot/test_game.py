"""A whole game through Discord, from create to final scores."""

from __future__ import annotations

import random

from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.test_lobby import followups
from tests.bot.test_turns import choices, place_of, started


async def test_full_game_from_create_to_final_scores(harness: BotHarness) -> None:
    first, second = await started(harness)
    rng = random.Random(5)
    players = {ANA[0]: ANA, BEN[0]: BEN}
    last = None
    for _ in range(200):
        view = await harness.bot.service.status(place_of(harness), None)
        if view.finished:
            break
        assert view.deciding is not None and view.deciding.user_id is not None
        player = players[int(view.deciding.user_id)]
        legal = await choices(harness, player)
        assert legal.must == "place", legal.must
        x, y, rot = rng.choice(legal.placements)
        figure = {}
        if rng.random() < 0.3:
            # Ask autocomplete for a legal feature for the tile as it will lie, like a player.
            spots = await harness.autocomplete(player, "place", "on", square=f"{x},{y}",
                                               rotation=rot, figure="follower", on="")
            if spots:
                figure = {"figure": "follower", "on": spots[0]["value"]}
        last = assert_card_reply(await harness.command(player, "place", square=f"{x},{y}",
                                                         rotation=rot, confirm=True, **figure))
    assert last is not None
    assert "wins with" in last.content or "Shared victory" in last.content
    assert last.files and last.files[0].data.startswith(b"\x89PNG")
    # After the end: moves are refused privately, the board is still there to look at.
    (post,) = followups(await harness.command(first, "place", square="0,1"))
    assert post.ephemeral
    (board,) = followups(await harness.command(second, "board"))
    assert board.files
