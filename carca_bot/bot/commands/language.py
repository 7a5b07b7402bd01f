"""`/carc-language`: the language the bot speaks to you, or (Manage Server) in this server.
A command of its own, as `/carc` holds the 25 subcommands Discord allows a group."""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act, read_prefs
from carca_bot.bot.core.reply import Reply, in_language, is_admin
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.languages import Prefs, private_language
from carca_bot.bot.words.refused import Refused
from carca_bot.i18n import NAMES, Domain, speaking

_T = Domain("bot")
_ = _T.gettext

CHOICES = [app_commands.Choice(name=NAMES["en"], value="en"),
           app_commands.Choice(name=NAMES["es"], value="es"),
           app_commands.Choice(name="Default (follow Discord's language)", value="default")]


@top_level
@app_commands.command(name="carc-language", description="The language the bot speaks to you, "
                                                        "or (Manage Server) in this server")
@app_commands.guild_only()
@app_commands.describe(language="Your language, or Default to follow your Discord app",
                       server="Set the server's language instead (Manage Server)")
@app_commands.choices(language=CHOICES)
async def language_command(interaction: Interaction, language: str | None = None,
                           server: bool = False) -> None:
    await run(interaction, "language", lambda act: choose(act, language, server))


async def choose(act: Act, language: str | None, server: bool) -> Reply:
    """Set (or clear, with "default") the user's or the server's language; then say both."""
    if language is not None:
        if server and not is_admin(act.interaction):
            raise Refused(_("only members with the Manage Server permission can choose the "
                            "server's language"))
        chosen = None if language == "default" else language
        if server:
            await act.service.set_language("guild", act.here.guild, chosen)
        else:
            await act.service.set_language("user", act.user.id, chosen)
    prefs = await read_prefs(act.bot, act.interaction)
    with speaking(private_language(act.interaction, prefs)):
        return in_language(Reply(language_text(prefs)))


def language_text(prefs: Prefs) -> str:
    """What `/carc-language` answers: both settings, in the language now spoken to you."""
    if prefs.user:
        mine = _("Your language: {language} (your choice).").format(
            language=NAMES.get(prefs.user, prefs.user))
    else:
        mine = _("Your language: not chosen, so I follow your Discord app's language.")
    if prefs.guild:
        server = _("This server's language: {language}. New games here speak it unless "
                   "their creator chooses another.").format(
            language=NAMES.get(prefs.guild, prefs.guild))
    else:
        server = _("This server's language: not chosen, so new games follow the server's "
                   "Discord settings.")
    return f"{mine}\n{server}"
