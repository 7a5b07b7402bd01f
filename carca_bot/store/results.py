"""How games ended and what they did to ratings: each seat's result, the rating history
and current ratings of each server, and the voids a server's admins set (issue 18's
community play, issue 26's fair play; `Store` inherits these methods: `ResultRows`).

The ratings are worked out by the service (`league/`, `service/ratings_ops.py`); these
are the rows it reads and writes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from carca_bot.store.league_rows import RatingHistoryRow, RatingRow, ResultRow
from carca_bot.store.methods import StoreMethods, dumps

RESULT_COLUMNS = ("game_id, seat, guild_id, user_id, display_name, score, played_rank, rank, "
                  "players, ending, rated, left_game, ended_at, expansions")
HISTORY_COLUMNS = ("guild_id, game_id, user_id, pool, ended_at, rank, players, before_mu, "
                   "before_sigma, after_mu, after_sigma, games")


def _history_row(row: Sequence[Any]) -> RatingHistoryRow:
    g, gid, u, p, t, r, n, bm, bs, am, as_, k = row
    return RatingHistoryRow(str(g), int(gid), str(u), str(p), float(t), int(r), int(n),
                            float(bm), float(bs), float(am), float(as_), int(k))


def _result_row(row: Sequence[Any]) -> ResultRow:
    (gid, seat, guild, user, name, score, played, rank, players, ending, rated, left, at,
     expansions) = row
    return ResultRow(int(gid), int(seat), str(guild), None if user is None else str(user),
                     str(name), int(score), int(played), int(rank), int(players), str(ending),
                     bool(rated), bool(left), float(at), tuple(json.loads(expansions)))


class ResultRows(StoreMethods):
    """Mixed into `Store`: results once per game, ratings per server and pool."""

    # -- results --------------------------------------------------------------------------

    async def put_results(self, rows: Sequence[ResultRow]) -> bool:
        """Record how a game ended, once: False if it was already recorded."""
        if not rows:
            return False
        async with self._transaction() as db:
            found = list(await db.execute_fetchall(
                "SELECT 1 FROM game_results WHERE game_id = ?", (rows[0].game_id,)))
            if found:
                return False
            await db.executemany(
                f"INSERT INTO game_results ({RESULT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r.game_id, r.seat, r.guild_id, r.user_id, r.name, r.score, r.played_rank,
                  r.rank, r.players, r.ending, int(r.rated), int(r.left_game), r.ended_at,
                  dumps(list(r.expansions))) for r in rows])
        return True

    async def results_of_game(self, game_id: int) -> list[ResultRow]:
        rows = await self._rows(f"SELECT {RESULT_COLUMNS} FROM game_results WHERE game_id = ? "
                                "ORDER BY seat", (game_id,))
        return [_result_row(r) for r in rows]

    async def results_since(self, guild: str, ended_at: float, game_id: int
                            ) -> list[ResultRow]:
        """The server's game results from (`ended_at`, `game_id`) on, in rating order."""
        rows = await self._rows(
            f"SELECT {RESULT_COLUMNS} FROM game_results WHERE guild_id = ? AND "
            "(ended_at > ? OR (ended_at = ? AND game_id >= ?)) ORDER BY ended_at, game_id, seat",
            (guild, ended_at, ended_at, game_id))
        return [_result_row(r) for r in rows]

    async def results_of_player(self, guild: str, user_id: str, limit: int = 1000
                                ) -> list[ResultRow]:
        """The player's games on the server, latest first (their own row of each)."""
        rows = await self._rows(
            f"SELECT {RESULT_COLUMNS} FROM game_results WHERE guild_id = ? AND user_id = ? "
            "ORDER BY ended_at DESC, game_id DESC LIMIT ?", (guild, user_id, limit))
        return [_result_row(r) for r in rows]

    async def results_of_games(self, game_ids: Iterable[int]) -> list[ResultRow]:
        """Every seat's result of these games, by game then seat."""
        wanted = sorted(set(game_ids))
        found: list[ResultRow] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            rows = await self._rows(
                f"SELECT {RESULT_COLUMNS} FROM game_results WHERE game_id IN "
                f"({', '.join('?' * len(chunk))}) ORDER BY game_id, seat", chunk)
            found += [_result_row(r) for r in rows]
        return found

    async def set_ranks(self, game_id: int, ranks: Mapping[int, int]) -> None:
        """The places a game counts with (by seat): an organiser's amended result."""
        async with self._transaction() as db:
            await db.executemany("UPDATE game_results SET rank = ? WHERE game_id = ? AND seat = ?",
                                 [(rank, game_id, seat) for seat, rank in ranks.items()])

    async def unrecorded_games(self, ended_since: float, limit: int = 100) -> list[int]:
        """Games ended (played out or by resignations) since `ended_since`, seated by at
        least two users and no imported seat, that have no recorded result."""
        rows = await self._rows(
            "SELECT g.id FROM games g WHERE g.status = 'finished' "
            "AND g.outcome IN ('complete', 'resigned') AND g.updated_at >= ? "
            "AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id IS NULL) "
            "AND (SELECT count(*) FROM seats s WHERE s.game_id = g.id) >= 2 "
            "ORDER BY g.updated_at, g.id LIMIT ?", (ended_since, limit))
        return [int(r[0]) for r in rows]

    async def move_times(self, game_ids: Iterable[int]
                         ) -> dict[int, list[tuple[str | None, float]]]:
        """Who made each logged action of these games and when, in log order."""
        wanted = sorted(set(game_ids))
        found: dict[int, list[tuple[str | None, float]]] = {g: [] for g in wanted}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            rows = await self._rows(
                f"SELECT game_id, user_id, at FROM actions WHERE game_id IN "
                f"({', '.join('?' * len(chunk))}) ORDER BY game_id, seq", chunk)
            for gid, user, at in rows:
                found[int(gid)].append((None if user is None else str(user), float(at)))
        return found

    # -- ratings --------------------------------------------------------------------------

    async def rated_after(self, guild: str, ended_at: float, game_id: int) -> bool:
        """Whether a game after (`ended_at`, `game_id`) has already been rated."""
        rows = await self._rows(
            "SELECT 1 FROM rating_history WHERE guild_id = ? AND "
            "(ended_at > ? OR (ended_at = ? AND game_id > ?)) LIMIT 1",
            (guild, ended_at, ended_at, game_id))
        return bool(rows)

    async def rating_history(self, guild: str, user_id: str | None = None
                             ) -> list[RatingHistoryRow]:
        """The server's rating history (one player's, if named), in rating order."""
        who = "" if user_id is None else " AND user_id = ?"
        params: tuple[Any, ...] = (guild,) if user_id is None else (guild, user_id)
        rows = await self._rows(
            f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE guild_id = ?{who} "
            "ORDER BY ended_at, game_id, user_id", params)
        return [RatingHistoryRow(str(g), int(gid), str(u), str(p), float(t), int(r), int(n),
                                 float(bm), float(bs), float(am), float(as_), int(k))
                for g, gid, u, p, t, r, n, bm, bs, am, as_, k in rows]

    async def rating_history_since(self, guild: str, since: float) -> list[RatingHistoryRow]:
        """The server's rating history of games ended at or after `since`, in rating
        order (what repeat weights look back over)."""
        rows = await self._rows(
            f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE guild_id = ? AND ended_at >= ? "
            "ORDER BY ended_at, game_id, user_id", (guild, since))
        return [_history_row(r) for r in rows]

    async def opponent_counts(self, guild: str, pool: str) -> dict[str, int]:
        """How many different players each player met in rated games of `pool`."""
        rows = await self._rows(
            "SELECT a.user_id, count(DISTINCT b.user_id) FROM rating_history a "
            "JOIN rating_history b ON b.guild_id = a.guild_id AND b.game_id = a.game_id "
            "AND b.user_id <> a.user_id WHERE a.guild_id = ? AND a.pool = ? "
            "GROUP BY a.user_id", (guild, pool))
        return {str(u): int(n) for u, n in rows}

    async def ratings(self, guild: str, pool: str | None = None,
                      users: Iterable[str] | None = None) -> list[RatingRow]:
        """Current ratings on the server: of a pool and of some users, if named."""
        sql = ("SELECT guild_id, pool, user_id, display_name, mu, sigma, games FROM ratings "
               "WHERE guild_id = ?")
        params: list[Any] = [guild]
        if pool is not None:
            sql += " AND pool = ?"
            params.append(pool)
        if users is not None:
            wanted = sorted(set(users))
            if not wanted:
                return []
            sql += f" AND user_id IN ({', '.join('?' * len(wanted))})"
            params += wanted
        rows = await self._rows(sql + " ORDER BY pool, user_id", params)
        return [RatingRow(str(g), str(p), str(u), str(n), float(m), float(s), int(k))
                for g, p, u, n, m, s, k in rows]

    async def save_ratings(self, guild: str, history: Sequence[RatingHistoryRow],
                           ratings: Sequence[RatingRow],
                           replace_from: tuple[float, int] | None = None) -> None:
        """Store new history rows and ratings in one transaction.

        `replace_from` (ended_at, game_id): the history from that game on is rated again,
        so its rows are deleted first and `ratings` replace every rating on the server.
        """
        async with self._transaction() as db:
            if replace_from is not None:
                at, gid = replace_from
                await db.execute(
                    "DELETE FROM rating_history WHERE guild_id = ? AND "
                    "(ended_at > ? OR (ended_at = ? AND game_id >= ?))", (guild, at, at, gid))
                await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild,))
            await db.executemany(
                f"INSERT INTO rating_history ({HISTORY_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, game_id, user_id) DO NOTHING",
                [(h.guild_id, h.game_id, h.user_id, h.pool, h.ended_at, h.rank, h.players,
                  h.before_mu, h.before_sigma, h.after_mu, h.after_sigma, h.games)
                 for h in history])
            await db.executemany(
                "INSERT INTO ratings (guild_id, pool, user_id, display_name, mu, sigma, games) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, pool, user_id) DO UPDATE "
                "SET display_name = excluded.display_name, mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games",
                [(r.guild_id, r.pool, r.user_id, r.name, r.mu, r.sigma, r.games)
                 for r in ratings])

    # -- voided results (fair play, issue 26) ----------------------------------------------

    async def add_rating_void(self, guild: str, user_id: str, until: float, by: str,
                              now: float) -> None:
        """Void the player's rated results on the server up to `until` (a later void of
        the same player reaches further)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO rating_voids (guild_id, user_id, cutoff, voided_by, voided_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
                "cutoff = excluded.cutoff, voided_by = excluded.voided_by, "
                "voided_at = excluded.voided_at", (guild, user_id, until, by, now))

    async def remove_rating_void(self, guild: str, user_id: str) -> bool:
        """Lift the player's void; whether there was one."""
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "DELETE FROM rating_voids WHERE guild_id = ? AND user_id = ? RETURNING user_id",
                (guild, user_id))
        return bool(rows)

    async def rating_voids(self, guild: str) -> dict[str, float]:
        """The server's voided players: each one's results up to the time given are void."""
        rows = await self._rows(
            "SELECT user_id, cutoff FROM rating_voids WHERE guild_id = ?", (guild,))
        return {str(u): float(t) for u, t in rows}
