"""AI seats through the service: the lobby, whole games, one write per decision, restarts,
and what the AI is shown."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from carca_bot.engine.record import replay
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import (
    BadInput,
    GameOptions,
    GameService,
    NotAllowed,
    NotInGame,
    NotYourTurn,
    TurnView,
)
from tests.service.ai_helpers import Recording
from tests.service.helpers import ANA, BEN, HERE, Clock

AI_NAME = "AI (easy)"


async def ai_service(db: Path, clock: Clock, thinker: Recording) -> GameService:
    service = await GameService.open(db, clock=clock, thinker=thinker)
    return service


async def lobby_with_ais(service: GameService, levels: tuple[str, ...],
                         options: GameOptions | None = None) -> TurnView:
    view = await service.create(HERE, ANA, options or GameOptions(seed=7))
    for level in levels:
        view = await service.add_ai(HERE, ANA, level, f"AI ({level})")
    return view


async def play_out(service: GameService, rng: random.Random) -> TurnView:
    """Ana plays at random whenever it is her turn; the AI seats play themselves."""
    for _ in range(2000):
        await service.wait_for_ai()
        view = await service.status(HERE, ANA.id)
        if view.finished:
            return view
        assert view.deciding is not None
        assert view.deciding.user_id == ANA.id, "an AI seat was left waiting"
        await play_random_move(service, HERE, ANA, rng)
    raise AssertionError("the game did not end")


# -- the lobby --------------------------------------------------------------------------


async def test_ai_seats_are_data_with_no_user(db: Path, clock: Clock) -> None:
    service = await ai_service(db, clock, Recording())
    try:
        view = await lobby_with_ais(service, ("easy", "strong"))
        assert [(s.name, s.user_id, s.ai) for s in view.seats] == [
            ("Ana", ANA.id, None), ("AI (easy)", None, "easy"), ("AI (strong)", None, "strong")]
        # A second AI of one level gets a name of its own.
        view = await service.add_ai(HERE, ANA, "easy", AI_NAME)
        assert len({s.name for s in view.seats}) == 4
        stored = await service.store.load(view.game_id)
        assert stored is not None and [s.ai for s in stored.seats] == [
            None, "easy", "strong", "easy"]
    finally:
        await service.close()


async def test_only_the_host_seats_or_removes_an_ai(db: Path, clock: Clock) -> None:
    service = await ai_service(db, clock, Recording())
    try:
        await lobby_with_ais(service, ("easy",))
        await service.join(HERE, BEN)
        with pytest.raises(NotAllowed) as refused:
            await service.add_ai(HERE, BEN, "easy", AI_NAME)
        assert refused.value.code == "only_host_adds_ai"
        with pytest.raises(NotAllowed) as refused:
            await service.remove_ai(HERE, BEN, AI_NAME)
        assert refused.value.code == "only_host_removes_ai"
        with pytest.raises(BadInput) as bad:
            await service.add_ai(HERE, ANA, "genius", "AI")
        assert bad.value.code == "unknown_ai_level"
        with pytest.raises(NotInGame) as missing:
            await service.remove_ai(HERE, ANA, "Ben")  # a person is not an AI seat
        assert missing.value.code == "no_such_ai"
        view = await service.remove_ai(HERE, ANA, "ai (EASY)")
        assert [s.name for s in view.seats] == ["Ana", "Ben"]
    finally:
        await service.close()


async def test_a_full_lobby_takes_no_ai(db: Path, clock: Clock) -> None:
    service = await ai_service(db, clock, Recording())
    try:
        await service.create(HERE, ANA, GameOptions(seed=7, max_players=2))
        await service.add_ai(HERE, ANA, "easy", AI_NAME)
        with pytest.raises(NotAllowed) as refused:
            await service.add_ai(HERE, ANA, "easy", AI_NAME)
        assert refused.value.code == "game_full"
    finally:
        await service.close()


async def test_an_ai_never_inherits_the_lobby(db: Path, clock: Clock) -> None:
    """Before, `_remove` asserted the next seat had a user and dropped every seat without
    one along with the leaver."""
    service = await ai_service(db, clock, Recording())
    try:
        await lobby_with_ais(service, ("easy", "random"))
        view = await service.join(HERE, BEN)
        view = await service.leave(HERE, ANA)
        assert view.host_id == BEN.id and [s.name for s in view.seats] == [
            "AI (easy)", "AI (random)", "Ben"]
        view = await service.leave(HERE, BEN)
        assert view.status == "cancelled"  # only AIs left: nobody to play with them
    finally:
        await service.close()


# -- playing ----------------------------------------------------------------------------


async def test_the_ai_moves_after_the_start_and_after_each_move(db: Path,
                                                                clock: Clock) -> None:
    thinker = Recording()
    service = await ai_service(db, clock, thinker)
    try:
        await lobby_with_ais(service, ("easy", "medium"))
        await service.start(HERE, ANA)
        rng = random.Random(2)
        for _ in range(4):
            await service.wait_for_ai()
            view = await service.status(HERE, ANA.id)
            assert view.deciding is not None and view.deciding.user_id == ANA.id
            before = view.moves
            await play_random_move(service, HERE, ANA, rng)
            await service.wait_for_ai()
            record = await service.export(HERE)
            after = record["actions"][before + 1:]
            assert [a["by"] for a in after if "by" in a][-2:] == ["AI (easy)", "AI (medium)"] \
                or [a["by"] for a in after if "by" in a][-2:] == ["AI (medium)", "AI (easy)"]
        # The levels asked for are the seats' own, each with its default budget.
        assert {(a.level, a.seconds) for a in thinker.asked} == {("easy", 0.5),
                                                                 ("medium", 1.0)}
    finally:
        await service.close()


async def test_a_resigned_last_person_ends_the_game(db: Path, clock: Clock) -> None:
    """The AIs do not play on among themselves."""
    service = await ai_service(db, clock, Recording())
    try:
        await lobby_with_ais(service, ("easy", "random"))
        await service.start(HERE, ANA)
        await service.wait_for_ai()
        view = await service.resign(HERE, ANA)
        assert view.status == "finished" and view.outcome == "resigned"
        await service.wait_for_ai()
        assert (await service.status(HERE)).moves == view.moves
    finally:
        await service.close()


async def test_a_removed_ai_is_played_plainly_by_the_service(db: Path, clock: Clock) -> None:
    service = await ai_service(db, clock, Recording())
    try:
        await lobby_with_ais(service, ("easy",))
        await service.join(HERE, BEN)
        await service.start(HERE, ANA)
        await service.wait_for_ai()
        view = await service.remove_ai(HERE, ANA, AI_NAME)
        seat = next(s for s in view.seats if s.name == AI_NAME)
        assert seat.resigned and view.status == "active"
    finally:
        await service.close()


@pytest.mark.slow
async def test_two_ais_and_a_person_play_a_whole_game(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await ai_service(db, clock, thinker)
    try:
        await lobby_with_ais(service, ("easy", "greedy"), GameOptions(
            seed=11, expansions=frozenset({"abbot", "abbey_mayor", "tunnel"})))
        await service.start(HERE, ANA)
        view = await play_out(service, random.Random(3))
        assert view.outcome == "complete" and view.tiles_left == 0
        record = await service.export(HERE)
        status, result = replay(record)
        assert status == 0 and result["finished"]
        by = [a.get("by") for a in record["actions"]]
        assert by.count("AI (easy)") > 10 and by.count("AI (greedy)") > 10
        # The record's players are plain names, as carca-record/1 wants.
        assert record["players"] and all(isinstance(p, str) for p in record["players"])
        stored = await service.store.load(view.game_id)
        assert stored is not None
        ai_actions = [a for a in stored.actions if a.action.get("by", "").startswith("AI")]
        assert ai_actions and all(a.user_id is None for a in ai_actions)
        # The human's own games list it; nothing assumed the AI seats had users.
        assert (await service.my_games(ANA.id))[0].status == "finished"
    finally:
        await service.close()


@pytest.mark.slow
async def test_a_solo_game_against_ais_with_the_real_pool(db: Path, clock: Clock) -> None:
    """One person and three AIs; the AI thinks in its worker processes."""
    from carca_bot.workers import Thinker

    thinker = Thinker(processes=1)
    service = await GameService.open(db, clock=clock, thinker=thinker)
    try:
        await service.create(HERE, ANA, GameOptions(seed=5, ai_seconds=0.2))
        for level in ("random", "greedy", "easy"):
            await service.add_ai(HERE, ANA, level, f"AI ({level})")
        await service.start(HERE, ANA)
        view = await play_out(service, random.Random(8))
        assert view.outcome == "complete"
        status, result = replay(await service.export(HERE))
        assert status == 0 and result["finished"]
    finally:
        await service.close()
        await thinker.close()


# -- one write per decision, restarts ---------------------------------------------------


async def ai_to_move(service: GameService, thinker: Recording) -> int:
    """A game (Ana and an AI) started with the AI's answer held back until it is its turn."""
    thinker.gate = asyncio.Event()
    await lobby_with_ais(service, ("easy",))
    view = await service.start(HERE, ANA)
    if view.deciding is not None and view.deciding.user_id == ANA.id:
        await play_random_move(service, HERE, ANA, random.Random(1))
    for _ in range(100):
        if thinker.asked:
            break
        await asyncio.sleep(0.01)
    assert thinker.asked, "the AI was never asked"
    return view.game_id


async def test_a_second_trigger_plays_the_decision_once(db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await ai_service(db, clock, thinker)
    try:
        game_id = await ai_to_move(service, thinker)
        before = (await service.status(HERE)).moves
        # Two more players of the same decision, as a second process or a stray wake-up
        # would be: all three think about the same version.
        extra = [asyncio.create_task(service._ai_turns(game_id)) for _ in range(2)]
        for _ in range(100):
            if len(thinker.asked) >= 3:
                break
            await asyncio.sleep(0.01)
        assert len(thinker.asked) == 3
        thinker.gate.set()  # type: ignore[union-attr]
        await asyncio.gather(*extra)
        await service.wait_for_ai()
        view = await service.status(HERE, ANA.id)
        assert view.moves == before + 1  # one AI action, not three
        assert view.deciding is not None and view.deciding.user_id == ANA.id
    finally:
        await service.close()


async def test_a_command_while_the_ai_thinks_wins_and_the_ai_looks_again(
        db: Path, clock: Clock) -> None:
    thinker = Recording()
    service = await ai_service(db, clock, thinker)
    try:
        await ai_to_move(service, thinker)
        view = await service.resign(HERE, ANA)  # while the AI is still thinking
        assert view.status == "finished"
        thinker.gate.set()  # type: ignore[union-attr]
        await service.wait_for_ai()
        assert (await service.status(HERE)).moves == view.moves  # its answer was dropped
    finally:
        await service.close()


async def test_a_restart_in_the_middle_of_an_ai_turn_resumes_it(db: Path,
                                                                 clock: Clock) -> None:
    thinker = Recording()
    old = await ai_service(db, clock, thinker)
    await ai_to_move(old, thinker)
    with pytest.raises(NotYourTurn) as refused:  # meanwhile, Ana waits for the AI
        await old.begin_turn(HERE, ANA)
    assert refused.value.params["name"] == AI_NAME
    await old.close()  # stops with the AI thinking: nothing of its turn was stored
    service = await GameService.open(db, clock=clock, thinker=Recording())
    try:
        stored = await service.store.load(1)
        assert stored is not None
        before = len(stored.actions)
        # The bot's timer loop calls this: nobody needs to send a command (any command
        # on the game would wake the AI too).
        assert await service.check_timers() == []
        await service.wait_for_ai()
        after = await service.status(HERE, ANA.id)
        assert after.moves == before + 1
        assert after.deciding is not None and after.deciding.user_id == ANA.id
    finally:
        await service.close()


# -- what the AI is shown ---------------------------------------------------------------


@pytest.mark.slow
async def test_the_ai_gets_only_the_tile_drawn(db: Path, clock: Clock) -> None:
    """The AI sees no seed and no tile still in the pile: at the draw-or-abbey choice no
    tile at all, after it the one its seat drew, and after placing none; its own seed is
    not the game's."""
    thinker = Recording()
    service = await ai_service(db, clock, thinker)
    try:
        await lobby_with_ais(service, ("easy", "random"), GameOptions(
            seed=23, expansions=frozenset({"abbey_mayor"})))
        await service.start(HERE, ANA)
        await play_out(service, random.Random(4))
        assert len(thinker.asked) > 40
        for asked in thinker.asked:
            assert asked.position.setup.seed is None
            assert asked.position.game().setup.seed is None
            assert asked.seed != 23
            if asked.phase.name != "TILE":
                assert asked.tile is None
            elif asked.tile is None:
                assert asked.abbey_choice  # asked to choose before drawing
            else:
                assert asked.tile == asked.next_tile  # the tile the seat holds
        choices = [a for a in thinker.asked if a.phase.name == "TILE" and a.tile is None]
        assert choices, "the game never offered an AI the abbey first"
    finally:
        await service.close()


async def test_the_game_chooses_how_long_its_ais_think(db: Path, clock: Clock) -> None:
    with pytest.raises(BadInput) as bad:
        GameOptions(ai_seconds=60)
    assert bad.value.code == "bad_ai_seconds"
    assert GameOptions.from_json(GameOptions(ai_seconds=0.3, hints=True).to_json()) == \
        GameOptions(ai_seconds=0.3, hints=True)
    assert (GameOptions.from_json({}).ai_seconds, GameOptions.from_json({}).hints) == (
        None, False)  # options stored before AI players
    thinker = Recording()
    service = await ai_service(db, clock, thinker)
    try:
        await lobby_with_ais(service, ("strong",), GameOptions(seed=7, ai_seconds=0.3))
        await service.start(HERE, ANA)
        await service.wait_for_ai()
        await play_random_move(service, HERE, ANA, random.Random(1))
        await service.wait_for_ai()
        assert thinker.asked and {(a.level, a.seconds) for a in thinker.asked} == {
            ("strong", 0.3)}
    finally:
        await service.close()
