"""The offline Discord harness of tests/bot, for the fault tests that go through the bot."""

from tests.bot.conftest import harness

__all__ = ["harness"]
