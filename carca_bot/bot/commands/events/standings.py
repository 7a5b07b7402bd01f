"""An event's standings on demand: pictures and the CSV file (`posts.standings`)."""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, events, info_of
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.posts.standings import standings_reply
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.events import event_line


@events.command(name="standings", description="An event's standings, with a CSV file")
@app_commands.describe(event="The event's number")
async def standings_command(interaction: Interaction, event: EventNumber) -> None:
    await run(interaction, "event-standings", lambda act: standings(act, event), public=True)


async def standings(act: Act, event: int) -> Reply:
    info = await info_of(act, event)
    return await standings_reply(act.bot.pictures, info, await act.service.standings_csv(event),
                                 event_line(info), act.interaction.filesize_limit)
