"""The start-up check of `carca-bot run` and `carca-bot local`: can the bot use its
database, said in one line naming the path or the server (never its password)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from carca_bot.ops_report import shown


async def database_problem(db_path: str | Path) -> str | None:
    """Why the bot (or the local game) could not use its database at `db_path`, in one
    line naming the path, or None when it can.

    Opens it as they do (creating and upgrading it when needed) and closes it again,
    so a start-up problem shows before anything else happens, in words, not as a
    traceback from deep inside the first command.
    """
    from carca_bot.store import SchemaTooNew, Store
    from carca_bot.store.driver import is_postgres_url

    if is_postgres_url(str(db_path)):
        return await _server_problem(str(db_path))
    path = Path(db_path)
    if path.is_dir():
        return f"{path} is a folder; name a database file (in that folder or another)"
    folder = path.absolute().parent
    if not folder.is_dir():
        return f"there is no folder {folder} for the database {path}: create it first"
    try:
        store = await Store.open(path)
    except SchemaTooNew:
        return (f"{path} was written by a newer version of carca-bot: run that version, "
                "or restore a backup this one made")
    except sqlite3.DatabaseError as exc:
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith("SQLITE_NOTADB") or "not a database" in str(exc):
            return f"{path} is not a carca-bot database (SQLite says: {exc})"
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")):
            return (f"cannot open {path} for reading and writing (SQLite says: {exc}); "
                    "the bot needs to write the file and its folder")
        return f"cannot use {path} (SQLite says: {exc})"
    except OSError as exc:
        return f"cannot open {path}: {exc.strerror or exc}"
    await store.close()
    return None


async def _server_problem(url: str) -> str | None:
    """`database_problem` for a PostgreSQL server: reachable, the database there, this
    program's schema or an older one."""
    import asyncpg

    from carca_bot.store import SchemaTooNew, Store, StoreError

    try:
        store = await Store.open(url)
    except SchemaTooNew:
        return (f"{shown(url)} was set up by a newer version of carca-bot: run that version, "
                "or restore a backup this one made")
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
            StoreError, ValueError) as exc:  # ValueError: a CARCA_DB_* setting
        return f"cannot use {shown(url)}: {exc or type(exc).__name__}"
    await store.close()
    return None
