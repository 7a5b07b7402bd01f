"""`/carc-away`: a vacation from every clock game at once (start, end, or show).

A vacation pauses the player's clock in all their clock games; each game's rules bound
the days per month (the service refuses with the reason). Replies are private: the
game's card says who is away.
"""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.i18n import Domain

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

MAX_DAYS = 31  # the service's bound for one vacation
WHAT: list[app_commands.Choice[str]] = [
    app_commands.Choice(name="Show my vacations (default)", value="show"),
    app_commands.Choice(name="Start a vacation now", value="start"),
    app_commands.Choice(name="End my vacation now", value="end"),
]


def _when(at: float) -> str:
    return f"<t:{int(at)}:R>"


def vacations_text(vacations: list[tuple[float, float]], now: float) -> str:
    if not vacations:
        return _("You are not on vacation and have none planned. `/carc-away` with "
                 "action Start pauses your clock in every clock game you play.")
    lines = []
    for start, end in vacations:
        if start <= now:
            lines.append(_("On vacation now, until {end}: your clocks are paused.").format(
                end=_when(end)))
        else:
            lines.append(_("Planned: from {start} until {end}.").format(
                start=_when(start), end=_when(end)))
    return "\n".join(lines)


@top_level
@app_commands.command(name="carc-away", description="Vacation: pause your clock in every "
                                                    "clock game (only you see the reply)")
@app_commands.describe(action="Start a vacation, end it, or show yours",
                       days="How many days, for Start (1-31; each game's rules bound the "
                            "days per month)")
@app_commands.choices(action=WHAT)
async def away_command(interaction: Interaction, action: str = "show",
                       days: app_commands.Range[int, 1, MAX_DAYS] = 1) -> None:
    await run(interaction, "away", lambda act: away(act, action, days))


async def away(act: Act, action: str, days: int) -> Reply:
    service, user_id = act.service, act.user.id
    if action == "start":
        taken = await service.take_vacation(user_id, days)
        paused = len(taken.games)
        return Reply(ngettext(
            "Vacation started: your clock is paused in {n} game until {end}.",
            "Vacation started: your clock is paused in {n} games until {end}.",
            paused).format(n=paused, end=_when(taken.end)))
    if action == "end":
        ended = await service.end_vacation(user_id)
        return Reply(ngettext("Welcome back: your clock runs again in {n} game.",
                              "Welcome back: your clock runs again in {n} games.",
                              len(ended.games)).format(n=len(ended.games)))
    return Reply(vacations_text(await service.vacations_of(user_id), service.clock()))
