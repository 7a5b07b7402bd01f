"""`carca-bot replay` needs only the engine: the record contract holds on a bare Python,
without the libraries of the bot, the store or the renderer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ("aiosqlite", "discord", "aiohttp", "PIL")
RUN_WITHOUT_THEM = (
    "import sys\n"
    f"for name in {BLOCKED!r}:\n"
    "    sys.modules[name] = None  # importing it now fails, as where it is not installed\n"
    "from carca_bot.cli import main\n"
    "sys.exit(main(['replay', sys.argv[1]]))\n"
)


def test_replay_runs_without_the_bot_store_and_render_libraries() -> None:
    scenario = ROOT / "tests" / "scenarios" / "01-two-tile-city.json"
    proc = subprocess.run([sys.executable, "-c", RUN_WITHOUT_THEM, str(scenario)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["format"] == "carca-result/1"
