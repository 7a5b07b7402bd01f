"""What must hold after any command, accepted or refused: the store says what happened.

* every game rebuilds from its log (and its unconfirmed turn still applies);
* a started game's export replays as a carca-record/1 record with exit status 0;
* the `games.version` of every game never goes down;
* the game the service holds in memory is the game a restart would rebuild.
"""

from __future__ import annotations

from dataclasses import replace

from carca_bot.engine.record import replay
from carca_bot.service import GameService, ServiceError, TurnView, Where
from carca_bot.service.live import rebuild, started
from carca_bot.service.views import build_view
from tests.service.helpers import words


def _comparable(view: TurnView) -> TurnView:
    """The view less what only the command that made it says (its events)."""
    return replace(view, events=())


async def assert_sound(service: GameService, versions: dict[int, int],
                       viewers: list[str | None], first: int = 0) -> None:
    """Check every stored game (numbered `first` or above); `versions` carries the versions
    seen last time."""
    for game_id in await service.store.game_ids():
        if game_id < first:
            continue
        data = await service.store.load(game_id)
        assert data is not None
        row = data.game
        assert [a.seq for a in data.actions] == list(range(len(data.actions)))
        assert row.version >= versions.get(game_id, 0), (
            f"game {game_id} went back from version {versions.get(game_id)} to {row.version}")
        versions[game_id] = row.version
        live = rebuild(data)  # raises Unreplayable if the log is broken
        if row.pending is not None:
            assert live.pending is not None, f"game {game_id}: stored turn no longer applies"
        where = Where(row.guild_id, row.channel_id)
        if started(row):
            assert live.game is not None
            assert (row.status == "finished" and row.outcome == "complete") == live.game.finished
            record = await service.export(where, game_id)
            status, result = replay(record)
            assert status == 0, (game_id, result)
            assert len(record["actions"]) == len(data.actions)
        else:
            assert not data.actions
        for viewer in viewers:
            on_disk = build_view(live, viewer, [])
            in_memory = await service.status(where, viewer, game_id)
            assert _comparable(in_memory) == _comparable(on_disk), (game_id, viewer)
        versions[game_id] = (await service.store.load(game_id) or data).game.version
        assert versions[game_id] == row.version, f"looking at game {game_id} changed it"


def allowed(exc: BaseException) -> bool:
    """A refusal players may get; anything else escaping the service is a bug."""
    return isinstance(exc, ServiceError) and bool(words(exc))
