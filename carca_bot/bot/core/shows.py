"""The replies a move makes: after a confirmed move, the public view on the game's card
(and at the end the final post); after a step of one's own turn, a private preview.

What is shown comes from the service in one call (`public_view`, `own_view`): the
board to draw, the next player's public tile and choices, the move just made as typed
moves. The bot never copies the game, never asks as if it were the next player and
never reads the record's dictionaries.
"""

from __future__ import annotations

import io
import logging

import discord

from carca_bot.bot.components.rows import final_row
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.pictures import board_alt
from carca_bot.bot.core.reply import Reply, in_language, public
from carca_bot.bot.core.send import final_post
from carca_bot.bot.posts import endgame
from carca_bot.bot.posts.channel import posted, refresh_card
from carca_bot.bot.seam import Bot, Interaction
from carca_bot.bot.words import text
from carca_bot.i18n import Domain
from carca_bot.service import Played, Shown, TurnView

log = logging.getLogger("carca_bot.commands")
_T = Domain("bot")
_ = _T.gettext


async def public_move(bot: Bot, view: TurnView, actor: str | None) -> Reply:
    """After a confirmed move: the board, what happened, who is next. `actor`: the
    mover's name (their move is described), None for a change that was nobody's move."""
    shown = await bot.service.public_view(view.game_id)
    last = view.done_by(actor)
    tile = shown.tile if view.must == "place" and view.deciding is not None else None
    choices = shown.choices if view.must == "wagon" else None
    finished = view.status == "finished" and shown.board is not None
    rated = await endgame.rating_of(bot.service, view.game_id) if finished else None
    with public(view):
        if finished:
            reply = in_language(final_reply(view, shown, last))
            reply.notes.extend(endgame.rating_lines(rated))  # the last post's rating line
        else:
            reply = in_language(Reply(text.public_update(view, actor, last, tile),
                                      public=True, view=view, choices=choices,
                                      pings=text.pinged(view), board=shown.board,
                                      board_alt=described(view, shown)))
        reply.card, reply.last, reply.tile = True, text.move_lines(view, actor, last), tile
    reply.newest = shown.last
    reply.said = reply.content
    # The mover's own move (automatic turns of expelled players may follow it).
    reply.undoable = actor is not None and view.status == "active"
    return reply


def final_reply(view: TurnView, shown: Shown, last: Played | None) -> Reply:
    """The last post: winner and ranking first, the whole scoring in a text file."""
    names = [s.name for s in view.seats]
    gardens = "abbot" in view.options.expansions
    said = text.describe(last) if last is not None else ""
    content = text.final_post(view, said, list(shown.events), names, gardens)
    full = text.full_scoring(view, shown.events, names, gardens).encode()
    file = discord.File(io.BytesIO(full), filename=f"game-{view.game_id}-scores.txt",
                        description=_("Every scoring of the game"))
    return Reply(content, public=True, board=shown.board, view=view, file=file,
                 final=shown.board, components=final_row(view.game_id),
                 board_alt=described(view, shown), newest=shown.last)


def described(view: TurnView, shown: Shown) -> str:
    """The description of `shown`'s board as `view` shows it (in the language spoken)."""
    return board_alt(view, shown.last, shown.board) if shown.board is not None else ""


async def private_step(act: Act, view: TurnView) -> Reply:
    """After a step of one's own turn: a private preview with rotate/confirm/undo."""
    own = await act.service.own_view(view.where, act.user)
    if view.must == "place" and view.tile:
        return your_tile(view, own)
    choices = own.choices if view.must == "finish" else None
    return Reply(text.private_update(view), board=own.board, view=view, choices=choices,
                 board_alt=described(view, own), newest=own.last)


def your_tile(view: TurnView, own: Shown) -> Reply:
    """The tile the player drew and where it fits, privately."""
    if view.tile is None or own.board is None:
        return Reply(text.private_update(view), view=view)
    content = _("Your tile is **{tile}**. The marked squares are where it fits; place it "
                "with `/carc place` (square and rotation).").format(tile=view.tile)
    timer = text.timer_words(view)
    return Reply(content + (f" {timer}" if timer else ""), your_tile=(own.board, view.tile),
                 view=view, newest=own.last)


async def tile_reply(act: Act, view: TurnView) -> Reply:
    """`your_tile` for a view just returned by the service (a draw, the start of a turn)."""
    return your_tile(view, await act.service.own_view(view.where, act.user))


async def after(act: Act, view: TurnView) -> Reply:
    """Public post when the command ended a move, else the actor's private preview."""
    if view.must == "finish" or (view.must == "place" and view.tile is not None):
        return await private_step(act, view)
    return await public_move(act.bot, view, act.user.name)


async def show_change(bot: Bot, interaction: Interaction, view: TurnView, last: str) -> None:
    """A change of a started game made by no move (a take-back accepted, a vote to
    expel): on its card at once, the player to act pinged (a game it ended: its result,
    and the end-of-game post), and marked posted once the channel has it; if Discord
    refuses, the change stays owed and the timer loop shows it later."""
    if view.status != "finished":
        if await refresh_card(bot, view, last):
            await posted(bot, view)
        return
    reply = await public_move(bot, view, None)
    reply.last = "\n".join(line for line in (last, reply.last) if line)
    try:
        await bot.cards.show(view, reply.last, board=reply.board, newest=reply.newest)
        if reply.final is not None:
            await final_post(bot, interaction.filesize_limit, reply)
    except discord.HTTPException as exc:
        log.warning("game %s: its end not posted (HTTP %s)", view.game_id, exc.status)
        return
    await posted(bot, view)
    await bot.pings.turn(view)  # nobody's turn: the last ping goes
