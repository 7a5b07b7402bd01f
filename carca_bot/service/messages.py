"""What a front end keeps per game and per user to stay quiet: the game's card and its
last turn ping (message ids, so a restart edits the same card and deletes the same
ping), and how each user wants to hear that it is their turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from carca_bot.service.core import ServiceCore
from carca_bot.service.errors import BadInput
from carca_bot.store.rows import GameMessages

NOTIFY_MODES = ("channel", "dm", "none")  # a mention in the game's channel (the default)


@dataclass(frozen=True, slots=True)
class NotifyPref:
    """How a user hears it is their turn: `mode` one of NOTIFY_MODES; `early`: also when
    the player before them starts their turn."""

    mode: str = "channel"
    early: bool = False


class MessageOps(ServiceCore):
    async def game_messages(self, game_id: int) -> GameMessages:
        """The card and last ping of a game (all None before the first)."""
        return await self.store.game_messages(game_id)

    async def set_card_message(self, game_id: int, channel: str | None,
                               message: str | None) -> None:
        """Remember the game's card (None: forget it, so the next change posts a new one)."""
        await self.store.set_card_message(game_id, channel, message)

    async def set_ping_message(self, game_id: int, channel: str | None, message: str | None,
                               user_id: str | None = None, moves: int | None = None) -> None:
        """Remember the game's last ping: where, whom for, at which move count."""
        await self.store.set_ping_message(game_id, channel, message, user_id, moves)

    async def set_notify(self, user_id: str, mode: str, early: bool) -> None:
        """BadInput("unknown_notify_mode") for a mode not in NOTIFY_MODES."""
        if mode not in NOTIFY_MODES:
            raise BadInput("unknown_notify_mode", name=str(mode)[:20], choices=NOTIFY_MODES)
        await self.store.set_notify(user_id, mode, bool(early), self.clock())

    async def notify_prefs(self, user_ids: Iterable[str]) -> dict[str, NotifyPref]:
        """Every one of these users' preference; the default for those who never chose."""
        wanted = [u for u in dict.fromkeys(user_ids) if u]
        found = await self.store.notify_prefs(wanted)
        return {u: NotifyPref(*found[u]) if u in found else NotifyPref() for u in wanted}
