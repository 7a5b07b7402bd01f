"""bench/evaluation.py: the strong evaluation one decision ahead against three easy."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from carca_bot.ai import estimate
from tests.ai.helpers import bench_script


def _script() -> ModuleType:
    return bench_script("evaluation.py", "bench_evaluation")


def test_the_farm_share_changes_how_a_seeded_game_is_played() -> None:
    """Game 0 (base game, the candidate in seat 0): one evaluation counting open cities
    for fields and one not play it differently, and each plays it the same way twice."""
    script = _script()
    assert script.weights("as-is") is estimate.WEIGHTS
    uncounted = script.weights("farm_share=0,hand=1")
    assert (uncounted.farm_share, uncounted.hand) == (0.0, 1.0)
    assert uncounted.chase == estimate.WEIGHTS.chase  # the rest as committed
    counted = script.play_one((estimate.WEIGHTS, "mix", 0))
    assert counted == script.play_one((estimate.WEIGHTS, "mix", 0))
    assert counted != script.play_one((uncounted, "mix", 0))
    for wrong in ("farm=1", "hand=", "hand=x"):
        with pytest.raises((SystemExit, ValueError)):
            script.weights(wrong)


def test_it_prints_one_line_per_share(capsys: pytest.CaptureFixture[str]) -> None:
    _script().main(["--games", "1", "--offset", "1", "--try", "farm_share=0.5", "--procs",
                    "1"])
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r"strong evaluation one decision ahead, weights farm_share=0\.5, "
                        r"reward lead, against three easy at 4 players: n=1 win +\d+\.\d% "
                        r"\[\d+\.\d%, \d+\.\d%\] margin [+-]\d+\.\d\d", line), line
