"""The words of `/carc-privacy`: what erasing a player's data does, said before they
confirm (the service's `ErasePlan`), and what it did (`Erased`). Every name and title in
them is the users' text, escaped."""

from __future__ import annotations

from carca_bot.bot.words import text
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain
from carca_bot.service import ErasePlan, GameStep

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

TITLE_CHARS = 80  # an event's title in the plan


def channel(place: str) -> str:
    """A channel as Discord links it (`<#id>`); any other place as plain text."""
    return f"<#{place}>" if place.isascii() and place.isdigit() else safe_name(place, 40)


def game_step(step: GameStep) -> str:
    """What erasing does to one game, as a line of the plan."""
    where = channel(step.where.channel)
    if step.action == "leave":
        return _("you leave the lobby of game #{game} in {channel}").format(
            game=step.game_id, channel=where)
    if step.action == "resign":
        return _("you resign from game #{game} in {channel} (the others play on)").format(
            game=step.game_id, channel=where)
    if step.action == "delete":
        return _("game #{game} in {channel}, a record you imported to study, is "
                 "deleted").format(game=step.game_id, channel=where)
    return _("the lobby of game #{game} in {channel}, which you opened, is closed").format(
        game=step.game_id, channel=where)


def plan_text(plan: ErasePlan) -> str:
    """The plan, to confirm: games and events first, then what happens to the rows."""
    lines = [_("**Erase your data?** This is what it does:")]
    lines += [f"• {game_step(step)}" for step in plan.games]
    lines += ["• " + _("you withdraw from the event **{title}**").format(
        title=safe_name(event.title, TITLE_CHARS)) for event in plan.events]
    lines.append("• " + ngettext(
        "{n} stored row that names you is deleted or rewritten.",
        "{n} stored rows that name you are deleted or rewritten.", plan.rows).format(
        n=plan.rows))
    lines.append(_("Your id and your name are replaced everywhere by a pseudonym (such as "
                   "\"Former player 7\"): finished games still replay, and nobody else's "
                   "ratings or standings change. Your settings, vacations and notification "
                   "choices are deleted, and so are the bot's turn pings to you. This "
                   "cannot be undone."))
    return text.clip("\n".join(lines))


def nothing_text() -> str:
    return _("Nothing is stored about you: there is nothing to erase.")


def changed_text(plan: ErasePlan) -> str:
    """The plan changed between showing it and the confirmation: the new one, to confirm
    again."""
    return text.clip(_("What erasing your data does changed while you were deciding (you "
                       "joined or left a game or an event), so nothing was erased. Here "
                       "it is again:") + "\n\n" + plan_text(plan))


def erased_text(pseudonym: str, deleted: int, rewritten: int) -> str:
    """Done: the pseudonym their games now name them by, and the rows changed."""
    done = _("Done: your data is erased. In the games you played you are now "
             "**{pseudonym}**.").format(pseudonym=safe_name(pseudonym))
    rows = _("Rows deleted: {deleted}; rows rewritten: {rewritten}.").format(
        deleted=deleted, rewritten=rewritten)
    again = _("If you use the bot again, it stores new data about you as for anyone new.")
    return f"{done} {rows}\n{again}"
