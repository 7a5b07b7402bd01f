"""A verb's button and menu twins: its module registers the handler its slash command
runs under a component's action, so a click and a command share one definition.

    @button("confirm", N_("Confirm"), discord.ButtonStyle.success, in_place=True)
    async def confirm(act: Act) -> Reply: ...

registers what a click on `carc:confirm:GAME:VERSION` does; `components.rows` decides
where the button shows. A click runs the handler through the same reply cycle as the
command (`run`), with `act.click` naming the component's game and number.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from carca_bot.bot.components.ids import BUTTONS, MENUS, OWNED, VOTES, Handler, Kind
from carca_bot.bot.core.act import Click
from carca_bot.bot.core.run import Work, run
from carca_bot.bot.seam import Interaction


def on_private_message(interaction: Interaction) -> bool:
    """Whether the clicked component is on a private (ephemeral) message: only those are
    stepped in place; a click on a public one (the card, a post) opens a private answer."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _clicked(name: str, work: Work, public: bool, in_place: bool) -> Handler:
    async def clicked(interaction: Interaction, click: Click) -> None:
        await run(interaction, name, work, public=public, click=click,
                  edit=in_place and on_private_message(interaction))
    return clicked


def button(action: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           *, public: bool = False, in_place: bool = False) -> Callable[[Work], Work]:
    """Register `work` as what the game button `action` does. `label` is a message id
    (`N_`); `public`: its answer is a public post; `in_place`: on a private message, the
    answer replaces that message (a turn's steps, the history browser)."""
    def register(work: Work) -> Work:
        BUTTONS[action] = Kind(label, style, _clicked(f"button:{action}", work, public,
                                                      in_place))
        return work
    return register


def menu(action: str, placeholder: str, *, in_place: bool = False) -> Callable[[Work], Work]:
    """Register `work` as what a choice in the game menu `action` does (`act.click.value`
    is the choice)."""
    def register(work: Work) -> Work:
        MENUS[action] = Kind(placeholder, discord.ButtonStyle.secondary,
                             _clicked(f"select:{action}", work, False, in_place))
        return work
    return register


def vote(action: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
         ) -> Callable[[Handler], Handler]:
    """Register `handler` as what the vote (or dashboard) button `action` does; it runs
    the reply cycle itself (a vote edits its own message only)."""
    def register(handler: Handler) -> Handler:
        VOTES[action] = Kind(label, style, handler)
        return handler
    return register


def owned(action: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
          ) -> Callable[[Work], Work]:
    """Register `work` as what the button `action` only one user may press does
    (`components.ids.UserItem`); it runs on the private message it is on, replacing it.
    `work` checks the clicker is the button's user (`act.click.game_id`)."""
    def register(work: Work) -> Work:
        OWNED[action] = Kind(label, style, _clicked(f"owned:{action}", work, False, True))
        return work
    return register
