"""An organiser's rulings on a match: its result, a forfeit, an appeal granted."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord
from discord import app_commands

from carca_bot.bot.commands.events.group import EventNumber, MatchId, actor, events, info_of
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.events import event_line
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain
from carca_bot.service import EventInfo

_T = Domain("bot")
_ = _T.gettext


@events.command(name="result", description="Set a match's result (organisers)")
@app_commands.describe(event="The event's number", match="The match, e.g. r2-3",
                       scores="Scores in seat order, games split by ';': 85,72; 60,91",
                       note="Why (shown with the result)")
async def result_command(interaction: Interaction, event: EventNumber, match: MatchId,
                         scores: app_commands.Range[str, 1, 200],
                         note: app_commands.Range[str, 0, 200] = "") -> None:
    await run(interaction, "event-result", lambda act: result(act, event, match, scores, note),
              public=True)


async def result(act: Act, event: int, match: str, scores: str, note: str) -> Reply:
    info = await info_of(act, event)
    m = next((m for m in info.event.matches if m.id == match.strip()), None)
    if m is None:
        raise Refused(_("there is no match {match} in this event").format(
            match=safe_name(match)))
    games = read_scores(info, m.seats_for_game, scores)
    info = await act.service.override_result(event, actor(act), m.id, games, note)
    return Reply(_("{event}: the result of {match} was set by an organiser.").format(
        event=event_line(info), match=m.id), public=True)


def read_scores(info: EventInfo, seats_for_game: Callable[[int], Sequence[str]], scores: str
                ) -> list[list[tuple[str, int]]]:
    """'85,72; 60,91' -> each game's (player, score) in seat order; refused when a game's
    scores do not match its seats."""
    games = []
    for index, part in enumerate(scores.split(";")):
        numbers = [p.strip() for p in part.split(",") if p.strip()]
        seats = seats_for_game(index)
        if len(numbers) != len(seats) or not all(n.isdigit() for n in numbers):
            raise Refused(_("give {n} scores for game {game}, in seat order: {seats}").format(
                n=len(seats), game=index + 1, seats=", ".join(
                    safe_name(info.event.entrant(p).name) for p in seats)))
        games.append([(p, int(n)) for p, n in zip(seats, numbers, strict=True)])
    return games


@events.command(name="forfeit", description="Award a match against a no-show (organisers)")
@app_commands.describe(event="The event's number", match="The match, e.g. r2-3",
                       player="Who did not show")
async def forfeit_command(interaction: Interaction, event: EventNumber, match: MatchId,
                          player: discord.User | discord.Member) -> None:
    await run(interaction, "event-forfeit",
              lambda act: forfeit(act, event, match.strip(), str(player.id)), public=True)


async def forfeit(act: Act, event: int, match: str, player: str) -> Reply:
    await info_of(act, event)
    info = await act.service.forfeit_match(event, actor(act), match, [player])
    return Reply(_("{event}: {name} forfeits {match}.").format(
        event=event_line(info), name=safe_name(info.event.entrant(player).name),
        match=match), public=True)


@events.command(name="appeal", description="Grant an appeal: undo a match's last ruling "
                                           "(organisers)")
@app_commands.describe(event="The event's number", match="The match, e.g. r2-3")
async def appeal_command(interaction: Interaction, event: EventNumber, match: MatchId) -> None:
    await run(interaction, "event-appeal", lambda act: appeal(act, event, match.strip()),
              public=True)


async def appeal(act: Act, event: int, match: str) -> Reply:
    await info_of(act, event)
    info = await act.service.appeal(event, actor(act), match)
    return Reply(_("{event}: the appeal on {match} was granted.").format(
        event=event_line(info), match=match), public=True)
