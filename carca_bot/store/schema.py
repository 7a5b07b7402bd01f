"""The database schema's forward migrations, the same on SQLite and PostgreSQL: how they
are applied here, the statements in migrations_early.py (V1 to V6) and migrations.py.

The schema version is the number of migrations applied (SQLite: `PRAGMA user_version`,
as files have always had it; PostgreSQL: the one-row table `carca_schema`). Each
migration runs in its own transaction together with the version bump, so a start-up
interrupted half way leaves the database at one version or the next, never between;
it runs under the database's write lock (PostgreSQL: an advisory lock), so of two
processes starting at once only one migrates. A database newer than this program is
refused rather than guessed at.

Portable SQL: the contract for every statement of the store
------------------------------------------------------------
Migrations and Store methods are written once, in the subset below, and run on both
backends; `postgres_sql.py` rewrites only placeholders and types. The store test suite
(tests/store) runs every test on both, so a test there proves a new statement.

- Placeholders `?` (values in a sequence) or `:name` (a mapping), never both in one
  statement. A value must sit where PostgreSQL can tell its type (compared with or
  stored into a column); else write `CAST(? AS TEXT)`. Pass the column's Python type:
  str for TEXT (PostgreSQL refuses an int there), int for INTEGER, float or int for REAL.
- Column types INTEGER (64-bit), REAL (64-bit float) and TEXT only. Booleans are
  INTEGER 0/1, tested as `col = 0` / `col = 1`, never `NOT col`. JSON is TEXT.
- An id column is `id INTEGER PRIMARY KEY` (becomes an identity column); no
  AUTOINCREMENT in new tables; read new ids with `INSERT ... RETURNING id` through
  `execute_fetchall`, never `lastrowid` or `rowid`.
- `INSERT ... ON CONFLICT (cols) DO UPDATE SET col = excluded.col` or `DO NOTHING`;
  no `INSERT OR REPLACE/IGNORE`, no `REPLACE INTO`.
- No SQL reserved words as names (end, user, order, group, from, to, ...); the one
  old column named so, `vacations.end`, is always written quoted: "end".
- Strings in 'single quotes' only ("double" quotes name columns on PostgreSQL).
- Functions both have: count, sum, min and max (aggregates only: the two-argument
  scalar max(a, b) / min(a, b) are SQLite's; write CASE WHEN a > b THEN a ELSE b END),
  coalesce, abs, length, lower, upper, substr, replace, round, nullif. Not ifnull,
  iif, printf, group_concat, json_*, strftime, datetime, random, total.
- A subquery in FROM has an alias: `FROM (SELECT ...) AS t`. Every selected column
  that is not aggregated is in GROUP BY.
- NULLs sort first on SQLite and last on PostgreSQL: where a sorted value can be NULL,
  say `NULLS FIRST` or `NULLS LAST`. Text sorts by the server's collation on
  PostgreSQL; LIKE is case-sensitive there (use lower(col) LIKE lower(?)).
- No PRAGMA, no sqlite_master, no ATTACH, no temporary triggers.
- An IntegrityError (store.errors) ends the transaction on PostgreSQL: raise out of
  it, do not go on with more statements. A Store method may be run again whole when
  PostgreSQL could not serialize it with a concurrent one (`errors.Retry`): make each
  public method one transaction (plus reads), so running it again is harmless.
- A migration is a tuple of such statements appended as the next `V<n>` in
  migrations.py (and to its `MIGRATIONS`); ALTER TABLE ... ADD COLUMN with a constant
  DEFAULT, CREATE [UNIQUE] INDEX (partial ones too) and UPDATE are fine. Never edit one
  already released: a database holds its result.
"""

from __future__ import annotations

from carca_bot.store.driver import Database
from carca_bot.store.migrations import MIGRATIONS as MIGRATIONS  # looked up here: tests replace it

SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(RuntimeError):
    """The file was written by a newer program; opening it could damage it."""


async def schema_version(db: Database) -> int:
    return await db.schema_version()


async def migrate(db: Database, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to `target`; returns the version found before."""
    found = await db.schema_version()
    if found > SCHEMA_VERSION:
        raise SchemaTooNew(f"the database has schema version {found}; this program knows "
                           f"versions up to {SCHEMA_VERSION}")
    while True:
        # Read the version again under the lock: another process may have migrated
        # since we looked.
        async with db.migrating() as locked:
            current = await db.schema_version(locked)
            if current >= target:
                return found
            for statement in MIGRATIONS[current]:
                await locked.execute(statement)
            await db.set_schema_version(locked, current + 1)
