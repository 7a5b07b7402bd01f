"""A whole game through the service, from the lobby to the final scores."""

from __future__ import annotations

import random

import pytest

from carca_bot.engine.record import replay
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, NoGameHere
from tests.service.helpers import ANA, BEN, CY, HERE, prompt, who


async def test_a_whole_game(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions(expansions=frozenset({"abbot", "abbey_mayor"}),
                                                seed=21))
    await service.join(HERE, BEN)
    await service.join(HERE, CY)
    view = await service.start(HERE, ANA)
    rng = random.Random(21)
    seen_events = 0
    while not view.finished:
        assert view.status == "active" and view.must != "over"
        view, what = await play_random_move(service, HERE, who(view), rng)
        assert what
        seen_events += len(view.events)
    assert view.status == "finished" and view.outcome == "complete" and view.must == "over"
    assert view.tiles_left == 0 and view.deciding is None and seen_events > 0
    assert prompt(view).startswith("game over: ")
    ranked = [s.score for s in view.standings]
    assert ranked == sorted(ranked, reverse=True) and ranked[0] > 0
    # The log is a carca-record/1 record that replays to the same final scores.
    status, result = replay(await service.export(HERE))
    assert status == 0 and result["finished"]
    assert result["scores"] == {s.name: s.score for s in view.seats}
    # The channel is free; the finished game is still there to look at.
    assert (await service.status(HERE)).outcome == "complete"
    with pytest.raises(NoGameHere):
        await service.begin_turn(HERE, ANA)
    summary = (await service.my_games(BEN.id))[0]
    assert summary.status == "finished" and summary.waiting_for is None
