"""The scale tests use the store tests' throwaway PostgreSQL server."""

from __future__ import annotations

from tests.store.pg_server import pg_server, pg_url

__all__ = ["pg_server", "pg_url"]  # offered to the tests here as fixtures
