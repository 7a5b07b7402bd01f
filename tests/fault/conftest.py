"""The offline Discord harness of tests/bot, for the fault tests that go through the bot,
and the store tests' throwaway PostgreSQL server, for the one that runs bot processes."""

from tests.bot.conftest import harness
from tests.store.pg_server import pg_server

__all__ = ["harness", "pg_server"]
