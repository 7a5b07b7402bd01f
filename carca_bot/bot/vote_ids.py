"""The persistent buttons of votes and of the games dashboard: `carcv:ACTION:GAME:REF`.

One id scheme, one `DynamicItem`; what a click does is registered by the module that
owns the action (`votes` for take-backs and expulsions, `dashboard` for its pages), so
this module imports neither. REF is the move's log index for a take-back, the target's
user id for an expulsion, the list owner's user id for a dashboard page (GAME is then
the page).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from carca_bot.bot.safe import plain
from carca_bot.i18n import N_, Domain

_T = Domain("bot")
_ = _T.gettext

Interaction = discord.Interaction[Any]
Handler = Callable[[Interaction, str, int, int], Awaitable[None]]
LABELS = {
    "ask": (N_("Take back my move"), discord.ButtonStyle.secondary),
    "yes": (N_("Accept"), discord.ButtonStyle.success),
    "no": (N_("Refuse"), discord.ButtonStyle.danger),
    "drop": (N_("Withdraw my request"), discord.ButtonStyle.secondary),
    "expel": (N_("Vote to expel"), discord.ButtonStyle.danger),
    "games": (N_("Page"), discord.ButtonStyle.secondary),
}
VOTE_ID = (r"carcv:(?P<action>" + "|".join(LABELS)
           + r"):(?P<game>\d{1,18}):(?P<ref>\d{1,20})")
_VOTE = re.compile(VOTE_ID)
HANDLERS: dict[str, Handler] = {}


def is_vote_id(custom_id: str) -> bool:
    """True when `VoteButton` handles a click with this id (the client's catch-all for
    unknown ids must leave these alone)."""
    return _VOTE.fullmatch(custom_id) is not None


def vote_id(action: str, game_id: int, ref: int | str) -> str:
    return f"carcv:{action}:{game_id}:{ref}"


def ask_button(game_id: int) -> VoteButton:
    """"Take back my move", for the mover's private answer after a move: only its player
    may use it (the service checks), while the next player has not acted."""
    return VoteButton("ask", game_id, 0)


def handles(*actions: str) -> Callable[[Handler], Handler]:
    """Register what a click on these actions does: `handler(interaction, action, game, ref)`."""
    def register(handler: Handler) -> Handler:
        for action in actions:
            HANDLERS[action] = handler
        return handler
    return register


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VOTE_ID):
    """Accept, Refuse, Withdraw, Vote to expel, Take back my move, a dashboard page."""

    def __init__(self, action: str, game_id: int, ref: int | str,
                 label: str | None = None) -> None:
        default, style = LABELS[action]
        super().__init__(discord.ui.Button(label=plain(label or _(default), 80), style=style,
                                           custom_id=vote_id(action, game_id, ref)))
        self.action, self.game_id, self.ref = action, game_id, int(ref)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> VoteButton:
        return cls(match["action"], int(match["game"]), match["ref"])

    async def callback(self, interaction: Interaction) -> None:
        await HANDLERS[self.action](interaction, self.action, self.game_id, self.ref)
