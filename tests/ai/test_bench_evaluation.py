"""bench/evaluation.py: the strong evaluation one decision ahead against three easy."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from carca_bot.ai import estimate


def _script() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "evaluation.py"
    if str(path.parent) not in sys.path:  # as running bench/evaluation.py puts bench/ first
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("bench_evaluation", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_evaluation"] = module  # the process pool pickles by module name
    spec.loader.exec_module(module)
    return module


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
