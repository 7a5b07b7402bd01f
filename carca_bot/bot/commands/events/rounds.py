"""Starting an event and pairing its rounds: each pairing's game opens in a public thread
under the channel the command was used in (`posts.events.open_games`)."""

from __future__ import annotations

from collections.abc import Sequence

from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, actor, events, info_of
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.posts.events import open_games
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import text
from carca_bot.bot.words.events import event_line
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain
from carca_bot.service import EventInfo, Pairing

_T = Domain("bot")
_ = _T.gettext


@events.command(name="start", description="Close sign-ups and pair round 1 (organisers)")
@app_commands.describe(event="The event's number")
async def start_command(interaction: Interaction, event: EventNumber) -> None:
    await run(interaction, "event-start", lambda act: start(act, event), public=True)


async def start(act: Act, event: int) -> Reply:
    await info_of(act, event)
    info, pairings = await act.service.start_event(event, actor(act))
    return await paired(act, info, pairings)


@events.command(name="pair", description="Pair the next round and open its games "
                                         "(organisers)")
@app_commands.describe(event="The event's number")
async def pair_command(interaction: Interaction, event: EventNumber) -> None:
    await run(interaction, "event-pair", lambda act: pair(act, event), public=True)


async def pair(act: Act, event: int) -> Reply:
    await info_of(act, event)
    info, pairings = await act.service.pair_next_round(event, actor(act))
    return await paired(act, info, pairings)


async def paired(act: Act, info: EventInfo, pairings: list[Pairing]) -> Reply:
    """The round's games opened; what happened, the byes and the deadline, its players
    pinged."""
    head = _("{event}: round {round} is paired.").format(
        event=event_line(info), round=len(info.event.rounds))
    body = [head, *await round_lines(act, info, pairings)]
    return Reply(text.clip("\n".join(body)), public=True,
                 pings=[u.id for p in pairings for u in p.players])


async def round_lines(act: Act, info: EventInfo, pairings: Sequence[Pairing]) -> list[str]:
    """Open the round's games in threads under this channel: a line for each game, then
    the byes and the round's deadline."""
    lines = await open_games(act.bot, info, pairings, act.here.channel)
    current = info.event.current
    byes = [info.event.entrant(m.seats[0]).name for m in current.matches
            if m.bye] if current is not None else []
    body = [f"• {line}" for line in lines]
    body += [_("• {name} has a bye.").format(name=safe_name(n)) for n in byes]
    deadline = current.deadline if current is not None else None
    if deadline is not None:
        body.append(_("Deadline: {when}.").format(when=f"<t:{int(deadline)}:F>"))
    return body
