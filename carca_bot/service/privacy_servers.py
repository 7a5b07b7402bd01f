"""Servers the bot left, and games kept no longer than the operator wants.

When the bot is removed from a server, the front end calls `guild_left`: the server's
games (with their records, seats, results and messages), events, ratings, settings
and usage are deleted `PrivacySettings.guild_grace` later (30 days by default) by the
timers, unless `guild_back` (the bot was added again) cancels it first. Rows that
belong to no server (a user's preferences and vacations) stay, and so does everything
of other servers. `forget_guild` deletes at once, in transactions of `BATCH` games.

The timers also delete usage counts a day old (no limit looks further back). With
`PrivacySettings.keep_finished` set, they delete every game over
(finished or cancelled) for longer than that, with its records and results; the
ratings it gave stay (they are the server's standing, not the game's record), and a
game of an event still running is kept until the event ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from carca_bot import store
from carca_bot.service.core import ServiceCore, log
from carca_bot.service.model import DAY

BATCH = 100  # games deleted per transaction
LOCAL = "0"  # the "server" of games played in direct messages, never left
USAGE_KEPT = DAY  # the longest window a limit counts usage over (core._usage_check)
PERIOD = 600.0  # seconds between two looks for data due for deletion (not every timer run)


class SettingError(ValueError):
    """A privacy setting that cannot be used; the message names the variable."""


@dataclass(frozen=True)
class PrivacySettings:
    """How long a removed server's data waits (`guild_grace`, seconds), and how long a
    game is kept once over (`keep_finished`, seconds; None: for ever, the default)."""

    guild_grace: float = 30 * DAY
    keep_finished: float | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> PrivacySettings:
        """CARCA_LEAVE_GRACE_DAYS (whole days, 0 or more; default 30) and
        CARCA_RETENTION_DAYS (whole days, 1 or more; unset: keep every game)."""
        grace = _days(env, "CARCA_LEAVE_GRACE_DAYS", minimum=0)
        keep = _days(env, "CARCA_RETENTION_DAYS", minimum=1)
        return cls(30 * DAY if grace is None else grace * DAY,
                   None if keep is None else keep * DAY)


def _days(env: Mapping[str, str], name: str, minimum: int) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()):
        raise SettingError(f"{name} must be a whole number of days, not {raw!r}")
    if int(raw) < minimum:
        raise SettingError(f"{name} must be at least {minimum}")
    return int(raw)


def is_server(guild: str) -> bool:
    """A Discord server's id (a snowflake), not the terminal's tables or DMs."""
    return guild.isascii() and guild.isdigit() and guild != LOCAL


class ServerDataOps(ServiceCore):
    """The servers' side of players' data (settings: `privacy`, a `PrivacySettings`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.privacy = PrivacySettings()  # the front end sets its own (from the environment)
        self._privacy_due = 0.0  # when the timers next look for data to delete

    async def _ours(self, game_ids: list[int]) -> list[int]:
        """`ServiceCore._ours`, less the games of the servers the bot was removed from:
        while a server waits for its deletion (or the bot's return), its games' timers,
        AI turns and reminders wait too, rather than play on where nobody can see them
        or post into channels the bot cannot reach (its owed posts wait as well:
        `Store.unposted`). Back in time, they go on where they stopped."""
        mine = await super()._ours(game_ids)
        away = {guild for guild, _, _ in await self.store.departures()} if mine else set()
        if not away:
            return mine
        guilds = await self.store.guilds_of(mine)
        return [g for g in mine if guilds.get(g) not in away]

    async def guild_left(self, guild: str) -> float:
        """The bot was removed from `guild`: its data goes after the grace period.
        Returns when (an earlier departure not yet carried out keeps its time)."""
        now = self.clock()
        return await self.store.set_departure(guild, now, now + self.privacy.guild_grace)

    async def guild_back(self, guild: str) -> bool:
        """The bot is in `guild` (again): nothing of it is deleted. Whether a deletion
        was waiting."""
        return await self.store.cancel_departure(guild)

    async def guilds_present(self, guilds: set[str]) -> tuple[list[str], list[str]]:
        """Reconcile with the servers the bot is in now (at start-up): a server with
        data the bot is no longer in is left (as `guild_left`), a server waiting for
        deletion that the bot is in again is back. Only servers this process runs
        (`shards`) count. Returns (left, back), each sorted."""
        mine = [g for g in await self.store.server_ids() | guilds
                if is_server(g) and (self.shards is None or self.shards.owns(g))]
        waiting = {g for g, _, _ in await self.store.departures()}
        left = sorted(g for g in mine if g not in guilds and g not in waiting)
        back = sorted(g for g in mine if g in guilds and g in waiting)
        for guild in left:
            await self.guild_left(guild)
        for guild in back:
            await self.guild_back(guild)
        return left, back

    async def departures(self) -> list[tuple[str, float, float]]:
        """(server, left at, deleted at) of every server waiting for deletion."""
        return await self.store.departures()

    async def forget_guild(self, guild: str) -> dict[str, int]:
        """Delete every row of the server now (and its waiting departure): rows deleted
        per table."""
        counts: Counter[str] = Counter()
        while ids := await self.store.server_games(guild, BATCH):
            counts.update(await self._forget_games(ids))
        counts.update(await self.store.forget_server_rows(guild))
        for where in [w for w in self._channels if w.guild == guild]:
            del self._channels[where]
        return {t: n for t, n in sorted(counts.items()) if n}

    async def _forget_games(self, ids: list[int]) -> dict[str, int]:
        counts = await self.store.forget_games(ids)
        for game_id in ids:
            self._cache.pop(game_id, None)
            task = self._ai_tasks.pop(game_id, None)
            if task is not None:
                task.cancel()
        return counts

    async def delete_expired_games(self, now: float | None = None) -> int:
        """Delete the games over for longer than `privacy.keep_finished` (none when it is
        None), of the servers this process runs; how many."""
        keep = self.privacy.keep_finished
        if keep is None:
            return 0
        now = self.clock() if now is None else now
        done, after = 0, 0
        while batch := await self.store.expired_games(now - keep, after, BATCH):
            ids = await self._ours(batch)
            if ids:
                await self._forget_games(ids)
            done, after = done + len(ids), max(batch)
        return done

    async def _privacy_timers(self, now: float) -> None:
        """The servers due for deletion, the games past retention and usage counts older
        than any limit looks back (`check_timers`), every PERIOD seconds. Trouble with
        the database leaves the work for the next period."""
        if now < self._privacy_due:
            return
        self._privacy_due = now + PERIOD
        try:
            await self.store.forget_usage(now - USAGE_KEPT)
            for guild, _, _ in await self.store.departures(due_by=now):
                if self.shards is None or self.shards.owns(guild):
                    counts = await self.forget_guild(guild)
                    log.info("server %s left: deleted %s", guild, counts)
            expired = await self.delete_expired_games(now)
            if expired:
                log.info("deleted %s games past the retention time", expired)
        except store.StoreError as exc:
            log.warning("deleting data could not be done now: %s", exc)
