"""The typed seam inside the Discord front end: what commands, components and posts use of
the running bot (`Bot`), and of its card and pings, named by what they do.

`client.CarcaBot` is the one implementation (mypy checks it against `Bot` in
`client.py`). Nothing below the client imports the client, so the client imports every
command and no module imports it back: the package has no import circle.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Protocol, cast

import discord
from discord.http import HTTPClient

from carca_bot.bot.config import Settings
from carca_bot.bot.core.gate import Actions
from carca_bot.bot.core.pictures import Pictures
from carca_bot.service import Choices, GameService, Played, TurnView

if TYPE_CHECKING:
    from carca_bot.engine.game import Game

# Every interaction the bot answers comes through its own client (`bot_of` says which).
Interaction = discord.Interaction[discord.Client]


class CardShower(Protocol):
    """Each game's card, edited in place (`posts.cards.Cards`)."""

    async def show(self, view: TurnView, last: str, *, tile: str | None = None,
                   choices: Choices | None = None, board: Game | None = None,
                   newest: Played | None = None) -> None: ...


class Pinger(Protocol):
    """One ping per turn (`posts.pings.Pings`)."""

    async def turn(self, view: TurnView, tile: str | None = None,
                   reminder: str | None = None) -> None: ...


class Bot(Protocol):
    """What the rest of the front end uses of the client."""

    settings: Settings
    actions: Actions  # the commands in flight
    pictures: Pictures
    latencies: deque[float]  # seconds each command took (the health hook reads them)
    http: HTTPClient  # threads are opened through it (no channel object is cached)

    @property
    def service(self) -> GameService: ...

    @property
    def user(self) -> discord.ClientUser | None: ...  # the bot's own account (after login)

    @property
    def cards(self) -> CardShower: ...

    @property
    def pings(self) -> Pinger: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None
                                ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def forget_user(self, user_id: str) -> None: ...

    def observe_command(self, name: str, seconds: float,
                        failed: BaseException | None) -> None:
        """Count an interaction and its latency (the metrics, `carca_bot.observe`)."""


def bot_of(interaction: Interaction) -> Bot:
    """The bot an interaction came to: always a `CarcaBot` (discord.py types it as any
    client), the only client that registers these commands and components."""
    return cast(Bot, interaction.client)
