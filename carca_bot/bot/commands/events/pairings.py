"""`/carc-event pairings`: why each match of a round was made (`words.pairings`), for
organisers and players alike; answered privately (it is a look, not news)."""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, events, info_of
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.events import event_line
from carca_bot.bot.words.pairings import pairings_text


@events.command(name="pairings", description="Why each match of a round was made")
@app_commands.rename(round_no="round")
@app_commands.describe(event="The event's number", round_no="The round (by default the latest)")
async def pairings_command(interaction: Interaction, event: EventNumber,
                           round_no: app_commands.Range[int, 1, 999] | None = None) -> None:
    await run(interaction, "event-pairings", lambda act: pairings(act, event, round_no))


async def pairings(act: Act, event: int, round_no: int | None) -> Reply:
    info = await info_of(act, event)
    view = await act.service.event_pairings(event, round_no)
    return Reply(pairings_text(view, event_line(info)))
