"""The history browser, `/carc-tiles`, the last post's pictures and the export's HTML,
through the real discord.py code: stepping on running and finished games with every
expansion, hidden information, forged ids, and pictures that fail or do not fit."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from carca_bot.bot.posts import endgame
from carca_bot.bot.words.past import moment_text
from carca_bot.engine.game import Game
from carca_bot.render.board import render_board
from carca_bot.render.replay import ReplayTooLarge
from carca_bot.service import User
from carca_bot.service.history import pile, public_history
from carca_bot.service.shown import moment_of
from tests.bot.cards import assert_card_reply
from tests.bot.conftest import ANA, BEN, BotHarness, start_bot
from tests.bot.fake_discord import APP_ID, Interactions, Request
from tests.bot.outgoing import assert_clean
from tests.bot.test_full_games import play_to_the_end
from tests.bot.test_lobby import (
    assert_private_refusal,
    callback,
    custom_ids,
    followups,
    lobby,
)
from tests.bot.test_turns import place_of, started
from tests.history.games import finished, reseeded, running, with_unconfirmed_turn

Player = tuple[int, str]
PLAYERS = {str(ANA[0]): ANA, str(BEN[0]): BEN}


async def fast_forward(h: BotHarness, rng: random.Random, *, until_left: int = 0,
                       turns: int = 10_000) -> None:
    """Whole turns through the service (quick), `turns` of them or until the pile has
    `until_left` tiles; every decision an expansion asks for is taken."""
    svc = h.bot.service
    for _ in range(turns):
        view = await svc.status(place_of(h))
        if view.finished or view.tiles_left <= until_left:
            return
        assert view.deciding is not None and view.deciding.user_id is not None
        user = User(view.deciding.user_id, view.deciding.name)
        legal = await svc.legal_moves(place_of(h), user)
        if legal.must == "choose":
            await svc.draw(place_of(h), user)
        elif legal.must == "wagon":
            await svc.return_wagon(place_of(h), user)
        elif legal.must == "abbey_round":
            await svc.skip_abbey(place_of(h), user)
        else:
            x, y, rot = rng.choice(legal.placements)
            await svc.place(place_of(h), user, x, y, rot, None, None, True)


def ephemeral_click(h: BotHarness, user: Player, custom_id: str) -> dict[str, Any]:
    """A click on a button of a private message (as the history browser's are)."""
    payload = h.make.component(user, custom_id)
    payload["message"]["flags"] = 64
    return payload


def edits(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.method == "PATCH"
            and r.path.startswith(f"/webhooks/{APP_ID}/") and r.path.endswith("/@original")]


def moves_of(content: str) -> tuple[int, int]:
    found = re.search(r"move (\d+) of (\d+)|before move 1 of (\d+)", content)
    assert found is not None, content
    if found.group(3):
        return 0, int(found.group(3))
    return int(found.group(1)), int(found.group(2))


def scores_in(content: str) -> str:
    return content.rsplit("Scores: ", 1)[1]


async def game_id(h: BotHarness) -> int:
    return int((await h.bot.service.status(place_of(h))).game_id)


async def game_of(h: BotHarness) -> Game:
    """The channel's game (the private copy, as the bot reads it)."""
    game = await h.bot.service.game(place_of(h))
    assert game is not None
    return game


async def step(h: BotHarness, user: Player, custom_id: str) -> Request:
    """Click a history button on the private browser: it is answered by an edit."""
    requests = await h.send(ephemeral_click(h, user, custom_id))
    assert callback(requests).json == {"type": 6}  # deferred update of that message
    (edit,) = edits(requests)
    assert not followups(requests)
    assert_clean([edit, callback(requests)])
    return edit


def expected_scores(h_game: Game, move: int) -> str:
    names = h_game.players
    scores = public_history(h_game).state(move).scores
    return " · ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))


async def test_stepping_through_a_running_game_with_every_expansion(
        harness: BotHarness) -> None:
    h = harness
    await started(h, "all")
    await fast_forward(h, random.Random(2), turns=12)
    gid = await game_id(h)
    game = await game_of(h)
    total = len(game.history)
    assert total >= 12
    (post,) = followups(await h.command(ANA, "/carc-history"))
    assert post.ephemeral and moves_of(post.content) == (total, total)
    assert "still being played" in post.content
    assert [f.filename for f in post.files] == ["board.png"]
    assert scores_in(post.content) == expected_scores(game, total)
    ids = custom_ids(post)
    assert ids == [f"carc:{a}:{gid}:{total}" for a in ("hfirst", "hback", "hnext", "hlast")]
    back = await step(h, ANA, f"carc:hback:{gid}:{total}")
    assert moves_of(back.content) == (total - 1, total)
    assert scores_in(back.content) == expected_scores(game, total - 1)
    assert [f.filename for f in back.files] == ["board.png"]
    first = await step(h, BEN, f"carc:hfirst:{gid}:{total - 1}")
    assert moves_of(first.content) == (0, total)
    buttons = first.json["components"][0]["components"]
    assert [b.get("disabled", False) for b in buttons] == [True, True, False, False]
    nxt = await step(h, BEN, f"carc:hnext:{gid}:0")
    assert moves_of(nxt.content) == (1, total)
    # The jump: any move by number, privately.
    (jump,) = followups(await h.command(BEN, "/carc-history", move=5))
    assert jump.ephemeral and moves_of(jump.content) == (5, total)
    assert scores_in(jump.content) == expected_scores(game, 5)
    assert_private_refusal(await h.command(BEN, "/carc-history", move=total + 1),
                           f"has no move {total + 1}")
    # ⏭ on a running game fetches the moves played since the post.
    await fast_forward(h, random.Random(3), turns=2)
    newest = len((await game_of(h)).history)
    last = await step(h, ANA, f"carc:hlast:{gid}:5")
    assert moves_of(last.content) == (newest, newest) and newest > total


async def test_a_finished_game_ends_with_its_card_replays_and_history(
        harness: BotHarness) -> None:
    h = harness
    await started(h, "all")
    await fast_forward(h, random.Random(4), until_left=2)
    last = await play_to_the_end(h, random.Random(5))
    names = [p.filename or "" for p in last.files]
    gid = await game_id(h)
    assert names[:2] == ["board.png", f"game-{gid}-scores.txt"]
    assert f"game-{gid}-summary.png" in names and f"game-{gid}-replay.html" in names
    animated = [n for n in names if re.fullmatch(rf"game-{gid}-replay\.(webp|gif)", n)]
    assert len(animated) == 1
    data = {p.filename: p.data for p in last.files}
    assert data[f"game-{gid}-summary.png"].startswith(b"\x89PNG")
    assert data[animated[0]][:4] in (b"RIFF", b"GIF8")
    assert b"<html" in data[f"game-{gid}-replay.html"][:500].lower()
    assert sum(len(d) for d in data.values()) <= 10 * 1024 * 1024
    assert "could not" not in last.content and "did not fit" not in last.content
    # The last post's button opens the history privately; the end has nowhere further.
    assert last.final is not None and custom_ids(last.final) == [f"carc:hist:{gid}:1"]
    requests = await h.click(BEN, f"carc:hist:{gid}:1")
    (opened,) = followups(requests)
    game = await game_of(h)
    total = len(game.history)
    assert opened.ephemeral and moves_of(opened.content) == (1, total)
    assert "still being played" not in opened.content
    end = await step(h, BEN, f"carc:hlast:{gid}:1")
    assert moves_of(end.content) == (total, total)
    assert scores_in(end.content) == expected_scores(game, total)
    buttons = end.json["components"][0]["components"]
    assert [b.get("disabled", False) for b in buttons] == [False, False, True, True]
    # Export: the record and the HTML replay.
    (export,) = followups(await h.command(ANA, "export"))
    files = {p.filename: p.data for p in export.files}
    assert set(files) == {f"carcassonne-game-{gid}.json", f"carcassonne-game-{gid}.html"}
    assert json.loads(files[f"carcassonne-game-{gid}.json"])["format"] == "carca-record/1"
    assert b"replay-data" in files[f"carcassonne-game-{gid}.html"]


async def test_nothing_of_an_unconfirmed_turn_shows(harness: BotHarness) -> None:
    """A player places a drawn tile and a follower without confirming: the history and
    the pile read exactly as before, words and pictures byte for byte."""
    h = harness
    await started(h, "all")
    await fast_forward(h, random.Random(6), turns=8)

    async def look() -> list[tuple[str, list[bytes]]]:
        seen = []
        for sub, options in (("/carc-history", {}), ("/carc-history", {"move": 3}),
                             ("/carc-tiles", {})):
            (post,) = followups(await h.command(BEN, sub, **options))
            seen.append((post.content, [p.data for p in post.files]))
        return seen

    before = await look()
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None and view.deciding.user_id is not None
    user = User(view.deciding.user_id, view.deciding.name)
    if (await h.bot.service.legal_moves(place_of(h), user)).must == "choose":
        await h.bot.service.draw(place_of(h), user)
    drawn = await h.bot.service.begin_turn(place_of(h), user)
    assert drawn.tile is not None
    legal = await h.bot.service.legal_moves(place_of(h), user)
    x, y, rot = legal.placements[0]
    await h.bot.service.place(place_of(h), user, x, y, rot)
    assert (await h.bot.service.status(place_of(h))).steps  # placed, not confirmed
    assert await look() == before


@pytest.mark.parametrize("kind", ["all6", "base2"])
def test_history_posts_are_the_same_whatever_the_seed(kind: str) -> None:
    """The browser's words and board come from the moves alone: another seed (another
    pile order) and an unconfirmed turn change nothing, byte for byte."""
    for game in (running(kind), finished(kind)):
        other = reseeded(game, 12345)
        pending, _tile = with_unconfirmed_turn(game) if not game.finished else (game, "")
        for n in (0, 1, len(game.history) // 2, len(game.history)):
            ours, theirs, hidden = (moment_of(1, g, n) for g in (game, other, pending))
            assert moment_text(ours) == moment_text(theirs) == moment_text(hidden)
            picture = render_board(ours.table)
            assert picture == render_board(theirs.table) == render_board(hidden.table)


async def test_forged_and_stale_history_buttons_are_refused(harness: BotHarness) -> None:
    h = harness
    await started(h)
    await fast_forward(h, random.Random(7), turns=3)
    gid = await game_id(h)
    total = len((await game_of(h)).history)
    for forged in (f"carc:hnext:{gid}:{total}", f"carc:hback:{gid}:0",
                   f"carc:hlast:{gid}:{total + 50}", f"carc:hist:{gid}:{10**17}"):
        requests = await h.send(ephemeral_click(h, ANA, forged))
        assert not edits(requests)
        assert_private_refusal(requests, "does not match")
    assert_private_refusal(await h.click(ANA, "carc:hist:987654:1"), "987654")
    # A game of another channel is not this channel's to browse.
    elsewhere = h.make.component(ANA, f"carc:hist:{gid}:1")
    elsewhere["channel_id"] = elsewhere["channel"]["id"] = "810000000000000999"
    assert_private_refusal(await h.send(elsewhere), "no game")
    assert_private_refusal(await h.command(ANA, "/carc-history", game=gid,
                                           _channel=810000000000000999), "no game")
    # A malformed id is not a history button at all.
    (answer,) = [r for r in await h.click(ANA, f"carc:hnext:{gid}:x")
                 if r.path.endswith("/callback")]
    assert "does not belong to any game" in answer.content


async def test_history_buttons_work_after_a_restart(harness: BotHarness) -> None:
    h = harness
    await started(h)
    await fast_forward(h, random.Random(8), turns=4)
    gid = await game_id(h)
    await h.bot.close()
    h.bot, h.errors = await start_bot(h.fake, h.db)
    h.make = Interactions(h.fake, h.make.channel_id)
    back = await step(h, ANA, f"carc:hback:{gid}:3")
    assert moves_of(back.content)[0] == 2


async def test_tiles_shows_the_pile_counts(harness: BotHarness) -> None:
    h = harness
    assert_private_refusal(await h.command(ANA, "/carc-tiles"), "no game")
    await started(h, "river", "tunnel")
    await fast_forward(h, random.Random(9), turns=3)
    left = sum(n for _tile, n in pile(await game_of(h)))
    (post,) = followups(await h.command(ANA, "/carc-tiles"))
    assert post.ephemeral and f"{left} tiles left" in post.content
    (picture,) = post.files
    assert picture.filename == "tiles-left.png" and picture.data.startswith(b"\x89PNG")
    assert_clean([post])


async def test_a_replay_too_large_or_a_failing_picture_leaves_the_post(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness

    def too_large(*args: Any, **kwargs: Any) -> Any:
        raise ReplayTooLarge("the replay needs 99 MB; the limit is 10 MB")

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("no fonts today")

    monkeypatch.setattr(endgame, "render_replay", too_large)
    monkeypatch.setattr(endgame, "summary_card", broken)
    await started(h)
    await fast_forward(h, random.Random(10), until_left=2)
    last = await play_to_the_end(h, random.Random(11))
    gid = await game_id(h)
    assert last.final is not None
    names = [p.filename for p in last.final.files]  # the end-of-game post; the card apart
    assert names == ["board.png", f"game-{gid}-scores.txt", f"game-{gid}-replay.html"]
    assert "did not fit Discord's upload limit" in last.content
    assert "summary card could not be attached" in last.content
    assert "Final ranking" in last.content  # the post itself is whole


async def test_pictures_share_the_upload_limit(harness: BotHarness) -> None:
    """A small server limit: what does not fit is left out, never sent too large."""
    h = harness
    await started(h)
    await fast_forward(h, random.Random(12), until_left=2)
    game_view = await h.bot.service.status(place_of(h))
    assert game_view.deciding is not None
    limit = 300_000
    rng = random.Random(13)
    for _ in range(20):
        view = await h.bot.service.status(place_of(h))
        if view.finished:
            break
        assert view.deciding is not None and view.deciding.user_id is not None
        player = PLAYERS[view.deciding.user_id]
        legal = await h.bot.service.legal_moves(place_of(h), User(str(player[0]), player[1]))
        x, y, rot = rng.choice(legal.placements)
        requests = await h.command(player, "place", square=f"{x},{y}", rotation=rot,
                                   confirm=True, _size_limit=limit)
    last = assert_card_reply(requests).final
    assert last is not None and (await h.bot.service.status(place_of(h))).finished
    assert sum(len(p.data) for p in last.files) <= limit
    assert any((p.filename or "").endswith(".txt") for p in last.files)


async def test_a_game_the_timer_ends_gets_the_pictures_too(harness: BotHarness) -> None:
    """The last tile played by the bot for a late player: that post is the last one."""
    h = harness
    await lobby(h, BEN, expansions="none", timer_hours=1, auto_play=True)
    await h.command(ANA, "start")
    await fast_forward(h, random.Random(14), until_left=1)
    gid = await game_id(h)
    for _ in range(4):
        view = await h.bot.service.status(place_of(h))
        if view.finished:
            break
        assert view.deadline is not None
        start = len(h.fake.requests)
        for report in await h.bot.service.check_timers(now=view.deadline + 1):
            await h.bot.announce_timer(report)
    assert (await h.bot.service.status(place_of(h))).finished
    (post,) = [r for r in h.fake.since(start) if r.path.endswith("/messages")]
    names = [p.filename or "" for p in post.files]
    assert names[0] == "board.png" and f"game-{gid}-summary.png" in names
    assert f"game-{gid}-replay.html" in names
    assert any(re.fullmatch(rf"game-{gid}-replay\.(webp|gif)", n) for n in names)
    assert custom_ids(post) == [f"carc:hist:{gid}:1"]
    assert_clean([post])
