"""Votes: `/carc-takeback` (and its twin, "Take back my move" on the mover's private
answer) opens a vote to take back the move just confirmed; Accept, Refuse and Withdraw
answer it; "Vote to expel" answers the vote on a player whose time ran out.

What a click may do is decided by the service, under the game's lock (a double click
or a stale button cannot count twice). A vote's buttons act only on their own vote's
message, the one the service remembers (`posts.votes`): the same custom id on any
other message (forged, e.g. onto the game's card) gets a private refusal and edits
nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act, Click
from carca_bot.bot.core.reply import Reply, in_language, public
from carca_bot.bot.core.run import run
from carca_bot.bot.core.shows import show_change
from carca_bot.bot.core.verbs import vote
from carca_bot.bot.posts.votes import (
    expel_row,
    expel_text,
    expelled,
    send_vote,
    takeback_row,
    takeback_text,
    taken_back,
)
from carca_bot.bot.seam import Bot, Interaction, bot_of
from carca_bot.bot.words import text
from carca_bot.bot.words.refused import Refused
from carca_bot.i18n import N_, Domain
from carca_bot.service import NotNow, TakebackView, TurnView, VoteMessage, Where

_T = Domain("bot")
_ = _T.gettext


async def vote_message(bot: Bot, click: Click, kind: str, ref: str) -> VoteMessage | None:
    """The message the service remembers for this vote (None once it is closed)."""
    return next((m for m in await bot.service.vote_messages(click.game_id)
                 if m.kind == kind and m.ref == ref), None)


async def on_its_message(bot: Bot, interaction: Interaction, click: Click, kind: str,
                         ref: str) -> bool:
    """Whether the click came from its vote's own message."""
    found = await vote_message(bot, click, kind, ref)
    message = interaction.message
    return found is not None and message is not None and found.message_id == str(message.id)


def not_here(view: TurnView, found: VoteMessage | None, over: str) -> Refused:
    """A vote button clicked anywhere but on its vote's message: nothing changes."""
    if found is None:
        return Refused(_("this vote is over, and this button changes nothing: {outcome}"
                         ).format(outcome=over))
    return Refused(_("this button belongs to the vote's own message in {channel}: use it "
                     "there. Nothing was changed.").format(channel=f"<#{found.channel_id}>"))


# -- taking back a move ---------------------------------------------------------------


@top_level
@app_commands.command(name="carc-takeback", description="Ask the other players to let you "
                                                        "take back the move you just "
                                                        "confirmed")
@app_commands.guild_only()
async def takeback_command(interaction: Interaction) -> None:
    await run(interaction, "takeback", ask)


@vote("ask", N_("Take back my move"))
async def ask_clicked(interaction: Interaction, click: Click) -> None:
    """"Take back my move", on the mover's private answer after a move: only its player
    may use it (the service checks), while the next player has not acted."""
    await run(interaction, "takeback", ask, click=click)


async def ask(act: Act) -> Reply:
    """Open the vote: a new public message in the game's channel, pinging the players who
    must answer, remembered so it can be closed once the game moves on. The asker is
    told privately."""
    place = await act.place()
    asked = await act.service.propose_takeback(place, act.user)
    view = asked.view or await act.service.status(place, None, asked.game_id)
    with public(view):
        content, row = takeback_text(asked, view), takeback_row(asked)
    try:
        message = await send_vote(act.bot, view, content, row,
                                  [u for u, _name in asked.voters if u.isdigit()])
    except discord.HTTPException:
        if not asked.decided:  # nobody could answer it: it never was
            await act.service.withdraw_takeback(place, act.user, asked.seq)
        raise Refused(_("I could not post the vote in the channel just now, so nothing was "
                        "asked: try again in a moment")) from None
    if not asked.decided:
        await act.service.note_vote_message(asked.game_id, "takeback", str(asked.seq),
                                            view.where.channel, str(message.id))
        return Reply(_("Asked: the other players vote on it in the channel."))
    await show_takeback(act, asked, view)
    return Reply(_("Done: nobody else had to agree."))


async def show_takeback(act: Act, asked: TakebackView, view: TurnView) -> None:
    """An accepted take-back changed the game: its card shows the board as it was
    before the move, at once; the change counts as posted once the card has it."""
    if asked.state != "accepted" or view.status == "lobby":
        return
    with public(view):
        last = taken_back(asked)
    await show_change(act.bot, act.interaction, view, last)


@vote("yes", N_("Accept"), discord.ButtonStyle.success)
@vote("no", N_("Refuse"), discord.ButtonStyle.danger)
@vote("drop", N_("Withdraw my request"))
async def answer_clicked(interaction: Interaction, click: Click) -> None:
    own = await on_its_message(bot_of(interaction), interaction, click, "takeback",
                               str(click.number))
    await run(interaction, "takeback_vote", lambda act: answer(act, own), click=click,
              edit=own)


async def answer(act: Act, own: bool) -> Reply:
    """Accept, refuse or withdraw; the vote's message is edited to its new state."""
    click = act.click
    assert click is not None
    place, seq = await act.place(), click.number
    if not own:
        raise await _elsewhere(act, place, seq)
    voted, decided_now = await _vote_on(act, place, click.action, seq)
    view = voted.view or await act.service.status(place, None, click.game_id)
    if voted.decided:
        await act.service.forget_vote_message(
            VoteMessage(click.game_id, "takeback", str(seq), "", ""))
        if decided_now:
            await show_takeback(act, voted, view)
    with public(view):
        return in_language(Reply(takeback_text(voted, view),
                                 components=takeback_row(voted) or discord.ui.View()))


async def _vote_on(act: Act, place: Where, action: str, seq: int
                   ) -> tuple[TakebackView, bool]:
    """The vote after this answer, and whether this answer decided it (False: decided
    meanwhile, its change shown by whoever decided it)."""
    try:
        if action == "drop":
            return await act.service.withdraw_takeback(place, act.user, seq), True
        return await act.service.answer_takeback(place, act.user, action == "yes", seq), True
    except NotNow as exc:
        if exc.code not in ("takeback_decided", "no_takeback"):
            raise
        assert act.click is not None
        found = await act.service.takeback_of(act.click.game_id, seq)
        if found is None or not found.decided:
            raise
        return found, False  # the message shows how, and loses its buttons


async def _elsewhere(act: Act, place: Where, seq: int) -> Refused:
    """The refusal of a take-back button clicked off its vote's message."""
    assert act.click is not None
    found = await vote_message(act.bot, act.click, "takeback", str(seq))
    asked = await act.service.takeback_of(act.click.game_id, seq)
    view = await act.service.status(place, None, act.click.game_id)
    with public(view):
        over = takeback_text(asked, view) if asked is not None else _("This vote is over.")
    return not_here(view, found, text.clip(over))


# -- the vote to expel ------------------------------------------------------------------


@vote("expel", N_("Vote to expel"), discord.ButtonStyle.danger)
async def expel_clicked(interaction: Interaction, click: Click) -> None:
    own = await on_its_message(bot_of(interaction), interaction, click, "expel",
                               str(click.number))
    await run(interaction, "expel_vote", lambda act: expel(act, own), click=click, edit=own)


async def expel(act: Act, own: bool) -> Reply:
    """A vote to expel the late player; their message shows the votes so far, or the
    outcome, and the card follows."""
    click = act.click
    assert click is not None
    place, target_id = await act.place(), str(click.number)
    before = await act.service.status(place, act.user.id, click.game_id)
    target = next((s.name for s in before.seats if s.user_id == target_id), None)
    if target is None:
        raise Refused(_("that player is not in game #{game}").format(game=click.game_id))
    if not own:
        found = await vote_message(act.bot, click, "expel", target_id)
        with public(before):
            outcome = expel_text(before, target)
        raise not_here(before, found, outcome)
    vote_now = before.expel_vote
    view = before  # closed meanwhile: the message shows how, and loses its button
    if vote_now is not None and vote_now.target_id == target_id:
        view = await act.service.vote_expel(place, act.user, target_id)
    over = view.expel_vote is None or view.expel_vote.target_id != target_id
    if over:
        await act.service.forget_vote_message(
            VoteMessage(click.game_id, "expel", target_id, "", ""))
    if view is not before:
        # The card shows the votes so far, or the player expelled and who acts now.
        out = over and any(s.user_id == target_id and s.expelled for s in view.seats)
        with public(view):
            last = expelled(view, target) if out else text.move_lines(view)
        await show_change(act.bot, act.interaction, view, last)
    with public(view):
        return in_language(Reply(expel_text(view, target),
                                 components=expel_row(view) or discord.ui.View()))
