"""Listing this server's events, signing up and withdrawing (creating one: `creating.py`)."""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, actor, events, info_of
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import text
from carca_bot.bot.words.events import event_line
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain

_T = Domain("bot")
_ = _T.gettext


@events.command(name="list", description="The events on this server")
async def list_command(interaction: Interaction) -> None:
    await run(interaction, "event-list", listed)


async def listed(act: Act) -> Reply:
    found = await act.service.events(act.here.guild)
    if not found:
        return Reply(_("No event is taking sign-ups or running on this server."))
    return Reply(text.clip("\n".join(event_line(i) for i in found)))


@events.command(name="signup", description="Sign up for an event")
@app_commands.describe(event="The event's number")
async def signup_command(interaction: Interaction, event: EventNumber) -> None:
    await run(interaction, "event-signup", lambda act: sign_up(act, event), public=True)


async def sign_up(act: Act, event: int) -> Reply:
    await info_of(act, event)
    info = await act.service.sign_up(event, act.user)
    late = info.event.entrant(act.user.id).joined > 1
    words = (_("{name} signed up for {event} (a late entry: from the next round).")
             if late else _("{name} signed up for {event}."))
    return Reply(words.format(name=safe_name(act.user.name), event=event_line(info)),
                 public=True)


@events.command(name="withdraw", description="Withdraw from an event (organisers: withdraw "
                                             "a player)")
@app_commands.describe(event="The event's number",
                       player="Who (organisers only; by default yourself)")
async def withdraw_command(interaction: Interaction, event: EventNumber,
                           player: discord.User | discord.Member | None = None) -> None:
    target = str(player.id) if player is not None else None
    await run(interaction, "event-withdraw", lambda act: withdraw(act, event, target),
              public=True)


async def withdraw(act: Act, event: int, target: str | None) -> Reply:
    await info_of(act, event)
    info = await act.service.withdraw(event, actor(act), target)
    gone = info.event.entrant(target or act.user.id).name
    return Reply(_("{name} withdrew from {event}.").format(
        name=safe_name(gone), event=event_line(info)), public=True)
