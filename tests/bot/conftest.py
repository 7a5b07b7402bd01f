"""A bot wired to a fake Discord and a real service on a temporary database."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from carca_bot.bot.client import CarcaBot
from carca_bot.bot.config import Settings
from carca_bot.service import GameService
from carca_bot.service.model import Limits
from tests.bot.fake_discord import FakeDiscord, Interactions, Request

ANA = (100000000000000001, "Ana")
BEN = (100000000000000002, "Ben")
CY = (100000000000000003, "Cy")
MANAGE_GUILD = 1 << 5


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class BotHarness:
    fake: FakeDiscord
    bot: CarcaBot
    make: Interactions
    errors: _Errors
    db: Path
    tree_errors: list[BaseException] = field(default_factory=list)

    async def settle(self) -> None:
        """Wait until every interaction handler the bot started has finished."""
        for _ in range(2000):
            await asyncio.sleep(0.005)
            busy = [t for t in asyncio.all_tasks() if not t.done() and (
                t.get_name().startswith(("CommandTree-invoker", "discord-ui-dynamic-item",
                                      "discord.py: on_interaction")))]
            if not busy:
                break
            await asyncio.wait(busy, timeout=30)
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]
        assert not self.tree_errors, self.tree_errors

    async def send(self, payload: dict[str, Any]) -> list[Request]:
        """Deliver an interaction as the gateway would; return the requests it caused."""
        start = len(self.fake.requests)
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await self.settle()
        return self.fake.since(start)

    async def command(self, user: tuple[int, str], sub: str, **options: Any) -> list[Request]:
        return await self.send(self.make.command(user, sub, **options))

    async def autocomplete(self, user: tuple[int, str], sub: str, focused: str,
                           **options: Any) -> list[dict[str, Any]]:
        requests = await self.send(self.make.command(user, sub, focused=focused, **options))
        assert len(requests) == 1 and requests[0].json["type"] == 8
        choices: list[dict[str, Any]] = requests[0].json["data"]["choices"]
        return choices

    async def click(self, user: tuple[int, str], custom_id: str,
                    values: list[str] | None = None, locale: str | None = None,
                    ephemeral: bool = False, message_id: int | None = None) -> list[Request]:
        """`ephemeral`: the clicked component is on a private message (a turn's steps).
        `message_id`: a message the bot posted (Discord sends its components with the
        click); by default a made-up message holding only the clicked component."""
        kind = 3 if values is not None else 2
        rows = None
        if message_id is not None:
            rows = self.fake.messages[message_id]["components"]
        return await self.send(self.make.component(user, custom_id, kind=kind, values=values,
                                                   locale=locale, ephemeral=ephemeral,
                                                   message_id=message_id, rows=rows))


UNLIMITED = Limits(lobbies_per_user=10**6, lobbies_per_server=10**6, games_per_user=10**6,
                   games_per_server=10**6, threads_per_day=10**6, imports_per_hour=10**6)


async def start_bot(fake: FakeDiscord, db: Path,
                    env: dict[str, str] | None = None) -> tuple[CarcaBot, _Errors]:
    """With `env`, the settings come from it and the bot opens the service itself, as
    `carca-bot run` does; without, a service with no limits (one harness serves many
    hypothesis examples, each opening games)."""
    if env is not None:
        settings = Settings.from_env({"DISCORD_TOKEN": "test-token", "CARCA_DB": str(db),
                                      "CARCA_RATE_LIMIT": "10000", **env})
        bot = CarcaBot(dataclasses.replace(settings, warm_up=False))
    else:
        service = await GameService.open(db, synchronous="NORMAL", limits=UNLIMITED)
        bot = CarcaBot(Settings(token="test-token", database=str(db), rate_limit=10_000,
                                warm_up=False), service=service)
    errors = _Errors()
    logging.getLogger("discord").addHandler(errors)
    logging.getLogger("carca_bot").addHandler(errors)
    await bot.login("test-token")
    return bot, errors


@asynccontextmanager
async def offline_bot(db: Path, env: dict[str, str] | None = None,
                      fake: FakeDiscord | None = None) -> AsyncIterator[BotHarness]:
    """A logged-in bot on `db`, talking to a fake Discord (a new one unless given);
    closed and stopped afterwards."""
    own = fake is None
    fake = fake or FakeDiscord()
    if own:
        await fake.start()
    try:
        with fake.routed():
            bot, errors = await start_bot(fake, db, env)
            h = BotHarness(fake, bot, Interactions(fake), errors, db)
            try:
                yield h
            finally:
                await h.bot.close()
                for name in ("discord", "carca_bot"):
                    logging.getLogger(name).removeHandler(h.errors)
    finally:
        if own:
            await fake.stop()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[BotHarness]:
    async with offline_bot(tmp_path / "bot.sqlite3") as h:

        @h.bot.tree.error
        async def on_error(interaction: Any, error: BaseException) -> None:
            h.tree_errors.append(error)

        yield h
