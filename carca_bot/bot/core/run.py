"""The reply cycle every command, button and menu goes through: service calls in, messages
out. No rule is decided here.

Each interaction is deferred first (Discord wants an answer within 3 seconds), then the
verb's handler acts through the service, pictures are drawn off the event loop, and a
follow-up carries the result (`core.send`). Refusals and previews are private; a change
of a started game goes on its card; lobby posts are public.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import discord

from carca_bot.bot.core.act import Act, Click, read_prefs
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.send import send
from carca_bot.bot.seam import Bot, Interaction, bot_of
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import private_language
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import NO_PINGS, sentence
from carca_bot.i18n import Domain, speaking
from carca_bot.service import GameMovedOn, ServiceError
from carca_bot.words import say

log = logging.getLogger("carca_bot.commands")
_T = Domain("bot")
_ = _T.gettext

Work = Callable[[Act], Awaitable[Reply]]


async def run(interaction: Interaction, name: str, work: Work, *, public: bool = False,
              click: Click | None = None, edit: bool = False) -> None:
    """Defer, do the work, answer; log one line with the outcome and latency.

    `public`: the answer is a public post (a lobby's); a change of a started game goes
    on its card and its actor is answered privately, so its verb is not public.
    `edit`: the answer replaces the private message the clicked component is on."""
    bot, started = bot_of(interaction), time.perf_counter()
    if await _turned_away(bot, interaction, name):
        return
    outcome, game_id, failed = "ok", None, None
    bot.actions.enter()
    language = private_language(interaction, None)  # until the preferences are read
    public = public and not edit
    try:
        if edit:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not public, thinking=True)
        prefs = await read_prefs(bot, interaction)
        language = private_language(interaction, prefs)
        with speaking(language):
            reply = await work(Act(bot, interaction, click, prefs))
            reply.edit = reply.edit or edit
            game_id = reply.view.game_id if reply.view else None
            await send(bot, interaction, reply, public=public)
    except Exception as exc:  # every failure gets a private answer
        failed = exc
        outcome = await _refused(interaction, exc, public, language, name)
    finally:
        bot.actions.leave()
        took = time.perf_counter() - started
        log.info("command=%s user=%s guild=%s channel=%s game=%s outcome=%s ms=%.1f",
                 name, interaction.user.id, interaction.guild_id, interaction.channel_id,
                 game_id, outcome, took * 1000)
        bot.latencies.append(took)
        bot.observe_command(name, took, failed)  # the metrics: count and latency


async def _turned_away(bot: Bot, interaction: Interaction, name: str) -> bool:
    """Answered at once without acting: the bot is shutting down, or the user sent too
    many commands at once."""
    closing = not bot.actions.accepting
    if not closing and bot.actions.limit.allow(interaction.user.id):
        return False
    if not closing:
        log.info("command=%s user=%s outcome=rate_limited", name, interaction.user.id)
    with speaking(private_language(interaction, None)):
        said = (_("carca-bot is restarting: try again in a minute. Your game is safe.")
                if closing else _("Easy there! That was a lot of commands at once: wait "
                                  "a few seconds and try again."))
        await interaction.response.send_message(said, ephemeral=True,
                                                allowed_mentions=NO_PINGS)
    return True


async def _refused(interaction: Interaction, exc: Exception, public: bool, language: str,
                   name: str) -> str:
    """The private answer to a command that did not go through; its outcome for the log."""
    with speaking(language):
        if isinstance(exc, GameMovedOn):
            await refuse(interaction, public, _(
                "The game moved on while your command was on its way, so it was not "
                "carried out. The game now:\n\n{status}").format(
                status=text.status_text(exc.view)))
            return "moved_on"
        if isinstance(exc, Refused):  # worded when raised, in the language of this reply
            await refuse(interaction, public, sentence(exc.text))
            return "Refused"
        if isinstance(exc, ServiceError):
            await refuse(interaction, public, sentence(say(exc)))
            return type(exc).__name__
        log.error("command=%s failed", name, exc_info=exc)
        with contextlib.suppress(discord.HTTPException):
            await interaction.followup.send(
                _("Something went wrong on our side. Check the game with `/carc status` "
                  "before trying again."), ephemeral=True, allowed_mentions=NO_PINGS)
        return "error"


async def refuse(interaction: Interaction, public: bool, message: str) -> None:
    """A private refusal; a public "thinking" placeholder is removed first."""
    if public:
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(text.clip(message), ephemeral=True,
                                    allowed_mentions=NO_PINGS)
