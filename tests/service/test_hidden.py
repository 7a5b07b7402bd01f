"""Nobody learns a tile before it is drawn: the seed stays secret while a game can deal."""

from __future__ import annotations

import json
import random

from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import GameOptions, GameService, ServiceError, User, Where
from tests.service.helpers import ANA, BEN, CY, HERE, THERE, Clock, other, who, words


async def _secret_game(service: GameService, clock: Clock) -> int:
    """A timed two-player game a few moves in, dealt from a seed nobody chose."""
    await service.create(HERE, ANA, GameOptions(turn_timer=60, auto_play=True))
    await service.join(HERE, BEN)
    view = await service.start(HERE, ANA)
    rng = random.Random(3)
    for _ in range(6):
        view, _ = await play_random_move(service, HERE, who(view), rng)
    clock.now += 61  # one turn runs out of time: its report is public too
    assert await service.check_timers()
    return view.game_id


async def test_seeds_are_far_too_many_to_search(service: GameService) -> None:
    """Seat order and the first draws are public; 2^31 seeds could be tried in minutes."""
    seeds = []
    for n in range(12):
        view = await service.create(Where("g", f"c{n}"), User(str(n), "P"), GameOptions())
        row = await service.store.game(view.game_id)
        assert row is not None and row.seed is not None
        seeds.append(row.seed)
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) >= 2**40  # all twelve below 2^40 by chance: about 2^-276


async def test_nothing_public_about_a_running_game_holds_its_seed(service: GameService,
                                                                  clock: Clock) -> None:
    game_id = await _secret_game(service, clock)
    row = await service.store.game(game_id)
    assert row is not None and row.seed is not None and row.status == "active"
    seed = str(row.seed)

    record = await service.export(HERE)
    assert "seed" not in record
    view = await service.status(HERE)
    seen: list[object] = [record, row]
    for viewer in (None, ANA.id, BEN.id, CY.id):
        seen.append(await service.status(HERE, viewer))
    for user in (ANA, BEN):
        seen.extend(await service.my_games(user.id))
    seen.append(await service.legal_moves(HERE, who(view)))
    try:
        await service.begin_turn(HERE, other(view))
    except ServiceError as exc:
        seen.append(words(exc))
    clock.now += 61
    seen.extend(await service.check_timers())
    for thing in seen:
        text = json.dumps(thing) if isinstance(thing, dict) else repr(thing)
        assert seed not in text, text[:200]


async def test_a_finished_game_exports_its_seed(service: GameService, clock: Clock) -> None:
    game_id = await _secret_game(service, clock)
    row = await service.store.game(game_id)
    assert row is not None
    await service.cancel(HERE, ANA)
    assert (await service.export(HERE))["seed"] == row.seed


async def test_a_chosen_seed_is_not_shown_to_the_table(service: GameService) -> None:
    """A seed given at creation (local play, tests) stays out of the views while dealing."""
    await service.create(HERE, ANA, GameOptions(seed=123456789))
    await service.join(HERE, BEN)
    view = await service.start(HERE, ANA)
    assert view.options.seed is None and "123456789" not in repr(view)
    await service.cancel(HERE, ANA)
    assert (await service.status(HERE)).options.seed == 123456789


async def test_an_analysis_game_keeps_the_seed_its_importer_gave(service: GameService) -> None:
    record = {"format": "carca-record/1", "players": ["A", "B"], "seed": 77, "actions": []}
    view = await service.import_record(THERE, User("5", "Cy"), record)
    assert view.options.seed == 77
    assert (await service.export(THERE))["seed"] == 77


async def test_a_record_exported_mid_game_is_dealt_on_from_a_fresh_secret(
        service: GameService, clock: Clock) -> None:
    """Without a seed the engine would deal from seed 0, the same pile for everybody."""
    await _secret_game(service, clock)
    record = await service.export(HERE)
    assert "seed" not in record
    seeds = set()
    for n in range(3):
        view = await service.import_record(Where("g", f"study-{n}"), User("5", "Cy"), record)
        row = await service.store.game(view.game_id)
        assert row is not None and row.seed is not None
        seeds.add(row.seed)
    assert len(seeds) == 3 and max(seeds) >= 2**40
