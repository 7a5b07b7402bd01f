"""Votes in a game's channel: taking back a confirmed move, and expelling a player whose
time ran out. Also the pages of the `/carc games` dashboard, whose buttons share the id
scheme.

Each vote is one public message, edited in place as votes come in and closed (its
buttons removed) once decided. Its buttons are persistent (`carcv:ACTION:GAME:REF`,
REF the move's log index for a take-back, the target's user id for an expulsion), so
a click after a restart still finds its vote; what a click may do is decided by the
service, under the game's lock (a double click or a stale button cannot count twice).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from carca_bot.bot import text, vocab
from carca_bot.bot.actions import Reply, in_language, public, where, who
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import NO_PINGS, pinging, plain, safe_name
from carca_bot.bot.vote_ids import VoteButton, ask_button, handles, is_vote_id
from carca_bot.i18n import Domain
from carca_bot.service import (
    NotNow,
    TakebackView,
    TimerReport,
    TurnView,
    VoteMessage,
    Where,
)

log = logging.getLogger("carca_bot.votes")
_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Interaction = discord.Interaction[Any]
MAX_UNDONE_LINES = 8  # the move and the automatic actions after it; more is a summary


@handles("ask")
async def _ask_clicked(interaction: Interaction, action: str, game_id: int, ref: int) -> None:
    bot: Any = interaction.client
    await bot.actions.run(interaction, "takeback", lambda: ask(bot, interaction, game_id),
                          public=False)


@handles("yes", "no", "drop")
async def _answer_clicked(interaction: Interaction, action: str, game_id: int,
                          ref: int) -> None:
    bot: Any = interaction.client
    await bot.actions.run(interaction, "takeback_vote",
                          lambda: answer(bot, interaction, action, game_id, ref),
                          public=False, update=True)


@handles("expel")
async def _expel_clicked(interaction: Interaction, action: str, game_id: int,
                         ref: int) -> None:
    bot: Any = interaction.client
    await bot.actions.run(interaction, "expel_vote",
                          lambda: expel(bot, interaction, game_id, str(ref)),
                          public=False, update=True)


# -- taking back a move ---------------------------------------------------------------


async def ask(bot: Any, interaction: Interaction, game_id: int | None) -> Reply:
    """Open the vote: a new public message in the game's channel, pinging the players who
    must answer, remembered so it can be closed once the game moves on. The asker is
    told privately."""
    place = (where(interaction) if game_id is None
             else await bot.actions.place_of(interaction, game_id))
    user = who(interaction)
    asked: TakebackView = await bot.service.propose_takeback(place, user)
    view = asked.view or await bot.service.status(place, None, asked.game_id)
    pings = [u for u, _ in asked.voters if u.isdigit()]
    with public(view):
        content, row = takeback_text(asked, view), takeback_row(asked)
    try:
        message = await _post(bot, view, content, row, pings)
    except discord.HTTPException:
        if not asked.decided:  # nobody could answer it: it never was
            await bot.service.withdraw_takeback(place, user, asked.seq)
        raise Refused(_("I could not post the vote in the channel just now, so nothing was "
                        "asked: try again in a moment")) from None
    if not asked.decided:
        await bot.service.note_vote_message(asked.game_id, "takeback", str(asked.seq),
                                            view.where.channel, str(message.id))
        return Reply(_("Asked: the other players vote on it in the channel."))
    await _show_takeback(bot, interaction, asked, view)
    return Reply(_("Done: nobody else had to agree."))


async def _show_takeback(bot: Any, interaction: Interaction, asked: TakebackView,
                         view: TurnView) -> None:
    """An accepted take-back changed the game: its card shows the board as it was
    before the move, at once; the change counts as posted once the card has it."""
    if asked.state != "accepted" or view.status == "lobby":
        return
    with public(view):
        last = taken_back(asked)
    await bot.actions.show_change(interaction, view, last)


async def _post(bot: Any, view: TurnView, content: str, row: discord.ui.View | None,
                pings: list[str]) -> discord.Message:
    channel = bot.get_partial_messageable(int(view.where.channel))
    kwargs: dict[str, Any] = {"allowed_mentions": pinging(*pings)}
    if row is not None:
        kwargs["view"] = row
    message: discord.Message = await channel.send(text.clip(content), **kwargs)
    return message


async def answer(bot: Any, interaction: Interaction, action: str, game_id: int,
                 seq: int) -> Reply:
    """Accept, refuse or withdraw; the vote's message is edited to its new state."""
    place = await bot.actions.place_of(interaction, game_id)
    user, service = who(interaction), bot.service
    decided_now = True  # False: decided meanwhile, its change shown by whoever decided it
    try:
        if action == "drop":
            voted: TakebackView = await service.withdraw_takeback(place, user, seq)
        else:
            voted = await service.answer_takeback(place, user, action == "yes", seq)
    except NotNow as exc:
        if exc.code not in ("takeback_decided", "no_takeback"):
            raise
        found = await service.takeback_of(game_id, seq)
        if found is None or not found.decided:
            raise
        voted, decided_now = found, False  # the message shows how, and loses its buttons
    view = voted.view or await service.status(place, None, game_id)
    if voted.decided:
        await service.forget_vote_message(VoteMessage(game_id, "takeback", str(seq), "", ""))
        if decided_now:
            await _show_takeback(bot, interaction, voted, view)
    with public(view):
        return in_language(Reply(takeback_text(voted, view), edit=True,
                                 components=takeback_row(voted) or discord.ui.View()))


def takeback_row(asked: TakebackView) -> discord.ui.View | None:
    if asked.decided:
        return None
    ui = discord.ui.View(timeout=None)
    for action in ("yes", "no", "drop"):
        ui.add_item(VoteButton(action, asked.game_id, asked.seq))
    return ui


def _undone_lines(asked: TakebackView) -> list[str]:
    lines = [f"• {text.describe_action(a)}" for a in asked.undone[:MAX_UNDONE_LINES]]
    more = len(asked.undone) - MAX_UNDONE_LINES
    if more > 0:
        lines.append(ngettext("• and {n} more action", "• and {n} more actions", more
                              ).format(n=more))
    for name, points in asked.points:
        lines.append(_("• {name} loses {points}.").format(
            name=f"**{safe_name(name)}**", points=vocab.points(points)))
    for name, figure, count in asked.figures:
        if count > 0:
            lines.append(_("• {name} gets back: {figures}.").format(
                name=f"**{safe_name(name)}**", figures=vocab.held(figure, count)))
        else:
            lines.append(_("• {name} gives back: {figures}.").format(
                name=f"**{safe_name(name)}**", figures=vocab.held(figure, -count)))
    return lines


def taken_back(asked: TakebackView) -> str:
    """What an accepted take-back did, in one line (the vote's message and the card)."""
    return _("↩️ {name}'s move in game #{game} was taken back: every other player "
             "accepted.").format(name=f"**{safe_name(asked.proposer)}**", game=asked.game_id)


def takeback_text(asked: TakebackView, view: TurnView) -> str:
    """The vote's message, in the language spoken: what the move was and what goes, who
    accepted, and once decided, how."""
    who_asks = f"**{safe_name(asked.proposer)}**"
    if asked.state == "accepted":
        return text.clip(f"{taken_back(asked)}\n{text.next_line(view)}")
    if asked.state == "refused":
        return _("❌ {name} refused: {proposer}'s move in game #{game} stays as it was "
                 "played.").format(name=f"**{safe_name(asked.refused_by or '?')}**",
                                   proposer=who_asks, game=asked.game_id)
    if asked.state == "withdrawn":
        return _("{name} withdrew the request to take back their move in game #{game}; "
                 "it stays as it was played.").format(name=who_asks, game=asked.game_id)
    if asked.state == "closed":
        return _("The request to take back {name}'s move in game #{game} closed: the game "
                 "moved on, so the move stays.").format(name=who_asks, game=asked.game_id)
    lines = [_("↩️ {name} asks to take back their last move in game #{game}. It would "
               "undo:").format(name=who_asks, game=asked.game_id)]
    lines.extend(_undone_lines(asked))
    answered = set(asked.accepted)
    marks = [("✅ " if name in answered else "⏳ ") + text.mention(user_id, name)
             for user_id, name in asked.voters]
    lines.append(_("Every other player must accept: {players}").format(
        players=", ".join(marks)))
    lines.append(_("One refusal, or the next player's move, closes the vote."))
    return text.clip("\n".join(lines))


def build_takeback_command(bot: Any) -> app_commands.Command[Any, ..., None]:
    """`/carc-takeback`: ask the others to let you take back the move you just confirmed."""

    @app_commands.command(name="carc-takeback", description="Ask the other players to let "
                                                            "you take back the move you just "
                                                            "confirmed")
    @app_commands.guild_only()
    async def takeback_command(interaction: Interaction) -> None:
        await bot.actions.run(interaction, "takeback", lambda: ask(bot, interaction, None),
                              public=False)

    return takeback_command


# -- the vote to expel ------------------------------------------------------------------


def expel_row(view: TurnView) -> discord.ui.View | None:
    vote = view.expel_vote
    if vote is None or vote.target_id is None or not vote.target_id.isdigit():
        return None
    ui = discord.ui.View(timeout=None)
    ui.add_item(VoteButton("expel", view.game_id, vote.target_id,
                           label=_("Vote to expel {name}").format(name=plain(vote.target,
                                                                            32))))
    return ui


def expelled(view: TurnView, target: str) -> str:
    """The outcome of a carried vote to expel, in one line (its message and the card)."""
    return _("🗳️ {name} was expelled from game #{game} by a vote of the other players. "
             "Their figures stay on the board and score nothing more.").format(
        name=f"**{safe_name(target)}**", game=view.game_id)


def expel_text(view: TurnView, target: str) -> str:
    """The expel vote's message for the game as it is now: open (who voted, how many
    are needed, when it closes), or how it ended."""
    name = f"**{safe_name(target)}**"
    vote = view.expel_vote
    if vote is None or vote.target != target:
        out = next((s for s in view.seats if s.name == target and s.expelled), None)
        if out is not None:
            said = expelled(view, target)
            nxt = text.next_line(view)
            return text.clip(f"{said}\n{nxt}" if nxt else said)
        return _("🗳️ The vote to expel {name} from game #{game} is over: they were not "
                 "expelled.").format(name=name, game=view.game_id)
    lines = [_("🗳️ {name} ran out of time in game #{game}. The other players may vote to "
               "expel them: their figures would stay on the board and score nothing more."
               ).format(name=name, game=view.game_id)]
    voted = ", ".join(f"**{safe_name(v)}**" for v in vote.voters) or _("nobody yet")
    lines.append(ngettext("Votes: {votes} of {needed} needed ({voters}).",
                          "Votes: {votes} of {needed} needed ({voters}).",
                          vote.needed).format(votes=len(vote.voters), needed=vote.needed,
                                              voters=voted))
    if vote.closes is not None:
        lines.append(_("A move of theirs closes the vote; if it is not carried by {when}, "
                       "their turn is played for them.").format(
            when=f"<t:{int(vote.closes)}:R>"))
    return "\n".join(lines)


async def expel(bot: Any, interaction: Interaction, game_id: int, target_id: str) -> Reply:
    place = await bot.actions.place_of(interaction, game_id)
    user = who(interaction)
    before: TurnView = await bot.service.status(place, user.id, game_id)
    target = next((s.name for s in before.seats if s.user_id == target_id), None)
    if target is None:
        raise Refused(_("that player is not in game #{game}").format(game=game_id))
    vote = before.expel_vote
    if vote is None or vote.target_id != target_id:
        view = before  # closed meanwhile: the message shows how, and loses its button
    else:
        view = await bot.service.vote_expel(place, user, target_id)
    over = view.expel_vote is None or view.expel_vote.target_id != target_id
    if over:
        await bot.service.forget_vote_message(VoteMessage(game_id, "expel", target_id, "",
                                                          ""))
    if view is not before:
        # The card shows the votes so far, or the player expelled and who acts now.
        out = over and any(s.user_id == target_id and s.expelled for s in view.seats)
        with public(view):
            last = expelled(view, target) if out else text.move_lines(view)
        await bot.actions.show_change(interaction, view, last)
    with public(view):
        return in_language(Reply(expel_text(view, target), edit=True,
                                 components=expel_row(view) or discord.ui.View()))


async def post_vote(bot: Any, report: TimerReport) -> None:
    """The expel vote's message, for a timer report with reason "expel_vote": posted in
    the game's channel, pinging the players who may vote (not the late one), and
    remembered so `settle_votes` can close it. Discord refusing it is left to the caller
    (the vote stays open; a vote may also be cast by anyone with the button of a later
    post)."""
    view = report.view
    vote = view.expel_vote
    if vote is None or vote.target_id is None:
        return
    voters = [s.user_id for s in view.seats
              if s.user_id and s.user_id != report.user_id and not s.resigned]
    with public(view):
        content = expel_text(view, vote.target)
        row = expel_row(view)
    mentions = " ".join(f"<@{u}>" for u in voters if u.isdigit())
    message = await _post(bot, view, f"{content}\n{mentions}" if mentions else content, row,
                          voters)
    await bot.service.note_vote_message(view.game_id, "expel", vote.target_id,
                                        view.where.channel, str(message.id))


async def settle_votes(bot: Any, game_id: int) -> int:
    """Close the game's vote messages whose vote is over (decided, or overtaken by a
    move, or out of time): their words say how, their buttons go. Returns how many were
    closed. Cheap when there are none; call it after each public change of a game."""
    closed = 0
    service = bot.service
    messages = await service.vote_messages(game_id)
    if not messages:
        return 0
    view: TurnView = await service.status(Where("", ""), None, game_id)  # by its number
    for message in messages:
        if message.kind == "takeback":
            asked = await service.takeback_of(game_id, int(message.ref))
            if asked is not None and not asked.decided:
                continue
            with public(view):
                content = (takeback_text(asked, view) if asked is not None else
                           _("This vote is over."))
        else:
            vote = view.expel_vote
            if vote is not None and vote.target_id == message.ref:
                continue
            target = next((s.name for s in view.seats if s.user_id == message.ref), "?")
            with public(view):
                content = expel_text(view, target)
        try:
            await bot.get_partial_messageable(int(message.channel_id)).get_partial_message(
                int(message.message_id)).edit(content=text.clip(content), view=None,
                                              allowed_mentions=NO_PINGS)
        except discord.NotFound:
            pass  # deleted: nothing left to close
        except discord.HTTPException as exc:
            log.warning("game %s: could not close a vote message (HTTP %s)", game_id,
                        exc.status)
            continue
        await service.forget_vote_message(message)
        closed += 1
    return closed


__all__ = ["VoteButton", "ask_button", "build_takeback_command", "is_vote_id",
           "post_vote", "settle_votes", "takeback_text"]
