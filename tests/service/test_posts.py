"""Telling the truth: a stored command is never "nothing changed", and its post is owed
until the front end says it was delivered, across restarts."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from carca_bot import store as store_module
from carca_bot.service import (
    GameOptions,
    GameService,
    SavedNotShown,
    TurnOrder,
    Unavailable,
)
from carca_bot.service import core as core_module
from tests.service.helpers import (
    ANA,
    BEN,
    CY,
    HERE,
    THERE,
    Clock,
    lines,
    raises_saying,
    said,
    started,
    steps,
    who,
    words,
)


async def _a_move(service: GameService) -> Any:
    view = await service.status(HERE)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    return await service.play_turn(HERE, player, TurnOrder(at=(x, y), rot=rot))


async def test_lobby_changes_and_steps_owe_no_post_moves_do(service: GameService) -> None:
    await service.create(HERE, ANA, GameOptions(seed=7))
    await service.join(HERE, BEN)
    await service.leave(HERE, BEN)
    await service.join(HERE, BEN)
    assert await service.pending_posts() == []
    view = await service.start(HERE, ANA)
    (owed,) = await service.pending_posts()
    assert (owed.game_id, owed.guild_id, owed.channel_id) == (view.game_id, "guild-1", "channel-1")
    assert (owed.posted_version, owed.version) == (0, view.version)
    await service.mark_posted(view.game_id, view.version)
    assert await service.pending_posts() == []

    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    step = await service.place_tile(HERE, player, x, y, rot)  # private until confirmed
    assert step.version > view.version and await service.pending_posts() == []
    done = await service.confirm(HERE, player)
    assert [p.version for p in await service.pending_posts()] == [done.version]
    assert done.played and done.played[0]["tile"] == steps(step)[0].split()[0]


async def test_mark_posted_never_goes_back(service: GameService) -> None:
    view = await started(service)
    first = await _a_move(service)
    second = await _a_move(service)
    await service.mark_posted(view.game_id, second.version)
    await service.mark_posted(view.game_id, first.version)  # a late confirmation
    assert await service.pending_posts() == []
    row = await service.store.game(view.game_id)
    assert row is not None and row.posted_version == second.version
    await service.mark_posted(view.game_id, second.version + 50)  # never past the last change
    row = await service.store.game(view.game_id)
    assert row is not None and row.posted_version == second.version


async def test_an_undelivered_post_survives_a_restart(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service, options=GameOptions(seed=7, expansions=frozenset()))
        await service.mark_posted(view.game_id, view.version)
        one = await _a_move(service)
        await service.mark_posted(view.game_id, one.version)
        two = await _a_move(service)  # posting this one fails, then the bot stops
        three = await _a_move(service)
    finally:
        await service.close()
    again = await GameService.open(db, clock=clock)
    try:
        (owed,) = await again.pending_posts()
        assert (owed.posted_version, owed.version) == (one.version, three.version)
        catch_up = await again.events_since(owed.game_id, owed.posted_version)
        assert catch_up.version == three.version
        assert catch_up.played == two.played + three.played
        assert lines(catch_up) == [*said(two), *said(three)]
        assert catch_up.view.moves == three.moves and catch_up.view.tile is None
        await again.mark_posted(owed.game_id, catch_up.version)
        assert await again.pending_posts() == []
    finally:
        await again.close()


async def test_pending_posts_oldest_first(service: GameService, clock: Clock) -> None:
    here = await started(service)
    clock.now += 10
    there = await started(service, (CY, BEN), where=THERE)
    owed = await service.pending_posts()
    assert [p.game_id for p in owed] == [here.game_id, there.game_id]
    assert [p.since for p in owed] == [clock.now - 10, clock.now]
    assert len(await service.pending_posts(limit=1)) == 1


async def test_resign_kick_and_auto_play_owe_posts(service: GameService) -> None:
    view = await started(service, (ANA, BEN, CY))
    await service.mark_posted(view.game_id, view.version)
    kicked = await service.kick(HERE, ANA, CY.id)
    (owed,) = await service.pending_posts()
    assert owed.version == kicked.version
    catch_up = await service.events_since(view.game_id, view.version)
    assert any("removed" in line for line in lines(catch_up))


# -- one transaction per command ---------------------------------------------------------


def _transactions(service: GameService) -> list[str]:
    """Count the write transactions the store opens from now on."""
    opened: list[str] = []
    original = service.store._transaction

    def counting(mode: str = "IMMEDIATE") -> Any:
        if mode != "DEFERRED":  # IMMEDIATE, or ROW (a write guarded by its game's row)
            opened.append(mode)
        return original(mode)

    service.store._transaction = counting  # type: ignore[method-assign]
    return opened


async def test_a_move_and_the_moves_it_leads_to_are_one_transaction(
        service: GameService) -> None:
    """Ben resigned: Ana's confirm also plays Ben's turn. Both land together or not at all."""
    view = await started(service, (ANA, BEN, CY))
    await service.resign(HERE, BEN)
    view = await service.status(HERE)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
    await service.place_tile(HERE, player, x, y, rot)
    opened = _transactions(service)
    done = await service.confirm(HERE, player)
    assert len(opened) == 1
    assert len(done.played) >= 2 or who(done) != player  # Ben's turn was played with it


def _dump(path: Path) -> list[Any]:
    with sqlite3.connect(path) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [db.execute(f"SELECT * FROM {table}").fetchall() for table in sorted(tables)]


async def test_a_refused_command_on_a_full_disk_changes_nothing(db: Path,
                                                                clock: Clock) -> None:
    """With the file capped, every command either lands whole or leaves every table as it
    was: never the player's move without the resigned player's turn it led to."""
    service = await GameService.open(db, clock=clock)
    refused = 0
    try:
        view = await started(service, (ANA, BEN, CY), GameOptions(seed=3))
        await service.resign(HERE, CY)  # every other turn is played for Cy
        rows = await service.store._db.execute_fetchall("PRAGMA page_count")
        await service.store._db.execute(f"PRAGMA max_page_count = {next(iter(rows))[0]}")
        for _ in range(40):
            view = await service.status(HERE)
            player = who(view)
            x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
            before = _dump(db)
            try:
                await service.play_turn(HERE, player, TurnOrder(at=(x, y), rot=rot))
            except Unavailable as exc:
                assert "nothing was changed" in words(exc)
                assert _dump(db) == before
                refused += 1
        assert refused, "the cap was never reached: the test proved nothing"
    finally:
        await service.close()


async def test_a_disk_filling_up_between_two_writes_stores_none_of_the_command(
        db: Path, clock: Clock) -> None:
    """The disk fills right after a command's first write: the command must not be half
    stored (the player's turn without the resigned player's turn it led to) and then
    reported as "nothing was changed"."""
    service = await GameService.open(db, clock=clock)
    try:
        await started(service, (ANA, BEN, CY), GameOptions(seed=3))
        await service.resign(HERE, CY)
        opened = _transactions(service)
        original = service.store._transaction

        def full_after_one(mode: str = "IMMEDIATE") -> Any:
            if mode == "IMMEDIATE" and opened:  # the second write of the command
                raise store_module.Unavailable("database or disk is full")
            return original(mode)

        service.store._transaction = full_after_one  # type: ignore[method-assign]
        for _ in range(6):
            view = await service.status(HERE)
            player = who(view)
            x, y, rot = (await service.legal_moves(HERE, player)).placements[0]
            before = _dump(db)
            opened.clear()
            try:
                await service.play_turn(HERE, player, TurnOrder(at=(x, y), rot=rot))
            except Unavailable:
                assert _dump(db) == before, "half of the command was stored"
    finally:
        await service.close()


# -- after the commit ---------------------------------------------------------------------


async def test_a_failure_after_the_commit_says_the_move_was_saved(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    view = await started(service)
    player = who(view)
    x, y, rot = (await service.legal_moves(HERE, player)).placements[0]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the view could not be built")

    monkeypatch.setattr(core_module, "build_view", broken)
    with raises_saying(SavedNotShown, "was saved"):
        await service.play_turn(HERE, player, TurnOrder(at=(x, y), rot=rot))
    monkeypatch.undo()
    after = await service.status(HERE)
    assert after.moves == 1
    assert [p.version for p in await service.pending_posts()] == [after.version]


async def test_a_new_lobby_that_cannot_be_read_back_is_still_saved(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise store_module.Unavailable("database is locked")

    monkeypatch.setattr(service.store, "game", locked)
    with pytest.raises(SavedNotShown):
        await service.create(HERE, ANA, GameOptions())
    monkeypatch.undo()
    assert (await service.status(HERE)).host_id == ANA.id
