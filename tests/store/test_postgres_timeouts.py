"""Nothing waits on PostgreSQL without a limit: a paused server, a refused connection or
a pool with no connection free is the store's `Unavailable` (players: "could not be
saved, try again") with its real cause in the message and the log, and play goes on
once the server answers again.

The paused server is a server of its own (SIGSTOP on every one of its processes, as a
hung machine or a long network cut looks to its clients), so no other test waits on it.
Whether the refusal came "within the time-out" is asserted without timing anything:
it came while the server was still paused, which is only resumed after the answer
(or, if the store hung, by a watchdog long after, and then the test fails).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from carca_bot.service import GameOptions, GameService, TurnOrder, Unavailable, User, Where
from carca_bot.store import SeatRow, Store, postgres_db
from carca_bot.store import Unavailable as StoreUnavailable
from carca_bot.store.postgres_db import PgSettings
from carca_bot.words import say
from tests.store.pg_server import NoPostgres, PgServer, create_database, refuse

HOST = SeatRow(0, "u1", "Ana", 0)
QUICK = {"CARCA_DB_ACQUIRE_TIMEOUT": "1", "CARCA_DB_STATEMENT_TIMEOUT": "1",
         "CARCA_DB_TIMEOUT": "2"}
WATCHDOG = 90.0  # seconds after which a paused server is resumed whatever happened


@pytest.fixture(scope="module")
def own_server() -> Iterator[PgServer]:
    try:
        server = PgServer.start()
    except NoPostgres as exc:
        refuse(exc)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def quick_url(own_server: PgServer, monkeypatch: pytest.MonkeyPatch
                    ) -> AsyncIterator[str]:
    for name, value in QUICK.items():
        monkeypatch.setenv(name, value)
    yield await create_database(own_server)


class Paused:
    """The server stopped until `resume` (or the watchdog); `paused` says whether it still is."""

    def __init__(self, server: PgServer) -> None:
        self.server = server
        self.stopped = server.pause()
        self.paused = True
        self._lock = threading.Lock()
        self._watchdog = threading.Timer(WATCHDOG, self.resume)
        self._watchdog.start()

    def resume(self) -> None:
        with self._lock:
            if self.paused:
                self.paused = False
                self.server.resume(self.stopped)
        self._watchdog.cancel()


# -- the settings --------------------------------------------------------------------------


def test_settings_default_and_from_the_environment() -> None:
    assert PgSettings.from_env({}) == PgSettings()
    assert PgSettings().pool_size == postgres_db.POOL_SIZE == 10
    got = PgSettings.from_env({"CARCA_DB_POOL_SIZE": "4", "CARCA_DB_ACQUIRE_TIMEOUT": "2.5",
                               "CARCA_DB_STATEMENT_TIMEOUT": " 3 ", "CARCA_DB_TIMEOUT": "8",
                               "CARCA_DB_PGBOUNCER": "1"})
    assert got == PgSettings(4, 2.5, 3.0, 8.0, True)
    assert got.timeouts() == {"statement_timeout": "3000", "lock_timeout": "3000",
                              "idle_in_transaction_session_timeout": "8000"}


@pytest.mark.parametrize(("env", "words"), [
    ({"CARCA_DB_POOL_SIZE": "ten"}, "CARCA_DB_POOL_SIZE must be a whole number, not 'ten'"),
    ({"CARCA_DB_POOL_SIZE": "0"}, "CARCA_DB_POOL_SIZE must be between 1 and 1000"),
    ({"CARCA_DB_TIMEOUT": "-1"}, "CARCA_DB_TIMEOUT must be a number of seconds above 0"),
    ({"CARCA_DB_ACQUIRE_TIMEOUT": "soon"}, "CARCA_DB_ACQUIRE_TIMEOUT must be a number of"),
    ({"CARCA_DB_PGBOUNCER": "maybe"}, "CARCA_DB_PGBOUNCER must be 1 or 0"),
])
def test_a_bad_setting_names_its_variable(env: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        PgSettings.from_env(env)


async def test_the_pool_size_is_the_limit(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With CARCA_DB_POOL_SIZE=1, a second call waits for the one connection, then is
    told there was none free, rather than waiting for ever."""
    monkeypatch.setenv("CARCA_DB_POOL_SIZE", "1")
    monkeypatch.setenv("CARCA_DB_ACQUIRE_TIMEOUT", "0.5")
    store = await Store.open(pg_url)
    try:
        game = await store.create_game("g", "c", HOST, {}, 1, 1.0)
        async with store._transaction() as db:  # holds the only connection
            await db.execute("UPDATE games SET updated_at = 2 WHERE id = ?", (game,))
            assert store._db.pool_stats().in_use == 1
            with pytest.raises(StoreUnavailable, match="no database connection within 0.5 s "
                               r"\(all 1 of this process's connections busy"):
                await store.update(game, 0, 3.0, {"deadline": 1.0})
        assert await store.update(game, 0, 3.0, {"deadline": 1.0}) == 1
    finally:
        await store.close()


# -- a server that does not answer --------------------------------------------------------


async def test_a_paused_server_is_unavailable_before_it_answers(
        own_server: PgServer, quick_url: str, caplog: pytest.LogCaptureFixture) -> None:
    store = await Store.open(quick_url)
    try:
        game = await store.create_game("g", "c", HOST, {}, 1, 1.0)
        pause = Paused(own_server)
        try:
            with pytest.raises(StoreUnavailable) as refused:
                await store.update(game, 0, 2.0, {"deadline": 9.0})
            assert pause.paused, "the store waited until the server answered again"
            # the connection it had given up on was closed, not left waiting
            with pytest.raises(StoreUnavailable) as again:
                await store.game(game)
            assert pause.paused
        finally:
            pause.resume()
        assert "colliding" not in str(refused.value)
        assert ("no answer from the database within 2 s" in str(refused.value)
                or "no database connection within 1 s" in str(refused.value)), refused.value
        assert "colliding" not in str(again.value)
        logged = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert any("store.update: the database could not be used: " in m for m in logged)
        # the server answers again: so does the store, with nothing half written
        assert await store.update(game, 0, 3.0, {"deadline": 9.0}) == 1
        row = await store.game(game)
        assert row is not None and row.version == 1 and row.deadline == 9.0
    finally:
        await store.close()


async def test_players_are_told_to_try_again_and_play_resumes(
        own_server: PgServer, quick_url: str) -> None:
    """Through the service: the move is refused with "could not be saved ... try again"
    while the server is paused, and the same move is accepted once it answers."""
    service = await GameService.open(quick_url)
    try:
        where, ana, bo = Where("g", "c"), User("1", "Ana"), User("2", "Bo")
        await service.create(where, ana, GameOptions(seed=3))
        await service.join(where, bo)
        view = await service.start(where, ana)
        choices = await service.legal_moves(where, ana)
        x, y, rot = choices.placements[0]
        order = TurnOrder(at=(x, y), rot=rot)
        pause = Paused(own_server)
        try:
            with pytest.raises(Unavailable) as refused:
                await service.play_turn(where, ana, order, expect=view.version)
            assert pause.paused
        finally:
            pause.resume()
        assert "please try again" in say(refused.value)
        after = await service.play_turn(where, ana, order, expect=view.version)
        assert after.moves == view.moves + 1
    finally:
        await service.close()


async def test_a_refused_connection_is_named_so(own_server: PgServer, quick_url: str,
                                                caplog: pytest.LogCaptureFixture) -> None:
    """The server shut down: its connections end and new ones are refused. The log says
    so, not "still colliding with other writers"; once it is back, so is the store."""
    store = await Store.open(quick_url)
    try:
        game = await store.create_game("g", "c", HOST, {}, 1, 1.0)
        own_server.halt()
        try:
            with pytest.raises(StoreUnavailable) as refused:
                await store.update(game, 0, 2.0, {"deadline": 9.0})
        finally:
            own_server.start_again()
        assert "colliding" not in str(refused.value)
        assert "cannot connect to the database server" in str(refused.value), refused.value
        logged = [r.getMessage() for r in caplog.records if "store.update" in r.getMessage()]
        assert logged and all("colliding" not in m for m in logged), logged
        assert await store.update(game, 0, 3.0, {"deadline": 9.0}) == 1
    finally:
        await store.close()


async def test_a_close_does_not_wait_on_a_paused_server(own_server: PgServer,
                                                        quick_url: str) -> None:
    store = await Store.open(quick_url)
    await store.create_game("g", "c", HOST, {}, 1, 1.0)
    pause = Paused(own_server)
    try:
        await asyncio.wait_for(store.close(), 30)
        assert pause.paused
    finally:
        pause.resume()
