"""PostgreSQL going away or holding a lock too long is `Unavailable` (nothing written),
as a locked or full SQLite file is; the store then goes on when the server is back."""

from __future__ import annotations

import asyncpg
import pytest

from carca_bot.store import SeatRow, Store, Unavailable, postgres_db
from carca_bot.store.errors import Retry

HOST = SeatRow(0, "u1", "Ana", 0)


async def _end_connections(admin: asyncpg.Connection[asyncpg.Record]) -> None:
    """What an admin, a failover or a server restart does to the store's connections."""
    await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()")


async def test_connections_dropped_are_replaced_unseen(pg_url: str) -> None:
    """After a server restart every pooled connection is dead, and only using one tells:
    the command is run again on a new one (it had written nothing)."""
    store = await Store.open(pg_url)
    admin = await asyncpg.connect(pg_url)
    try:
        game = await store.create_game("g", "c", HOST, {}, 1, 1.0)
        for version in range(6):
            await _end_connections(admin)
            assert await store.update(game, version, 3.0, {"deadline": float(version)}) \
                == version + 1
    finally:
        await admin.close()
        await store.close()


async def test_a_connection_lost_in_a_transaction_wrote_nothing(pg_url: str) -> None:
    store = await Store.open(pg_url)
    admin = await asyncpg.connect(pg_url)
    try:
        game = await store.create_game("g", "c", HOST, {}, 1, 1.0)
        with pytest.raises(Retry):  # a store method would now run again
            async with store._transaction() as db:
                await db.execute("UPDATE games SET version = 7 WHERE id = ?", (game,))
                await _end_connections(admin)
                await db.execute("UPDATE games SET version = 8 WHERE id = ?", (game,))
        row = await store.game(game)
        assert row is not None and row.version == 0
    finally:
        await admin.close()
        await store.close()


async def test_a_row_locked_too_long_is_unavailable(pg_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres_db, "LOCK_TIMEOUT_MS", 200)
    store = await Store.open(pg_url)
    other = await asyncpg.connect(pg_url)
    try:
        game = await store.create_game("g", "c", HOST, {}, 1, 1.0)
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE games SET updated_at = 5 WHERE id = $1", game)
        with pytest.raises(Unavailable, match="lock"):
            await store.update(game, 0, 2.0, {"deadline": 9.0})
        await tx.rollback()
        assert await store.update(game, 0, 3.0, {"deadline": 9.0}) == 1
    finally:
        await other.close()
        await store.close()
