r"""Golden wording: what seeded random games say, and what random wrong actions are told.

`python -m tests.engine.golden_words` rewrites `golden_words.json` from the engine
on the path. It was made once from the engine before events and refusals became
codes (commit 8ef721f), so `test_words.py` proves the words did not change.
One deliberate change since: squares are written `x,y` (as the board labels them)
instead of `[x, y]`. The stored sentences were rewritten once, not re-recorded: every
`re.sub(r"\[(-?\d+), (-?\d+)\]", r"\1,\2", sentence)` over the events and probe
messages (235 squares; no other bracket occurs in them), the actions left alone.
The probes are whole `carca-record/1` actions tried on a copy of the game at
every decision; a probe the rules accept is stored with an empty message.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.record import play_action
from carca_bot.engine.setup import Setup
from carca_bot.i18n import speaking
from carca_bot.words import say

GOLDEN = Path(__file__).with_name("golden_words.json")
CONFIGS: list[tuple[tuple[str, ...], int, int]] = [
    ((), 2, 1),
    (("river", "abbot"), 2, 2),
    (("river", "abbot"), 4, 3),
    (("abbey_mayor",), 3, 4),
    (("abbey_mayor", "king_robber"), 2, 5),
    (("cult", "tunnel"), 2, 6),
    (("river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel"), 2, 7),
    (("river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel"), 5, 8),
]
NAMES = ("N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "C", "G", "I1",
         "NW", "NE", "SE", "SW", "Q")
FIGS = ("follower", "abbot", "mayor", "wagon", "barn")
# The expansions of 8ef721f: its catalogue held their tiles only, and the probes pick
# random tile ids from it (expansions added since add tiles, not probes).
THEN = frozenset({"base", "river", "abbot", "abbey_mayor", "king_robber", "cult", "tunnel"})


def _tile_ids(game: Game) -> list[str]:
    return sorted(t for t, tile in game.catalogue.tiles.items() if tile.expansion in THEN)


def setup_of(expansions: tuple[str, ...], players: int, seed: int) -> Setup:
    return Setup(tuple(f"P{i}" for i in range(players)), frozenset(expansions), seed=seed)


def _square(game: Game, rng: random.Random) -> list[int]:
    squares = list(game.board.frontier) + list(game.board.tiles) + [(40, 40)]
    x, y = rng.choice(squares)
    return [x, y]


def probe_action(game: Game, rng: random.Random) -> dict[str, Any]:
    """A random action, usually wrong in some way."""
    who = game.players[rng.randrange(len(game.players))]
    if rng.random() < 0.8 and game.deciding is not None:
        who = game.players[game.deciding]
    roll = rng.random()
    if roll < 0.08:
        return {"end": True}
    if roll < 0.16:
        return {"by": who, "discard": rng.choice(_tile_ids(game))}
    if roll < 0.28:
        if rng.random() < 0.3:
            return {"by": who, "wagon": "return"}
        return {"by": who, "wagon": {"at": _square(game, rng), "on": rng.choice(NAMES)}}
    if roll < 0.36:
        return {"by": who, "abbey": "skip" if rng.random() < 0.5 else _square(game, rng)}
    action: dict[str, Any] = {"by": who}
    if rng.random() < 0.5 and game.phase is Phase.TILE and game.tiles_left:
        tile = game.draw()
        spots = game.legal_placements(tile)
        if spots and rng.random() < 0.7:
            spot = rng.choice(spots)
            action.update(tile=tile, at=list(spot.pos), rot=spot.rot * 90)
        else:
            action.update(tile=tile, at=_square(game, rng), rot=rng.choice((0, 90, 180, 270)))
    else:
        action.update(tile=rng.choice(_tile_ids(game)), at=_square(game, rng),
                      rot=rng.choice((0, 90, 180, 270)))
    if rng.random() < 0.6:
        action["deploy"] = {"figure": rng.choice(FIGS), "on": rng.choice(NAMES)}
    if rng.random() < 0.15:
        action["recall"] = True
    if rng.random() < 0.2:
        action["token"] = {"at": _square(game, rng), "on": rng.choice(NAMES),
                           "pair": rng.randrange(-1, 4)}
        action["token_first"] = rng.random() < 0.5
    return action


def try_action(game: Game, action: dict[str, Any]) -> str:
    """The refusal's words, or '' when the rules accept the action (tried on a copy),
    played as a record's action is (`play_action`: through `push`, `by` checked)."""
    trial = Game.replay(game.setup, game.history)
    try:
        play_action(trial, action)
    except IllegalMove as exc:
        with speaking("en"):
            return say(exc, trial.players)
    return ""


def play(expansions: tuple[str, ...], players: int, seed: int,
         probes: list[list[Any]] | None = None) -> tuple[list[str], list[list[Any]]]:
    """Play the seeded game; describe its events and try probes (made, or the given ones)."""
    game = Game(setup_of(expansions, players, seed))
    rng = random.Random(seed)
    probe_rng = random.Random(seed + 1000)
    made: list[list[Any]] = []
    given = iter(probes) if probes is not None else None
    step = 0
    while not game.finished:
        if given is None:
            action = probe_action(game, probe_rng)
            made.append([step, action, try_action(game, action)])
        play_random_turn(game, rng)
        step += 1
    names = list(game.players)
    with speaking("en"):
        return [say(e, names) for e in game.events], made


def main() -> None:
    out: list[dict[str, Any]] = []
    for expansions, players, seed in CONFIGS:
        lines, probes = play(expansions, players, seed)
        out.append({"expansions": list(expansions), "players": players, "seed": seed,
                    "events": lines, "probes": probes})
    GOLDEN.write_text(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
