"""The store's side of several bot processes on one database (issue 30): what each public
message of a game became (`post_deliveries`), the leases of Discord shards and of the
processes themselves, and the counts an operator watches.

`Store` inherits these methods, so they run as its others do (one transaction each, run
again when PostgreSQL could not serialize it, `Unavailable` when the database cannot
be used). The SQL is the portable subset of `schema.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from carca_bot.store.driver import Connection, Database, PoolStats

ALIVE = "alive:"  # the lease a process renews while it runs: "alive:<holder>"


@dataclass(frozen=True, slots=True)
class PostAttempt:
    """A public message a front end began to send for a game (`post_deliveries`)."""

    game_id: int
    kind: str  # which message of the game: "post" (a change's post), "card", ...
    version: int  # the game's version it shows
    channel_id: str
    holder: str  # the process that sent it last
    began_at: float  # when that send began (service clock)
    attempts: int  # messages made for it: a new one only when the last is known gone
    message_id: str | None  # the message, once the channel confirmed it
    sent_at: float | None


@dataclass(frozen=True, slots=True)
class Lease:
    name: str
    holder: str
    expires: float


@dataclass(frozen=True, slots=True)
class Counts:
    """What an operator watches, read in one statement."""

    games_running: int
    lobbies: int
    posts_owed: int  # games owed a public post
    oldest_owed: float | None  # when the longest-waiting of them was stored


DELIVERY_COLUMNS = ("game_id, kind, version, channel_id, holder, began_at, attempts, "
                    "message_id, sent_at")


def _attempt(row: Iterable[Any]) -> PostAttempt:
    g, k, v, c, h, b, n, m, s = row
    return PostAttempt(int(g), str(k), int(v), str(c), str(h), float(b), int(n),
                       None if m is None else str(m), None if s is None else float(s))


class ProcessMethods:
    """Mixed into `Store` (which provides the three below)."""

    _db: Database

    def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        raise NotImplementedError

    # -- public messages, exactly once ----------------------------------------------

    async def begin_post(self, game_id: int, kind: str, version: int, channel_id: str,
                         holder: str, now: float, *, again: bool = False) -> PostAttempt | None:
        """Note that `holder` is about to send message `kind` of the game at `version`,
        before it sends it. Returns the earlier attempt if there was one (its message
        may be in the channel already: look before sending again), else None.

        `again`: the earlier attempt's message is known gone (deleted): the attempt is
        counted again, its message forgotten, and the new one returned."""
        async with self._transaction("ROW") as db:
            # One statement decides between two processes beginning the same post at
            # once (PostgreSQL: the second is run again, and then finds the first's).
            made = await db.execute_fetchall(
                f"INSERT INTO post_deliveries ({DELIVERY_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, 1, NULL, NULL) "
                "ON CONFLICT (game_id, kind, version) DO NOTHING RETURNING game_id",
                (game_id, kind, version, channel_id, holder, now))
            if made:
                return None
            rows = await db.execute_fetchall(
                f"SELECT {DELIVERY_COLUMNS} FROM post_deliveries "
                "WHERE game_id = ? AND kind = ? AND version = ?", (game_id, kind, version))
            if not again:
                await db.execute(
                    "UPDATE post_deliveries SET holder = ? WHERE game_id = ? AND kind = ? "
                    "AND version = ? AND message_id IS NULL", (holder, game_id, kind, version))
                return _attempt(rows[0])
            changed = await db.execute_fetchall(
                "UPDATE post_deliveries SET attempts = attempts + 1, message_id = NULL, "
                "sent_at = NULL, holder = ?, began_at = ?, channel_id = ? "
                f"WHERE game_id = ? AND kind = ? AND version = ? RETURNING {DELIVERY_COLUMNS}",
                (holder, now, channel_id, game_id, kind, version))
            return _attempt(changed[0])

    async def post_sent(self, game_id: int, kind: str, version: int, message_id: str,
                        now: float, posted: int | None = None) -> str:
        """The channel has message `kind` of the game at `version`, as `message_id`.
        With `posted`, the game's public changes up to that version are no longer owed
        (as `mark_posted`), in the same transaction. Older attempts of that kind are
        forgotten: nothing will look for them again.

        Returns the message on record, which is another one when another process
        recorded its own first (two live processes sent it at once, and Discord had
        forgotten the nonce): the caller's is then a second copy, to be taken back."""
        async with self._transaction("ROW") as db:
            # Usually the row is free and the update answers; only after another
            # process recorded its copy is the record read.
            rows = await db.execute_fetchall(
                "UPDATE post_deliveries SET message_id = ?, sent_at = ? "
                "WHERE game_id = ? AND kind = ? AND version = ? AND message_id IS NULL "
                "RETURNING message_id", (message_id, now, game_id, kind, version))
            rows = rows or await db.execute_fetchall(
                "SELECT message_id FROM post_deliveries "
                "WHERE game_id = ? AND kind = ? AND version = ?", (game_id, kind, version))
            await db.execute(
                "DELETE FROM post_deliveries WHERE game_id = ? AND kind = ? AND version < ?",
                (game_id, kind, version))
            if posted is not None:
                await mark_posted_rows(db, game_id, posted)
        recorded = rows[0][0] if rows else None
        return message_id if recorded is None else str(recorded)

    async def post_attempts(self, game_id: int, kind: str, after: int) -> list[PostAttempt]:
        """The game's attempts of that kind for versions after `after`, oldest first."""
        rows = await self._rows(
            f"SELECT {DELIVERY_COLUMNS} FROM post_deliveries WHERE game_id = ? AND kind = ? "
            "AND version > ? ORDER BY version", (game_id, kind, after))
        return [_attempt(r) for r in rows]

    async def later_game(self, game_id: int) -> int | None:
        """The newest game created after this one in the same channel, if any."""
        rows = await self._rows(
            "SELECT max(o.id) FROM games g JOIN games o ON o.guild_id = g.guild_id "
            "AND o.channel_id = g.channel_id AND o.id > g.id WHERE g.id = ?", (game_id,))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    # -- leases of shards and processes -----------------------------------------------

    async def leases(self, prefix: str) -> list[Lease]:
        """Every lease whose name starts with `prefix`, with its holder and expiry."""
        rows = await self._rows(
            "SELECT name, holder, expires FROM leases WHERE substr(name, 1, ?) = ? "
            "ORDER BY name", (len(prefix), prefix))
        return [Lease(str(n), str(h), float(e)) for n, h, e in rows]

    async def alive(self, holder: str, now: float, seconds: float) -> None:
        """`holder` runs, and will say so again within `seconds`: until then its leases
        hold. Once it stops saying so, any of them may be taken (`Store.take_lease`)."""
        async with self._transaction("ROW") as db:
            await db.execute(
                "INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
                "expires = excluded.expires", (ALIVE + holder, holder, now + seconds))

    # -- what an operator watches --------------------------------------------------------

    async def counts(self) -> Counts:
        rows = await self._rows(
            "SELECT (SELECT count(*) FROM games WHERE status = 'active'), "
            "(SELECT count(*) FROM games WHERE status = 'lobby'), "
            "(SELECT count(*) FROM games WHERE public_version > posted_version), "
            "(SELECT min(e.at) FROM public_events e JOIN games g ON g.id = e.game_id "
            " WHERE e.version > g.posted_version)")
        running, lobbies, owed, oldest = rows[0]
        return Counts(int(running), int(lobbies), int(owed),
                      None if oldest is None else float(oldest))

    async def ping(self) -> None:
        """A round trip to the database (a health check): `Unavailable` if none."""
        await self._rows("SELECT 1")

    def pool_stats(self) -> PoolStats:
        return self._db.pool_stats()


async def mark_posted_rows(db: Connection, game_id: int, version: int) -> None:
    """The public post up to `version` was delivered; never goes back, never past the
    last public change. What was delivered is forgotten."""
    await db.execute(
        "UPDATE games SET posted_version = CASE "
        "WHEN ? <= posted_version OR public_version <= posted_version "
        "THEN posted_version WHEN ? >= public_version THEN public_version ELSE ? END "
        "WHERE id = ?", (version, version, version, game_id))
    await db.execute(
        "DELETE FROM public_events WHERE game_id = ? AND version <= "
        "(SELECT posted_version FROM games WHERE id = ?)", (game_id, game_id))


__all__ = ["ALIVE", "Counts", "Lease", "PostAttempt", "ProcessMethods", "mark_posted_rows"]
