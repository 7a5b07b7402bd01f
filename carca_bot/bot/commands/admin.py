"""`/carc-admin`: what a server admin (Manage Server) does about a player's rated results.

`void player:` asks first, privately: voiding recomputes the server's ratings, so the
admin confirms with a button (**Void their results**, or **Cancel**). Then the service
voids them (`void_results`: every rated game of theirs so far counts for nobody, the
ratings worked out again in order) and the bot announces it in the channel: the
service's note, and every rating it moved. `restore player:` lifts a void
(`restore_results`) and is announced at once (undoing a void needs no second thought:
voiding again undoes it). The service decides who may (`admin` is Discord's Manage
Server permission), so a forged confirm button from anyone else changes nothing;
refusals are private, in the admin's language. Announcements speak the server's language.
"""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.components.ids import VoteItem
from carca_bot.bot.core.act import Act, Click
from carca_bot.bot.core.reply import Reply, is_admin
from carca_bot.bot.core.run import run
from carca_bot.bot.core.verbs import on_private_message, vote
from carca_bot.bot.posts.sending import send_message
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import new_game_language
from carca_bot.bot.words.safe import safe_name, sentence
from carca_bot.i18n import N_, Domain, speaking
from carca_bot.service import NotAllowed, NotNow, RatingChange, VoidReport
from carca_bot.words import say

_T = Domain("bot")
_ = _T.gettext

admin = top_level(app_commands.Group(
    name="carc-admin", description="Server admins: a player's rated results",
    guild_only=True, default_permissions=discord.Permissions(manage_guild=True)))
Person = discord.User | discord.Member


def change_line(change: RatingChange) -> str:
    """'Ben, duels: 12.3 → 4.1 (9 → 6 rated games)'."""
    pool = _("duels") if change.pool.value == "duel" else _("multiplayer")
    before = "—" if change.before is None else f"{change.before:.1f}"
    after = "—" if change.after is None else f"{change.after:.1f}"
    return _("{name}, {pool}: {before} → {after} ({games_before} → {games_after} rated "
             "games)").format(name=safe_name(change.name), pool=pool, before=before,
                              after=after, games_before=change.games_before,
                              games_after=change.games_after)


def report_text(report: VoidReport) -> str:
    """The announcement: the service's note, then each rating it moved."""
    names = [report.name, *(c.name for c in report.changes)]
    lines = [f"⚖️ {sentence(say(report.note), names)}."]
    if report.changes:
        lines.append(_("Ratings now:"))
        lines.extend(f"• {change_line(c)}" for c in report.changes)
    else:
        lines.append(_("No rating changed."))
    return text.clip("\n".join(lines))


def confirm_row(user_id: str) -> discord.ui.View:
    row = discord.ui.View(timeout=None)
    row.add_item(VoteItem.button("void", 0, user_id))
    row.add_item(VoteItem.button("keep", 0, user_id))
    return row


@admin.command(name="void", description="Void a player's rated results on this server "
                                        "(you confirm first)")
@app_commands.describe(player="Whose rated results")
async def void_command(interaction: Interaction, player: discord.User | discord.Member
                       ) -> None:
    await run(interaction, "void", lambda act: ask_void(act, player))


async def ask_void(act: Act, player: Person) -> Reply:
    """The private question, with its two buttons; refused at once when the asker may
    not void, or the player has no rated results here."""
    if not is_admin(act.interaction):
        raise NotAllowed("void_admin_only")
    card = await act.service.profile(act.here.guild, str(player.id))
    name = card.name or getattr(player, "display_name", None) or player.name
    if not card.ratings:
        raise NotNow("nothing_to_void", name=name)
    return Reply(_("Void the rated results of **{name}** on this server? Every rated game "
                   "of theirs that has ended so far will count for nobody, and the "
                   "server's ratings will be worked out again without them, in order. "
                   "This channel will be told. `/carc-admin restore` undoes it.").format(
        name=safe_name(name)), components=confirm_row(str(player.id)))


@vote("void", N_("Void their results"), discord.ButtonStyle.danger)
async def void_clicked(interaction: Interaction, click: Click) -> None:
    await run(interaction, "void", void_confirmed, click=click,
              edit=on_private_message(interaction))


@vote("keep", N_("Cancel"))
async def keep_clicked(interaction: Interaction, click: Click) -> None:
    await run(interaction, "void", kept, click=click, edit=on_private_message(interaction))


async def kept(act: Act) -> Reply:
    return Reply(_("Cancelled: nothing was voided."), components=discord.ui.View())


async def void_confirmed(act: Act) -> Reply:
    """The confirmed void: done by the service (which checks the permission again), then
    announced in the channel; the question's buttons go."""
    assert act.click is not None
    report = await act.service.void_results(act.here.guild, str(act.click.number),
                                            by=act.user.id, admin=is_admin(act.interaction))
    return await announced(act, report)


async def announced(act: Act, report: VoidReport) -> Reply:
    """The announcement posted in the channel, and the admin told privately (with the
    announcement itself if Discord refused the post: the void is done either way)."""
    with speaking(new_game_language(act.interaction, None, act.prefs)):
        said = report_text(report)
    try:
        await send_message(act.bot, act.here.channel, said)
    except discord.HTTPException:
        return Reply(text.clip(_("Done, but I could not post the announcement in this "
                                 "channel. It says:") + "\n" + said),
                     components=discord.ui.View())
    return Reply(_("Done: announced in this channel."), components=discord.ui.View())


@admin.command(name="restore", description="Restore a player's voided rated results")
@app_commands.describe(player="Whose rated results")
async def restore_command(interaction: Interaction, player: discord.User | discord.Member
                          ) -> None:
    await run(interaction, "restore", lambda act: restore(act, player))


async def restore(act: Act, player: Person) -> Reply:
    report = await act.service.restore_results(act.here.guild, str(player.id),
                                               by=act.user.id, admin=is_admin(act.interaction))
    return await announced(act, report)
