"""Leaving a running game: resigning (asked to confirm with Resign or Keep playing),
removing a player (the host or Manage Server), cancelling the game."""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import carc
from carca_bot.bot.components.rows import resign_row
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply, in_language, is_admin, public
from carca_bot.bot.core.run import run
from carca_bot.bot.core.shows import public_move
from carca_bot.bot.core.verbs import button
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import text
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import N_, Domain, speaking

_T = Domain("bot")
_ = _T.gettext


@carc.command(name="resign", description="Resign from this channel's game")
async def resign_command(interaction: Interaction) -> None:
    await run(interaction, "resign", ask_to_resign)


async def ask_to_resign(act: Act) -> Reply:
    """Really resign? The answer carries Resign and Keep playing."""
    view = await act.service.status(act.here, act.user.id)
    if view.status != "active":
        raise Refused(_("there is no running game to resign from in this channel"))
    if not any(s.user_id == act.user.id for s in view.seats):
        raise Refused(_("you are not playing in this game"))
    return Reply(_("Really resign from game #{game}? You cannot come back, and the "
                   "others play on without you.").format(game=view.game_id),
                 components=resign_row(view))


@button("resign", N_("Resign"), discord.ButtonStyle.danger)
async def resign(act: Act) -> Reply:
    view = await act.service.resign(await act.place(), act.user)
    reply = await public_move(act.bot, view, None)
    with speaking(reply.language):
        said = _("**{name}** resigned.").format(name=safe_name(act.user.name))
    reply.content = text.clip(f"{said}\n{reply.content}")
    return reply


@button("keep", N_("Keep playing"))
async def keep(act: Act) -> Reply:
    return Reply(_("Good: you are still in the game. Nothing was changed."))


@carc.command(name="kick", description="Remove a player (host or Manage Server)")
@app_commands.describe(player="The player to remove")
async def kick_command(interaction: Interaction, player: discord.User) -> None:
    await run(interaction, "kick", lambda act: kick(act, player), public=True)


async def kick(act: Act, player: discord.User) -> Reply:
    view = await act.service.kick(act.here, act.user, str(player.id),
                                  is_admin(act.interaction))
    with public(view):
        said = _("**{name}** was removed from game #{game}.").format(
            name=safe_name(player.display_name), game=view.game_id)
        return in_language(Reply(f"{said} {text.next_line(view)}", public=True, view=view,
                                 pings=text.pinged(view)))


@carc.command(name="cancel", description="Cancel this channel's game (host or Manage Server)")
async def cancel_command(interaction: Interaction) -> None:
    await run(interaction, "cancel", cancel, public=True)


async def cancel(act: Act) -> Reply:
    view = await act.service.cancel(act.here, act.user, is_admin(act.interaction))
    with public(view):
        return in_language(Reply(_("Game #{game} was cancelled by **{name}**.").format(
            game=view.game_id, name=safe_name(act.user.name)), public=True, view=view))
