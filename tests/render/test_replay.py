"""The animated replay: the camera follows the board as it grows, and each frame says what
its move did."""

from __future__ import annotations

import io
import itertools
import random
from functools import cache

from PIL import Image

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.game import Game
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.i18n import speaking
from carca_bot.render import replay
from carca_bot.render.replay import MIN_VIEW, board_area, cameras, caption, render_replay


@cache
def _game(players: int = 3) -> Game:
    game = Game(Setup(("Ana", "Ben", "Cy", "Dee")[:players], frozenset(EXPANSIONS), seed=8))
    rng = random.Random(8)
    while not game.finished:
        play_random_turn(game, rng)
    return game


def test_the_camera_starts_close_and_follows_the_board_out() -> None:
    """Before: every frame showed the final board's extent, so the first tiles were a
    speck in a 962 x 843 frame."""
    frames = list(replay._walk(_game()))
    area = board_area(frames, replay.MAX_SIDE)
    views = cameras(frames, area)
    assert views[0].tile >= 2 * views[-1].tile  # the start is seen close up
    for frame, view in zip(frames, views, strict=True):
        xs = [p[0] for p, _t, _r in frame.board]
        ys = [p[1] for p, _t, _r in frame.board]
        assert view.holds(min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)  # room round
        assert view.cols >= MIN_VIEW and view.rows >= MIN_VIEW
        assert view.cols * view.tile <= area[0] + view.tile
    for before, after in itertools.pairwise(views):  # only ever grows
        assert after.tile <= before.tile
    assert len(set(views)) < len(views) // 4  # it moves now and then, not every move


def test_each_frame_says_what_its_move_did() -> None:
    game = _game()
    frames = list(replay._walk(game))
    names = game.players
    said = [caption(f, names) for f in frames]
    assert said[0] == "The start tile"
    for frame, words in zip(frames[1:], said[1:], strict=True):
        action = frame.action
        assert action is not None and words
        if "at" in action:
            assert f"{action['at'][0]},{action['at'][1]}" in words
        for ev in frame.events:
            if ev.kind == "score" and ev.points and ev.players and not ev.final:
                assert f"+{ev.points}" in words
    assert "final scoring" in said[-1]
    with speaking("es"):
        assert caption(frames[0], names) == "La loseta inicial"


def test_the_replay_stays_within_the_upload_limit_in_one_frame_size() -> None:
    made = render_replay(_game(4), fmt="gif", max_side=480)
    assert len(made.data) <= replay.DISCORD_LIMIT
    img = Image.open(io.BytesIO(made.data))
    sizes = set()
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        sizes.add(img.size)
    assert sizes == {made.size}
