"""Who organises events on this server: a role chosen by a member with Manage Server."""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.events.group import actor, events
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.i18n import Domain

_T = Domain("bot")
_ = _T.gettext


@events.command(name="organiser", description="Choose the role that runs events (Manage "
                                              "Server)")
@app_commands.describe(role="The organiser role (none: only admins)")
async def organiser_command(interaction: Interaction, role: discord.Role | None = None) -> None:
    await run(interaction, "event-organiser",
              lambda act: organiser(act, None if role is None else str(role.id)))


async def organiser(act: Act, role: str | None) -> Reply:
    await act.service.set_organiser_role(act.here.guild, actor(act), role)
    if role is None:
        return Reply(_("Only members with the Manage Server permission organise events now."))
    return Reply(_("Members of {role} now organise events.").format(role=f"<@&{role}>"))
