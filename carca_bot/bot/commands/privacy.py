"""`/carc-privacy`: a player's own data (issue 32; docs/PRIVACY.md says what is stored).

- `show`: everything the bot stores about the caller (`GameService.privacy_export`), as a
  JSON file only they see; zipped when it is past Discord's upload limit.
- `erase`: what erasing does (`erase_plan`: the games they leave or resign from, the
  events they withdraw from, the rows changed), privately, under *Erase my data* and
  *Cancel*, buttons only the caller may press (`components.ids.UserItem`, carrying the
  plan's token). Confirmed, the service erases them (`erase_user`) with the pseudonym
  of `carca_bot.words.privacy`; a plan that changed meanwhile is shown again to
  confirm. Then the bot deletes the messages the service names (turn pings, best
  effort), forgets what it holds about the user in memory, and says their pseudonym.

Both answer privately, pinging nobody, in DMs as in servers.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import zipfile
from typing import Any

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.components.ids import UserItem
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.pictures import MARGIN
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.core.verbs import owned
from carca_bot.bot.seam import Bot, Interaction
from carca_bot.bot.words import privacy as said
from carca_bot.bot.words.refused import Refused
from carca_bot.i18n import N_, Domain, current
from carca_bot.service import Erased, ErasePlan, NotNow
from carca_bot.words.privacy import former_player

log = logging.getLogger("carca_bot.commands")
_T = Domain("bot")
_ = _T.gettext

privacy = top_level(app_commands.Group(name="carc-privacy",
                                       description="Your data: see it, or erase it"))


# -- show -----------------------------------------------------------------------------


@privacy.command(name="show", description="Everything the bot stores about you, as a file "
                                          "only you see")
async def show_command(interaction: Interaction) -> None:
    await run(interaction, "privacy-show", show)


def packed(data: dict[str, Any], user_id: str, room: int) -> tuple[str, bytes] | None:
    """The export as a JSON file, or zipped when that is past `room` bytes; None when
    even the zip is (CPU work: for a worker thread)."""
    name = f"carca-privacy-{user_id}"
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    if len(body) <= room:
        return f"{name}.json", body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(zipfile.ZipInfo(f"{name}.json", (2026, 1, 1, 0, 0, 0)), body,
                         compress_type=zipfile.ZIP_DEFLATED)
    zipped = out.getvalue()
    return (f"{name}.zip", zipped) if len(zipped) <= room else None


async def show(act: Act) -> Reply:
    """The caller's data as a private file."""
    data = await act.service.privacy_export(act.user.id)
    room = act.interaction.filesize_limit - MARGIN
    made = await act.bot.pictures.in_threads(lambda: packed(data, act.user.id, room))
    if made is None:
        raise Refused(_("what is stored about you is too large for a Discord attachment, "
                        "even compressed: ask the bot's operator for it (see the privacy "
                        "notice)"))
    name, body = made
    rows = sum(len(found) for found in data["tables"].values())
    words = _("Everything the bot stores about you ({rows} rows), as JSON. Only you see "
              "this. `/carc-privacy erase` erases it.").format(rows=rows)
    if name.endswith(".zip"):
        words += " " + _("(Zipped: it is too large for Discord as it is.)")
    return Reply(words, file=discord.File(io.BytesIO(body), filename=name, description=_(
        "Your data as the bot stores it: every row that names you, by table (JSON)")))


# -- erase ----------------------------------------------------------------------------


@privacy.command(name="erase", description="Erase your data (you are asked to confirm "
                                           "first)")
async def erase_command(interaction: Interaction) -> None:
    await run(interaction, "privacy-erase", erase)


async def erase(act: Act) -> Reply:
    """What erasing does, to confirm."""
    return plan_reply(act.user.id, await act.service.erase_plan(act.user.id))


def plan_reply(user_id: str, plan: ErasePlan, changed: bool = False) -> Reply:
    """The plan under its buttons (none when nothing is stored)."""
    if not plan.rows and not plan.games and not plan.events:
        return Reply(said.nothing_text(), components=discord.ui.View(timeout=None))
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(UserItem.button("erase", user_id, plan.token))
    buttons.add_item(UserItem.button("keep", user_id, plan.token))
    words = said.changed_text(plan) if changed else said.plan_text(plan)
    return Reply(words, components=buttons)


def yours(act: Act) -> str:
    """The user whose button this is: only they may press it."""
    click = act.click
    assert click is not None
    if str(click.game_id) != act.user.id:
        raise Refused(_("this button belongs to another player's `/carc-privacy erase`: "
                        "use the command yourself to erase your own data"))
    return act.user.id


@owned("erase", N_("Erase my data"), discord.ButtonStyle.danger)
async def confirm(act: Act) -> Reply:
    """Erase, if the plan is still the one shown; else show the new one."""
    user_id = yours(act)
    assert act.click is not None
    try:
        done = await act.service.erase_user(user_id, act.click.value, former_player)
    except NotNow as exc:
        if exc.code != "erase_plan_changed":
            raise
        return plan_reply(user_id, await act.service.erase_plan(user_id), changed=True)
    await cleaned(act.bot, user_id, done)
    return Reply(said.erased_text(former_player(done.number, current()), done.deleted,
                                  done.rewritten), components=discord.ui.View(timeout=None))


@owned("keep", N_("Cancel"))
async def cancel(act: Act) -> Reply:
    yours(act)
    return Reply(_("Nothing was erased."), components=discord.ui.View(timeout=None))


async def cleaned(bot: Bot, user_id: str, done: Erased) -> None:
    """After an erasure: the messages it names deleted (best effort: one already gone,
    or in a channel the bot left, is skipped), and what this process holds in memory
    about the user dropped."""
    for ref in done.messages:
        if not (ref.channel_id.isdigit() and ref.message_id.isdigit()):
            continue
        message = bot.get_partial_messageable(int(ref.channel_id)).get_partial_message(
            int(ref.message_id))
        with contextlib.suppress(discord.HTTPException):
            await message.delete()
    bot.forget_user(user_id)
    log.info("user=%s erased: now %s, %d rows deleted, %d rewritten, %d messages",
             user_id, done.pseudonym_id, done.deleted, done.rewritten, len(done.messages))
