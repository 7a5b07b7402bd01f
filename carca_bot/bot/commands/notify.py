"""`/carc-notify`: how a user is told it is their turn (a mention in the game's channel,
a direct message, or nothing), and whether also when the player before them starts."""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.i18n import N_, Domain
from carca_bot.service import NotifyPref

_T = Domain("bot")
_ = _T.gettext

MODES = {
    "channel": N_("A mention in the game's channel"),
    "dm": N_("A direct message"),
    "none": N_("Nothing"),
}
MODE_CHOICES = [
    app_commands.Choice(name="A mention in the game's channel (default)", value="channel"),
    app_commands.Choice(name="A direct message", value="dm"),
    app_commands.Choice(name="Nothing", value="none"),
]


def notify_text(pref: NotifyPref) -> str:
    """What `/carc-notify` answers: the setting now, in the user's language."""
    said = _("When it is your turn: {how}.").format(how=_(MODES[pref.mode]).lower())
    if pref.mode == "none":
        return said + " " + _("Look at the game's card to see whose turn it is.")
    if pref.early:
        return said + " " + _("You are also told when the player before you starts their "
                              "turn.")
    return said + " " + _("You are not told when the player before you starts their turn.")


@top_level
@app_commands.command(name="carc-notify",
                      description="How you are told it is your turn (only you see it)")
@app_commands.describe(mode="A mention in the channel, a direct message, or nothing",
                       early="Also tell me when the player before me starts their turn")
@app_commands.choices(mode=MODE_CHOICES)
async def notify_command(interaction: Interaction, mode: str | None = None,
                         early: bool | None = None) -> None:
    await run(interaction, "notify", lambda act: notify(act, mode, early))


async def notify(act: Act, mode: str | None, early: bool | None) -> Reply:
    """Change how the user is told (what they gave), then say the setting."""
    user_id = act.user.id
    pref = (await act.service.notify_prefs([user_id]))[user_id]
    if mode is not None or early is not None:
        pref = NotifyPref(mode or pref.mode, pref.early if early is None else early)
        await act.service.set_notify(user_id, pref.mode, pref.early)
    return Reply(notify_text(pref))
