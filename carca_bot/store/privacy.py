"""Players' data in the database, walked by the classification of `privacy_map`.

`Store` inherits these methods (`PrivacyRows`): finding every row about a user (what
`/carc-privacy show` lists and an erasure deletes or rewrites), writing an erasure in
one transaction, and deleting a server's rows or old games in batches. None of them
names a table or column that `privacy_map.TABLES` does not: a new column is handled as
soon as it is classified there.

What an erasure writes is decided outside (`carca_bot.service.privacy_rewrite`, pure):
the store hands it the rows found and writes back the `Change`s it returns, all inside
one write transaction, so a crash stores all of an erasure or none of it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from carca_bot.store.driver import Connection
from carca_bot.store.privacy_map import TABLES, Table, Use, condition, quoted, select_list

CHUNK = 400  # ids per IN (...) list
Row = dict[str, Any]


@dataclass
class Found:
    """The rows about one user, per table, as stored (JSON columns as text), and the
    languages chosen by the servers of their rows (for the pseudonym's language)."""

    user_id: str
    rows: dict[str, list[Row]] = field(default_factory=dict)
    guild_languages: dict[str, str] = field(default_factory=dict)
    # Games that are the user's alone: hosted by them with no seat of anyone's (records
    # they imported to study); every row of them is found, and an erasure deletes them.
    own_games: set[int] = field(default_factory=set)

    def names(self) -> set[str]:
        """Every display name the user has in a row that names them by id."""
        out: set[str] = set()
        for table, rows in self.rows.items():
            for name, col in TABLES[table].columns.items():
                if col.use is Use.NAME and col.of is not None:
                    out |= {str(r[name]) for r in rows
                            if r[col.of] == self.user_id and r[name] is not None}
        return out


@dataclass(frozen=True)
class Change:
    """One row to rewrite (`new`: the columns to set) or delete (`new` None), named by
    its key as found (every column for a table without a key); `old` is the row as
    found (what `/carc-privacy show` lists)."""

    table: str
    key: tuple[tuple[str, Any], ...]
    new: tuple[tuple[str, Any], ...] | None
    old: Row


def key_of(table: str, row: Row) -> tuple[tuple[str, Any], ...]:
    spec = TABLES[table]
    return tuple((c, row[c]) for c in (spec.key or tuple(spec.columns)))


def _escaped(text: str) -> str:
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_")


def _patterns(names: Iterable[str]) -> list[str]:
    """LIKE patterns finding a name inside JSON text, as `json.dumps` writes it either
    way (a superset on SQLite, whose LIKE ignores ASCII case: rows are checked after)."""
    out: set[str] = set()
    for name in names:
        for ascii_only in (False, True):
            inner = json.dumps(name, ensure_ascii=ascii_only)[1:-1]
            out.add(f"%{_escaped(inner)}%")
    return sorted(out)


def _chunks(values: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), CHUNK):
        yield values[start:start + CHUNK]


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" for _ in values)


async def _select(db: Connection, table: str, where: str, params: Sequence[Any]) -> list[Row]:
    names = list(TABLES[table].columns)
    rows = await db.execute_fetchall(
        f"SELECT {select_list(table)} FROM {table} WHERE {where}", tuple(params))
    return [dict(zip(names, r, strict=True)) for r in rows]


def _id_conditions(spec: Table) -> list[str]:
    """SQL conditions (one `?` each, the user id) for rows naming the user by id."""
    out = []
    for name, col in spec.columns.items():
        if col.use in (Use.OWNER, Use.ID):
            out.append(f"({quoted(name)} = ?{condition(col.when)})")
        elif col.use is Use.CLEAR and col.of == name:
            out.append(f"({quoted(name)} = ?)")
    return out


class PrivacyRows:
    """The store's privacy methods (mixed into `Store`, which provides the two below)."""

    def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]:
        raise NotImplementedError

    async def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        raise NotImplementedError

    # -- a user's rows ---------------------------------------------------------------------

    async def privacy_rows(self, user_id: str) -> Found:
        """Every row about the user, read in one snapshot."""
        async with self._transaction("DEFERRED") as db:
            return await find(db, user_id)

    async def privacy_erase(self, user_id: str, now: float,
                            rewrite: Callable[[Found, int], Awaitable[list[Change]]],
                            names_for: Callable[[int], Sequence[str]]) -> tuple[int, list[Change]]:
        """Erase the user in one transaction: a pseudonym number is taken (the next one
        whose names, `names_for(number)`, no stored name already is), `rewrite` turns
        the rows found into changes (off the event loop: it is the caller's), and they
        are written. Returns the number and the changes made."""
        async with self._transaction() as db:
            found = await find(db, user_id)
            number = await _next_number(db, names_for)
            changes = await rewrite(found, number)
            await apply(db, changes)
            await db.execute("INSERT INTO erasures (number, erased_at) VALUES (?, ?)",
                             (number, now))
        return number, changes

    # -- servers the bot left --------------------------------------------------------------

    async def server_ids(self) -> set[str]:
        """Every server some row belongs to (departures aside)."""
        found: set[str] = set()
        for table, spec in TABLES.items():
            if spec.server is None or table == "guild_departures":
                continue
            rows = await self._rows(
                f"SELECT DISTINCT {spec.server} FROM {table} WHERE 1 = 1"
                f"{condition(spec.server_when)}")
            found |= {str(r[0]) for r in rows}
        return found

    async def set_departure(self, guild: str, now: float, delete_at: float) -> float:
        """Note that the bot left `guild`: its rows go at `delete_at` (an earlier
        departure not yet carried out keeps its time). Returns the time that holds."""
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "INSERT INTO guild_departures (guild_id, left_at, delete_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET guild_id = excluded.guild_id "
                "RETURNING delete_at", (guild, now, delete_at))
        return float(rows[0][0])

    async def cancel_departure(self, guild: str) -> bool:
        """The bot is back in `guild`: nothing of it is deleted. Whether one was due."""
        async with self._transaction() as db:
            done = await db.execute("DELETE FROM guild_departures WHERE guild_id = ?", (guild,))
        return done.rowcount > 0

    async def departures(self, due_by: float | None = None) -> list[tuple[str, float, float]]:
        """(server, left at, delete at) of the servers left, the earliest due first;
        those due by `due_by` only, if given."""
        where, params = ("WHERE delete_at <= ? ", (due_by,)) if due_by is not None else ("", ())
        rows = await self._rows(
            f"SELECT guild_id, left_at, delete_at FROM guild_departures {where}"
            "ORDER BY delete_at, guild_id", params)
        return [(str(g), float(a), float(d)) for g, a, d in rows]

    async def server_games(self, guild: str, limit: int) -> list[int]:
        rows = await self._rows("SELECT id FROM games WHERE guild_id = ? ORDER BY id LIMIT ?",
                                (guild, limit))
        return [int(r[0]) for r in rows]

    async def forget_server_rows(self, guild: str) -> dict[str, int]:
        """Delete every row of the server but its games' (`forget_games` first), its
        departure included; rows deleted per table."""
        async with self._transaction() as db:
            events = [int(r[0]) for r in await db.execute_fetchall(
                "SELECT id FROM league_events WHERE guild_id = ?", (guild,))]
            counts = await _delete_linked(db, "event", events)
            for table, spec in TABLES.items():
                if spec.server is None:
                    continue
                done = await db.execute(
                    f"DELETE FROM {table} WHERE {spec.server} = ?{condition(spec.server_when)}",
                    (guild,))
                counts[table] = counts.get(table, 0) + max(done.rowcount, 0)
        return counts

    async def forget_usage(self, before: float) -> int:
        """Delete usage counted before `before` (older than every limit's window: a
        user's own next creation deletes theirs too); how many rows."""
        async with self._transaction() as db:
            done = await db.execute("DELETE FROM usage WHERE at < ?", (before,))
        return max(done.rowcount, 0)

    # -- games deleted: a server's, or finished ones past the retention time ----------------

    async def expired_games(self, ended_before: float, after: int, limit: int) -> list[int]:
        """Games over (finished or cancelled) since before `ended_before`, numbered past
        `after`, in order, but those of an event still taking sign-ups or running (its
        matches may look at them)."""
        rows = await self._rows(
            "SELECT g.id FROM games g WHERE g.status IN ('finished', 'cancelled') "
            "AND g.updated_at < ? AND g.id > ? AND NOT EXISTS (SELECT 1 FROM event_games eg "
            "JOIN league_events e ON e.id = eg.event_id WHERE eg.game_id = g.id "
            "AND e.status IN ('signup', 'running')) ORDER BY g.id LIMIT ?",
            (ended_before, after, limit))
        return [int(r[0]) for r in rows]

    async def forget_games(self, game_ids: Sequence[int]) -> dict[str, int]:
        """Delete the games and every row that belongs to them (records, seats, results,
        messages), in one transaction; rows deleted per table."""
        async with self._transaction() as db:
            return await _delete_linked(db, "game", list(game_ids))


async def _delete_linked(db: Connection, link: str, ids: list[int]) -> dict[str, int]:
    """Delete the rows that belong to these games (`link` "game") or events ("event"),
    the rows that refer to them before the games or events themselves."""
    counts: dict[str, int] = {}
    tables = [(t, getattr(s, link)) for t, s in TABLES.items() if getattr(s, link)]
    tables.sort(key=lambda pair: TABLES[pair[0]].key == (pair[1],))  # parents last
    for table, column in tables:
        for chunk in _chunks(ids):
            done = await db.execute(
                f"DELETE FROM {table} WHERE {column} IN ({_marks(chunk)})", tuple(chunk))
            counts[table] = counts.get(table, 0) + max(done.rowcount, 0)
    return counts


# -- finding a user's rows -----------------------------------------------------------------


async def find(db: Connection, user_id: str) -> Found:
    """Candidate rows about the user: those naming their id; every row of their own
    games (`Found.own_games`); rows of their games whose JSON may name them (by any name
    they had); documents that may hold their id; the rows of their games and the
    languages of their rows' servers. A candidate that turns out not to name them
    changes nothing when rewritten."""
    found = Found(user_id)
    for table, spec in TABLES.items():
        conditions = _id_conditions(spec)
        if conditions:
            _add(found, table, await _select(db, table, " OR ".join(conditions),
                                             [user_id] * len(conditions)))
    for table, spec in TABLES.items():
        for name, col in spec.columns.items():
            if col.use is Use.JSON and col.ids:
                _add(found, table, await _select(
                    db, table, f"{quoted(name)} LIKE ? ESCAPE '!'",
                    [f"%{_escaped(json.dumps(user_id))}%"]))
    await _add_own(db, found)
    games = _games_of(found)
    await _add_named(db, found, games)
    for chunk in _chunks(sorted(games)):
        _add(found, "games", await _select(db, "games", f"id IN ({_marks(chunk)})", chunk))
    guilds = sorted({str(r[server]) for t, rows in found.rows.items()
                     if (server := TABLES[t].server) and not TABLES[t].server_when
                     for r in rows})
    for chunk in _chunks(guilds):
        rows = await db.execute_fetchall(
            "SELECT scope_id, language FROM language_prefs WHERE scope = 'guild' "
            f"AND scope_id IN ({_marks(chunk)})", tuple(chunk))
        found.guild_languages.update({str(g): str(lang) for g, lang in rows})
    return found


async def _add_own(db: Connection, found: Found) -> None:
    rows = await db.execute_fetchall(
        "SELECT g.id FROM games g WHERE g.host_id = ? AND NOT EXISTS (SELECT 1 FROM seats s "
        "WHERE s.game_id = g.id AND s.user_id IS NOT NULL) ORDER BY g.id", (found.user_id,))
    found.own_games = {int(r[0]) for r in rows}
    for table, spec in TABLES.items():
        for chunk in _chunks(sorted(found.own_games)) if spec.game else ():
            _add(found, table, await _select(
                db, table, f"{spec.game} IN ({_marks(chunk)})", chunk))


def _games_of(found: Found) -> set[int]:
    return {int(r[TABLES[t].game or ""]) for t, rows in found.rows.items()
            if TABLES[t].game for r in rows}


async def _add_named(db: Connection, found: Found, games: set[int]) -> None:
    """Rows of the user's games whose JSON may hold one of the user's names."""
    patterns = _patterns(found.names())
    if not patterns or not games:
        return
    for table, spec in TABLES.items():
        columns = [n for n, c in spec.columns.items() if c.use is Use.JSON and c.names]
        if not columns or spec.game is None:
            continue
        like = " OR ".join(f"{quoted(c)} LIKE ? ESCAPE '!'" for c in columns
                           for _ in patterns)
        values = [p for _ in columns for p in patterns]
        for chunk in _chunks(sorted(games)):
            _add(found, table, await _select(
                db, table, f"{spec.game} IN ({_marks(chunk)}) AND ({like})",
                [*chunk, *values]))


def _add(found: Found, table: str, rows: list[Row]) -> None:
    """Add rows to a table's list, each once (by key)."""
    kept = found.rows.setdefault(table, [])
    seen = {key_of(table, r) for r in kept}
    for row in rows:
        key = key_of(table, row)
        if key not in seen:
            seen.add(key)
            kept.append(row)


# -- writing an erasure --------------------------------------------------------------------


async def _next_number(db: Connection, names_for: Callable[[int], Sequence[str]]) -> int:
    """The next pseudonym number none of whose names is a stored display name already
    (compared without case, as names within a game are)."""
    rows = await db.execute_fetchall("SELECT coalesce(max(number), 0) FROM erasures")
    number = int(rows[0][0]) + 1
    named = [(t, c) for t, s in TABLES.items() for c, col in s.columns.items()
             if col.use is Use.NAME]
    while True:
        wanted = sorted({n.lower() for n in names_for(number)})
        taken = False
        for table, column in named:
            hit = await db.execute_fetchall(
                f"SELECT 1 FROM {table} WHERE lower({column}) IN ({_marks(wanted)}) LIMIT 1",
                tuple(wanted))
            taken = taken or bool(hit)
        if not taken:
            return number
        number += 1


def _where(key: tuple[tuple[str, Any], ...]) -> tuple[str, list[Any]]:
    parts, values = [], []
    for column, value in key:
        if value is None:
            parts.append(f"{quoted(column)} IS NULL")
        else:
            parts.append(f"{quoted(column)} = ?")
            values.append(value)
    return " AND ".join(parts), values


async def apply(db: Connection, changes: Sequence[Change]) -> None:
    """Write the changes: deletions first, then rewrites (a rewrite may take a value a
    deleted row held); the same statement for many rows goes in one batch."""
    batches: dict[str, list[list[Any]]] = {}
    for change in sorted(changes, key=lambda c: c.new is not None):
        where, values = _where(change.key)
        if change.new is None:
            sql = f"DELETE FROM {change.table} WHERE {where}"
        else:
            sets = ", ".join(f"{quoted(c)} = ?" for c, _ in change.new)
            sql = f"UPDATE {change.table} SET {sets} WHERE {where}"
            values = [*(v for _, v in change.new), *values]
        batches.setdefault(sql, []).append(values)
    for sql, rows in batches.items():
        await db.executemany(sql, [tuple(r) for r in rows])
