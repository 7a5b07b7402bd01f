"""The words did not change when events and refusals became codes.

`golden_words.json` holds what the engine of commit 8ef721f said in seeded random
games: every event's description and the refusal of a random wrong action tried
at every decision (see `golden_words.py`), with squares since written `x,y`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.golden_words import GOLDEN, play

GAMES: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{'+'.join(g['expansions'])}-{g['seed']}")
def test_events_and_refusals_read_as_before(game: dict[str, Any]) -> None:
    lines, probes = play(tuple(game["expansions"]), game["players"], game["seed"])
    assert lines == game["events"]
    assert len(probes) == len(game["probes"])
    for made, expected in zip(probes, game["probes"], strict=True):
        assert made[1] == expected[1]  # the same probe at the same step
        assert made[2] == expected[2], made[1]
