"""Fit the strong level's evaluation: what each kind of holding was worth at the end.

    python bench/ai_fit.py --play FILE [--games 200] [--players 2 4] [--procs 2]
    python bench/ai_fit.py --fit FILE ... [--ridge 1.0]

`--play` plays seeded games (seats drawn from `--levels`, expansion mixes rotating as in
`bench/ai.py`) and appends to FILE, per game, the terms of `carca_bot.ai.features` for
every player at the start of every turn, with the scores then and at the end. `--fit`
solves the least squares problem "points still to come = weights x terms" over those
rows (games with an even number are fitted, odd ones held out), prints the weights as
the table `carca_bot/ai/estimate.py` keeps, and how well the fitted evaluation and the
old one (`evaluate.values`, easy's and medium's) predict the held-out games' final
scores: the mean squared error of each player's final score, per number of players.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import MIXES
from carca_bot.ai.evaluate import values
from carca_bot.ai.features import NAMES, terms
from carca_bot.ai.players import Budget, plan_turn
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw
from carca_bot.engine.setup import Setup

Snap = dict[str, object]


def play(job: tuple[int, int, tuple[str, ...], int]) -> dict[str, object]:
    """One game; a snapshot of every player's terms at the start of each turn."""
    number, players, levels, iterations = job
    rng = random.Random(number)
    seats = tuple(rng.choice(levels) for _ in range(players))
    mix = list(MIXES)[number % len(MIXES)]
    seed = 50_000 + number
    game = Game(Setup(tuple(f"P{i}" for i in range(players)), MIXES[mix], seed=seed))
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    budget = Budget(seconds=None, iterations=iterations)
    snaps: list[Snap] = []
    while not game.finished:
        seat = game.deciding
        assert seat is not None
        if game.phase is Phase.TILE and game.turn is None:
            rows, sure = terms(game)
            snaps.append({"scores": list(game.scores), "sure": sure, "rows": rows,
                          "old": values(game), "left": game.tiles_left})
        plan = plan_turn(seats[seat], game, None, rngs[seat], budget)
        if isinstance(plan[0], Draw):
            plan = plan_turn(seats[seat], game, game.draw(), rngs[seat], budget)
        for move in plan:
            game.push(move)
    return {"game": number, "players": players, "mix": mix, "levels": seats,
            "final": list(game.scores), "snaps": snaps, "names": list(NAMES)}


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small, dense, regular system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(m[r][r]) < 1e-12:
            continue
        out[r] = (m[r][n] - sum(m[r][c] * out[c] for c in range(r + 1, n))) / m[r][r]
    return out


def rows_of(games: list[dict[str, object]]
            ) -> list[tuple[int, list[float], float, float, float]]:
    """(players, terms, points still to come beyond the sure ones, old prediction of
    them, final score) per player per snapshot."""
    out = []
    for g in games:
        final = g["final"]
        assert isinstance(final, list)
        for snap in g["snaps"]:  # type: ignore[attr-defined]
            for p, row in enumerate(snap["rows"]):
                base = snap["scores"][p] + snap["sure"][p]
                out.append((int(g["players"]),  # type: ignore[call-overload]
                            row, final[p] - base, snap["old"][p] - base, final[p]))
    return out


def fit(paths: Sequence[Path], ridge: float) -> None:
    games = [json.loads(line) for path in paths
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    train = rows_of([g for g in games if g["game"] % 2 == 0])
    test = rows_of([g for g in games if g["game"] % 2 == 1])
    k = len(NAMES)
    ata = [[0.0] * k for _ in range(k)]
    atb = [0.0] * k
    for _, row, target, _, _ in train:
        nz = [(i, v) for i, v in enumerate(row) if v]
        for i, vi in nz:
            atb[i] += vi * target
            line = ata[i]
            for j, vj in nz:
                line[j] += vi * vj
    for i in range(k):
        ata[i][i] += ridge
    weights = solve(ata, atb)
    print(f"{len(games)} games, {len(train)} rows fitted, {len(test)} held out")
    print("WEIGHTS = {")
    for name, w in zip(NAMES, weights, strict=True):
        print(f"    {name!r}: {w:.3f},")
    print("}")
    by: dict[int, list[tuple[float, float]]] = {}
    for players, row, target, old, _ in test:
        new = sum(w * v for w, v in zip(weights, row, strict=True))
        by.setdefault(players, []).append(((new - target) ** 2, (old - target) ** 2))
    for players, errs in sorted(by.items()):
        n = len(errs)
        print(f"  {players} players, {n} rows: RMS error of the final score: fitted "
              f"{math.sqrt(sum(e for e, _ in errs) / n):.2f}, old "
              f"{math.sqrt(sum(o for _, o in errs) / n):.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--play", type=Path)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--levels", nargs="+", default=["medium", "easy"])
    parser.add_argument("--iterations", type=int, default=30,
                        help="the strong level's iterations, when it is one of --levels")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--fit", type=Path, nargs="+")
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args(argv)
    if args.fit:
        fit(args.fit, args.ridge)
        return
    if args.play is None:
        parser.error("--play FILE or --fit FILE ...")
    jobs = [(n, args.players[n % len(args.players)], tuple(args.levels), args.iterations)
            for n in range(args.offset, args.offset + args.games)]
    with ProcessPoolExecutor(args.procs) as pool, args.play.open("a") as out:
        for done, record in enumerate(pool.map(play, jobs), 1):
            out.write(json.dumps(record) + "\n")
            out.flush()
            if done % 10 == 0:
                print(f"  {done} games", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
