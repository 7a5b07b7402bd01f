"""`/carc-away`: a vacation from every clock game at once (start, end, or show).

A vacation pauses the player's clock in their clock games, each game by its own rules:
not at all where the game's clock allows no vacation, up to its own days per vacation
and per calendar month where it allows some (`Vacation.paused` gives, per game, when its
clock runs again). The answer says so game by game: where it is paused and until when,
where it is not and why. The service refuses only a vacation no game would take whole.
Replies are private: the game's card says who is away.
"""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import text
from carca_bot.i18n import Domain
from carca_bot.service import ServiceError, TurnView, Vacation, Where

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


def game_place(game_id: int, where: Where | None, here: Where) -> str:
    """'game #12 (here)', 'game #12 in #channel', 'game #12 (another server)'."""
    if where == here:
        return _("game #{game} (here)").format(game=game_id)
    if where is not None and where.guild == here.guild:
        return _("game #{game} in {channel}").format(game=game_id,
                                                    channel=f"<#{where.channel}>")
    return _("game #{game} (another server)").format(game=game_id)


def paused_line(taken: Vacation, until: float, place: str, view: TurnView | None) -> str:
    """One game's answer: paused until when, or not paused and why."""
    rules = view.options.clock if view is not None else None
    days = rules.vacation_days if rules is not None else 0
    if until >= taken.end:
        return _("{game}: paused until {end}.").format(game=place, end=_when(until))
    if until > taken.start:
        return ngettext(
            "{game}: paused until {end} only: its clock allows {days} day of vacation a "
            "month.",
            "{game}: paused until {end} only: its clock allows {days} days of vacation a "
            "month.", days).format(game=place, end=_when(until), days=days)
    if days <= 0:
        return _("{game}: not paused: its clock allows no vacation.").format(game=place)
    return ngettext(
        "{game}: not paused: its {days} day of vacation this month is used up.",
        "{game}: not paused: its {days} days of vacation this month are used up.",
        days).format(game=place, days=days)


async def started_text(act: Act, taken: Vacation) -> str:
    """The vacation taken, game by game."""
    lines = [_("Vacation started, until {end}. In your clock games:").format(
        end=_when(taken.end))]
    for game_id, until in taken.paused:
        try:
            view: TurnView | None = await act.service.status(act.here, act.user.id, game_id)
        except ServiceError:  # gone meanwhile (deleted): said without its place
            view = None
        place = game_place(game_id, view.where if view is not None else None, act.here)
        lines.append("• " + paused_line(taken, until, place, view))
    return text.clip("\n".join(lines))


def vacations_text(vacations: list[tuple[float, float]], now: float) -> str:
    if not vacations:
        return _("You are not on vacation and have none planned. `/carc-away` with "
                 "action Start pauses your clock in your clock games, as far as each "
                 "game's rules allow.")
    lines = []
    for start, end in vacations:
        if start <= now:
            lines.append(_("On vacation now, until {end}: your clock is paused in your "
                           "clock games, as far as each game's rules allow.").format(
                end=_when(end)))
        else:
            lines.append(_("Planned: from {start} until {end}.").format(
                start=_when(start), end=_when(end)))
    return "\n".join(lines)


@top_level
@app_commands.command(name="carc-away", description="Vacation: pause your clock in your "
                                                    "clock games (only you see the reply)")
@app_commands.describe(action="Start a vacation, end it, or show yours",
                       days="How many days, for Start (1-31); each game counts them by "
                            "its own clock's rules")
@app_commands.choices(action=WHAT)
async def away_command(interaction: Interaction, action: str = "show",
                       days: app_commands.Range[int, 1, MAX_DAYS] = 1) -> None:
    await run(interaction, "away", lambda act: away(act, action, days))


async def away(act: Act, action: str, days: int) -> Reply:
    service, user_id = act.service, act.user.id
    if action == "start":
        return Reply(await started_text(act, await service.take_vacation(user_id, days)))
    if action == "end":
        ended = await service.end_vacation(user_id)
        return Reply(ngettext("Welcome back: your clock runs again in {n} game.",
                              "Welcome back: your clock runs again in {n} games.",
                              len(ended.games)).format(n=len(ended.games)))
    return Reply(vacations_text(await service.vacations_of(user_id), service.clock()))
