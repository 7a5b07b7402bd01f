"""bench/ai.py: its statistics, its seating, and a tiny run of pairings and tables."""

from __future__ import annotations

import logging
from pathlib import Path
from types import ModuleType

import pytest

from carca_bot.ai.players import Budget
from tests.ai.helpers import bench_script


def _bench() -> ModuleType:
    return bench_script("ai.py", "bench_ai")


def test_wilson_and_places() -> None:
    bench = _bench()
    low, high = bench.wilson(150, 200)
    assert round(low, 3) == 0.686 and round(high, 3) == 0.805
    assert bench.wilson(0, 0) == (0.0, 1.0)
    assert bench.places([5, 5, 3, 9]) == [2.5, 2.5, 4.0, 1.0]


def test_pairings_swap_seats_on_one_seed_and_mixed_tables_rotate() -> None:
    bench = _bench()
    budget = Budget(seconds=None, iterations=2)
    pairs = bench._jobs(["easy", "greedy"], 2, 4, ["base"], budget)
    assert [levels for levels, *_ in pairs] == [("easy", "greedy"), ("greedy", "easy")] * 2
    assert [seed for _, _, seed, *_ in pairs] == [10_000, 10_000, 10_001, 10_001]
    table = bench._jobs(["strong", "medium", "easy", "greedy"], 4, 4, ["base"], budget)
    assert [levels.index("strong") for levels, *_ in table] == [0, 3, 2, 1]
    assert all(sorted(levels) == ["easy", "greedy", "medium", "strong"]
               for levels, *_ in table)
    later = bench._jobs(["easy", "greedy"], 2, 2, ["base"], budget, offset=10)
    assert [seed for _, _, seed, *_ in later] == [10_005, 10_005]


def test_a_tiny_run_prints_rates_places_and_think_times(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    bench.main(["--games", "2", "--tables", "2", "--budget", "0", "--iterations", "2",
                "--procs", "1", "--mixes", "base", "--pairings", "greedy:random",
                "--tables4", "random:greedy:easy:strong"])
    out = capsys.readouterr().out
    assert "greedy:random          2p n=2" in out and "greedy wins" in out
    assert "random:greedy:easy:strong 4p n=2" in out
    assert out.count("win share") == 4 and "mean place" in out
    assert "strong  median" in out
    per_decision = out.split("think time per decision")[1]
    assert "strong  median" in per_decision and "over " in per_decision


def test_the_rate_is_the_strong_searchs_iterations_within_the_budget(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    lines = bench.rate(2, ["base"], Budget(seconds=None, iterations=7))
    assert "2p base" in lines[0] and "4p base" in lines[1]
    assert " 7 iterations" in lines[0] and " 7 iterations" in lines[1]
    assert lines[-1].startswith("strong reaches a median of 7 iterations (p10 7, p90 7)")


def test_a_budget_of_nothing_is_refused() -> None:
    with pytest.raises(SystemExit):
        _bench().main(["--budget", "0"])


def test_saved_slices_pool_into_one_arena_each_game_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    saved = tmp_path / "games.jsonl"
    common = ["--budget", "0", "--iterations", "2", "--procs", "1", "--mixes", "base",
              "--pairings", "greedy:random", "--tables4", "--save", str(saved)]
    bench.main(["--games", "4", *common])
    bench.main(["--games", "4", "--offset", "2", *common])  # games 2-3 played again
    capsys.readouterr()
    lines = saved.read_text().splitlines()
    assert len(lines) == 8
    bench.main(["--pooled", str(saved)])
    out = capsys.readouterr().out
    assert "games 0-5]" in out and "no time limit, 2 iterations per decision" in out
    assert "greedy:random          2p n=6" in out
    kept = [bench.json.loads(line) for line in lines[:4] + lines[6:]]  # games 0-5
    wins = 0.0
    for rec in kept:
        best = [seat for seat, score in enumerate(rec["scores"])
                if score == max(rec["scores"])]
        if rec["levels"].index("greedy") in best:
            wins += 1 / len(best)
    assert f"greedy wins {wins / 6:6.1%}" in out


def test_the_strong_searchs_settings_can_change_for_a_run_and_are_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    config, given = bench.strong_config(["bias=2.5", "leaf=shared", "paranoid=1", "depth=3"])
    assert (config.bias, config.paranoid, config.depth) == (2.5, True, 3)
    assert config.leaf is bench.plain_leaf and given["bias"] == "2.5"
    assert given["leaf"] == "shared" and given["explore"] == "3"  # every setting, in words
    for name in ("estimate", "win", "light"):  # each leaf the saved design games name
        assert bench.strong_config([f"leaf={name}"])[1]["leaf"] == name
    with pytest.raises(SystemExit):
        bench.main(["--strong", "nerve=9", "--budget", "0", "--iterations", "2"])
    saved = tmp_path / "games.jsonl"
    bench.main(["--games", "2", "--budget", "0", "--iterations", "2", "--procs", "1",
                "--mixes", "base", "--pairings", "strong:random", "--tables4",
                "--strong", "bias=0.5", "--save", str(saved)])
    capsys.readouterr()
    kept = bench.json.loads(saved.read_text().splitlines()[0])["strong"]
    assert kept["bias"] == "0.5" and kept["leaf"] == "estimate"
    assert "farm_share=0.5" in kept["weights"]  # the evaluation's, so versions pool apart
    bench.main(["--pooled", str(saved)])
    assert ("bias=0.5,depth=4,explore=3,leaf=estimate,"
            in capsys.readouterr().out)


def test_root_parallelism_is_reported_from_the_bots_pool() -> None:
    bench = _bench()
    (line,) = bench.asyncio.run(bench.parallel(2, ["base"], 0.3))
    assert line.startswith("root parallelism: the main search reached a median of ")
    alone = int(line.split("median of ")[1].split()[0])
    both = int(line.split("with the spare search ")[1].split()[0])
    assert both > alone  # two idle workers: the spare search added its iterations


def test_the_bot_flag_plays_strong_on_the_bots_pool_and_keeps_it_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--bot`: the strong seat's decisions go through the bot's Thinker (its spare
    search adds iterations), and the saved game says so, pooling apart from a game
    played in one process."""
    bench = _bench()
    with pytest.raises(SystemExit):  # the bot's own level: no search changes
        bench.main(["--bot", "--strong", "bias=2", "--games", "1"])
    saved = tmp_path / "games.jsonl"
    common = ["--games", "1", "--budget", "0.05", "--mixes", "base", "--pairings",
              "strong:greedy", "--tables4", "--save", str(saved)]
    bench.main(["--bot", *common])
    out = capsys.readouterr().out
    line = out.strip().splitlines()[-1]
    assert line.startswith("strong on the bot's pool: the main search reached a median of ")
    alone = int(line.split("median of ")[1].split()[0])
    both = int(line.split("with the spare search ")[1].split(";")[0])
    assert both > alone and line.endswith("; 0 random plans given for want of an answer")
    bench.main(["--procs", "1", *common])
    capsys.readouterr()
    bot, alone_game = (bench.json.loads(x)["strong"] for x in saved.read_text().splitlines())
    assert bot.get("bot") == "2 workers" and "bot" not in alone_game
    bench.main(["--pooled", str(saved)])
    assert capsys.readouterr().out.count("strong:greedy          2p n=1") == 2


def test_a_compiled_build_is_kept_with_the_games_and_the_pure_one_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Games of the mypyc build (about three times the iterations in 2 s) pool apart;
    the pure build's words are those its games were always saved with."""
    bench = _bench()
    monkeypatch.setattr(bench.estimate, "__file__", "/x/estimate.py")
    monkeypatch.setattr(bench.game_module, "__file__", "/x/game.py")
    assert bench.compiled() is False
    assert "build" not in bench.settings(bench.STRONG)
    monkeypatch.setattr(bench.estimate, "__file__", "/x/estimate.cpython-311.so")
    assert bench.compiled() is True
    assert bench.settings(bench.STRONG)["build"] == "mypyc"


def test_the_bot_arena_counts_the_random_plans_a_worker_failure_leaves() -> None:
    """The Thinker's warning (the text carca_bot/workers.py logs) is what is counted."""
    seats = bench_script("ai_bot.py", "bench_ai_bot").BotSeats()
    logger = logging.getLogger("carca_bot.workers")
    logger.addHandler(seats.stand_ins)
    try:
        logger.warning("the AI (%s) gave no answer (%s): a random legal plan", "strong",
                       "WorkerLost")
        logger.warning("a picture took long")
    finally:
        logger.removeHandler(seats.stand_ins)
    assert seats.stand_ins.count == 1
    source = (Path(__file__).parents[2] / "carca_bot" / "workers.py").read_text()
    assert '"the AI (%s) gave no answer (%s): a random legal plan"' in source


def test_settings_of_larger_tables_do_not_split_two_player_games() -> None:
    bench = _bench()
    words = bench.settings(bench.STRONG)
    before = {**words, "depth_many": "2"}
    before.pop("rollout")  # a two-player game saved before the rollout was a setting
    assert bench.at_table(before, 2) == bench.at_table(words, 2)
    assert "depth" in bench.at_table(words, 2)  # the two-player depth still counts
    assert bench.at_table(before, 4) != bench.at_table(words, 4)
