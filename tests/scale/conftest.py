"""The scale tests use the store tests' throwaway PostgreSQL server, and their `backend`
and `db_target` fixtures (a test using them runs on SQLite and on PostgreSQL); the
bot's tests use the offline Discord harness of tests/bot."""

from __future__ import annotations

from tests.bot.conftest import harness
from tests.store.backends import backend, db_target
from tests.store.pg_server import pg_server, pg_url

__all__ = ["backend", "db_target", "harness", "pg_server", "pg_url"]  # offered as fixtures
