"""What the store raises, whichever database is underneath."""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """A write the store refused."""


class Conflict(StoreError):
    """The game changed since the caller read it; the write was not made."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or running."""


class Unavailable(StoreError):
    """The database cannot be used just now (locked too long, disk full, I/O error,
    server gone).

    Nothing was written: the transaction was rolled back.
    """


class IntegrityError(sqlite3.IntegrityError):
    """A UNIQUE, CHECK, NOT NULL or foreign-key constraint refused a statement.

    Raised by both backends for the same cause. It is also a `sqlite3.IntegrityError`
    so that code written when the store spoke only SQLite keeps catching it. On
    PostgreSQL it ends the transaction: raise out of the transaction after it (or
    avoid it with `ON CONFLICT`), never go on with more statements.
    """


class Retry(Exception):
    """PostgreSQL could not serialize the transaction with a concurrent one (or chose
    it as a deadlock victim). Nothing was written; the store runs the whole method
    again, which then either succeeds or meets the real `Conflict`."""


class Lost(Retry):
    """The connection to PostgreSQL ended before the transaction committed (a server
    restart, an admin, a network cut): nothing was written, and the store runs the
    method again on another connection. Named apart from a serialization `Retry` so
    that the log says which it was when every attempt failed."""
